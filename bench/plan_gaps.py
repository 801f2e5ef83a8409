"""Where the plan leaves speed: the plan against each Hopper program forced.

    scripts/plan-gaps [--out DIR]       # runs the sweeps (cake_bench --serving), then this
    python3 bench/plan_gaps.py DIR [--plan-table build/bench/cake_plan]
                                        # DIR: <variant>/bench.csv or <variant>.csv per sweep

A sweep per variant: `plan` (and `plan2`, a second run of it, for the spread)
and each program forced by name (cake_bench --program NAME, with the program's
own split and tiles). Per shape: the plan's time (best of its runs), the fastest
forced program, and the plan's time over cuBLASLt's (fast accumulation, best
over all runs) and over the unfused path. '<<' marks a forced program 5% or more
faster than the plan; the last line gives the geomeans and worst points.

With --plan-table (cake_plan, bench/plan_table.cpp) each forced program's tiles,
split, pairs and grid are known: the best forced one is shown with them, '<<' is
left off where it is the plan's own configuration, and forced runs of exactly the
plan's configuration measure the sweeps' spread (listed at the end).
"""
import csv
import glob
import math
import os
import sys

import plan_table


def sweeps(d):
    """{variant: path} of the sweeps' CSVs in d, either layout."""
    found = {os.path.basename(os.path.dirname(f)): f for f in glob.glob(os.path.join(d, '*', 'bench.csv'))}
    found.update({os.path.basename(f)[:-4]: f for f in glob.glob(os.path.join(d, '*.csv'))})
    return found


def configurations(binary, shapes, programs, dram_gbps):
    """{(variant, (M, N, K)): text} from cake_plan: the plan's regions and each
    forced program's, as the benchmark launched them (132 SMs, the board's DRAM
    bandwidth)."""
    ms = ','.join(str(m) for m in sorted({k[0] for k in shapes}))
    nks = ','.join(f"{n},{k}" for n, k in sorted({(k[1], k[2]) for k in shapes}))
    found = {}
    for v in ['plan'] + sorted(programs):
        forced = [] if v == 'plan' else ['--program', v]
        for shape, text in plan_table.table(binary, ['--m', ms, '--nk', nks] + forced, dram_gbps).items():
            found[(v, shape)] = text
    return found


def main():
    args = sys.argv[1:]
    table = plan_table.take_option(args)
    d = args[0] if args else 'results/plan-gaps'
    runs = {}
    for v, f in sweeps(d).items():
        for row in csv.DictReader(open(f)):
            runs.setdefault((int(row['M']), int(row['N']), int(row['K'])), {})[v] = row
    if not runs:
        print(f"plan_gaps: no sweeps in {d}", file=sys.stderr)
        return 1
    programs = {v for r in runs.values() for v in r if not v.startswith('plan')}
    config = configurations(table, list(runs), programs, plan_table.board_dram(d)) if table else {}
    lt_ratios, unf_ratios, spread = [], [], []
    for key in sorted(runs, key=lambda k: (k[1], k[2], k[0])):
        r = runs[key]
        plans = [float(r[p]['cake_us']) for p in r if p.startswith('plan')]
        if not plans:
            continue
        plan = min(plans)
        lt = min(float(x['cublaslt_us']) for x in r.values())
        unf = min(float(x['unfused_us']) for x in r.values())
        forced = {v: float(x['cake_us']) for v, x in r.items() if not v.startswith('plan')}
        lt_ratios.append(plan / lt)
        unf_ratios.append(plan / unf)
        line = f"{key[0]:5d} {key[1]:6d} {key[2]:6d}  plan {plan:8.2f}"
        mark = ''
        if forced:
            best = min(forced, key=forced.get)
            own = config and config.get((best, key)) == config.get(('plan', key))
            mark = ' <<' if forced[best] < 0.95 * plan and not own else ''
            line += f"  best forced {best.replace('fp8_hopper_', ''):15s} {forced[best]:8.2f} ({forced[best] / plan:5.3f})"
            if config:
                line += f" [{'the plan' if own else plan_table.short(config[(best, key)])}]"
        # Forced runs of the plan's own configuration: the same program timed twice.
        same = [t for v, t in forced.items() if config and config.get((v, key)) == config.get(('plan', key))]
        spread += [t / plan for t in same]
        print(line + f"  plan/cuBLASLt {plan / lt:5.3f}  plan/unfused {plan / unf:5.3f}{mark}")
    g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
    print(f"\n{len(lt_ratios)} shapes: plan / cuBLASLt geomean {g(lt_ratios):.3f} (worst {max(lt_ratios):.3f});"
          f" plan / unfused geomean {g(unf_ratios):.3f} (worst {max(unf_ratios):.3f});"
          f" slower than unfused at {sum(x > 1 for x in unf_ratios)}")
    if spread:
        dev = sorted(abs(x - 1) for x in spread)
        print(f"spread: {len(spread)} forced runs of the plan's own configuration, |time / plan - 1| median"
              f" {dev[len(dev) // 2]:.3f}, worst {dev[-1]:.3f} (min {min(spread):.3f}, max {max(spread):.3f})")
    return 0


if __name__ == '__main__':
    sys.exit(main())
