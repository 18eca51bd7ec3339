#!/usr/bin/env bash
# on_gpu.sh DEVICE_PROBE TEST_BINARY: every test of a GPU test binary on GPU 0 (ctest's
# gpu.<binary>). Without a usable CUDA device it says why and exits 77, which ctest shows as one
# skipped test: the same tests run on the CPU context as cpu.* (tests/gpu/CMakeLists.txt).
set -uo pipefail
reason=$("${1:?usage: on_gpu.sh DEVICE_PROBE TEST_BINARY}")
if [[ -n $reason ]]; then
  echo "no CUDA device: $reason"
  exit 77
fi
exec env -u CARBIDE_DEVICE "${2:?usage: on_gpu.sh DEVICE_PROBE TEST_BINARY}"
