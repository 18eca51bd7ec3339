// carbide-device-unsupported in tile kernels: what the tile lowering cannot express is reported at
// the construct, never guessed; carbide-kernel-signature reports a tile tensor of records.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

namespace ct = carbide::tile;

struct Particle {
  float x, y;
};

namespace kernels {

// A function over tiles is read into the kernel; one that chooses at run time cannot be.
// The finding is at the function's line that the kernel cannot take.
ct::tile<float, ct::shape<64>> clamp_if(const ct::tile<float, ct::shape<64>>& t, bool clamp) {
  if (clamp) return ct::max(t, 0.0f);
  return t;
}
// CHECK: device-unsupported-tiles.cpp:[[@LINE-3]]:3: error: in tile kernel 'kernels::helper_branch': a tile kernel says what the whole tile block does and branches only on constants ('if constexpr (Causal)'); choose between tiles with ct::select [carbide-device-unsupported]

CARBIDE_TILE_KERNEL
void helper_branch(ct::out<float, ct::shape<64>> y, ct::in<float, 1> x, bool clamp) {
  y.store(clamp_if(ct::load_like(x, y), clamp));
}

// A scalar may call the standard library; a function of the program only where its value is a
// constant (it is computed when translating): the entry does not carry the function.
float runtime_scale(int d) { return 1.0f / float(d); }

CARBIDE_TILE_KERNEL
void scalar_call(ct::out<float, ct::shape<64>> y, ct::in<float, 1> x, int d) {
  y.store(ct::load_like(x, y) * runtime_scale(d));
}
// CHECK: device-unsupported-tiles.cpp:[[@LINE-2]]:33: error: in tile kernel 'kernels::scalar_call': 'runtime_scale(d)' calls a function of this program, which the tile kernel's entry does not carry; make it constexpr with constant arguments (its value is then computed when translating), or pass its value as a kernel parameter [carbide-device-unsupported]

template <int Depth>
ct::tile<float, ct::shape<64>> halve(const ct::tile<float, ct::shape<64>>& t) {
  return halve<Depth>(t * 0.5f);
}

CARBIDE_TILE_KERNEL
void recursive(ct::out<float, ct::shape<64>> y, ct::in<float, 1> x) {
  y.store(halve<2>(ct::load_like(x, y)));
}
// CHECK: device-unsupported-tiles.cpp:[[@LINE-7]]:10: error: in tile kernel 'kernels::recursive': 'halve' calls itself; a tile kernel's functions over tiles are read into the kernel, which needs them to end [carbide-device-unsupported]

CARBIDE_TILE_KERNEL
void branch(ct::out<float, ct::shape<64>> y, ct::in<float, 1> x, int flag) {
  if (flag) y.store(ct::load_like(x, y));
}
// CHECK: device-unsupported-tiles.cpp:[[@LINE-2]]:3: error: in tile kernel 'kernels::branch': a tile kernel says what the whole tile block does and branches only on constants ('if constexpr (Causal)'); choose between tiles with ct::select [carbide-device-unsupported]

CARBIDE_TILE_KERNEL
void plain_loop(ct::out<float, ct::shape<64>> y, ct::in<float, 1> x) {
  auto t = ct::load_like(x, y);
  for (int i = 0; i < 3; ++i) t = t * 2.0f;
  y.store(t);
}
// CHECK: device-unsupported-tiles.cpp:[[@LINE-3]]:3: error: in tile kernel 'kernels::plain_loop': a loop in a tile kernel runs over tiles with 'for (int k : ct::irange(n))' [carbide-device-unsupported]

CARBIDE_TILE_KERNEL
void records(ct::out<float, ct::shape<64>> y, ct::in<Particle, 1> particles) {
  y.store(ct::zeros<float, ct::shape<64>>());
}
// CHECK: device-unsupported-tiles.cpp:[[@LINE-3]]:47: error: parameter 'particles' of kernel 'kernels::records' is a tile tensor of 'Particle'; tile tensors hold float, double, integers, ct::bf16 or ct::f16 [carbide-kernel-signature]

// Good: a function over tiles, column sums, nested irange loops, a reduction in a loop, select
// for a choice, a branch on a constant, a constant call of the program's function in a scalar.
constexpr float constant_scale(int d) { return 1.0f / float(d); }

ct::tile<float, ct::shape<64>> twice(const ct::tile<float, ct::shape<64>>& t) { return t * 2.0f; }

CARBIDE_TILE_KERNEL
void helper_call(ct::out<float, ct::shape<64>> y, ct::in<float, 1> x) {
  y.store(twice(ct::load_like(x, y)) * constant_scale(4));
}

template <bool Twice>
CARBIDE_TILE_KERNEL
void column_sums(ct::out<float, ct::shape<64>> y, ct::in<float, 2> x) {
  auto [j] = y.coord();
  auto px = x.partition(ct::shape<4, 64>{});
  auto sums = ct::reduce_sum<0>(px.load(0, j));
  if constexpr (Twice) sums = twice(sums);
  y.store(sums);
}
template void column_sums<true>(ct::out<float, ct::shape<64>>, ct::in<float, 2>);

CARBIDE_TILE_KERNEL
void clipped_row_sums(ct::out<float, ct::shape<1, 64>> y, ct::in<float, 2> x) {
  auto [i, j] = y.coord();
  auto px = x.partition(ct::shape<1, 64>{});
  auto sum = ct::zeros<float, ct::shape<1, 64>>();
  for (int pass : ct::irange(2))
    for (int k : ct::irange(px.tiles(1))) {
      auto t = px.load(i, k);
      sum = sum + ct::select(t > 0.0f, t, ct::zeros<float, ct::shape<1, 64>>());
    }
  y.store(sum - ct::bcast<1>(ct::reduce_max<1>(sum), sum));
}

}  // namespace kernels
