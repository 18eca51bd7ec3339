#!/usr/bin/env bash
# The random-kernel tester (tests/soundness_fuzz/random_kernels.py) for SECONDS (default 120),
# from seed FIRST (default 1) on, against this build (scripts/setup.sh first). An accepted kernel
# whose CPU run reports a race or a divergent barrier or collective fails the run; its reduced
# form is left in build/soundness-fuzz/findings/.
#   scripts/soundness-fuzz.sh            # two minutes
#   scripts/soundness-fuzz.sh 3600 1000  # an hour, from seed 1000
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-120}
first=${2:-1}
build=$root/build
work=$build/soundness-fuzz
rm -rf "$work" && mkdir -p "$work"
# Its own copy of carbide (laid out as installed, so that it reads the copied headers), the
# headers and the runtime: a build or an edit of the tree during an hour's run cannot change what
# it tests halfway (one did, and the headers it read stopped compiling for two minutes).
frozen=$work/frozen
mkdir -p "$frozen/bin" "$frozen/lib"
cp "$build/translator/carbide" "$frozen/bin/"
cp -r "$root/runtime/include" "$frozen/include"
cp "$build/runtime/libcarbide_runtime.a" "$frozen/lib/"
exec python3 "$root/tests/soundness_fuzz/random_kernels.py" "$frozen/bin/carbide" "$(command -v c++)" \
  "$frozen/include" "$frozen/lib/libcarbide_runtime.a -lboost_context -pthread" "$work" \
  --seeds "$first-$((first + 1000000))" --seconds "$seconds"
