#!/usr/bin/env bash
# The main job: translate and build every sample (through carbide_add_kernels, as a user's
# project would), then run each one: on GPU 0 where one is usable, else on the CPU context
# (Context::create_default; CARBIDE_DEVICE=cpu forces it). cublas_chain needs cuBLAS on a GPU and
# is skipped, saying so, without one. Exits non-zero when a sample fails.
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
on_cpu=false
if [ "${CARBIDE_DEVICE:-}" = cpu ]; then
  on_cpu=true
  echo "CARBIDE_DEVICE=cpu: running the samples on the CPU"
elif devices=$("$build/runtime/carbide-devices"); then
  echo "$devices"
else
  on_cpu=true
  echo "$devices: running the samples on the CPU"
fi
passed=0 failed=0 skipped=0
for sample in "${samples[@]}"; do
  name=$(basename "$sample")
  if $on_cpu && [ "$name" = cublas_chain ]; then
    echo "== $name: skipped (cuBLAS needs a GPU)"
    skipped=$((skipped + 1))
    continue
  fi
  echo "== $name"
  if "$sample"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "samples: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
