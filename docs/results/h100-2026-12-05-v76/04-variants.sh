#!/usr/bin/env bash
# variants of the plan on a few shapes, each one cake_bench process (cuBLASLt beside it)
B=${BUILD:-build}  # the build of f186c14 in this run
CUBLAS_DIR=$(python3 -c "import nvidia.cublas, os; print(os.path.join(list(nvidia.cublas.__path__)[0], 'lib'))" 2>/dev/null)
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64${CUBLAS_DIR:+:$CUBLAS_DIR}
nvidia-smi --query-gpu=name --format=csv,noheader
for pass in 1 2; do
for s in "$@"; do
  for v in "" "--multicast 2" "--multicast n" "--program fp8_hopper_192x128" "--program fp8_hopper_192x128 --multicast 2" "--program fp8_hopper_swap_192x128" "--program fp8_hopper_swap_192x128 --multicast 2" "--program fp8_hopper_128x144" "--program fp8_hopper_128x160" "--program fp8_hopper_192x112" "--split 2" "--raster 1" "--raster 4"; do
    line=$($B/bench/cake_bench --shape $s --r 128 --no-ceilings --reps 5 $v 2>&1 | grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \|')
    echo "$pass $s [$v] $line"
  done
done
done
