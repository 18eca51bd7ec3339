#!/usr/bin/env bash
# Installs what Carbide builds with (Debian 12 packages; the CUDA toolkit is expected at
# /usr/local/cuda) and builds everything in Release into ./build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
packages=(cmake ninja-build g++ python3
          llvm-19-dev libclang-19-dev clang-19 clang-tools-19 clang-tidy-19 libclang-rt-19-dev
          libboost-program-options-dev libboost-context-dev googletest libgtest-dev
          python3-psutil  # lit's per-test time limit (--timeout)
          ccache  # the compiler launcher: a second build of the same sources hits its cache
          gdb)  # the CPU path's debugger test (tests/lit/cpu/gdb.test)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi
if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc > /dev/null; then
  echo "setup: nvcc not found; install the CUDA toolkit (13.0) at /usr/local/cuda" >&2
  exit 1
fi
cmake -S "$root" -B "$root/build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$root/build"
echo "setup: built $root/build. To use carbide from any directory:"
echo "  export PATH=\"$root/build/translator:$root/build:\$PATH\""
