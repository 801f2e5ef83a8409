#!/usr/bin/env bash
# The probe (commit d636028: two K blocks per ring stage in the 64-row swap programs,
# r = 128 only) against main (4e18402's code), run from the repository root:
#   A_BENCH=<main>/cake_bench B_BENCH=<probe>/cake_bench GPU_TESTS=<probe>/cake_gpu_tests OUT=dir 01-probe.sh
# 01-wave.txt: one wave of 40 / 64-row tiles on 66 and 132 CTAs (wave-ab.sh of the
# decode-rate results); 01-decode.txt: the plans of both builds on decode shapes on
# 132 / 114 / 96 / 66 SMs, two rounds, builds alternated; 01-gpu-tests.txt: the probe's
# C++ GPU tests.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
A=${A_BENCH:?} B=${B_BENCH:?}
R=docs/results/h200-2026-12-04-decode-rate
A_BENCH=$A B_BENCH=$B ROWS="40 64" bash $R/wave-ab.sh > $OUT/01-wave.txt 2>&1
python3 $R/rate.py $OUT/01-wave.txt > $OUT/01-wave-rate.txt
row() { grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \||rror|cannot|FAIL|mismatch'; }
for round in 1 2; do
  for who in A B; do
    bench=$A; [ $who = B ] && bench=$B
    echo "=== $who round $round sms 132"; $bench --no-ceilings --m 1,16,32,64 --nk 4096,4096,6144,4096,28672,4096,4096,14336,8192,8192,10240,16384 --r 128 2>&1 | row
    echo "=== $who round $round sms 114"; $bench --no-ceilings --sms 114 --m 1,16,64 --nk 28672,4096,4096,4096 --r 128 2>&1 | row
    echo "=== $who round $round sms 96"; $bench --no-ceilings --sms 96 --m 24,32,40 --nk 7168,12288,7168,16384,8192,7168 --r 128 2>&1 | row
    echo "=== $who round $round sms 66"; $bench --no-ceilings --sms 66 --m 1,64 --nk 28672,4096,4096,4096 --r 128 2>&1 | row
  done
done > $OUT/01-decode.txt 2>&1
${GPU_TESTS:?} --gtest_brief=1 > $OUT/01-gpu-tests.txt 2>&1
