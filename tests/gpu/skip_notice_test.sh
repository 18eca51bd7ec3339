#!/usr/bin/env bash
# ctest's normal output says why the GPU tests skip. Without a usable device: runs the gpu.* runs
# of the GPU test binaries through ctest as the README does and checks that both skip, that none
# passes, and that ctest's output names the probe's reason and the number of cpu.* tests that run
# the same tests on the CPU. With a device: checks that ctest says nothing of skipping.
set -euo pipefail
ctest=${1:?usage: skip_notice_test.sh CTEST GPU_TEST_BUILD_DIR DEVICE_PROBE}
gpu_build=${2:?}
probe=${3:?}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "$1"; [[ $# -lt 2 ]] || cat "$2"; exit 1; }

reason=$("$probe")
if [[ -n $reason ]]; then
  # The GPU tests' gpu.* runs (their cpu.* runs are tests of their own).
  "$ctest" --test-dir "$gpu_build" -R '^gpu[.]' > "$work/ctest.log" 2>&1 \
    || fail "the GPU tests failed without a device:" "$work/ctest.log"
  skipped=$(grep -c '\*\*\*Skipped' "$work/ctest.log" || true)
  ! grep -q ' Passed ' "$work/ctest.log" || fail "a GPU test passed without a device:" "$work/ctest.log"
  [[ $skipped -gt 0 ]] || fail "no GPU test skipped without a device:" "$work/ctest.log"
  cpu_tests=$("$ctest" --test-dir "$gpu_build" -N -R '^cpu[.]' | sed -n 's/^Total Tests: //p')
  [[ $skipped -eq 2 ]] || fail "want the two gpu.* binaries skipped, got $skipped:" "$work/ctest.log"
  notice="GPU tests: gpu.carbide_gpu_tests and gpu.carbide_tensor_gpu_tests skip: no CUDA device: $reason; their $cpu_tests tests run on the CPU as cpu.*"
  grep -qxF "$notice" "$work/ctest.log" || fail "ctest's output lacks the line
  $notice" "$work/ctest.log"
  echo "ctest says: $notice"
else
  "$ctest" --test-dir "$gpu_build" -N > "$work/ctest.log" 2>&1 || fail "ctest -N failed:" "$work/ctest.log"
  ! grep -q '^GPU tests:' "$work/ctest.log" || fail "a device is usable, yet ctest says:" "$work/ctest.log"
  echo "a CUDA device is usable; ctest says nothing of skipped GPU tests"
fi
