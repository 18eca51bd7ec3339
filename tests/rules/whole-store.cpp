// carbide-whole-store: store_whole has no partial-chunk path, and is safe because each launch
// checks that the view is whole chunks. The stub can check only a kernel parameter whose claim
// it traces: a chunk stored whole where it was not claimed, a claim on a local copy of a view,
// and a view passed to such a helper other than by name are errors.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

// The chunk comes in by reference: which view, and whether the launch checked it, is not known here.
void put(const carbide::chunk_mut<float, 4>& chunk, const carbide::vec<float, 4>& values) {
  chunk.store_whole(values);
  // CHECK: whole-store.cpp:[[@LINE-1]]:3: error: 'chunk.store_whole(values)' stores a whole chunk of a chunk that this function did not claim, so the launch cannot check that its view is whole chunks. Claim the chunk where it is stored (`if (auto c = out.get_mut_chunk<K>(idx)) c.store_whole(v);`), from a kernel parameter or a helper's view parameter passed by name, or use store(), which cuts a partial chunk [carbide-whole-store]
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void passed_chunk(carbide::disjoint_span<float> out) {
  if (auto mine = out.get_mut_chunk<4>(carbide::thread::index_1d())) put(mine, carbide::vec<float, 4>{});
}

// A local copy of the view is the view it copies: its whole stores are the parameter's, which
// the launch checks (no finding).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void copied_view(carbide::disjoint_span<float> out) {
  carbide::disjoint_span<float> copy = out;
  if (auto mine = copy.get_mut_chunk<4>(carbide::thread::index_1d())) mine.store_whole(carbide::vec<float, 4>{});
}

void fill(carbide::disjoint_span<float> target, const carbide::thread::index_1d_witness& at) {
  if (auto piece = target.get_mut_strided_chunks<2, 2>(at)) piece.store_whole(1, carbide::vec<float, 2>{});
}

// A view inside a struct reaches the helper unnamed.
struct Outputs {
  carbide::disjoint_span<float> first;
};
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void unnamed_view(carbide::disjoint_span<float> out) {
  const Outputs outputs{out};
  fill(outputs.first, carbide::thread::index_1d());
  // CHECK: whole-store.cpp:[[@LINE-1]]:3: error: 'fill(outputs.first, carbide::thread::index_1d())' passes a view that the helper stores whole chunks of, but not by name, so the launch cannot check that it is whole chunks. Claim the chunk where it is stored (`if (auto c = out.get_mut_chunk<K>(idx)) c.store_whole(v);`), from a kernel parameter or a helper's view parameter passed by name, or use store(), which cuts a partial chunk [carbide-whole-store]
}

}  // namespace kernels

namespace pointers {

void fill_whole(carbide::disjoint_span<float> target, const carbide::thread::index_1d_witness& at) {
  if (auto piece = target.get_mut_chunk<4>(at)) piece.store_whole(carbide::vec<float, 4>{});
}

// Through a pointer the call's view is not followed, so the launch would not check it: any use of
// a function as a value is refused (carbide-device-unsupported).
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void through_pointer(carbide::disjoint_span<float> out) {
  auto* fill = &fill_whole;
  // CHECK: whole-store.cpp:[[@LINE-1]]:17: error: 'pointers::fill_whole' is used as a value (a pointer to it): the checker cannot follow it to where it is called; call it by name, or wrap the call in a lambda [carbide-device-unsupported]
  fill(out, carbide::thread::index_1d());
}

// A member function's arguments are followed as a free function's are: the launch checks `out`
// (no finding).
struct Filler {
  void operator()(carbide::disjoint_span<float> target, const carbide::thread::index_1d_witness& at) const {
    if (auto piece = target.get_mut_chunk<4>(at)) piece.store_whole(carbide::vec<float, 4>{});
  }
};
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void through_member(carbide::disjoint_span<float> out) {
  Filler{}(out, carbide::thread::index_1d());
}

}  // namespace pointers
