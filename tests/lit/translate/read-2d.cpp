// A span2d<const T> parameter: the launch takes the DeviceBuffer2D another launch wrote (const),
// the stubs pass it as a read view, the user's file and the stubs compile against each other,
// and the device code reads by (row, col).
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck --check-prefix=HPP %s < %t/read-2d.carbide.hpp
// RUN: FileCheck --check-prefix=STUB %s < %t/read-2d.carbide.cpp
// RUN: %cxx_user -I%t -include %t/read-2d.carbide.hpp -fsyntax-only %s
// RUN: %cxx_user -I%t -fsyntax-only %t/read-2d.carbide.cpp
// HPP: void transpose(const carbide::Stream& stream, const carbide::Prepared<transpose_kernel>& prepared,
// HPP-NEXT: const carbide::DeviceBuffer2D<float>& in,
// HPP-NEXT: carbide::DeviceBuffer2D<float>& out) const;
// STUB: {"in", in.device_ptr(), in.bytes(), false},
// STUB: auto in_view = carbide::detail::read_view(in);
#include <carbide/carbide.hpp>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (16, 16, 1))
void transpose(carbide::span2d<const float> in, carbide::disjoint_span2d<float> out) {
  auto at = carbide::thread::index_2d();
  if (float* e = out.get_mut(at)) *e = in(at.col(), at.row());
}

}  // namespace kernels

// Host code: the matrix one kernel wrote feeds the next as a const DeviceBuffer2D.
[[maybe_unused]] static void chain(kernels::Module& module, const carbide::Stream& stream,
                                   const carbide::DeviceBuffer2D<float>& written,
                                   carbide::DeviceBuffer2D<float>& out) {
  module.transpose(stream, module.prepare_transpose(carbide::LaunchConfig2D({1, 1, 1}, {16, 16, 1})),
                   written, out);
}
