#!/usr/bin/env bash
# Does out's row pitch matter? Per shape N (a multiple of 64: rows of out 128-byte
# aligned), N - 32 (rows 64 bytes off) and N - 64 (aligned again); each triple has one
# plan. Two passes, the second in reverse order. r = 128.
OUT=${OUT:-.}
B=${BENCH:-build/bench/cake_bench}
L=$OUT/log.txt
pass() {
  $B --no-ceilings --r 128 --m 512 --nk $1 --reps 30 2>&1 | grep -E "^ +[0-9]+ +[0-9]+ +[0-9]+ +128|cake/base" >> $L
  $B --no-ceilings --r 128 --m 128 --nk $2 --reps 30 2>&1 | grep -E "^ +[0-9]+ +[0-9]+ +[0-9]+ +128" >> $L
  $B --no-ceilings --r 128 --m 2048 --nk $3 --reps 30 2>&1 | grep -E "^ +[0-9]+ +[0-9]+ +[0-9]+ +128" >> $L
  $B --no-ceilings --r 128 --m 8192 --nk $4 --reps 10 2>&1 | grep -E "^ +[0-9]+ +[0-9]+ +[0-9]+ +128" >> $L
}
echo "== pass 1" >> $L
pass 25248,4096,25280,4096,25312,4096,25344,4096,4032,4096,4064,4096,4096,4096 6080,4096,6112,4096,6144,4096 \
     4032,4096,4064,4096,4096,4096 8128,8192,8160,8192,8192,8192
echo "== pass 2 (reversed)" >> $L
pass 4096,4096,4064,4096,4032,4096,25344,4096,25312,4096,25280,4096,25248,4096 6144,4096,6112,4096,6080,4096 \
     4096,4096,4064,4096,4032,4096 8192,8192,8160,8192,8128,8192
