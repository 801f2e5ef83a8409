#!/usr/bin/env bash
# Is N = 28672 itself slow for cake (M = 512, K = 4096, r = 128)? Every N from 28544 to
# 28800 in steps of 32 has the same plan (the same turned head of 25344 columns, a rest
# of 128 x 112 tiles, 116-124 CTAs); ascending, then descending, twice.
OUT=${OUT:-.}
B=${BENCH:-build/bench/cake_bench}
L=$OUT/log.txt
UP=""; for n in 28544 28576 28608 28640 28672 28704 28736 28768 28800; do UP="$UP$n,4096,"; done; UP=${UP%,}
DOWN=""; for n in 28800 28768 28736 28704 28672 28640 28608 28576 28544; do DOWN="$DOWN$n,4096,"; done; DOWN=${DOWN%,}
for i in 1 2; do
  echo "== ascending $i" >> $L
  $B --no-ceilings --r 128 --m 512 --nk $UP --reps 30 2>&1 | grep -E "^ +[0-9]+ +[0-9]+ +[0-9]+ +128|cake/base" >> $L
  echo "== descending $i" >> $L
  $B --no-ceilings --r 128 --m 512 --nk $DOWN --reps 30 2>&1 | grep -E "^ +[0-9]+ +[0-9]+ +[0-9]+ +128|cake/base" >> $L
done
echo "== M = 256 / 1024, N = 28672 / 28704" >> $L
$B --no-ceilings --r 128 --m 256,1024 --nk 28672,4096,28704,4096 --reps 30 2>&1 | grep -E "^ +[0-9]+ +[0-9]+ +[0-9]+ +128|cake/base" >> $L
