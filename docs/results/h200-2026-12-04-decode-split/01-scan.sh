#!/usr/bin/env bash
# 132 SMs, 33 / 64 tokens, where the plan splits swap_64x64 in two over more than a wave:
# the plan against swap_128x64 unsplit and split in two, one process per variant, two rounds.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
B=${CAKE_BENCH:-build/bench/cake_bench}
NK=10240,4096,10240,8192,10240,16384,12288,4096,12288,12288,18432,4096,18432,8192,20480,4096,20480,14336,28672,8192,28672,16384,37888,4096,37888,8192
for round in 1 2; do
  for f in "" "--program fp8_hopper_swap_128x64 --split 1" "--program fp8_hopper_swap_128x64 --split 2"; do
    echo "=== round $round [${f:-plan}]"
    $B --no-ceilings --m 33,64 --nk $NK --r 128 $f 2>&1 | grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \|'
  done
done
# 114 SMs, decode: the plan against swap_128x64 unsplit and the plan's program split in two.
NK=28672,4096,14336,4096,37888,3584,28672,8192
for round in 1 2; do
  for f in "" "--program fp8_hopper_swap_128x64 --split 1" "--split 2"; do
    echo "=== sms 114 round $round [${f:-plan}]"
    $B --sms 114 --m 1,16,32 --nk $NK --r 128 $f 2>&1 | grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \|'
  done
done
