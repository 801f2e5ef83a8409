"""03-sets-ab.txt: per part and shape, B's time over A's (best of the rounds), and the geomean per part.
python3 ab.py 03-sets-ab.txt"""
import re, sys, collections, math
d = collections.defaultdict(list); cur = None
for line in open(sys.argv[1]):
    m = re.match(r'=== (\w) round \d (.*)', line)
    if m: cur = (m.group(1), m.group(2)); continue
    if '|' not in line or not re.match(r'^ +\d', line): continue
    a = line.split('|')[0].split(); t = line.split('|')[1].split()
    d[(cur[1], int(a[0]), int(a[1]), int(a[2]), cur[0])].append((float(t[0]), float(t[2])))
parts = []
for k in d:
    if k[0] not in parts: parts.append(k[0])
for part in parts:
    keys = sorted({k[1:4] for k in d if k[0] == part})
    rs = []
    print(f"--- {part}: M N K | A us  B us  B/A | B / cuBLASLt fast")
    for s in keys:
        A = min(x[0] for x in d[(part,) + s + ('A',)]); B = min(x[0] for x in d[(part,) + s + ('B',)])
        lt = min(x[1] for x in d[(part,) + s + ('B',)] + d[(part,) + s + ('A',)])
        rs.append(B / A)
        print(f"{s[0]:5d} {s[1]:6d} {s[2]:6d} | {A:7.2f} {B:7.2f} {B/A:6.3f} | {A/lt:6.3f} -> {B/lt:6.3f}")
    print(f"    geomean {math.exp(sum(map(math.log, rs))/len(rs)):.3f}, range {min(rs):.3f}-{max(rs):.3f}")
