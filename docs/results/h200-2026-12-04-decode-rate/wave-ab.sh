#!/usr/bin/env bash
# Two builds side by side on one wave of whole tiles forced to R weight rows,
# unsplit, on 66 and 132 CTAs (N = CTAs x R), K = 4096 / 16384, 1 / 32 / 64 tokens:
# build A, then B, for each R of ROWS, two rounds. The time per K block is the
# difference of the two K over 96 K blocks.
#   05-*: ROWS="40 64", A main, B every ring capped at 8 stages (kStages in config.h)
#   06-*: ROWS="48 64", A main, B branch experiment/two-boxes
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
A=${A_BENCH:?} B=${B_BENCH:?} ROWS=${ROWS:-"40 64"}
row() { grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \||rror|cannot'; }
for round in 1 2; do
  for who in A B; do
    bench=$A; [ $who = B ] && bench=$B
    for R in $ROWS; do
      NK=$((132*R)),4096,$((132*R)),16384,$((66*R)),4096,$((66*R)),16384
      echo "=== $who round $round A [--rows $R --split 1]"
      $bench --no-ceilings --m 1,32,64 --nk $NK --r 128 --rows $R --split 1 2>&1 | row
    done
  done
done
