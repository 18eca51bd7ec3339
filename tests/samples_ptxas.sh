#!/usr/bin/env bash
# samples_ptxas.sh PTXAS SAMPLES_BUILD_DIR: assembles each sample's PTX for sm_90 and fails on an
# error or on a kernel with a stack frame: local memory that the vocabulary's abstractions
# (witnesses, views, vec) must not cost. One exception: sgemm runs at the 128-register limit of
# two blocks per SM, as its hand-written twin does, and both spill a few registers; its frame
# may hold spilled registers, never a local array.
set -euo pipefail
ptxas=$1
shopt -s nullglob
files=("$2"/*/carbide/*/*.ptx)
[ ${#files[@]} -ge 9 ] || { echo "expected the PTX of 9 samples, found ${#files[@]}"; exit 1; }
may_spill=(sgemm)
status=0
for ptx in "${files[@]}"; do
  name=$(basename "$ptx" .ptx)
  report=$("$ptxas" -arch=sm_90 -v "$ptx" -o /dev/null 2>&1) || { echo "$ptx:"; echo "$report"; status=1; continue; }
  if ! grep -q "[1-9][0-9]* bytes stack frame" <<< "$report"; then
    echo "$name.ptx: assembled, no stack frame"
  elif [[ " ${may_spill[*]} " == *" $name "* ]] && ! grep -q "bytes stack frame, 0 bytes spill stores" <<< "$report"; then
    echo "$name.ptx: assembled; register spills only:"; grep "bytes stack frame" <<< "$report"
  else
    echo "$name.ptx: a kernel keeps values in local memory:"; grep -B1 "bytes stack frame" <<< "$report"; status=1
  fi
done
exit $status
