#!/usr/bin/env bash
# Builds the sanitized fuzzing tree (build-fuzz: Clang 19, ASan + UBSan, libFuzzer) and fuzzes the
# translation pipeline for SECONDS (default 180), seeded from the tests and samples with
# Carbide's vocabulary as a dictionary. A crash, a sanitizer report, an input slower than 60 s or
# one that needs more than 4 GB fails the run; the input is left in build-fuzz/findings/.
#   scripts/fuzz.sh          # the short run CI makes
#   scripts/fuzz.sh 3600     # an hour
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-180}
build=$root/build-fuzz
mkdir -p "$build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only -DNDEBUG" \
  -DCMAKE_CXX_COMPILER=clang++-19 -DCARBIDE_FUZZ=ON \
  -DCARBIDE_BUILD_TESTS=OFF -DCARBIDE_BUILD_SAMPLES=OFF > "$build/configure.log" 2>&1 \
  || { tail -20 "$build/configure.log"; exit 1; }
cmake --build "$build" --target carbide_fuzz
corpus=$build/corpus
findings=$build/findings
mkdir -p "$corpus" "$findings"
# Seeds: every source the tests and samples hold (libFuzzer keeps the corpus it grows).
find "$root/tests/rules" "$root/tests/lit" "$root/tests/textbook" "$root/tests/fuzz/regressions" "$root/samples" \
  -name '*.cpp' -size -64k -exec cp -n {} "$corpus/" \;
# and sources under hostile names (the fuzzer's names mode: NAME\0INCLUDE FOLDER\0SOURCE).
cp -n "$root"/tests/fuzz/names/*.seed "$corpus/"
cd "$findings"
export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
# First every input a past run found a defect with (tests/fuzz/regressions), once each.
"$build/tests/fuzz/carbide_fuzz" "$root"/tests/fuzz/regressions/* -timeout=60 -rss_limit_mb=4096
"$build/tests/fuzz/carbide_fuzz" "$corpus" -dict="$root/tests/fuzz/carbide.dict" \
  -max_total_time="$seconds" -timeout=60 -rss_limit_mb=4096 -max_len=16384 \
  -print_final_stats=1 -artifact_prefix="$findings/"
echo "fuzz: ${seconds} s, no crash, hang or sanitizer report"
