#!/usr/bin/env bash
# A project opened in an editor right after configuring: the API header carbide_add_kernels
# force-includes already exists (a placeholder), so clangd reads the file and reports only the
# module API the first build will declare, not the cascade a missing forced include causes. The
# first build replaces the placeholder; configuring again leaves the real header alone.
set -euo pipefail
build=${1:?usage: first_open_test.sh BUILD_DIR CLANGD}
clangd=${2:?}
here=$(cd "$(dirname "$0")" && pwd)
source_root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$here/consumer" "$work/consumer"
header="$work/build/carbide/scale/scale.carbide.hpp"
stubs="$work/build/carbide/scale/scale.carbide.cpp"

fail() { echo "$1"; [[ $# -lt 2 ]] || cat "$2"; exit 1; }
configure() {
  cmake -S "$work/consumer" -B "$work/build" -G Ninja -DCARBIDE_SOURCE_DIR="$source_root" \
    -DCARBIDE_BUILD_TRANSLATOR=OFF -DCARBIDE_TRANSLATOR="$build/translator/carbide" \
    > "$work/configure.log" 2>&1 || fail "configure failed:" "$work/configure.log"
}
# Sets `errors` to the messages of the errors clangd finds in scale.cpp, one a line.
read_with_clangd() {
  "$clangd" --check="$work/consumer/scale.cpp" --compile-commands-dir="$work/build" > "$work/clangd.log" 2>&1 || true
  grep -q "All checks completed" "$work/clangd.log" || fail "clangd did not finish:" "$work/clangd.log"
  errors=$(sed -n 's/^E\[[^]]*\] \[[a-z_]*\] Line [0-9]*: //p' "$work/clangd.log")
}

configure
[[ -f $header ]] || fail "configuring wrote no $header"
grep -q "not translated yet" "$header" || fail "the header after configuring is not the placeholder:" "$header"
[[ ! -e $stubs ]] || fail "configuring translated: $stubs exists"
read_with_clangd
[[ $errors == "no member named 'load' in namespace 'kernels'" ]] \
  || fail "before the first build, clangd should find only the undeclared module API; it found:
$errors" "$work/clangd.log"

cmake --build "$work/build" > "$work/build.log" 2>&1 || fail "the first build failed:" "$work/build.log"
! grep -q "not translated yet" "$header" || fail "the first build left the placeholder in $header"
read_with_clangd
[[ -z $errors ]] || fail "after the first build, clangd found errors:
$errors" "$work/clangd.log"

touch "$work/consumer/CMakeLists.txt"
configure
! grep -q "not translated yet" "$header" || fail "configuring again put the placeholder back over the API header"
echo "clangd before and after the first build: the forced include resolves, only the API is missing"
