#!/usr/bin/env bash
# On a GPU machine without LLVM: builds the runtime, the samples and the tests from files
# translated elsewhere (scripts/pregenerate.sh), runs every test and every sample, and writes
# the logs to $OUT (or ./gpu-logs). CTEST=0, SAMPLES=0, SANITIZE=0 or BENCH=0 leave a step out,
# for a device call that must end in time; the build (build-gpu-check/) stays for the next call on
# a warm machine.
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
build=$root/build-gpu-check
{
  date -u +"%Y-%m-%dT%H:%MZ"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv
  nvcc --version | tail -2
} 2>&1 | tee "$out/machine.txt"
cmake -S "$root" -B "$build" -G Ninja -DCARBIDE_BUILD_TRANSLATOR=OFF \
  -DCARBIDE_PREGENERATED_DIR="$gen" -DCARBIDE_GTEST_SOURCE_DIR="$gtest" "${prefix_path[@]}" > "$out/configure.log" 2>&1 \
  || { tail -30 "$out/configure.log"; exit 1; }
cmake --build "$build" -j 16 > "$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
status=0
if [ "${CTEST:-1}" = 1 ]; then
  (cd "$build" && ctest --output-on-failure -j 16 2>&1) | tee "$out/ctest.log" | tail -15 || status=1
  grep -q "tests passed" "$out/ctest.log" || status=1
fi
samples=()
for dir in "$build"/samples/*/; do
  name=$(basename "$dir")
  [ -x "$dir/$name" ] && samples+=("$dir/$name")
done
if [ "${SAMPLES:-1}" = 1 ]; then
  for sample in "${samples[@]}"; do
    name=$(basename "$sample")
    echo "== sample $name" | tee -a "$out/samples.log"
    "$sample" 2>&1 | tee -a "$out/samples.log" || status=1
  done
fi
if [ "${SANITIZE:-1}" = 1 ] && command -v compute-sanitizer > /dev/null; then
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
if [ "${BENCH:-1}" = 1 ] && [ -x "$build/bench/carbide_bench" ]; then
  echo "== carbide_bench" | tee -a "$out/bench.log"
  # The clocks while the bench runs, sampled every 200 ms, summarized under the table.
  nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv,noheader,nounits \
    -lms 200 > "$out/clocks.csv" 2>/dev/null &
  sampler=$!
  "$build/bench/carbide_bench" "$out/bench.md" 2>&1 | tee -a "$out/bench.log" || status=1
  kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
  # SM clock, memory clock, power, temperature; only samples taken while a kernel ran (SM > 1 GHz).
  awk -F', *' 'NF >= 4 && $1 > 1000 {print $1, $2, $3, $4}' "$out/clocks.csv" | sort -n |
    awk '{sm[NR] = $1; mem = $2; if ($3 > power) power = $3; if ($4 > hot) hot = $4}
      END {if (NR) printf "\nClocks under load (%d samples of 200 ms with the SM above 1 GHz): SM median %d MHz (%d-%d), memory %d MHz, power up to %.0f W, up to %d C.\n",
                          NR, sm[int((NR + 1) / 2)], sm[1], sm[NR], mem, power, hot}' | tee -a "$out/bench.md"
fi
exit $status
