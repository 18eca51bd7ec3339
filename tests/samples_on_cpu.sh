#!/usr/bin/env bash
# samples_on_cpu.sh [--reason TEXT] CARBIDE_DEVICES PROGRAM...
# Every program runs its kernels on the CPU context to a PASSED line (DESIGN §11): with
# CARBIDE_DEVICE=cpu on any machine, and, where no GPU is usable, with nothing set, when
# Context::create_default falls back to the CPU saying why. Either way stderr holds exactly
# create_default's one-line notice: a failed run-time check would add its report there.
# --reason: carbide-devices must give exactly that reason (a fake driver's), and the fallback's
# notice with it.
set -uo pipefail
reason=""
if [[ ${1:-} == --reason ]]; then reason=$2; shift 2; fi
devices=${1:?usage: samples_on_cpu.sh [--reason TEXT] CARBIDE_DEVICES PROGRAM...}
shift
[[ $# -gt 0 ]] || { echo "no program to run"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ulimit -c 0

failed=0
# run LABEL EXPECTED_NOTICE PROGRAM [ENV...]
run() {
  local label=$1 notice=$2 program=$3
  shift 3
  env "$@" timeout 300 "$program" > "$work/stdout" 2> "$work/stderr"
  local status=$?
  if [[ $status -eq 0 ]] && grep -q '^PASSED' "$work/stdout" && [[ $(cat "$work/stderr") == "$notice" ]]; then
    echo "ok   $(basename "$program") ($label): $(grep -c '^PASSED' "$work/stdout") PASSED"
  else
    failed=1
    echo "FAIL $(basename "$program") ($label): exit status $status"
    cat "$work/stdout"
    echo "  stderr:"; cat "$work/stderr"
    echo "  want on stderr only: $notice"
  fi
}

for program in "$@"; do
  run "CARBIDE_DEVICE=cpu" "carbide: running kernels on the CPU (CARBIDE_DEVICE=cpu)" "$program" CARBIDE_DEVICE=cpu
done

if listing=$("$devices"); then
  echo "a CUDA device is usable ($listing): the fallback without CARBIDE_DEVICE is not checked here"
  exit $failed
fi
if [[ -n $reason && $listing != "no CUDA device: $reason" ]]; then
  printf 'carbide-devices says: %s\nwant:                 no CUDA device: %s\n' "$listing" "$reason"
  exit 1
fi
for program in "$@"; do
  run "no GPU, CARBIDE_DEVICE unset" "carbide: ${listing%%:*} (${listing#*: }); running kernels on the CPU" \
    "$program" -u CARBIDE_DEVICE
done
exit $failed
