"""01-plan-ab-96.txt: does the stage-floor time model (fit.py) pick the faster of the two plans
on 96 SMs?  python3 fit96.py"""
import math, re
from fit import model

rows = []
for line in open("01-plan-ab-96.txt"):
    m = re.match(r"\s+(\d+),(\d+),(\d+)\s+([\d.]+)\s+([\d.]+)\s+[\d.]+\s+\S+ \d+x(\d+) s(\d) g\d+ -> \S+ \d+x(\d+) s(\d) g\d+", line)
    if m:
        g = m.groups()
        rows.append((int(g[0]), int(g[1]), int(g[2]), float(g[3]), float(g[4]), int(g[5]), int(g[6]), int(g[7]), int(g[8])))
for bw in (3600, 4000, 4400):
    for f in (110, 125, 140):
        good, loss = 0, 0.0
        for M, N, K, ta, tb, ra, sa, rb, sb in rows:
            ea = model(M, N, K, ra, sa, 96, f16=f, f64=f + 23, bw=bw)
            eb = model(M, N, K, rb, sb, 96, f16=f, f64=f + 23, bw=bw)
            good += (eb < ea) == (tb < ta)
            loss += math.log((tb if eb < ea else ta) / min(ta, tb))
        print(bw, f, f"{good}/{len(rows)} right, geomean over the faster {math.exp(loss / len(rows)):.4f}")
for M, N, K, ta, tb, ra, sa, rb, sb in rows:
    ea, eb = model(M, N, K, ra, sa, 96, bw=4000), model(M, N, K, rb, sb, 96, bw=4000)
    print(f"{M:3d} {N:6d} {K:6d} A {ra}s{sa} {ta:7.2f} est {ea:6.2f} | B {rb}s{sb} {tb:7.2f} est {eb:6.2f} | "
          f"{'ok' if (eb < ea) == (tb < ta) else 'WRONG'}")
