#!/usr/bin/env bash
# Timelines of the rest region's last weight tile: which CTAs are slow at N = 3328 alone
# and at the point (M = 512, K = 4096, r = 128).
OUT=${OUT:-.}
B=${BENCH:-build-timeline/bench/cake_bench}  # -DCAKE_TIMELINE=ON
L=$OUT/log.txt; mkdir -p $OUT/tl
run() {  # name, then cake_bench args
  local name=$1; shift
  echo "=== $name: $*" >> $L
  $B --no-ceilings --r 128 --m 512 --reps 30 --timeline $OUT/$name.tl "$@" 2>&1 | grep -E "^ +[0-9]+ +[0-9]+ +[0-9]+ +128" >> $L
  python3 $(dirname $0)/last.py $OUT/$name.tl >> $L 2>&1
  mv $OUT/$name.tl $OUT/tl/
}
NK=""; for n in 3248 3264 3280 3296 3312 3328; do NK="$NK$n,4096,"; done; NK=${NK%,}
run sweep3328 --nk $NK
run alone3328 --nk 3328,4096
run alone3312 --nk 3312,4096
run alone3360 --nk 3360,4096
run raster3328 --nk 3248,4096,3328,4096 --raster 1
run sweep3328b --nk $NK
run point --nk 28672,4096
run p28704 --nk 28704,4096
run p28640 --nk 28640,4096
run pointafter --nk 28704,4096,28640,4096,28672,4096
tar czf $OUT/tl.tgz -C $OUT tl && rm -rf $OUT/tl
