#!/usr/bin/env bash
# The DRAM-bandwidth rule (src/plan/rules.h kHopperSlowDram*) on the board, in one
# device call: what cake reads off the device, then its 18 moved shapes timed as
# this build plans them against the build before the rule (7b4acf4), one cake_bench
# process per line, the lines alternated, three passes (scripts/forced-scan). On an
# H100 SXM the first line of each shape runs CTA pairs and the second single CTAs;
# on an H200 both are the same plan (a control: their ratio is the spread).
#
#   NEW=<build of main> OLD=<build of 7b4acf4> OUT=<dir> bash docs/results/h100-dram-rule/run.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
NEW=${NEW:-build} OLD=${OLD:?OLD: a build of 7b4acf4 (the plan before the rule)} OUT=${OUT:-results/h100-dram-rule}
PY=${PYTHON:-python3}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$OUT/board.txt"
PYTHONPATH="$NEW/python" $PY -c 'import cake; print("device_info:", cake.gemm.device_info())' | tee -a "$OUT/board.txt"
scripts/forced-scan docs/results/h100-dram-rule/configs.txt --passes "${PASSES:-3}" --build-dir "$NEW" \
  --other-build "$OLD" --out "$OUT/scan"
