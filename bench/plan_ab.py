"""Reads scripts/plan-ab's runs: a plan change against its base, shape by shape.

    python3 bench/plan_ab.py DIR [--plans A/cake_plan B/cake_plan] [--sms S]
                                    # DIR/shapes.txt and DIR/{a,b}<run>-<M,N,K>/bench.csv

Per shape: cake's median time (us) over the runs in each build, the median of the
per-run ratios B / A (each pair ran back to back), and with --plans what each build
launched (on S SMs with --sms, at the DRAM bandwidth the runs recorded). Then the
geomean of those ratios and the shapes that moved by more than 2% either way. A
shape whose benchmark check failed in any run is marked FAILED.
"""
import csv
import math
import os
import statistics
import sys

import plan_table


def cake_us(path):
    """cake's time at r = 128 and whether its check passed, from one bench.csv."""
    for row in csv.DictReader(open(path)):
        if row['r'] == '128':
            return float(row['cake_us']), row['check_ok'] == '1'
    return None


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
    ratios = {}
    print("per shape: cake us, A and B (medians over the runs), B / A (median of per-run ratios)")
    for shape in shapes:
        t = {'a': {}, 'b': {}}
        failed = False
        for name in os.listdir(d):
            who, _, rest = name.partition('-')
            f = os.path.join(d, name, 'bench.csv')
            if rest != shape or who[:1] not in t or not who[1:].isdigit() or not os.path.exists(f):
                continue
            got = cake_us(f)
            if got:
                t[who[0]][int(who[1:])] = got[0]
                failed |= not got[1]
        runs = sorted(set(t['a']) & set(t['b']))
        if not runs:
            print(f"{shape:>16}  no pair of runs")
            continue
        ratio = statistics.median(t['b'][r] / t['a'][r] for r in runs)
        ratios[shape] = ratio
        line = (f"{shape:>16}  {statistics.median(t['a'].values()):8.2f} {statistics.median(t['b'].values()):8.2f}"
                f"  {ratio:.3f}{'  FAILED' if failed else ''}")
        if plans:
            a, b = (plan_table.short(next(iter(plan_table.table(p, ['--shape', shape] + sms, dram).values()))) for p in plans)
            line += f"  {a}" + (f" -> {b}" if b != a else " (same plan)")
        print(line)
    if not ratios:
        print(f"plan_ab: no runs in {d}", file=sys.stderr)
        return 1
    geo = math.exp(sum(math.log(x) for x in ratios.values()) / len(ratios))
    slower = sorted((s for s in ratios if ratios[s] > 1.02), key=lambda s: -ratios[s])
    print(f"{len(ratios)} shapes: B / A geomean {geo:.3f}, range {min(ratios.values()):.3f}-{max(ratios.values()):.3f}, "
          f"{sum(x < 0.98 for x in ratios.values())} faster and {len(slower)} slower by more than 2%")
    if slower:
        print("slower: " + ', '.join(f"{s} {ratios[s]:.3f}" for s in slower))
    return 0


if __name__ == '__main__':
    sys.exit(main())
