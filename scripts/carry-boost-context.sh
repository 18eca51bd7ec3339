#!/usr/bin/env bash
# Lays out Boost.Context as a CMake package in DIR for a machine that lacks it (the GPU device
# image, docs/gpu-runs.md): Debian's libboost_context, its Context headers, and a config that
# BoostConfig.cmake finds with -DCMAKE_PREFIX_PATH=DIR. The library is the one `scripts/setup.sh`
# installed here (libboost-context1.74.0); where it is not installed, `apt-get download` fetches
# that package from Debian.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: carry-boost-context.sh DIR}
package=libboost-context1.74.0
rm -rf "$dir"
mkdir -p "$dir/lib" "$dir/include/boost" "$dir/lib/cmake/boost_context-carried"
library=$(dpkg -L "$package" 2>/dev/null | grep -E '/libboost_context\.so\.[0-9.]+$' | head -1 || true)
if [ -z "$library" ]; then
  scratch=$(mktemp -d)
  (cd "$scratch" && apt-get download "$package" > /dev/null && dpkg -x ./*.deb unpacked)
  library=$(find "$scratch/unpacked" -name 'libboost_context.so.*' | head -1)
fi
cp "$library" "$dir/lib/"
cp -r /usr/include/boost/context "$dir/include/boost/"
cp "$root"/cmake/carried/boost_context-config*.cmake "$dir/lib/cmake/boost_context-carried/"
echo "carry-boost-context: $(basename "$library") in $dir"
