#!/usr/bin/env python3
"""Summarise the timelines that `cake_bench --timeline FILE` writes (builds configured
with -DCAKE_TIMELINE=ON; the layout is src/sm90/timeline.cuh's and run_program.h's).

Per region of the call (the plan's head, then its rest): when its CTAs started (the
producer's first load, after the set-up and the grid-dependency wait) and ended (its
first consumer warpgroup after its last stores' reads and, in pairs, the cluster
barrier: the CTA leaves) (global ns, from the first CTA's start), the SM clock over
the launch, and per tile index the consumer warpgroups' phases in SM cycles: the
adapter (tile start to its sum retired), the K loop, the waits for full stages
inside it, the staging and the store's issue, the tile's whole length, and the gap
in which no consumer warpgroup of the CTA was in a K loop (the last one's K loop end
to the first one's next tile start). Where the build stamps it, the CTA's end after
its last store issue is split into its stores' reads and the pair's barrier.

--edges: per region, the first tile of the CTAs on the last tile along Q, on the last
along P, and of the others (adapter, K loop, full waits, epilogue: median [min, max]
SM cycles), and the CTAs with the slowest K loops (where a short last tile, whose
operand ends inside it, would show).

    python3 scripts/timeline.py FILE [--all-tiles] [--edges]
"""
import sys

import numpy as np

TILES, TILE_WORDS, CONSUMER_WORD, WARPGROUPS = 8, 8, 32, 3
CTA_WORDS = CONSUMER_WORD + WARPGROUPS * TILES * TILE_WORDS
CTAS, REGIONS = 256, 2
# A CTA's word: the SM clock when its first consumer warpgroup's last stores had been
# read (before the pair's cluster barrier).
STORES_READ = 4
# A tile's words (timeline.cuh Timeline::Word).
START, ADAPTER, K_LOOP_END, STAGED, STORE_ISSUED, FULL_WAIT, TILE_ID = range(7)


def spread(values):
    a = np.asarray(values, dtype=float)
    if a.size == 0:
        return "n/a"
    p10, p50, p90 = np.percentile(a, [10, 50, 90])
    return f"median {p50:8.0f}  p10 {p10:8.0f}  p90 {p90:8.0f}  (n {a.size})"


def print_edges(tiles):
    """The CTAs' first tiles by where they lie: the last along Q, along P, the others."""
    first = tiles[:, :, 0, :]
    tile_id = first[:, 0, TILE_ID]
    tp, tq = tile_id >> 16, tile_id & 0xFFFF
    k_loop = (first[:, :, K_LOOP_END] - first[:, :, ADAPTER]).max(1)
    phases = {
        "adapter": (first[:, :, ADAPTER] - first[:, :, START]).max(1),
        "K loop": k_loop,
        "full waits": first[:, :, FULL_WAIT].max(1),
        "epilogue": (first[:, :, STORE_ISSUED] - first[:, :, K_LOOP_END]).max(1),
    }

    def brief(a):
        return f"{np.median(a):6.0f} [{a.min():6.0f}, {a.max():6.0f}]"

    print("   first tiles by position (slowest warpgroup; median [min, max] SM cycles)")
    others = (tq != tq.max()) & (tp != tp.max())
    for name, sel in ((f"last along Q (tq {tq.max()})", tq == tq.max()),
                      (f"last along P (tp {tp.max()})", tp == tp.max()), ("the others", others)):
        if sel.any():
            print(f"    {name:22s} n {sel.sum():3d}  " + "  ".join(f"{k} {brief(v[sel])}" for k, v in phases.items()))
    slow = np.argsort(-k_loop)[:6]
    print("    slowest K loops (tp, tq: cycles): " + ", ".join(f"{tp[i]}, {tq[i]}: {k_loop[i]}" for i in slow))


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    every_tile, edges = "--all-tiles" in argv, "--edges" in argv
    words = np.fromfile(argv[1], dtype=np.uint64).astype(np.int64)
    if words.size != REGIONS * CTAS * CTA_WORDS:
        print(f"{argv[1]}: {words.size} words, expected {REGIONS * CTAS * CTA_WORDS} (timeline.cuh's layout)")
        return 1
    regions = words.reshape(REGIONS, CTAS, CTA_WORDS)
    starts = regions[:, :, 0]
    if not (starts != 0).any():
        print("no launch recorded (the adapter was off, or the build has no timelines)")
        return 1
    origin = starts[starts != 0].min()
    for r in range(REGIONS):
        ctas = regions[r][(regions[r][:, 0] != 0) & (regions[r][:, 2] != 0)]
        if len(ctas) == 0:
            continue
        ns0, clk0, ns1, clk1 = (ctas[:, i] for i in range(4))
        ghz = np.median((clk1 - clk0) / (ns1 - ns0))
        print(f"== region {r}: {len(ctas)} CTAs; start {(ns0.min() - origin) / 1e3:.2f}..{(ns0.max() - origin) / 1e3:.2f} us, "
              f"end {(ns1.min() - origin) / 1e3:.2f}..{(ns1.max() - origin) / 1e3:.2f} us; SM clock {ghz:.3f} GHz")
        tiles = ctas[:, CONSUMER_WORD:].reshape(len(ctas), WARPGROUPS, TILES, TILE_WORDS)
        warpgroups = [w for w in range(WARPGROUPS) if (tiles[:, w, 0, 0] != 0).any()]
        tiles = tiles[:, warpgroups]
        counts = (tiles[:, 0, :, 0] != 0).sum(1)
        capped = counts.max() == TILES  # a CTA with more tiles keeps its first TILES
        print(f"   consumer warpgroups {len(warpgroups)}; tiles per CTA (count: CTAs) "
              + ", ".join(f"{c}: {n}" for c, n in zip(*np.unique(counts, return_counts=True)))
              + (f" (the first {TILES} recorded)" if capped else ""))
        for i in range(TILES):
            has = tiles[:, 0, i, 0] != 0
            if not has.any() or (not every_tile and i not in (0, 1, counts.max() - 1)):
                continue
            t = tiles[has][:, :, i, :]
            print(f"  tile {i} ({has.sum()} CTAs), SM cycles")
            print("    adapter        ", spread((t[:, :, ADAPTER] - t[:, :, START]).ravel()))
            print("    K loop         ", spread((t[:, :, K_LOOP_END] - t[:, :, ADAPTER]).ravel()))
            print("    full waits     ", spread(t[:, :, FULL_WAIT].ravel()))
            print("    staging        ", spread((t[:, :, STAGED] - t[:, :, K_LOOP_END]).ravel()))
            print("    store issue    ", spread((t[:, :, STORE_ISSUED] - t[:, :, STAGED]).ravel()))
            after = has & (tiles[:, 0, i + 1, 0] != 0) if i + 1 < TILES else np.zeros_like(has)
            if after.any():
                now, nxt = tiles[after][:, :, i, :], tiles[after][:, :, i + 1, :]
                print("    whole tile     ", spread((nxt[:, :, START] - now[:, :, START]).ravel()))
                print("    no K loop      ", spread(nxt[:, :, START].min(1) - now[:, :, K_LOOP_END].max(1)))
        if edges:
            print_edges(tiles)
        print("   first tile start after the CTA's start:", spread(tiles[:, 0, 0, 0] - clk0))
        if not capped:
            last = tiles[np.arange(len(ctas)), 0, counts - 1]
            print("   CTA end after its last store issue:    ", spread(clk1 - last[:, STORE_ISSUED]))
            read = ctas[:, STORES_READ]
            if (read != 0).any():  # the stores' reads, then (pairs) the cluster barrier
                print("     of which the stores' reads:          ", spread(read - last[:, STORE_ISSUED]))
                print("     and the wait at the pair's barrier:  ", spread(clk1 - read))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
