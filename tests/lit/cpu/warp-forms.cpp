// The warp forms CUDA kernels reduce rows with: reduce_max and reduce_min, broadcast<lane> (the
// lane is a constant, so the result is warp-uniform and may steer a later collective), shfl
// from a lane each thread picks, CUDA's integer and float min and max, and span::subspan for a
// row of a matrix. Checked clean, translated (nvcc compiles the device side), and run on the
// CPU against values computed here.
// RUN: rm -rf %t && %carbide check %s
// RUN: %carbide_translate %s -o %t
// RUN: %cxx_user -I%t -include %t/warp-forms.carbide.hpp -c %s -o %t/app.o
// RUN: %cxx_user -I%t -c %t/warp-forms.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/app.o %t/stubs.o %runtime_lib -ldl -o %t/app
// RUN: env CARBIDE_DEVICE=cpu %t/app 2>&1 | FileCheck %s
// CHECK: carbide: running kernels on the CPU
// CHECK-NEXT: row 0: max 31 min -16 first 0 from-lane-5 5 clamp 7
// CHECK-NEXT: row 1: max 63 min 32 first 32 from-lane-5 37 clamp 7
// CHECK-NEXT: row 2: max 95 min -16 first 64 from-lane-5 69 clamp 7
// CHECK-NEXT: row 3: max 127 min 96 first 96 from-lane-5 101 clamp 7
#include <carbide/carbide.hpp>

#include <cstdio>
#include <vector>

namespace kernels {

constexpr unsigned kCols = 32;

// One warp per row of `values` (rows × 32): each lane reads its element of the row.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (32, 1, 1))
void row_stats(carbide::span<const int> values, carbide::disjoint_span<int> stats) {
  auto idx = carbide::thread::index_1d();
  const unsigned row = carbide::thread::block_idx().x;
  const unsigned lane = carbide::thread::thread_idx().x;
  const carbide::span<const int> cells = values.subspan(row * kCols, kCols);
  // Lane 3 of even rows holds a negative value, so the minimum is not the first lane's.
  const int mine = lane == 3 && row % 2 == 0 ? -16 : (lane < cells.size() ? cells[lane] : 0);
  const int largest = carbide::warp::reduce_max(mine);
  const int smallest = carbide::warp::reduce_min(mine);
  const int first = carbide::warp::broadcast<0>(mine);
  // Every lane reads lane 5, through an index each thread computes.
  const int picked = carbide::warp::shfl(mine, (lane * 0u) + 5u);
  const int clamped = max(min(int(lane), 7), 0) + int(min(3u, 4u)) - 3;
  // A warp-uniform value may steer a collective: every lane takes the same branch.
  const int last = first >= 0 ? carbide::warp::broadcast<31>(clamped) : 0;
  if (int* e = stats.get_mut(idx)) {
    const int all[5] = {largest, smallest, first, picked, last};
    *e = all[lane % 5];
  }
}

}  // namespace kernels

int main() {
  auto context = carbide::Context::create_default();
  auto stream = context.default_stream();
  constexpr unsigned rows = 4;
  std::vector<int> host(rows * kernels::kCols);
  for (unsigned i = 0; i < host.size(); ++i) host[i] = int(i);
  auto values = carbide::DeviceBuffer<int>::from_host(stream, host);
  auto stats = carbide::DeviceBuffer<int>::zeroed(stream, rows * kernels::kCols);
  auto module = kernels::load(context);
  module.row_stats(stream, module.prepare_row_stats(carbide::LaunchConfig1D(rows, 32)), values, stats);
  const std::vector<int> out = stats.to_host_vec(stream);
  for (unsigned row = 0; row < rows; ++row) {
    const int* s = &out[row * kernels::kCols];
    std::printf("row %u: max %d min %d first %d from-lane-5 %d clamp %d\n", row, s[0], s[1], s[2], s[3], s[4]);
  }
}
