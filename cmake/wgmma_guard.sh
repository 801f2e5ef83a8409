#!/usr/bin/env bash
# CUDA compiler launcher for the programs (CAKE_CHECK_WGMMA): runs the compile and
# fails it when ptxas reports that it serialised wgmma (a "Potential Performance
# Loss" note) or injected a warpgroup.arrive before one (C7519). Either means the
# tensor cores wait for each instruction before taking the next: in version 57 the
# adapter's instructions, under runtime conditions, were compiled that way in every
# kernel. An injected warpgroup.wait (C7517) is allowed: the one-set programs'
# carry gets one where its path joins the other, with nothing left in flight.
set -uo pipefail
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2>"$log"
rc=$?
grep -v '^ptxas info    : \(Function properties\|Used\|Compile time\|Compiling entry\|[0-9]* bytes gmem\)\|^    [0-9]* bytes stack frame' "$log" >&2
if grep -q 'Potential Performance Loss\|(C7519)' "$log"; then
  echo "wgmma_guard: ptxas serialised wgmma in this translation unit (lines above); see cmake/wgmma_guard.sh" >&2
  exit 1
fi
exit $rc
