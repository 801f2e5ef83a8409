"""Which hand-over count picks the faster split at each shape of 04-split-scan.txt.

    python3 04-fit.py 04-split-scan.txt H=PLAN_BINARY ...

Each PLAN_BINARY is cake_plan built with kHopperDecodeSplitHandoverHalfBlocks = H
(scripts/plan-diff shows how to build one); per H it prints the geometric mean of
the chosen split's time over the faster one's and the shapes more than 1% off."""
import collections
import math
import re
import subprocess
import sys

d = collections.defaultdict(list)
cur = None
for line in open(sys.argv[1]):
    if line.startswith("==="):
        cur = re.match(r"=== round \d \[(.*)\]", line).group(1)
        continue
    p = line.split("|")
    a, t = p[0].split(), p[1].split()
    d[(int(a[0]), int(a[1]), int(a[2]), cur)].append(float(t[0]))
shapes = sorted(set(k[:3] for k in d))
t = {s: {1: min(d[s + ("--split 1",)]), 2: min(d[s + ("--split 2",)])} for s in shapes}
ms = sorted(set(s[0] for s in shapes))
nk = ",".join(f"{n},{k}" for n, k in sorted(set(s[1:] for s in shapes)))
for arg in sys.argv[2:]:
    h, binary = arg.split("=", 1)
    out = subprocess.run([binary, "--m", ",".join(map(str, ms)), "--nk", nk], capture_output=True, text=True).stdout
    pred = {}
    for line in out.splitlines():
        w = line.split()
        pred[(int(w[0]), int(w[1]), int(w[2].rstrip(":")))] = int(w[11])
    loss, wrong = 0.0, []
    for s in shapes:
        best, chosen = min(t[s].values()), t[s][pred[s]]
        loss += math.log(chosen / best)
        if chosen > best * 1.01:
            wrong.append((s, pred[s], round(chosen / best, 3)))
    print(f"{h} half blocks: geomean over the faster {math.exp(loss / len(shapes)):.4f}, "
          f"{len(wrong)} more than 1% off", wrong[:12])
