#!/usr/bin/env bash
# Configures and builds the tree the way a GPU run does on the device image (docs/gpu-runs.md):
# no translator (-DCARBIDE_BUILD_TRANSLATOR=OFF), kernels from files translated elsewhere (this
# build's own translations, laid out as scripts/pregenerate.sh lays them), GoogleTest from its
# sources, and Boost.Context carried (scripts/carry-boost-context.sh) with this machine's own
# hidden from CMake. Then runs the vecadd sample (on the CPU here). A change that breaks the GPU
# run's build shows here before a device is lent.
set -euo pipefail
build=${1:?usage: device_image_build_test.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
step() {
  local log=$1; shift
  "$@" > "$log" 2>&1 || { echo "failed: $*"; tail -40 "$log"; exit 1; }
}
# Every translation the build made, by stem, as pregenerate.sh would have written them.
mkdir -p "$work/gen"
while IFS= read -r stubs; do
  stem=$(basename "$stubs" .carbide.cpp)
  [ -e "$work/gen/$stem" ] || ln -s "$(dirname "$stubs")" "$work/gen/$stem"
done < <(find "$build" -path '*/carbide/*' -name '*.carbide.cpp' | sort)
step "$work/carry.log" bash "$root/scripts/carry-boost-context.sh" "$work/boost-context"
# The machine's Boost.Context package and library, which the device image lacks.
hidden=()
for config in /usr/lib/*/cmake/boost_context-*/boost_context-config.cmake \
              /usr/lib/cmake/boost_context-*/boost_context-config.cmake; do
  [ -e "$config" ] && hidden+=("$(dirname "$config")")
done
ignore=$(IFS=';'; echo "${hidden[*]:-}")
step "$work/configure.log" cmake -S "$root" -B "$work/build" -G Ninja -DCARBIDE_BUILD_TRANSLATOR=OFF \
  -DCARBIDE_PREGENERATED_DIR="$work/gen" -DCARBIDE_GTEST_SOURCE_DIR=/usr/src/googletest \
  -DCMAKE_PREFIX_PATH="$work/boost-context" -DCMAKE_IGNORE_PATH="$ignore"
grep -q "$work/boost-context/lib/libboost_context" "$work/build/build.ninja" \
  || { echo "the runtime does not link the carried Boost.Context"; exit 1; }
step "$work/build.log" cmake --build "$work/build" --target carbide_runtime vecadd tile_add
CARBIDE_DEVICE=cpu "$work/build/samples/vecadd/vecadd" | tail -1
CARBIDE_DEVICE=cpu "$work/build/samples/tile_add/tile_add" | tail -1
echo "device image build: configured and built with the carried Boost.Context; vecadd and tile_add ran"
