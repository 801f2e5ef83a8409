#!/usr/bin/env bash
# Is a stage's 125-150 ns floor a cost of each TMA box? Build A (main: one box for
# the weight tile of a stage) against B (branch experiment/two-boxes: two boxes of
# half its rows), one wave of 48 / 64-row tiles on 66 and 132 CTAs, alternated, two rounds.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
A=${A_BENCH:?} B=${B_BENCH:?}
row() { grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \||rror|cannot'; }
for round in 1 2; do
  for who in A B; do
    bench=$A; [ $who = B ] && bench=$B
    for R in 48 64; do
      NK=$((132*R)),4096,$((132*R)),16384,$((66*R)),4096,$((66*R)),16384
      echo "=== $who round $round A [--rows $R --split 1]"
      $bench --no-ceilings --m 1,32,64 --nk $NK --r 128 --rows $R --split 1 2>&1 | row
    done
  done
done
