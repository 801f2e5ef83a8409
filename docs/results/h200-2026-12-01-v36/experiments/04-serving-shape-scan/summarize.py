"""Plan against each program forced (its own split and tiles), per shape.

    python3 summarize.py [DIR]    # DIR holds plan.csv, plan2.csv and <program>.csv (cake_bench --out)

Per shape: the plan's time (best of its two runs), the fastest forced program,
and the plan's time over cuBLASLt's (fast accumulation, best over all runs) and
over the unfused path. '<<' marks a forced program 5% or more faster than the plan.
"""
import csv, glob, math, os, sys

d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
runs = {}
for f in glob.glob(os.path.join(d, '*.csv')):
    v = os.path.basename(f)[:-4]
    for row in csv.DictReader(open(f)):
        runs.setdefault((int(row['M']), int(row['N']), int(row['K'])), {})[v] = row
lt_ratios, unf_ratios = [], []
for key in sorted(runs, key=lambda k: (k[1], k[2], k[0])):
    r = runs[key]
    plan = min(float(r[p]['cake_us']) for p in ('plan', 'plan2') if p in r)
    lt = min(float(x['cublaslt_us']) for x in r.values())
    unf = min(float(x['unfused_us']) for x in r.values())
    forced = {v.replace('fp8_hopper_', ''): float(x['cake_us']) for v, x in r.items() if not v.startswith('plan')}
    best = min(forced, key=forced.get)
    lt_ratios.append(plan / lt)
    unf_ratios.append(plan / unf)
    mark = ' <<' if forced[best] < 0.95 * plan else ''
    print(f"{key[0]:5d} {key[1]:6d} {key[2]:6d}  plan {plan:8.2f}  best forced {best:15s} {forced[best]:8.2f}"
          f" ({forced[best] / plan:5.3f})  plan/cuBLASLt {plan / lt:5.3f}  plan/unfused {plan / unf:5.3f}{mark}")
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
print(f"\n{len(lt_ratios)} shapes: plan / cuBLASLt geomean {g(lt_ratios):.3f} (worst {max(lt_ratios):.3f});"
      f" plan / unfused geomean {g(unf_ratios):.3f} (worst {max(unf_ratios):.3f});"
      f" slower than unfused at {sum(x > 1 for x in unf_ratios)}")
