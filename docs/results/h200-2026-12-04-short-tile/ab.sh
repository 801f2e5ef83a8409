#!/usr/bin/env bash
# A (main) against B, alternated: bench-ab over shapes with CTA pairs (and controls).
A=$1; B=$2; RUNS=${3:-3}
W=$(mktemp -d)
scripts/bench-ab $A $B --runs $RUNS --out $W -- --no-ceilings --r 128 --m 64,128,512,2048 --nk 4096,4096,6144,4096,4096,14336,28672,4096 > $W/ab.txt 2>&1
cat $W/ab.txt
for f in $W/a1.log $W/b1.log; do echo "== $f"; grep -E "^ +[0-9]+ +[0-9]+ +[0-9]+ +128" $f; done
cp $W/ab.txt $OUT/ab-$(basename $(dirname $B))-$(basename $B).txt
