#!/usr/bin/env bash
# The DRAM-bandwidth rule (src/plan/rules.h kHopperSlowDram*) on the board, in one
# run: what cake reads off the device, then its 18 moved shapes timed as
# this build plans them against the build before the rule (7b4acf4), one cake_bench
# process per line, the lines alternated, three passes (scripts/forced-scan). On an
# H100 SXM the first line of each shape runs CTA pairs and the second single CTAs;
# on an H200 both are the same plan (a control: their ratio is the spread).
#
# With CONFIG=slow-shapes.txt (no OLD needed) it scans the other H100-slow shapes'
# candidates instead, with CONFIG=weight-pairs-128.txt 128 x 128 pairs sharing the
# weight tile (on either board), two passes by default.
#
#   NEW=<build of main> OLD=<build of 7b4acf4> OUT=<dir> bash docs/results/h100-dram-rule/run.sh
#   NEW=<build of main> CONFIG=slow-shapes.txt OUT=<dir> bash docs/results/h100-dram-rule/run.sh
#   NEW=<build of main> CONFIG=weight-pairs-128.txt OUT=<dir> bash docs/results/h100-dram-rule/run.sh
set -uo pipefail
cd "$(dirname "$0")/../../.."
CONFIG=${CONFIG:-configs.txt}
NEW=${NEW:-build} OUT=${OUT:-results/h100-dram-rule}
OTHER=()
if [ "$CONFIG" = configs.txt ]; then
  OTHER=(--other-build "${OLD:?OLD: a build of 7b4acf4 (the plan before the rule)}")
fi
PY=${PYTHON:-python3}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$OUT/board.txt"
PYTHONPATH="$NEW/python${PYTHONPATH:+:$PYTHONPATH}" $PY -c 'import cake; print("device_info:", cake.gemm.device_info())' | tee -a "$OUT/board.txt"
DEFAULT_PASSES=3; [ "$CONFIG" = configs.txt ] || DEFAULT_PASSES=2
scripts/forced-scan "docs/results/h100-dram-rule/$CONFIG" --passes "${PASSES:-$DEFAULT_PASSES}" --build-dir "$NEW" \
  "${OTHER[@]}" --out "$OUT/scan-${CONFIG%.txt}"
