#!/usr/bin/env bash
# The final tree (after 02-*: the producer's per-stage path back to whole stages):
# the GPU check (scripts/gpu-check on BUILD, whose tests, bench and python were built
# from it), then the decode plans of main (A), this build (B) and the probe (C, 01-*)
# in turns, two rounds, on the shapes of 02-*.
#   A_BENCH=<main>/cake_bench C_BENCH=<probe>/cake_bench BUILD=<build> WHEELS=<dir> OUT=dir 03-check.sh
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
scripts/gpu-check --build-dir ${BUILD:?} --wheels ${WHEELS:?} --results $OUT/res > $OUT/03-gpu-check.txt 2>&1
A=${A_BENCH:?} B=$BUILD/bench/cake_bench C=${C_BENCH:?}
row() { grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \||rror|cannot|FAIL|mismatch'; }
for round in 1 2; do
  for who in A B C; do
    bench=$A; [ $who = B ] && bench=$B; [ $who = C ] && bench=$C
    echo "=== $who round $round sms 132"; $bench --no-ceilings --m 1,16,32,64 --nk 4096,4096,6144,4096,28672,4096,4096,14336,8192,8192,10240,16384,4096,4224,5120,896 --r 128 2>&1 | row
    echo "=== $who round $round sms 114"; $bench --no-ceilings --sms 114 --m 1,16,64 --nk 28672,4096,4096,4096 --r 128 2>&1 | row
    echo "=== $who round $round sms 96"; $bench --no-ceilings --sms 96 --m 24,32,40 --nk 7168,12288,7168,16384,8192,7168 --r 128 2>&1 | row
    echo "=== $who round $round sms 66"; $bench --no-ceilings --sms 66 --m 1,64 --nk 28672,4096,4096,4096 --r 128 2>&1 | row
  done
done > $OUT/03-decode.txt 2>&1
