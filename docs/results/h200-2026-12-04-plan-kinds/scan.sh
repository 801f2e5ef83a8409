#!/usr/bin/env bash
# Forced programs against the plan under SM limits: weight-streaming shapes.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
B=${CAKE_BENCH:-build/bench/cake_bench}
for s in 132 114 66; do
  L="--sms $s"; [ $s = 132 ] && L="--no-ceilings"
  for sh in 64,28672,4096 1,28672,4096 64,4096,14336; do
    for f in "" "--program fp8_hopper_swap_128x64 --split 1" "--program fp8_hopper_swap_64x128 --split 1" "--program fp8_hopper_swap_192x128 --split 1"; do
      line=$($B $L --shape $sh --r 128 $f 2>&1 | grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \|' | head -1)
      echo "sms $s shape $sh [${f:-plan}] $line"
    done
  done
done
