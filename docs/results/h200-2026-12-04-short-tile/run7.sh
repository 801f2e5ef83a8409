#!/usr/bin/env bash
# A paired CTA's exit: its last stores' reads, then the pair's barrier (timeline build).
OUT=${OUT:-.}
B=${BENCH:-build-timeline/bench/cake_bench}  # -DCAKE_TIMELINE=ON
L=$OUT/log.txt
for s in 512,28672,4096 128,4096,4096 128,6144,4096 512,28672,4096; do
  echo "=== $s" >> $L
  $B --no-ceilings --r 128 --shape $s --reps 30 --timeline $OUT/t.tl 2>&1 | grep -E "^ +[0-9]+ +[0-9]+ +[0-9]+ +128" >> $L
  python3 scripts/timeline.py $OUT/t.tl | grep -E "== region|CTA end|of which|and the wait|released|first tile start" >> $L
  rm -f $OUT/t.tl
done
