#!/usr/bin/env bash
# cake's N = 28672-class against N = 28704-class times: interleaved, and each variant
# replayed alone for 2 s (--sustain 2). M = 512, K = 4096, r = 128.
OUT=${OUT:-.}
B=${BENCH:-build/bench/cake_bench}
L=$OUT/log.txt
nvidia-smi --query-gpu=name,clocks.sm,power.draw,power.limit --format=csv >> $L
$B --no-ceilings --r 128 --m 512 --nk 28672,4096,28704,4096,28640,4096,28736,4096 --reps 30 --sustain 2 2>&1 | grep -vE "^#|host overhead|wrote" >> $L
$B --no-ceilings --r 128 --m 512 --nk 28736,4096,28640,4096,28704,4096,28672,4096 --reps 30 --sustain 2 2>&1 | grep -E "^ +[0-9]+ +[0-9]+ +[0-9]+ +128|alone|sustain" >> $L
