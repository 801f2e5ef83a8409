#!/usr/bin/env bash
# M = 8192, K = 8192, r = 128: N = 8128 / 8160 / 8192 interleaved and each variant
# alone for 2 s (is a power-of-two row pitch of out slower for cake?).
OUT=${OUT:-.}
B=${BENCH:-build/bench/cake_bench}
L=$OUT/log.txt
$B --no-ceilings --r 128 --m 8192 --nk 8128,8192,8160,8192,8192,8192 --reps 10 --sustain 2 2>&1 | grep -E "^ +[0-9]+ +[0-9]+ +[0-9]+ +128|alone" >> $L
$B --no-ceilings --r 128 --m 8192 --nk 8192,8192,8160,8192,8128,8192 --reps 10 --sustain 2 2>&1 | grep -E "^ +[0-9]+ +[0-9]+ +[0-9]+ +128|alone" >> $L
