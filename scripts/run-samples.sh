#!/usr/bin/env bash
# The main job: translate and build every sample (through carbide_add_kernels, as a user's
# project would), then run each one where a CUDA device exists.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
cmake --build "$build"
samples=()
for dir in "$build"/samples/*/; do
  name=$(basename "$dir")
  [ -x "$dir/$name" ] && samples+=("$dir/$name")
done
echo "built ${#samples[@]} sample(s): generated files are under $build/samples/*/carbide/"
if ! devices=$("$build/runtime/carbide-devices"); then
  echo "not running the samples: $devices"
  exit 0
fi
echo "$devices"
failed=0
for sample in "${samples[@]}"; do
  echo "== $(basename "$sample")"
  "$sample" || failed=$((failed + 1))
done
echo "samples: $((${#samples[@]} - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
