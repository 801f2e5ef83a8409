"""Compares two builds side by side from their benchmark CSVs (cake_bench --out).

    python3 bench/compare.py A.csv [A.csv ...] -- B.csv [B.csv ...] [--r 128] [--column cake_us]

Runs of one build alternate with the other's in the same session (the board's
power state moves single shapes by up to 5-10%). Per shape: the best of each
build's runs, and B over A; per regime (M <= 64, 128 <= M <= 512, M >= 2048)
and over all shapes: the geometric mean of B over A.
"""

import argparse
import csv
import math
import sys

REGIMES = (("M<=64", lambda m: m <= 64), ("128<=M<=512", lambda m: 128 <= m <= 512), ("M>=2048", lambda m: m >= 2048))


def best_times(paths, r, column):
    best = {}
    for path in paths:
        with open(path) as f:
            for row in csv.DictReader(f):
                if int(row["r"]) != r:
                    continue
                key = (int(row["M"]), int(row["N"]), int(row["K"]))
                best[key] = min(best.get(key, math.inf), float(row[column]))
    return best


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main(argv):
    if "--" not in argv:
        sys.exit(__doc__)
    split = argv.index("--")
    parser = argparse.ArgumentParser(description="B over A, per shape and per regime")
    parser.add_argument("b", nargs="+")
    parser.add_argument("--r", type=int, default=128)
    parser.add_argument("--column", default="cake_us", help="cake_us or cake_s0_us")
    args = parser.parse_args(argv[split + 1:])
    a = best_times(argv[:split], args.r, args.column)
    b = best_times(args.b, args.r, args.column)
    shapes = sorted(set(a) & set(b), key=lambda s: (s[1], s[2], s[0]))
    if not shapes:
        sys.exit("compare: no shape in both builds' CSVs at r = %d" % args.r)
    print("%6s %6s %6s | %10s %10s | %6s" % ("M", "N", "K", "A us", "B us", "B/A"))
    for s in shapes:
        print("%6d %6d %6d | %10.2f %10.2f | %6.3f" % (*s, a[s], b[s], b[s] / a[s]))
    print("\ngeomean B/A (%s, r = %d, best of %d / %d runs):" % (args.column, args.r, len(argv[:split]), len(args.b)))
    for name, member in REGIMES:
        ratios = [b[s] / a[s] for s in shapes if member(s[0])]
        if ratios:
            print("  %-12s %3d shapes  %.3f" % (name, len(ratios), geomean(ratios)))
    print("  %-12s %3d shapes  %.3f" % ("all", len(shapes), geomean([b[s] / a[s] for s in shapes])))


if __name__ == "__main__":
    main(sys.argv[1:])
