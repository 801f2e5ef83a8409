#!/usr/bin/env bash
B=${BUILD:-build}  # the build of f186c14 in this run
OUT=${OUT:-results/diag}; mkdir -p "$OUT"
CUBLAS_DIR=$(python3 -c "import nvidia.cublas, os; print(os.path.join(list(nvidia.cublas.__path__)[0], 'lib'))" 2>/dev/null)
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64${CUBLAS_DIR:+:$CUBLAS_DIR}
nvidia-smi --query-gpu=name --format=csv,noheader
M=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,lts__t_sector_hit_rate.pct,sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active
for s in "$@"; do
  for who in cublaslt cake; do
    if [ $who = cake ]; then k=regex:fp8_lora_program; c=1; else k='regex:^(?!.*(fill|widen|compare|fp8_lora|copy)).*'; c=2; fi
    ncu --clock-control none --kernel-name "$k" --launch-count $c --metrics $M --csv --page raw \
      $B/bench/cake_bench --no-ceilings --once --shape $s --r 128 > $OUT/ncu-$s-$who.csv 2>$OUT/ncu-$s-$who.err
    python3 - $OUT/ncu-$s-$who.csv <<'PY'
import csv,sys
rows=[r for r in csv.reader(open(sys.argv[1])) if len(r)>5]
h=rows[0]
for r in rows[2:]:
    d=dict(zip(h,r)); f=lambda k: float(d[k].replace(',',''))
    print(f"  {d['Kernel Name'][:60]:60s} {f('gpu__time_duration.sum')/1e3:8.2f} us  {f('sm__cycles_elapsed.max'):9.0f} cyc  {f('sm__cycles_elapsed.avg.per_second')/1e9:5.2f} GHz  dram rd {f('dram__bytes_read.sum')/1e6:7.1f} MB wr {f('dram__bytes_write.sum')/1e6:6.1f} MB  L2 {f('lts__t_bytes.sum')/1e6:7.1f} MB hit {f('lts__t_sector_hit_rate.pct'):5.1f}%  tensor {f('sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active'):4.1f}%")
PY
  done
done
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 200 > $OUT/smi.csv &
P=$!
$B/bench/cake_bench --no-ceilings --shape $1 --r 128 --reps 5 --sustain 3 2>&1 | tail -8
kill $P
