// warp::reduce(v, op) calls its operation inside Carbide's header, where the analyses do not
// follow it, and every lane must fold the same values the same way: an operation that reads
// anything besides its two values is refused.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

float lane_bias(float a) { return a + float(carbide::thread::lane().get()); }

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void folds(carbide::disjoint_span<float> mean, float scale) {
  auto warp = carbide::thread::warp_index_1d();
  const unsigned lane = carbide::thread::lane().get();
  float v = 1.f;
  v = carbide::warp::reduce(v, [scale](float a, float b) { return a + b * scale; });
  // CHECK: device-unsupported-warp-fold.cpp:[[@LINE-1]]:32: error: the operation of 'carbide::warp::reduce' captures variables, whose values differ between lanes: every lane must fold the same values the same way, so pass a lambda without captures that computes from its two values alone
  v = carbide::warp::reduce(v, [&](float a, float b) { return a + b + lane; });
  // CHECK: device-unsupported-warp-fold.cpp:[[@LINE-1]]:32: error: the operation of 'carbide::warp::reduce' captures variables
  v = carbide::warp::reduce(v, [](float a, float b) { return lane_bias(a) + b; });
  // CHECK: device-unsupported-warp-fold.cpp:[[@LINE-1]]:32: error: the operation of 'carbide::warp::reduce' calls 'carbide::thread::lane', which is not one of CUDA's intrinsics
  struct Plus {
    float operator()(float a, float b) const { return a + b; }
  };
  v = carbide::warp::reduce(v, Plus{});
  // CHECK: device-unsupported-warp-fold.cpp:[[@LINE-1]]:32: error: the operation of 'carbide::warp::reduce' is not a lambda
  if (float* m = mean.get_mut_warp_leader(warp)) *m = v;
}

}  // namespace kernels
