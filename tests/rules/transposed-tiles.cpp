// thread::index_2d_transposed(): the rules that keep a block's tile at transposed coordinates
// exclusive. The witness is a witness (carbide-witness-escape), a 2-D one (carbide-launch-contract),
// and its block order is part of a view's form (carbide-disjoint-foreign-write): tile (r, c) of
// index_2d() is another block's tile under index_2d_transposed(). A claimed view must be a kernel
// parameter, the only thing the launch can check against the grid.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

// Both block orders on one view: block (0, 1) and block (1, 0) would both own tile (0, 1).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1))
void both_orders(carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();
  auto swapped = carbide::thread::index_2d_transposed();
  if (auto mine = out.get_mut_strided_tile<4, 1>(own)) mine.store(0, 0, 1.f);
  if (auto theirs = out.get_mut_strided_tile<4, 1>(swapped)) theirs.store(0, 0, 2.f);
  // CHECK: transposed-tiles.cpp:[[@LINE-1]]:21: error: 'out.get_mut_strided_tile<4, 1>(swapped)' claims 'out' as 'get_mut_strided_tile<4, 1> at transposed block coordinates' after 'out.get_mut_strided_tile<4, 1>(own)' claimed it as 'get_mut_strided_tile<4, 1>'; the two forms give some elements to two threads. Claim every piece of 'out' the same way [carbide-disjoint-foreign-write]
  // CHECK: transposed-tiles.cpp:[[@LINE-3]]:19: note: the other form
}

// The other order inside a helper the view is passed to.
void write_swapped(carbide::disjoint_span2d<float> target,
                   const carbide::thread::index_2d_transposed_witness& swapped) {
  if (float* e = target.get_mut(swapped)) *e = 2.f;
}
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1))
void helper_order(carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();
  if (float* e = out.get_mut(own)) *e = 1.f;
  write_swapped(out, carbide::thread::index_2d_transposed());
  // CHECK: transposed-tiles.cpp:[[@LINE-1]]:3: error: 'write_swapped(out, carbide::thread::index_2d_transposed())' claims 'out' as 'get_mut at transposed block coordinates' (through 'target.get_mut(swapped)') after 'out.get_mut(own)' claimed it as 'get_mut'
  // CHECK: note: the other form
  // CHECK: note: the claim in the helper
}

// A local copy of the view is the view it copies: the launch checks the parameter's tile grid
// (no finding).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1))
void copied_view(carbide::disjoint_span2d<float> out) {
  auto swapped = carbide::thread::index_2d_transposed();
  carbide::disjoint_span2d<float> copy = out;
  if (float* e = copy.get_mut(swapped)) *e = 1.f;
}

// A 2-D witness under a 1-D contract.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void flat_contract(carbide::disjoint_span2d<float> out) {
  auto swapped = carbide::thread::index_2d_transposed();
  if (float* e = out.get_mut(swapped)) *e = 1.f;
}
// CHECK: transposed-tiles.cpp:[[@LINE-5]]:1: error: launch contract of 'kernels::flat_contract': domain = 1 but the kernel uses index_2d_transposed(); write domain = 2 or use the matching witness [carbide-launch-contract]
// CHECK: transposed-tiles.cpp:[[@LINE-4]]:18: note: index_2d_transposed() used here

// The witness stays with its thread.
struct Cursor {
  const carbide::thread::index_2d_transposed_witness& at;
};
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1))
void stored_witness(carbide::disjoint_span2d<float> out) {
  auto swapped = carbide::thread::index_2d_transposed();
  Cursor cursor{swapped};
  // CHECK: transposed-tiles.cpp:[[@LINE-1]]:17: error: witness 'swapped' is stored in an object; keep witnesses in local variables and pass them by 'const&' [carbide-witness-escape]
  auto later = [&swapped] { return swapped.row(); };
  // CHECK: transposed-tiles.cpp:[[@LINE-1]]:18: error: witness 'swapped' is captured by reference
  if (float* e = out.get_mut(swapped)) *e = float(later() + cursor.at.col());
}

}  // namespace kernels
