#!/usr/bin/env bash
# The SM-limit rule: old plan (A) against new (B), alternated, two runs each, cake's time.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
A=${A_BENCH:?set A_BENCH to the base build cake_bench} B=${B_BENCH:?set B_BENCH to this build cake_bench}
for s in 78 66; do
  while read sh; do
    [ -z "$sh" ] && continue
    out="sms $s $sh"
    for run in 1 2; do
      for which in A B; do
        bin=${!which}
        t=$($bin --sms $s --shape $sh --r 128 --reps 15 2>&1 | grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \|' | head -1 | awk -F'|' '{split($2,a," "); split($4,q," "); print a[1]"/"q[1]}')
        out="$out $which=$t"
      done
    done
    echo "$out"
  done < pick$s.txt
done
