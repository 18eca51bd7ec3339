#!/usr/bin/env bash
# Installs Carbide from BUILD_DIR, builds tests/cmake/consumer against it with find_package, then
# checks the pre-build step: a second build translates nothing; touching a header the kernel
# file includes translates again.
set -euo pipefail
build=${1:?usage: consumer_test.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cp -r "$here/consumer" "$work/consumer"
cmake -S "$work/consumer" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log"
cmake --build "$work/build" > "$work/first.log"
grep -q "Carbide: translating scale.cpp" "$work/first.log" || { echo "first build did not translate"; cat "$work/first.log"; exit 1; }
"$work/build/consumer"
cmake --build "$work/build" > "$work/second.log"
if grep -q "Carbide: translating" "$work/second.log"; then echo "an untouched tree translated again"; exit 1; fi
grep -q "no work to do" "$work/second.log" || { echo "second build did work:"; cat "$work/second.log"; exit 1; }
sleep 1
touch "$work/consumer/scale_config.hpp"
cmake --build "$work/build" > "$work/third.log"
grep -q "Carbide: translating scale.cpp" "$work/third.log" || { echo "a header edit did not translate"; cat "$work/third.log"; exit 1; }
echo "consumer: installed package found, built, re-translated only on change"
