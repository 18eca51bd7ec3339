#!/usr/bin/env bash
# programs_without_device.sh [--reason TEXT] CARBIDE_DEVICES PROGRAM...
# Without a usable CUDA device, each GPU-only Carbide program (one that asks for
# Context::create(n)) must end the way a user can read: exit status 1, exactly one line on
# stderr, "<program>: error: " and the reason carbide-devices gives ("no CUDA device: the CUDA
# driver (libcuda.so.1) is not installed"), nothing on stdout, and no abort or core dump. With a
# device it exits 77, which ctest shows as skipped (scripts/gpu-check.sh runs them there).
# --reason: carbide-devices must give exactly that reason (a fake driver's).
set -uo pipefail
reason=""
if [[ ${1:-} == --reason ]]; then reason=$2; shift 2; fi
devices=${1:?usage: programs_without_device.sh [--reason TEXT] CARBIDE_DEVICES PROGRAM...}
shift
[[ $# -gt 0 ]] || { echo "no program to run"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ulimit -c 0  # an abort must not leave a core file behind, whatever the test's verdict

failed=0
if listing=$("$devices"); then
  echo "a CUDA device is usable ($listing): nothing to check without one"
  exit 77
fi

if [[ -n $reason && $listing != "no CUDA device: $reason" ]]; then
  printf 'carbide-devices says: %s\nwant:                 no CUDA device: %s\n' "$listing" "$reason"
  exit 1
fi
for program in "$@"; do
  name=$(basename "$program")
  expected="$name: error: $listing"
  timeout 120 "$program" > "$work/stdout" 2> "$work/stderr"
  status=$?
  stderr=$(cat "$work/stderr")
  if [[ $status -eq 1 && $stderr == "$expected" && ! -s $work/stdout ]]; then
    echo "ok   $name: exit status 1, stderr: $stderr"
  else
    failed=1
    echo "FAIL $name: exit status $status$([[ $status -eq 1 ]] || echo ' (want 1)')"
    [[ $stderr == "$expected" ]] || printf '  stderr: %s\n  want:   %s\n' "$stderr" "$expected"
    [[ ! -s $work/stdout ]] || { echo "  stdout (want nothing):"; cat "$work/stdout"; }
  fi
done
exit $failed
