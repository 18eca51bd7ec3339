// A file without kernels is not an error: a note says so and nothing is written.
// RUN: rm -rf %t && %carbide_translate %s -o %t 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: not ls %t
// CHECK: no-kernel.cpp: note: no CARBIDE_KERNEL or CARBIDE_TILE_KERNEL in this file; nothing was written
#include <carbide/carbide.hpp>

int main() { return 0; }
