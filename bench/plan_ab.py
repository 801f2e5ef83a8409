"""Reads scripts/plan-ab's runs: a plan change against its base, shape by shape.

    python3 bench/plan_ab.py DIR [--plans A/cake_plan B/cake_plan] [--sms S]
                                    # DIR/shapes.txt and DIR/{a,b}<run>-<M,N,K>/bench.csv

Per shape: cake's median time (us) over the runs in each build, the median of the
per-run ratios B / A (each pair ran back to back), the same ratio of cake's times each
over cuBLASLt fast's in its own process, and cuBLASLt's own B / A; with --plans what
each build launched (on S SMs with --sms, at the DRAM bandwidth the runs recorded).
Then the geomean of both ratios and the shapes that moved by more than 2% either way.
A shape whose benchmark check failed in any run is marked FAILED. Every process's
row is also written to DIR/runs.csv (plan_table.write_runs), to keep beside the summary.

Why both: cuBLASLt's own time at one shape is not the same in every process. On an
H100 SXM (2026-12-07, docs/results/h100-2026-12-07-256-row-one-wave/) it fell into two
groups from process to process, 109-111 and 117-119 us at M = 1024, N = 3584,
K = 18944, and over the 56 shapes of one A/B it read 0.971 in B's processes of A's (0.903-
1.030). Whatever moves cuBLASLt so may move cake as well, and B / A of raw times then
reads it as the plan's doing; over cuBLASLt in the same process it cancels, as far as
it moves both alike. A plan change stands where both ratios agree; the shapes where
they part by more than 2% are listed ("drift").
"""
import math
import os
import statistics
import sys

import plan_table
from compare import geomean


def main():
    args = sys.argv[1:]
    plans = None
    if '--plans' in args:
        i = args.index('--plans')
        plans = args[i + 1:i + 3]
        del args[i:i + 3]
    sms = []
    if '--sms' in args:
        i = args.index('--sms')
        sms = args[i:i + 2]
        del args[i:i + 2]
    d = args[0] if args else 'results/plan-ab'
    shapes = [line.strip() for line in open(os.path.join(d, 'shapes.txt')) if line.strip()]
    dram = plan_table.board_dram(d)
    rows = plan_table.process_rows(d)
    plan_table.write_runs(d, rows)
    ratios, over = {}, {}  # shape -> B / A of cake's times; of cake over cuBLASLt
    print("per shape: cake us, A and B (medians over the runs); B / A (median of per-run ratios) of cake's "
          "times, of cake over cuBLASLt fast in each process, and of cuBLASLt's own times")
    for shape in shapes:
        t = {'a': {}, 'b': {}}
        failed = False
        for name, row in rows.items():
            who, _, rest = name.partition('-')
            if rest == shape and who[:1] in t and who[1:].isdigit():
                t[who[0]][int(who[1:])] = float(row['cake_us']), float(row['cublaslt_us'])
                failed |= row['check_ok'] != '1'
        runs = sorted(set(t['a']) & set(t['b']))
        if not runs:
            print(f"{shape:>16}  no pair of runs")
            continue
        a, b = t['a'], t['b']
        ratios[shape] = statistics.median(b[r][0] / a[r][0] for r in runs)
        over[shape] = statistics.median((b[r][0] / b[r][1]) / (a[r][0] / a[r][1]) for r in runs)
        drift = statistics.median(b[r][1] / a[r][1] for r in runs)
        line = (f"{shape:>16}  {statistics.median(x[0] for x in a.values()):8.2f} "
                f"{statistics.median(x[0] for x in b.values()):8.2f}  {ratios[shape]:.3f}  {over[shape]:.3f}"
                f"  cuBLASLt {drift:.3f}{'  FAILED' if failed else ''}")
        if plans:
            pa, pb = (plan_table.short(next(iter(plan_table.table(p, ['--shape', shape] + sms, dram).values())))
                      for p in plans)
            line += f"  {pa}" + (f" -> {pb}" if pb != pa else " (same plan)")
        print(line)
    if not ratios:
        print(f"plan_ab: no runs in {d}", file=sys.stderr)
        return 1
    for name, rs in (("B / A", ratios), ("B / A over cuBLASLt", over)):
        slower = sorted((s for s in rs if rs[s] > 1.02), key=lambda s: -rs[s])
        print(f"{len(rs)} shapes: {name} geomean {geomean(rs.values()):.3f}, range {min(rs.values()):.3f}-"
              f"{max(rs.values()):.3f}, {sum(x < 0.98 for x in rs.values())} faster and {len(slower)} slower by "
              f"more than 2%")
        if slower:
            print("  slower: " + ', '.join(f"{s} {rs[s]:.3f}" for s in slower))
    parted = [s for s in ratios if abs(math.log(ratios[s] / over[s])) > math.log(1.02)]
    if parted:
        print("drift (the two ratios part by more than 2%): " +
              ', '.join(f"{s} {ratios[s]:.3f} / {over[s]:.3f}" for s in parted))
    return 0


if __name__ == '__main__':
    sys.exit(main())
