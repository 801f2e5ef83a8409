#!/usr/bin/env bash
# 132 SMs: what one SM streams per K block by the weight rows of its tiles.
# A: one wave of whole tiles forced to R rows unsplit on 132 / 100 / 66 CTAs (N = CTAs x R),
#    K = 4096 / 16384, 1 / 32 / 64 tokens. B: 1 / 32 / 48 / 64 tokens x N = 10240..28672 x
#    K = 8192 / 16384: the plan, its program on 40..64-row tiles unsplit and split in two,
#    and swap_128x64 unsplit. Two rounds; stops a round early past STOP seconds.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
B=${CAKE_BENCH:?} STOP=${STOP:-560} T0=${T0:-$SECONDS}
row() { grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \||rror|cannot'; }
for round in 1 2; do
  for R in 40 48 56 64; do
    NK=$((132*R)),4096,$((132*R)),16384,$((100*R)),4096,$((100*R)),16384,$((66*R)),4096,$((66*R)),16384
    echo "=== round $round A [--rows $R --split 1]"
    $B --no-ceilings --m 1,32,64 --nk $NK --r 128 --rows $R --split 1 2>&1 | row
  done
  NK=10240,8192,10240,16384,14336,8192,14336,16384,18432,8192,18432,16384,28672,8192,28672,16384
  for f in "" "--rows 40 --split 1" "--rows 48 --split 1" "--rows 56 --split 1" "--rows 64 --split 1" \
           "--rows 40 --split 2" "--rows 48 --split 2" "--rows 56 --split 2" "--rows 64 --split 2" \
           "--program fp8_hopper_swap_128x64 --split 1"; do
    [ $((SECONDS - T0)) -gt "$STOP" ] && { echo "=== stopped at $((SECONDS - T0)) s"; exit 0; }
    echo "=== round $round B [${f:-plan}]"
    $B --no-ceilings --m 1,32,48,64 --nk $NK --r 128 $f 2>&1 | row
  done
done
echo "=== done at $((SECONDS - T0)) s"
