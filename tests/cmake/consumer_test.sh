#!/usr/bin/env bash
# Builds tests/cmake/consumer against Carbide one way (an installed package, or the source tree
# through add_subdirectory with this build's translator) with one CMake generator, then checks
# the pre-build step: a second build translates nothing; touching a header the kernel file
# includes translates again.
set -euo pipefail
build=${1:?usage: consumer_test.sh BUILD_DIR installed|subdirectory GENERATOR}
mode=${2:?}
generator=${3:?}
here=$(cd "$(dirname "$0")" && pwd)
source_root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$here/consumer" "$work/consumer"
case $mode in
  installed)
    cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
    take_in=(-DCMAKE_PREFIX_PATH="$work/prefix") ;;
  subdirectory)
    take_in=(-DCARBIDE_SOURCE_DIR="$source_root" -DCARBIDE_BUILD_TRANSLATOR=OFF
             -DCARBIDE_TRANSLATOR="$build/translator/carbide") ;;
  *) echo "unknown mode $mode"; exit 2 ;;
esac
# Runs a step quietly; on failure shows its log.
step() {
  local log=$1; shift
  "$@" > "$log" 2>&1 || { echo "failed: $*"; cat "$log"; exit 1; }
}
step "$work/configure.log" cmake -S "$work/consumer" -B "$work/build" -G "$generator" "${take_in[@]}"
step "$work/first.log" cmake --build "$work/build"
grep -q "Carbide: translating scale.cpp" "$work/first.log" || { echo "first build did not translate"; cat "$work/first.log"; exit 1; }
"$work/build/consumer"
ptx=$(find "$work/build" -name scale.ptx | head -1)
grep -q '\.loc' "$ptx" || { echo "DEBUG gave no line information in $ptx"; exit 1; }
step "$work/second.log" cmake --build "$work/build"
if grep -q "Carbide: translating\|Building CXX" "$work/second.log"; then
  echo "an untouched tree did work again:"; cat "$work/second.log"; exit 1
fi
sleep 1
touch "$work/consumer/config/scale_config.hpp"
step "$work/third.log" cmake --build "$work/build"
grep -q "Carbide: translating scale.cpp" "$work/third.log" || { echo "a header edit did not translate"; cat "$work/third.log"; exit 1; }
if [[ $mode == installed ]]; then
  # SARIF's helpUri names the installed copy of each rule page.
  "$work/prefix/bin/carbide" check "$work/consumer/scale.cpp" -p "$work/build" --format sarif > "$work/scale.sarif"
  python3 - "$work/scale.sarif" "$work/prefix/share/doc/carbide/rules" <<'EOF'
import json, os, sys, urllib.parse, urllib.request
pages = os.path.realpath(sys.argv[2])
for rule in json.load(open(sys.argv[1]))["runs"][0]["tool"]["driver"]["rules"]:
    path = urllib.request.url2pathname(urllib.parse.urlparse(rule["helpUri"]).path)
    if os.path.dirname(os.path.realpath(path)) != pages or not os.path.isfile(path):
        sys.exit(f"helpUri of {rule['id']} is not the installed page: {rule['helpUri']}")
EOF
fi
if [[ $mode == installed && -x "$work/prefix/bin/carbide-tidy" ]]; then
  "$work/prefix/bin/carbide-tidy" --checks='-*,carbide-*' --warnings-as-errors='carbide-*' --quiet \
    -p "$work/build" "$work/consumer/scale.cpp" > "$work/tidy.log" 2>&1 \
    || { echo "the installed carbide-tidy failed on a clean file:"; cat "$work/tidy.log"; exit 1; }
fi
echo "consumer ($mode, $generator): built, re-translated only on change"
