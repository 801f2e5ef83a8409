#!/usr/bin/env bash
# The decode hand-over rule under an SM limit: old plan (A) against new (B), alternated, two runs each.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
A=${A_BENCH:?} B=${B_BENCH:?}
cd "$(dirname "$0")"
for s in 114 78; do
  while read sh; do
    [ -z "$sh" ] && continue
    out="sms $s $sh"
    for run in 1 2; do
      for which in A B; do
        bin=${!which}
        t=$($bin --sms $s --shape $sh --r 128 --reps 15 2>&1 | grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \|' | head -1 | awk -F'|' '{split($2,a," "); print a[1]"/"a[3]}')
        out="$out $which=$t"
      done
    done
    echo "$out"
  done < pick$s.txt
done
