# Reads the "== run shape who <cake_bench data line>" files of this directory: per shape the
# candidate's and the plan's cake / cuBLASLt fast (each run), the median over runs of their
# quotient, and the worst cake / unfused of each.  python3 summarise.py u8-wave-scan.txt
import re, sys, collections
d=collections.defaultdict(lambda: collections.defaultdict(list))
for f in sys.argv[1:]:
    for line in open(f):
        m=re.match(r'== (\d) (\S+) (\S+)\s+(.*)', line)
        if not m: continue
        run, shape, who, rest = m.groups()
        parts=[p.split() for p in rest.split('|')]
        if len(parts)<4: continue
        ratio=float(parts[3][0]); unf=float(parts[3][1])
        who={'256u8':'u8'}.get(who, who)
        d[shape][who].append((ratio, unf))
print(f"{'shape':>16} {'u8/fast':>16} {'plan/fast':>16} {'u8 over plan':>12} {'u8/unf':>8} {'plan/unf':>8}")
for s in d:
    if 'u8' not in d[s] or 'plan' not in d[s]: continue
    u=[r for r,_ in d[s]['u8']]; p=[r for r,_ in d[s]['plan']]
    uu=[x for _,x in d[s]['u8']]; pu=[x for _,x in d[s]['plan']]
    ratios=[a/b for a,b in zip(u,p)]
    med=sorted(ratios)[len(ratios)//2] if len(ratios)%2 else sum(sorted(ratios)[len(ratios)//2-1:len(ratios)//2+1])/2
    print(f"{s:>16} {'/'.join(f'{x:.3f}' for x in u):>16} {'/'.join(f'{x:.3f}' for x in p):>16} {med:12.3f} {max(uu):8.3f} {max(pu):8.3f}")
