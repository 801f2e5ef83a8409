#!/usr/bin/env bash
# 132 SMs, 16..64 tokens, N 10240..37888, K 2048..6144: the plan against its program forced unsplit and split in two.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
B=${CAKE_BENCH:?}
NK=10240,2048,10240,3584,10240,4096,10240,5120,10240,6144,12288,2048,12288,3584,12288,4096,12288,5120,12288,6144,18432,2048,18432,3584,18432,4096,18432,5120,18432,6144,20480,2048,20480,3584,20480,4096,20480,5120,20480,6144,37888,2048,37888,3584,37888,4096,37888,5120,37888,6144
for round in 1 2; do
  for f in "" "--split 1" "--split 2"; do
    echo "=== round $round [${f:-plan}]"
    $B --no-ceilings --m 16,32,33,48,64 --nk $NK --r 128 $f 2>&1 | grep -E '^ +[0-9]+ +[0-9]+ +[0-9]+ +128 \||rror|cannot'
  done
done
