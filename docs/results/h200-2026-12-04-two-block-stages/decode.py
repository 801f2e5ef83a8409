"""B / A (and C / A where a build C ran) per shape from a decode file (01-*, 02-*, 03-*):
best of the rounds per build, cuBLASLt fast the best over all builds' processes; geomean
per SM count. python3 decode.py FILE"""
import collections, math, re, sys

d = collections.defaultdict(lambda: collections.defaultdict(list))
who = sms = None
for line in open(sys.argv[1]):
    m = re.match(r"=== (\w) round (\d) sms (\d+)", line)
    if m:
        who, sms = m.group(1), int(m.group(3))
        continue
    if "|" not in line:
        continue
    a = line.split("|")
    k, t = a[0].split(), a[1].split()
    d[(sms, int(k[0]), int(k[1]), int(k[2]))][who].append((float(t[0]), float(t[2])))
def geomean(x):
    return math.exp(sum(map(math.log, x)) / len(x))


for s in sorted({k[0] for k in d}, reverse=True):
    builds = sorted({w for k in d if k[0] == s for w in d[k]})
    ratios = collections.defaultdict(list)
    print(f"--- {s} SMs: cake us per build ({' '.join(builds)}), each over A, cuBLASLt fast us, each over it")
    for key in sorted(k for k in d if k[0] == s):
        t = {w: min(x[0] for x in d[key][w]) for w in builds}
        cub = min(x[1] for w in builds for x in d[key][w])
        for w in builds[1:]:
            ratios[w].append(t[w] / t["A"])
        print(f"M={key[1]:3d} N={key[2]:6d} K={key[3]:6d}  " + " ".join(f"{t[w]:7.2f}" for w in builds) + "  " +
              " ".join(f"{t[w] / t['A']:.3f}" for w in builds[1:]) + f"  {cub:7.2f}  " +
              " ".join(f"{t[w] / cub:.3f}" for w in builds))
    for w in builds[1:]:
        r = ratios[w]
        print(f"geomean {w} / A {geomean(r):.3f}, range {min(r):.3f}-{max(r):.3f} over {len(r)} shapes")
