// A contract error lands on the CARBIDE_LAUNCH_CONTRACT line, names the field, says what to
// write, and nothing is written.
// RUN: rm -rf %t && not %carbide_translate %s -o %t 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
// RUN: not ls %t
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, blok = (256, 1, 1))
void scale(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 2.f * in[idx.get()];
}
// CHECK: launch-contract-malformed.cpp:[[@LINE-5]]:1: error: launch contract of 'kernels::scale': unknown contract field 'blok'; did you mean 'block'? [carbide-launch-contract]

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kMissing, 1, 1))
void copy(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = in[idx.get()];
}
// CHECK: launch-contract-malformed.cpp:[[@LINE-5]]:1: error: launch contract of 'kernels::copy': 'kMissing' in 'block' is not usable: no declaration of that name is visible; use an integer literal or a constexpr integral variable [carbide-launch-contract]

constexpr unsigned kLimit = 1024;
struct Particle {
  float position[3];
  float mass;
};

// Constant expressions are values; one that divides by zero is an error at the contract.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kLimit / (kLimit - 1024), 1, 1))
void halve(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = 0.5f * in[idx.get()];
}
// CHECK: launch-contract-malformed.cpp:[[@LINE-5]]:1: error: launch contract of 'kernels::halve': 'block' divides by zero; fix the divisor [carbide-launch-contract]

// Good: expressions over constexpr names and sizeof, as C++ would evaluate them.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (kLimit / 4, 1, 1), dynamic_shared = (kLimit / 4) * sizeof(Particle))
void stage(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = in[idx.get()];
}

}  // namespace kernels
