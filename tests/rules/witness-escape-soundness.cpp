// carbide-witness-escape, every way out (issue 29): a witness goes only to Carbide's views and to
// the user's own helpers that take it by const&. Its address, a cast or a copy of its bytes, a
// library call, an object that keeps it, and a generic lambda that hands it back are each
// refused where they happen; the const& forms beside them are accepted.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

#include <cstring>
#include <functional>
#include <memory>

namespace kernels {

using Witness = carbide::thread::index_1d_witness;

// An object that keeps the witness: the constructor is a helper that takes it by const&, but the
// member initializer stores it.
struct Holder {
  const Witness& kept;
  explicit Holder(const Witness& w) : kept(w) {}
  // CHECK: witness-escape-soundness.cpp:[[@LINE-1]]:39: error: witness is stored in member 'kept' of an object
};

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void addresses(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const Witness* through_library = std::addressof(idx);
  // CHECK: witness-escape-soundness.cpp:[[@LINE-1]]:51: error: witness 'idx' is passed to 'std::addressof', which is neither Carbide's nor a helper of yours that takes it by 'const&'
  CARBIDE_UNSAFE("the pointer is only compared") {
    if (float* o = out.get_mut(idx)) *o = through_library != nullptr;
  }
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void rewritten(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  reinterpret_cast<std::size_t&>(idx) = 0;
  // CHECK: witness-escape-soundness.cpp:[[@LINE-1]]:34: error: witness 'idx' is cast, which lets its bytes be read or rewritten
  const std::size_t zero = 0;
  std::memcpy(&idx, &zero, sizeof zero);
  // CHECK: witness-escape-soundness.cpp:[[@LINE-1]]:15: error: the address of witness 'idx' is taken
  if (float* o = out.get_mut(idx)) *o = 1.f;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void kept(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const Holder holder(idx);
  auto wrapped = std::cref(idx);
  // CHECK: witness-escape-soundness.cpp:[[@LINE-1]]:28: error: witness 'idx' is passed to 'std::cref'
  const auto& handed_back = [](const auto& w) -> const auto& { return w; }(idx);
  // CHECK: witness-escape-soundness.cpp:[[@LINE-1]]:64: error: a thread-index witness is returned
  if (float* o = out.get_mut(handed_back)) *o = float(holder.kept.get() + wrapped.get().get());
}

// Good: a const& alias, a helper and a generic lambda that take it by const& and read it, and a
// cast to void, which discards it.
float weight(const Witness& w) { return float(w.get() % 5); }

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void good(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  const auto& alias = idx;
  (void)static_cast<void>(idx);
  auto twice = [](const auto& w) { return 2.f * weight(w); };
  if (float* o = out.get_mut(alias)) *o = twice(idx) + float(sizeof(idx));
}

}  // namespace kernels
