#!/usr/bin/env bash
# 132 SMs, 64 tokens: swap_64x64 in CTA pairs sharing the token tile (multicast along N) against the plan.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
B=${CAKE_BENCH:?}
NK=4096,4096,6144,4096,8192,8192,10240,4096,10240,8192,10240,16384,12288,4096,18432,4096,18432,8192,20480,4096,20480,14336,28672,4096,28672,8192,37888,4096,4096,14336
for round in 1 2; do
  for f in "" "--program fp8_hopper_swap_64x64 --split 1 --multicast n" "--program fp8_hopper_swap_64x64 --split 1 --multicast n --rows 64" \
           "--program fp8_hopper_swap_64x64 --split 1 --multicast n --rows 48" "--program fp8_hopper_swap_64x64 --split 1"; do
    echo "=== round $round [${f:-plan}]"
    $B --no-ceilings --m 64 --nk $NK --r 128 $f 2>&1 | grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \||rror|cannot'
  done
done
