import re, collections, math, sys
runs=collections.defaultdict(dict); tag=None
for line in open(sys.argv[1]):
    if line.startswith('#####'): tag=line.split()[1]; continue
    m=re.match(r'\s*(\d+)\s+(\d+)\s+(\d+)\s+128 \|\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+\|.*\|\s+([\d.]+|nan)\s+(\w+)',line)
    if m: runs[tag][tuple(map(int,m.group(1,2,3)))]=(list(map(float,m.group(4,5,6,7,8))),m.group(10))
print({t:len(v) for t,v in runs.items()}, "all ok:", all(v[1]=='ok' for t in runs for v in runs[t].values()))
def gm(v): return math.exp(sum(map(math.log,v))/len(v))
reg=lambda M: "M<=64" if M<=64 else ("128-512" if M<=512 else ">=2048")
def best(prefix,col):
    tags=[t for t in runs if re.fullmatch(prefix+r'-\d',t)]
    return {k:min(runs[t][k][0][col] for t in tags) for k in runs[tags[0]]}, len(tags)
for bias in ('', '-bias'):
  for col,name in ((0,'cake'),(1,'cake s=0'),(2,'cuBLASLt fast')):
    o,no=best('OLD'+bias,col); n,nn=best('NEW'+bias,col)
    per={}
    for k in o: per.setdefault(reg(k[0]),[]).append(n[k]/o[k])
    print(f"bias={bias!r:8} {name:13} NEW/OLD (best of {no}/{nn}):", {r:f"{gm(v):.3f} [{min(v):.3f}-{max(v):.3f}]" for r,v in per.items()}, f"all {gm([n[k]/o[k] for k in o]):.3f}")
# per-run medians of cake/cuBLASLt per regime
for t in sorted(runs):
    per={}
    for k,(v,_) in runs[t].items(): per.setdefault(reg(k[0]),[]).append(v[0]/v[2])
    print(t, {r:f"{gm(x):.3f}" for r,x in per.items()})
