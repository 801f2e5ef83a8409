#!/usr/bin/env bash
# Four partial-sum sets (three groups in flight) in the one-warpgroup swap programs
# against two, side by side: build A (main) and B (the change), alternated per part,
# two rounds. Part A as in 02-scan.sh (one wave of R-row tiles unsplit); part B:
# decode shapes on their plans and with 40-row tiles unsplit; the quick grid.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
A=${A_BENCH:?} B=${B_BENCH:?}
row() { grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \||rror|cannot|^regime|^M<=|^128<=|^M>=|^all'; }
for round in 1 2; do
  for who in A B; do
    bench=$A; [ $who = B ] && bench=$B
    for R in 40 56 64; do
      NK=$((132*R)),4096,$((132*R)),16384,$((66*R)),4096,$((66*R)),16384
      echo "=== $who round $round A [--rows $R --split 1]"
      $bench --no-ceilings --m 1,32,64 --nk $NK --r 128 --rows $R --split 1 2>&1 | row
    done
    NK=4096,4096,4096,14336,6144,4096,10240,8192,10240,16384,18432,8192,28672,4096,28672,16384
    for f in "" "--rows 40 --split 1"; do
      echo "=== $who round $round B [${f:-plan}]"
      $bench --no-ceilings --m 1,16,32,48,64 --nk $NK --r 128 $f 2>&1 | row
    done
    echo "=== $who round $round quick"
    $bench --quick --no-ceilings 2>&1 | row
  done
done
