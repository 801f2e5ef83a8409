#!/usr/bin/env bash
# 132 SMs, 48 / 64 tokens on 8192..20480 weight rows: the plan against other programs and splits.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
B=${CAKE_BENCH:-build/bench/cake_bench}
NK=10240,4096,10240,8192,10240,16384,12288,4096,12288,12288,18432,4096,18432,8192,20480,4096,20480,14336,8192,8192
for round in 1 2; do
  for f in "" "--program fp8_hopper_swap_64x32 --rows 64 --multicast 2 --split 1" "--program fp8_hopper_swap_128x64 --split 1" \
           "--program fp8_hopper_swap_128x64 --split 4" "--program fp8_hopper_swap_64x32 --split 2" \
           "--program fp8_hopper_swap_64x64 --split 1" "--program fp8_hopper_swap_64x64 --split 4"; do
    echo "=== round $round [${f:-plan}]"
    $B --no-ceilings --m 48,64 --nk $NK --r 128 $f 2>&1 | grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \|'
  done
done
