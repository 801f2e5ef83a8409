"""Where the plan leaves speed: the plan against each Hopper program forced.

    scripts/plan-gaps [--out DIR]       # runs the sweeps (cake_bench --serving), then this
    python3 bench/plan_gaps.py DIR      # DIR: <variant>/bench.csv or <variant>.csv per sweep

A sweep per variant: `plan` (and `plan2`, a second run of it, for the spread)
and each program forced by name (cake_bench --program NAME, with the program's
own split and tiles). Per shape: the plan's time (best of its runs), the fastest
forced program, and the plan's time over cuBLASLt's (fast accumulation, best
over all runs) and over the unfused path. '<<' marks a forced program 5% or more
faster than the plan; the last line gives the geomeans and worst points.
"""
import csv
import glob
import math
import os
import sys


def sweeps(d):
    """{variant: path} of the sweeps' CSVs in d, either layout."""
    found = {os.path.basename(os.path.dirname(f)): f for f in glob.glob(os.path.join(d, '*', 'bench.csv'))}
    found.update({os.path.basename(f)[:-4]: f for f in glob.glob(os.path.join(d, '*.csv'))})
    return found


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else 'results/plan-gaps'
    runs = {}
    for v, f in sweeps(d).items():
        for row in csv.DictReader(open(f)):
            runs.setdefault((int(row['M']), int(row['N']), int(row['K'])), {})[v] = row
    if not runs:
        print(f"plan_gaps: no sweeps in {d}", file=sys.stderr)
        return 1
    lt_ratios, unf_ratios = [], []
    for key in sorted(runs, key=lambda k: (k[1], k[2], k[0])):
        r = runs[key]
        plans = [float(r[p]['cake_us']) for p in r if p.startswith('plan')]
        if not plans:
            continue
        plan = min(plans)
        lt = min(float(x['cublaslt_us']) for x in r.values())
        unf = min(float(x['unfused_us']) for x in r.values())
        forced = {v.replace('fp8_hopper_', ''): float(x['cake_us']) for v, x in r.items() if not v.startswith('plan')}
        lt_ratios.append(plan / lt)
        unf_ratios.append(plan / unf)
        line = f"{key[0]:5d} {key[1]:6d} {key[2]:6d}  plan {plan:8.2f}"
        if forced:
            best = min(forced, key=forced.get)
            mark = ' <<' if forced[best] < 0.95 * plan else ''
            line += f"  best forced {best:15s} {forced[best]:8.2f} ({forced[best] / plan:5.3f})"
        else:
            mark = ''
        print(line + f"  plan/cuBLASLt {plan / lt:5.3f}  plan/unfused {plan / unf:5.3f}{mark}")
    g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
    print(f"\n{len(lt_ratios)} shapes: plan / cuBLASLt geomean {g(lt_ratios):.3f} (worst {max(lt_ratios):.3f});"
          f" plan / unfused geomean {g(unf_ratios):.3f} (worst {max(unf_ratios):.3f});"
          f" slower than unfused at {sum(x > 1 for x in unf_ratios)}")
    return 0


if __name__ == '__main__':
    sys.exit(main())
