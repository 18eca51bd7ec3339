// carbide-disjoint-foreign-write: the pointer get_mut returns reaches one element only.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

// A 3-point smoothing written by writing the neighbours too.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void smear(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* c_elem = out.get_mut(idx)) {
    *c_elem = in[idx.get()];
    c_elem[1] = 0.5f * in[idx.get()];
    // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:5: error: 'c_elem[1]' reaches past the element that 'out.get_mut(idx)' gave this thread; that element belongs to another thread [carbide-disjoint-foreign-write]
    // CHECK: disjoint-foreign-write.cpp:[[@LINE-6]]:73: note: 'out' is a carbide::disjoint_span: each thread owns exactly one element
  }
}

// A histogram-like scatter through pointer arithmetic.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void scatter(carbide::span<const int> offsets, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  float* slot = out.get_mut(idx);
  if (slot == nullptr) return;
  float* target = slot + offsets[idx.get()];
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:19: error: 'slot + offsets[idx.get()]' moves away from the element that 'out.get_mut(idx)' gave this thread
  // CHECK: note: 'out' is a carbide::disjoint_span
  ++slot;
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:3: error: '++slot' moves away from the element
  // CHECK: note: 'out' is a carbide::disjoint_span
  *slot = 1.f;
  // One fault, one finding: the writes through the moved pointers are not also raw-pointer
  // dereferences for carbide-unsafe-required.
  *target = 2.f;
  *(out.get_mut(idx) + 1) = 3.f;
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:5: error: 'out.get_mut(idx) + 1' moves away from the element
  // CHECK: note: 'out' is a carbide::disjoint_span
}

// Two ownership forms on one view: thread 1's element lies in thread 0's chunk of four.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void mixed_forms(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* e = out.get_mut(idx)) *e = in[idx.get()];
  if (auto mine = out.get_mut_chunk<4>(idx)) mine.store(carbide::vec<float, 4>{});
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:19: error: 'out.get_mut_chunk<4>(idx)' claims 'out' as 'get_mut_chunk<4>' after 'out.get_mut(idx)' claimed it as 'get_mut'; the two forms give some elements to two threads. Claim every piece of 'out' the same way [carbide-disjoint-foreign-write]
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-3]]:18: note: the other form
  if (auto wider = out.get_mut_chunk<8>(idx)) wider.store(carbide::vec<float, 8>{});
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:20: error: 'out.get_mut_chunk<8>(idx)' claims 'out' as 'get_mut_chunk<8>' after 'out.get_mut(idx)'
  // CHECK: note: the other form
}

// The second form in a helper the view is passed to.
void zero_chunk(carbide::disjoint_span<float> target, const carbide::thread::index_1d_witness& idx) {
  if (auto mine = target.get_mut_chunk<4>(idx)) mine.store(carbide::vec<float, 4>{});
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void mixed_through_helper(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* e = out.get_mut(idx)) *e = in[idx.get()];
  zero_chunk(out, idx);
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:3: error: 'zero_chunk(out, idx)' claims 'out' as 'get_mut_chunk<4>' (through 'target.get_mut_chunk<4>(idx)') after 'out.get_mut(idx)' claimed it as 'get_mut'
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-3]]:18: note: the other form
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-11]]:19: note: the claim in the helper
}

// Butterfly pairs: the stride must be one value for every thread and the whole kernel.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void pairs_over_strides(carbide::disjoint_span<float> data, unsigned n) {
  auto idx = carbide::thread::index_1d();
  // With no grid-wide barrier, the next iteration's pairs overlap other threads' pairs of this one.
  for (unsigned stride = 1; stride < n; stride *= 2)
    if (auto p = data.get_mut_pair(idx, stride)) p.first() += p.second();
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:41: error: the stride 'stride' of 'data.get_mut_pair(idx, stride)' may differ between threads or change while the kernel runs, and claims with two different values share elements; pass a kernel parameter, a constant, or a local computed only from those (one launch per value); a helper's parameter counts where every call of the helper passes one [carbide-disjoint-foreign-write]
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void pair_stride_per_thread(carbide::disjoint_span<float> data) {
  auto idx = carbide::thread::index_1d();
  const std::size_t stride = std::size_t(1) << (idx.get() % 4);
  if (auto p = data.get_mut_pair(idx, stride)) p.first() = 0.f;
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:39: error: the stride 'stride' of 'data.get_mut_pair(idx, stride)' may differ between threads{{.*}} [carbide-disjoint-foreign-write]
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void two_pair_strides(carbide::disjoint_span<float> data, unsigned s) {
  auto idx = carbide::thread::index_1d();
  if (auto p = data.get_mut_pair(idx, s)) p.first() = 0.f;
  if (auto q = data.get_mut_pair(idx, 2 * s)) q.first() = 0.f;
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:16: error: 'data.get_mut_pair(idx, 2 * s)' claims 'data' as 'get_mut_pair(stride 2 * s)' after 'data.get_mut_pair(idx, s)' claimed it as 'get_mut_pair(stride s)'; the two forms give some elements to two threads. Claim every piece of 'data' the same way [carbide-disjoint-foreign-write]
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-3]]:16: note: the other form
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void radix_over_strides(carbide::disjoint_span<float> data, unsigned n) {
  auto idx = carbide::thread::index_1d();
  for (unsigned stride = 1; stride < n; stride *= 4)
    if (auto four = data.get_mut_radix<4>(idx, stride)) four[0] += four[3];
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:48: error: the stride 'stride' of 'data.get_mut_radix<4>(idx, stride)' may differ between threads{{.*}} [carbide-disjoint-foreign-write]
}

// Good: a radix-4 stage at the launch's stride.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void radix4_stage(carbide::disjoint_span<float> data, unsigned stride) {
  auto idx = carbide::thread::index_1d();
  if (auto four = data.get_mut_radix<4>(idx, stride)) {
    const float a = four[0], b = four[1];
    four[0] = a + b;
    four[1] = a - b;
  }
}

// Block outputs: the region size must be one value for the launch; the leader's element is
// its own.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (192, 1, 1))
void regions_by_block(carbide::disjoint_span<unsigned> bins) {
  auto lid = carbide::thread::local_index();
  const unsigned n = 256 + carbide::thread::block_idx().x;
  if (auto mine = bins.get_mut_block_region(lid, n)) mine[0] = 0;
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:50: error: the region size 'n' of 'bins.get_mut_block_region(lid, n)' may differ between threads{{.*}} [carbide-disjoint-foreign-write]
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void leader_reaches_next_block(carbide::disjoint_span<float> partials) {
  auto lid = carbide::thread::local_index();
  if (float* total = partials.get_mut_block(lid)) total[1] = 0.f;
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:51: error: 'total[1]' reaches past the element that 'partials.get_mut_block(lid)' gave this thread; that element belongs to another thread [carbide-disjoint-foreign-write]
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-4]]:62: note: 'partials' is a carbide::disjoint_span: each thread owns exactly one element
}

// Good: a block's 256 bins dealt out to its 192 threads, and one partial per block.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (192, 1, 1))
void block_outputs(carbide::disjoint_span<unsigned> bins, carbide::disjoint_span<unsigned> totals) {
  auto lid = carbide::thread::local_index();
  auto counts = carbide::block::shared<unsigned, 256>();
  for (unsigned bin = lid.get(); bin < 256; bin += 192) counts[bin] = bin;
  carbide::block::sync();
  if (auto mine = bins.get_mut_block_region(lid, 256))
    for (unsigned k = 0; k < mine.count(); ++k) mine[k] = counts[mine.index(k)];
  if (unsigned* total = totals.get_mut_block(lid)) *total = counts[0] + counts[255];
}

// Good: a bitonic merge step, in place, at the launch's stride; a constant stride; a local
// computed from the parameters.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void bitonic_merge_step(carbide::disjoint_span<unsigned> keys, unsigned size, unsigned stride) {
  auto idx = carbide::thread::index_1d();
  if (auto pair = keys.get_mut_pair(idx, stride)) {
    const bool ascending = (pair.first_index() & size) == 0;
    const unsigned a = pair.first(), b = pair.second();
    if ((a > b) == ascending) {
      pair.first() = b;
      pair.second() = a;
    }
  }
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void walsh_pairs(carbide::disjoint_span<float> data, unsigned log_stride) {
  auto idx = carbide::thread::index_1d();
  const unsigned stride = 1u << log_stride;
  if (auto p = data.get_mut_pair(idx, stride)) {
    const float a = p.first(), b = p.second();
    p.first() = a + b;
    p.second() = a - b;
  }
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void constant_pairs(carbide::disjoint_span<float> data) {
  auto idx = carbide::thread::index_1d();
  if (auto p = data.get_mut_pair(idx, data.size() / 2)) p.second() = p.first();
}

// Good: the element itself, also as p[0], and arithmetic on the value, not the pointer.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void good(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* e = out.get_mut(idx)) {
    *e = in[idx.get()] + 1.f;
    e[0] += 1.f;
  }
}

// Good: one form per view, claimed twice, and another view claimed in another form.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void one_form_per_view(carbide::span<const float> in, carbide::disjoint_span<float> out,
                       carbide::disjoint_span<float> sums) {
  auto idx = carbide::thread::index_1d();
  if (auto mine = out.get_mut_chunk<4>(idx)) mine.store(in.chunk<4>(idx.get()));
  if (auto again = out.get_mut_chunk<4>(idx)) again.store(carbide::vec<float, 4>{});
  if (float* total = sums.get_mut(idx)) *total = in[idx.get()];
}

// Good: a helper that claims the view in the kernel's own form.
void store_chunk(carbide::disjoint_span<float> target, const carbide::thread::index_1d_witness& idx,
                 const carbide::vec<float, 4>& values) {
  if (auto mine = target.get_mut_chunk<4>(idx)) mine.store(values);
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void same_form_through_helper(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (auto mine = out.get_mut_chunk<4>(idx)) mine.store(in.chunk<4>(idx.get()));
  store_chunk(out, idx, carbide::vec<float, 4>{});
}

// Halo blocks (index_2d_halo<R>()) own the elements their inner threads stand on, a partition of
// its own: claimed beside index_2d()'s, or at another radius, some elements have two owners.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void halo_and_plain(carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d_halo<1>();
  auto plain = carbide::thread::index_2d();
  if (float* o = out.get_mut(own)) *o = 1.0f;
  if (float* o = out.get_mut(plain)) *o = 2.0f;
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:18: error: 'out.get_mut(plain)' claims 'out' as 'get_mut' after 'out.get_mut(own)' claimed it as 'get_mut(index_2d_halo<1>)'; the two forms give some elements to two threads. Claim every piece of 'out' the same way [carbide-disjoint-foreign-write]
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void two_halos(carbide::disjoint_span<float> out) {
  auto narrow = carbide::thread::index_1d_halo<1>();
  auto wide = carbide::thread::index_1d_halo<2>();
  if (float* o = out.get_mut(narrow)) *o = 1.0f;
  if (float* o = out.get_mut(wide)) *o = 2.0f;
  // CHECK: disjoint-foreign-write.cpp:[[@LINE-1]]:18: error: 'out.get_mut(wide)' claims 'out' as 'get_mut(index_1d_halo<2>)' after 'out.get_mut(narrow)' claimed it as 'get_mut(index_1d_halo<1>)'
}

// Good: one halo witness claimed twice is one form.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void one_halo_twice(carbide::disjoint_span<float> out) {
  auto own = carbide::thread::index_1d_halo<2>();
  if (float* o = out.get_mut(own)) *o = 1.0f;
  if (float* o = out.get_mut(own)) *o += 1.0f;
}

}  // namespace kernels
