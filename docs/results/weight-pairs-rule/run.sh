#!/usr/bin/env bash
# The weight-pair candidate (candidate.patch) against main's plan on the board, in one
# run: the board line and what cake reads off it, then scripts/plan-ab of main's build
# (A) against the candidate's (B) over this board's sample of the moved shapes
# (shapes-h100.txt where the device reports slow DRAM as the plan reads it,
# kHopperSlowDramMaxGbps, else shapes-h200.txt),
# one cake_bench process per shape and build, alternated, RUNS runs (2 by default).
#
#   NEW=<build of main> CAND=<build of main + candidate.patch> OUT=<dir> bash docs/results/weight-pairs-rule/run.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
NEW=${NEW:-build} CAND=${CAND:?CAND: a build of main with docs/results/weight-pairs-rule/candidate.patch applied}
OUT=${OUT:-results/weight-pairs-rule} PY=${PYTHON:-python3}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$OUT/board.txt"
# The board's sample by the bandwidth cake reads off it (SHAPES=FILE chooses instead).
DRAM=$(PYTHONPATH="$NEW/python${PYTHONPATH:+:$PYTHONPATH}" $PY -c 'import cake; print(cake.gemm.device_info()["dram_gbps"])')
[ -n "$DRAM" ] || { echo "run.sh: cake does not import from $NEW/python (its dependencies on PYTHONPATH?)"; exit 1; }
echo "dram_gbps: $DRAM" | tee -a "$OUT/board.txt"
if [ -z "${SHAPES:-}" ]; then
  SHAPES=docs/results/weight-pairs-rule/shapes-h200.txt
  # The plan's own bound for slow DRAM, read from its rules rather than copied here.
  SLOW=$(sed -n -E 's/^inline constexpr int kHopperSlowDramMaxGbps = ([0-9]+);.*/\1/p' src/plan/rules.h)
  [ "$DRAM" -gt 0 ] && [ "$DRAM" -le "${SLOW:?run.sh: no kHopperSlowDramMaxGbps in src/plan/rules.h}" ] &&
    SHAPES=docs/results/weight-pairs-rule/shapes-h100.txt
fi
echo "shapes: $SHAPES" | tee -a "$OUT/board.txt"
scripts/plan-ab "$NEW" "$CAND" "$SHAPES" --runs "${RUNS:-2}" --out "$OUT/plan-ab"
