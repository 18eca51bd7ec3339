#!/usr/bin/env bash
# Fills .carry/ (ignored by git, sent with the device tool's `carry`) with what a GPU run on the
# device image needs and the image lacks (docs/gpu-runs.md):
#   .carry/gen            every kernel source translated (scripts/pregenerate.sh): the image has no LLVM
#   .carry/googletest     GoogleTest's sources, built there with the tests
#   .carry/boost-context  Boost.Context as a CMake package (scripts/carry-boost-context.sh)
# Then, in one device call: bash scripts/gpu-check.sh (or gpu-tile-check.sh), carry [".carry"].
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
carry=$root/.carry
mkdir -p "$carry"
rm -rf "$carry/gen" "$carry/googletest"
bash "$root/scripts/pregenerate.sh" "$carry/gen"
cp -r /usr/src/googletest "$carry/googletest"
bash "$root/scripts/carry-boost-context.sh" "$carry/boost-context"
du -sh "$carry" | sed 's/^/prepare-gpu-run: /'
