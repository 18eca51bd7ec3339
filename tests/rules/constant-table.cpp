// carbide-constant-table: CARBIDE_CONSTANT tables that cannot live in the device's constant memory
// (const, unsized, of records, too large, outside the kernels' namespace, in an anonymous one), a
// table written by device code (carbide-global-write), and host code that uses a table's host copy.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

struct Coefficients {
  float a, b;
};

CARBIDE_CONSTANT const float fixed[4] = {1.f, 2.f, 3.f, 4.f};
// CHECK: constant-table.cpp:[[@LINE-1]]:30: error: 'fixed' cannot be a constant table: a constant table is set by the host, so it is not const; for a table fixed when the program is compiled, write constexpr instead of CARBIDE_CONSTANT [carbide-constant-table]
CARBIDE_CONSTANT Coefficients records[8];
// CHECK: constant-table.cpp:[[@LINE-1]]:31: error: 'records' cannot be a constant table: its elements are 'Coefficients': a constant table holds numbers or CUDA's vector types (float4, uint2); pass a record to the kernel as an argument instead [carbide-constant-table]
CARBIDE_CONSTANT float huge[20000];
// CHECK: constant-table.cpp:[[@LINE-1]]:24: error: 'huge' cannot be a constant table: it takes 80000 bytes, and the device's constant memory holds 65536; pass a table this large as a carbide::span<const T> [carbide-constant-table]
CARBIDE_CONSTANT float taps[17];

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void smooth(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  taps[0] = 0.f;
  // CHECK: constant-table.cpp:[[@LINE-1]]:3: error: device code writes the constant table 'taps', which kernels only read; set it from host code with module.set_taps(stream, values) before the launch [carbide-global-write]
  // CHECK: constant-table.cpp:20:24: note: 'taps' declared here
  if (float* o = out.get_mut(idx)) *o = in[idx.get()] * taps[idx.get() % 17];
}

}  // namespace kernels

namespace tables {
CARBIDE_CONSTANT float orphan[4];
// CHECK: constant-table.cpp:[[@LINE-1]]:24: error: 'orphan' cannot be a constant table: no kernel is declared in its namespace, so no module sets it; declare it in the namespace of the kernels that read it [carbide-constant-table]
}  // namespace tables

namespace {
CARBIDE_CONSTANT float hidden[4];
// CHECK: constant-table.cpp:[[@LINE-1]]:24: error: 'hidden' cannot be a constant table: a constant table in an anonymous namespace has no name the driver can find; move it into a named namespace, beside the kernels that read it [carbide-constant-table]
}  // namespace

float host_sum() {
  float sum = sizeof(kernels::taps) > 0 ? 0.f : 1.f;  // sizeof reads no value
  for (float tap : kernels::taps) sum += tap;
  // CHECK: constant-table.cpp:[[@LINE-1]]:29: error: host code uses the constant table 'taps', whose host copy no kernel reads; set the table with module.set_taps(stream, values), and keep the host's values in a variable of its own [carbide-constant-table]
  // CHECK: note: 'taps' declared here
  return sum;
}
