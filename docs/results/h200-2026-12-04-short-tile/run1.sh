#!/usr/bin/env bash
# The rest region's short last weight tile, alone: M = 512, N from 29 whole 112-row tiles
# (3248) through short last tiles of 16..96 rows to 30 whole (3360); cake, s=0, cuBLASLt.
OUT=${OUT:-.}
B=${BENCH:-build/bench/cake_bench}
L=$OUT/log.txt
nvidia-smi --query-gpu=name,clocks.sm,power.draw --format=csv >> $L
NK=""
for n in 3248 3264 3280 3296 3312 3328 3344 3360; do NK="$NK$n,4096,"; done
NK=${NK%,}
for i in 1 2; do
  echo "== sweep run $i (plan)" >> $L
  $B --no-ceilings --r 128 --m 512 --nk $NK --reps 30 >> $L 2>&1
  echo "== sweep run $i, raster 1" >> $L
  $B --no-ceilings --r 128 --m 512 --nk 3248,4096,3328,4096,3360,4096 --reps 30 --raster 1 >> $L 2>&1
done
echo "== M = 1024 (rest of N = 14336, K = 8192: 1664 columns; 1680 whole)" >> $L
$B --no-ceilings --r 128 --m 1024 --nk 1568,8192,1664,8192,1680,8192 --reps 30 >> $L 2>&1
echo "== the point and its whole-tile neighbour" >> $L
$B --no-ceilings --r 128 --m 512 --nk 28672,4096,28704,4096,28640,4096 --reps 30 >> $L 2>&1
