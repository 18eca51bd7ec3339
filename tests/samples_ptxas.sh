#!/usr/bin/env bash
# samples_ptxas.sh PTXAS SAMPLES_BUILD_DIR: assembles each sample's PTX for the target it names
# (sm_90, or sm_90a for samples/tile_gemm's wgmma) and fails on an error or on a kernel with a
# stack frame. One exception: a PTX file that asks for six or more
# blocks per SM (.minnctapersm, a register budget the tile planner chose for occupancy) may keep
# up to 8 bytes there, a value or two spilled by that budget, which measured faster than no spill
# at fewer blocks (tile_layernorm, bench/results/2026-12-04-h200-session10.md). A chunk or tile
# left in local memory takes more.
set -euo pipefail
ptxas=$1
shopt -s nullglob
files=("$2"/*/carbide/*/*.ptx)
[ ${#files[@]} -ge 9 ] || { echo "expected the PTX of 9 samples, found ${#files[@]}"; exit 1; }
status=0
for ptx in "${files[@]}"; do
  target=$(sed -n 's/^\.target \(sm_[0-9]*a\{0,1\}\).*/\1/p' "$ptx" | head -1)
  report=$("$ptxas" -arch="${target:-sm_90}" -v "$ptx" -o /dev/null 2>&1) || { echo "$ptx:"; echo "$report"; status=1; continue; }
  largest_frame=$({ grep -o "[0-9]* bytes stack frame" <<< "$report" || true; } | awk '$1 > m { m = $1 } END { print m + 0 }')
  budget=$({ grep -o "^\.minnctapersm [0-9]*" "$ptx" || true; } | awk '$2 > m { m = $2 } END { print m + 0 }')
  if [ "$largest_frame" -gt 0 ] && [ "$budget" -ge 6 ] && [ "$largest_frame" -le 8 ]; then
    echo "$(basename "$ptx"): assembled; $largest_frame bytes of stack frame under a budget of $budget blocks an SM"
  elif [ "$largest_frame" -gt 0 ]; then
    echo "$(basename "$ptx"): a kernel keeps values in local memory:"; grep -B1 "bytes stack frame" <<< "$report"; status=1
  else
    echo "$(basename "$ptx"): assembled, no stack frame"
  fi
done
exit $status
