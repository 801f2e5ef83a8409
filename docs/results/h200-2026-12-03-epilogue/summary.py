"""Per shape over alternated runs of builds (directories a1, b1, ... of cake_bench --out): each build's best
time, every other build against the first (best against best, with and without the adapter), and the median
of cake / cuBLASLt fast within each run.

    python3 summary.py RUNS_DIR [BASE OTHER ...]    (default: a b c, as 01-*.txt; 02 and 03 used a d, a e;
                                                     ../h200-2026-12-03-regions/ used a f, a g, a h, a i, a m)
"""
import collections, csv, math, os, statistics, sys

d = sys.argv[1]
builds = sys.argv[2:] or ["a", "b", "c"]
base, others = builds[0], builds[1:]
runs = collections.defaultdict(list)  # build letter -> [{(M, N, K): row}] per run
for f in sorted(os.listdir(d)):
    p = os.path.join(d, f, "bench.csv")
    if os.path.isdir(os.path.join(d, f)) and os.path.exists(p):
        runs[f[0]].append({(int(r["M"]), int(r["N"]), int(r["K"])): r for r in csv.DictReader(open(p))})
names = " ".join(b.upper() for b in builds)
ratios = " ".join(f"{o.upper()}/{base.upper()}" for o in others)
print(f"per shape: best cake us ({names}), best s0 ({names}); {ratios} best-vs-best (cake, s0); "
      f"median over runs of cake/cuBLASLt-fast in the same process ({names})")
gm = collections.defaultdict(list)
for k in sorted(runs[base][0]):
    best = {v: min(float(r[k]["cake_us"]) for r in runs[v]) for v in builds}
    bs0 = {v: min(float(r[k]["cake_s0_us"]) for r in runs[v]) for v in builds}
    med = {v: statistics.median(float(r[k]["cake_us"]) / float(r[k]["cublaslt_us"]) for r in runs[v]) for v in builds}
    lt = min(float(r[k]["cublaslt_us"]) for v in builds for r in runs[v])
    lta = min(float(r[k]["cublaslt_nofast_us"]) for v in builds for r in runs[v])
    for o in others:
        gm[o].append(best[o] / best[base])
    cols = lambda m: " ".join(f"{m[v]:7.2f}" for v in builds)
    rel = " ".join(f"{o.upper()}/{base.upper()} {best[o] / best[base]:.3f} {bs0[o] / bs0[base]:.3f}" for o in others)
    print(f"{k[0]:5d} {k[1]:5d} {k[2]:5d} | lt {lt:7.2f} acc {lta:7.2f} | cake {cols(best)} | s0 {cols(bs0)} | {rel} | "
          f"vs lt {' '.join(f'{med[v]:.3f}' for v in builds)}")
for o in others:
    print(o, "geomean over", base.upper(), round(math.exp(sum(map(math.log, gm[o])) / len(gm[o])), 3))
