#!/usr/bin/env bash
# On a GPU machine without LLVM: builds the runtime, the samples and the tests from files
# translated elsewhere (scripts/pregenerate.sh), runs every test and every sample, and writes
# the logs to $OUT (or ./gpu-logs).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gen=${1:-$root/.carry/gen}
gtest=${2:-$root/.carry/googletest}
out=${OUT:-$root/gpu-logs}
mkdir -p "$out"
build=$(mktemp -d)
{
  date -u +"%Y-%m-%dT%H:%MZ"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  nvcc --version | tail -2
} 2>&1 | tee "$out/machine.txt"
cmake -S "$root" -B "$build" -G Ninja -DCARBIDE_BUILD_TRANSLATOR=OFF \
  -DCARBIDE_PREGENERATED_DIR="$gen" -DCARBIDE_GTEST_SOURCE_DIR="$gtest" > "$out/configure.log" 2>&1 \
  || { tail -30 "$out/configure.log"; exit 1; }
cmake --build "$build" -j 16 > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
status=0
(cd "$build" && ctest --output-on-failure 2>&1) | tee "$out/ctest.log" | tail -15 || status=1
grep -q "tests passed" "$out/ctest.log" || status=1
samples=()
for dir in "$build"/samples/*/; do
  name=$(basename "$dir")
  [ -x "$dir/$name" ] && samples+=("$dir/$name")
done
for sample in "${samples[@]}"; do
  name=$(basename "$sample")
  echo "== sample $name" | tee -a "$out/samples.log"
  "$sample" 2>&1 | tee -a "$out/samples.log" || status=1
done
if command -v compute-sanitizer > /dev/null; then
  # The kernels carbide-shared-race accepts, under the hardware race checker.
  for tool in memcheck racecheck; do
    echo "== compute-sanitizer --tool $tool carbide_gpu_tests (Vocabulary.*)" | tee -a "$out/sanitizer.log"
    compute-sanitizer --tool "$tool" "$build/tests/gpu/carbide_gpu_tests" --gtest_filter='Vocabulary.*' 2>&1 \
      | grep -E "SUMMARY|PASSED|FAILED" | tee -a "$out/sanitizer.log"
  done
  for sample in "${samples[@]}"; do
    name=$(basename "$sample")
    for tool in memcheck racecheck; do
      echo "== compute-sanitizer --tool $tool $name" | tee -a "$out/sanitizer.log"
      compute-sanitizer --tool "$tool" "$sample" --small 2>&1 | tail -3 | tee -a "$out/sanitizer.log"
    done
  done
fi
if [ -x "$build/bench/carbide_bench" ]; then
  echo "== carbide_bench" | tee -a "$out/bench.log"
  "$build/bench/carbide_bench" "$out/bench.md" 2>&1 | tee -a "$out/bench.log" || status=1
fi
exit $status
