#!/usr/bin/env bash
# carbide check on a ~2,000-line file of many kernels (with host launches, so the two-pass parse
# runs) against clang++-19 -fsyntax-only on the same file, median of 5 runs each.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
carbide=${CARBIDE:-$root/build/translator/carbide}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$root/bench/gen_many_kernels.py" 2000 > "$work/many.cpp"
# clang++ alone cannot see the generated API, so it gets the header carbide would generate.
"$carbide" translate "$work/many.cpp" -o "$work/gen" 2> /dev/null
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
time_of() { local s e; s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N); echo "$e - $s" | bc; }
for i in 1 2 3 4 5; do time_of "$carbide" check "$work/many.cpp"; done | median > "$work/carbide"
for i in 1 2 3 4 5; do
  time_of clang++-19 -std=c++17 -fsyntax-only -I"$root/runtime/include" -include "$work/gen/many.carbide.hpp" "$work/many.cpp"
done | median > "$work/clang"
lines=$(wc -l < "$work/many.cpp")
kernels=$(grep -c CARBIDE_KERNEL "$work/many.cpp")
c=$(cat "$work/carbide"); k=$(cat "$work/clang")
printf 'file: %s lines, %s kernels\ncarbide check: %.3f s\nclang++-19 -fsyntax-only: %.3f s\nratio: %.2f\n' \
  "$lines" "$kernels" "$c" "$k" "$(echo "$c / $k" | bc -l)"
