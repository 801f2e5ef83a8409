#!/usr/bin/env bash
# ab2.sh PASSES SHAPE... : variants of the plan, each one cake_bench process (cuBLASLt beside it)
B=${BUILD:-build}  # the build of f186c14 in this run
CUBLAS_DIR=$(python3 -c "import nvidia.cublas, os; print(os.path.join(list(nvidia.cublas.__path__)[0], 'lib'))" 2>/dev/null)
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64${CUBLAS_DIR:+:$CUBLAS_DIR}
nvidia-smi --query-gpu=name --format=csv,noheader
P=$1; shift
for pass in $(seq 1 $P); do
for s in "$@"; do
  while IFS= read -r v; do
    line=$($B/bench/cake_bench --shape $s --r 128 --no-ceilings --reps 5 $v 2>&1 | grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \|')
    echo "$pass $s [$v] $line"
  done < "${VARIANTS:-$(dirname "$0")/05-variants.txt}"
done
done
