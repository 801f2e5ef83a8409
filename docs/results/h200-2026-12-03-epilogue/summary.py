"""Per shape over alternated runs of builds a, b, c (directories a1, b1, ... of cake_bench --out): best times, B/A and C/A, and the median of cake / cuBLASLt fast within each run. The files 02 and 03 came from the same script with the builds renamed."""
import csv, sys, os, math, collections, statistics
d = sys.argv[1]
runs = collections.defaultdict(list)  # (v) -> list of {key: row}
for f in sorted(os.listdir(d)):
    p = os.path.join(d, f, "bench.csv")
    if not os.path.isdir(os.path.join(d, f)) or not os.path.exists(p): continue
    v = f[0]
    runs[v].append({(int(r["M"]), int(r["N"]), int(r["K"])): r for r in csv.DictReader(open(p))})
keys = sorted(runs["a"][0])
print("per shape: best cake us (A B C), best s0 (A B C); B/A C/A best-vs-best (cake, s0); median over runs of cake/cuBLASLt-fast in the same process (A B C)")
gm = collections.defaultdict(list)
for k in keys:
    best = {v: min(float(r[k]["cake_us"]) for r in runs[v]) for v in "abc"}
    bs0 = {v: min(float(r[k]["cake_s0_us"]) for r in runs[v]) for v in "abc"}
    med = {v: statistics.median(float(r[k]["cake_us"]) / float(r[k]["cublaslt_us"]) for r in runs[v]) for v in "abc"}
    lt = min(float(r[k]["cublaslt_us"]) for v in "abc" for r in runs[v])
    lta = min(float(r[k]["cublaslt_nofast_us"]) for v in "abc" for r in runs[v])
    for v in "bc":
        gm[v].append(best[v] / best["a"])
    print(f"{k[0]:5d} {k[1]:5d} {k[2]:5d} | lt {lt:7.2f} acc {lta:7.2f} | cake {best['a']:7.2f} {best['b']:7.2f} {best['c']:7.2f} | s0 {bs0['a']:7.2f} {bs0['b']:7.2f} {bs0['c']:7.2f} | "
          f"B/A {best['b']/best['a']:.3f} {bs0['b']/bs0['a']:.3f} C/A {best['c']/best['a']:.3f} {bs0['c']/bs0['a']:.3f} | vs lt {med['a']:.3f} {med['b']:.3f} {med['c']:.3f}")
for v in "bc":
    print(v, "geomean over A", round(math.exp(sum(map(math.log, gm[v])) / len(gm[v])), 3))
