#!/usr/bin/env bash
# CMake's pre-build step with hostile names: a project in a folder, and a kernel file, whose
# names would run `touch MARKER` if any step handed them to a shell unquoted. Builds with the
# installed Carbide and GENERATOR, builds again (nothing to do, with make), and requires that the marker
# never appears and the outputs sit under the build tree (docs/security.md).
set -euo pipefail
build=$(cd "${1:?usage: hostile_names_test.sh BUILD_DIR GENERATOR}" && pwd)
generator=${2:?}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Every step runs in $work, so a name that ran `touch MARKER` would leave it there (a file name
# cannot hold the '/' of an absolute path). Three characters CMake itself cannot take in a path
# are left to tests/lit/security, which tries them on the command line: ';' (CMake lists split
# there), '$' and '|' (CMake 3.25 writes them into build.ninja and Makefiles unescaped: a plain
# add_executable of such a file, or in such a folder, fails to build).
cd "$work"
marker="$work/MARKER"
hostile='`touch MARKER` &touch MARKER& '"'"'q'"'"' é'
project="$work/proj $hostile"
mkdir -p "$project/config"
cp "$here/consumer/config/"* "$project/config/"
source_name="scale $hostile.cpp"
cp "$here/consumer/scale.cpp" "$project/$source_name"
cat > "$project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(hostile_names LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 17)
find_package(Carbide 0.1 REQUIRED)
add_executable(consumer [[$source_name]])
target_include_directories(consumer PRIVATE config)
target_compile_definitions(consumer PRIVATE CONSUMER_BLOCK=128)
carbide_add_kernels(consumer SOURCES [[$source_name]] CUDA_ARCHS 90)
CMAKE
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
step() {
  local log=$1; shift
  "$@" > "$log" 2>&1 || { echo "failed: $*"; cat "$log"; exit 1; }
}
step "$work/configure.log" cmake -S "$project" -B "$work/build" -G "$generator" -DCMAKE_PREFIX_PATH="$work/prefix"
step "$work/first.log" cmake --build "$work/build"
grep -qF "Carbide: translating" "$work/first.log" || { echo "the first build did not translate"; cat "$work/first.log"; exit 1; }
step "$work/second.log" cmake --build "$work/build"
# Ninja's depfile reader (1.11) ends a path at '`', '&' or "'", so under Ninja the translation
# runs again on every build; make reads the depfile whole.
if [[ $generator != Ninja ]] && grep -q "Carbide: translating" "$work/second.log"; then
  echo "an untouched tree translated again:"; cat "$work/second.log"; exit 1
fi
"$work/build/consumer"
test -f "$work/build/carbide/scale $hostile/scale $hostile.carbide.cpp" \
  || { echo "the stubs are not where carbide_add_kernels expects them"; find "$work/build/carbide"; exit 1; }
if [ -e "$marker" ]; then echo "a command ran: $marker exists"; exit 1; fi
echo "hostile names ($generator): built twice, nothing ran"
