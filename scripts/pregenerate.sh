#!/usr/bin/env bash
# Translates every source that carbide_add_kernels builds into DIR/<stem>/, for a build on a
# machine without the translator (-DCARBIDE_BUILD_TRANSLATOR=OFF -DCARBIDE_PREGENERATED_DIR=DIR).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
carbide=${CARBIDE:-$root/build/translator/carbide}
out=${1:?usage: pregenerate.sh DIR}
for source in "$root"/samples/*/*.cpp "$root"/tests/gpu/gpu_kernels.cpp "$root"/tests/gpu/hopper_kernels.cpp \
              "$root"/tests/gpu/tile_language_kernels.cpp "$root"/bench/attention_unfused.cpp; do
  grep -qE "CARBIDE_(TILE_)?KERNEL" "$source" || continue
  stem=$(basename "$source" .cpp)
  # The architectures its CMakeLists.txt gives the carbide_add_kernels call that names it (none:
  # the default set).
  archs=()
  for arch in $(grep -F "SOURCES $stem.cpp " "$(dirname "$source")/CMakeLists.txt" |
                sed -n 's/.*carbide_add_kernels(.*CUDA_ARCHS \([0-9a ]*\)).*/\1/p'); do
    archs+=(--cuda-arch "sm_$arch")
  done
  "$carbide" translate "$source" -o "$out/$stem" "${archs[@]}"
done
