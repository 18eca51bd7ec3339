#!/usr/bin/env bash
# On a GPU machine without LLVM, the Tile path's part of gpu-check.sh, in a few minutes: builds
# the GPU tests and the tile samples from files translated elsewhere (scripts/pregenerate.sh, or
# a build's */carbide/<stem>/ folders copied into one), runs the tile GPU tests, the tile samples,
# compute-sanitizer's memcheck and racecheck on the kernels whose shared memory the translator
# plans (mma in a body, exchanges between layouts) unless SANITIZE=0, and carbide_bench with
# BENCH=1. Logs in $OUT. The build folder (build-gpu/) stays for the next call on a warm machine.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gen=${1:-$root/.carry/gen}
gtest=${2:-$root/.carry/googletest}
# Boost.Context where the machine has none (scripts/carry-boost-context.sh): BoostConfig finds it
# through the prefix path.
boost_context=${BOOST_CONTEXT_PREFIX:-$root/.carry/boost-context}
prefix_path=()
[ -d "$boost_context" ] && prefix_path=(-DCMAKE_PREFIX_PATH="$boost_context")
out=${OUT:-$root/gpu-logs}
mkdir -p "$out"
build=$root/build-gpu
{
  date -u +"%Y-%m-%dT%H:%MZ"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  nvcc --version | tail -2
} 2>&1 | tee "$out/machine.txt"
cmake -S "$root" -B "$build" -G Ninja -DCARBIDE_BUILD_TRANSLATOR=OFF \
  -DCARBIDE_PREGENERATED_DIR="$gen" -DCARBIDE_GTEST_SOURCE_DIR="$gtest" "${prefix_path[@]}" > "$out/configure.log" 2>&1 \
  || { tail -30 "$out/configure.log"; exit 1; }
targets=(carbide_gpu_tests tile_attention tile_gemm tile_softmax tile_layernorm tile_add)
[ "${BENCH:-0}" = 1 ] && targets+=(carbide_bench)
cmake --build "$build" -j 16 --target "${targets[@]}" > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
status=0
tests="$build/tests/gpu/carbide_gpu_tests"
"$tests" --gtest_filter='TileLanguage.*:HopperGemm.*:WholeLaunch.*' 2>&1 | tee "$out/gpu-tests.log" | tail -40
grep -q "FAILED" "$out/gpu-tests.log" && status=1
for sample in tile_attention tile_gemm tile_softmax tile_layernorm tile_add; do
  echo "== sample $sample" | tee -a "$out/samples.log"
  "$build/samples/$sample/$sample" 2>&1 | tee -a "$out/samples.log" || status=1
done
if [ "${SANITIZE:-1}" = 1 ] && command -v compute-sanitizer > /dev/null; then
  for tool in memcheck racecheck; do
    echo "== compute-sanitizer --tool $tool TileLanguage.*" | tee -a "$out/sanitizer.log"
    compute-sanitizer --tool "$tool" "$tests" --gtest_filter='TileLanguage.*' 2>&1 \
      | grep -E "SUMMARY|PASSED|FAILED|ERROR|Error|hazard" | head -20 | tee -a "$out/sanitizer.log"
    echo "== compute-sanitizer --tool $tool tile_attention --small" | tee -a "$out/sanitizer.log"
    compute-sanitizer --tool "$tool" "$build/samples/tile_attention/tile_attention" --small 2>&1 | tail -4 \
      | tee -a "$out/sanitizer.log"
  done
fi
if [ "${BENCH:-0}" = 1 ]; then
  echo "== carbide_bench" | tee -a "$out/bench.log"
  "$build/bench/carbide_bench" "$out/bench.md" 2>&1 | tee -a "$out/bench.log" || status=1
fi
exit $status
