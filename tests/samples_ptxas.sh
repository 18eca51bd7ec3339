#!/usr/bin/env bash
# samples_ptxas.sh PTXAS SAMPLES_BUILD_DIR: assembles each sample's PTX for sm_90 and fails on an
# error or on a kernel with a stack frame.
set -euo pipefail
ptxas=$1
shopt -s nullglob
files=("$2"/*/carbide/*/*.ptx)
[ ${#files[@]} -ge 9 ] || { echo "expected the PTX of 9 samples, found ${#files[@]}"; exit 1; }
status=0
for ptx in "${files[@]}"; do
  report=$("$ptxas" -arch=sm_90 -v "$ptx" -o /dev/null 2>&1) || { echo "$ptx:"; echo "$report"; status=1; continue; }
  if grep -q "[1-9][0-9]* bytes stack frame" <<< "$report"; then
    echo "$(basename "$ptx"): a kernel keeps values in local memory:"; grep -B1 "bytes stack frame" <<< "$report"; status=1
  else
    echo "$(basename "$ptx"): assembled, no stack frame"
  fi
done
exit $status
