#!/usr/bin/env bash
# The plan (swap_64x64 at 33..64 tokens) against swap_128x64 unsplit, by SM count and weight bytes.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
B=${CAKE_BENCH:-build/bench/cake_bench}
for round in 1 2; do
for s in 132 96 78 66; do
  L="--sms $s"; [ $s = 132 ] && L="--no-ceilings"
  for sh in 64,14336,4096 64,28672,4096 64,37888,3584 64,28672,8192 33,28672,4096 33,37888,3584; do
    for f in "" "--program fp8_hopper_swap_128x64 --split 1"; do
      line=$($B $L --shape $sh --r 128 $f 2>&1 | grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \|' | head -1)
      echo "r$round sms $s shape $sh [${f:-plan}] $line"
    done
  done
done
done
