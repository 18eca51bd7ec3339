// `index_bits = 32`: the entry hands the kernel its views with 32-bit extents, the witnesses of
// functions only such kernels reach are made in 32 bits, and the PTX computes, compares and
// scales the index in 32 bits (mad.lo or, with the block known, shl and add in .s32; setp .u32;
// mul.wide.u32) as hand-written `int i = blockIdx.x * blockDim.x + threadIdx.x` does; the
// 64-bit twin keeps 64-bit compares and shifts.
// A helper a 64-bit kernel also calls keeps its 64-bit witness. The launch checks each view's
// length and the grid (with the contract constant).
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck --check-prefix=CU %s < %t/index-bits-32.carbide.cu
// RUN: FileCheck --check-prefix=STUB %s < %t/index-bits-32.carbide.cpp
// RUN: %cxx_user -I%t -include %t/index-bits-32.carbide.hpp -fsyntax-only %s
// RUN: %cxx_user -I%t -fsyntax-only %t/index-bits-32.carbide.cpp
// RUN: awk '/.entry carbide_kernels_axpy32\(/,/^}/' %t/index-bits-32.ptx > %t/narrow.ptx
// RUN: FileCheck --check-prefix=NARROW --implicit-check-not=setp.ge.u64 --implicit-check-not=setp.gt.u64 --implicit-check-not=shl.b64 --implicit-check-not=cvt.u64.u32 %s < %t/narrow.ptx
// RUN: awk '/.entry carbide_kernels_axpy64\(/,/^}/' %t/index-bits-32.ptx > %t/wide.ptx
// RUN: FileCheck --check-prefix=WIDE %s < %t/wide.ptx
// RUN: %ptxas -arch=sm_90 %t/index-bits-32.ptx -o /dev/null
// CU: if (float* e = out.get_mut(carbide::thread::index_1d())) *e = 0.f;
// CU: auto idx = ::carbide::detail::index_1d_32();
// CU: auto idx = carbide::thread::index_1d();
// CU: auto own = ::carbide::detail::index_2d_32();
// CU: ::kernels::axpy32(::carbide::detail::narrow_extents(x), ::carbide::detail::narrow_extents(out), a);
// CU: ::kernels::axpy64(x, out, a);
// STUB: const carbide::LaunchContract axpy32_contract{
// STUB-NEXT: "kernels::axpy32", 1, {256, 1, 1}, 0, 0, 0, 32};
// STUB: const carbide::LaunchContract axpy64_contract{
// STUB-NEXT: "kernels::axpy64", 1, {256, 1, 1}, 0, 0, 0};
// STUB-LABEL: void Module::axpy32(
// STUB: carbide::validate_index_extent("kernels::axpy32", "x", x.size());
// STUB-NEXT: carbide::validate_index_extent("kernels::axpy32", "out", out.size());
// STUB-LABEL: void Module::axpy64(
// STUB-NOT: validate_index_extent
// STUB-LABEL: void Module::grid32(
// STUB: carbide::validate_index_extent("kernels::grid32", "in", in.rows() * in.cols());
// STUB-NEXT: carbide::validate_index_extent("kernels::grid32", "out", out.rows() * out.cols());
// NARROW: {{mad.lo.s32|add.s32}}
// NARROW: setp.ge.u32
// NARROW: mul.wide.u32
// NARROW: setp.gt.u32
// NARROW: ld.global.nc.f32
// NARROW: st.global.f32
// WIDE: mul.wide.u32
// WIDE: cvt.u64.u32
// WIDE: setp.ge.u64
// WIDE: shl.b64
// WIDE: setp.gt.u64
#include <carbide/carbide.hpp>

namespace kernels {

void clear(carbide::disjoint_span<float> out) {
  if (float* e = out.get_mut(carbide::thread::index_1d())) *e = 0.f;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1), index_bits = 32)
void axpy32(carbide::span<const float> x, carbide::disjoint_span<float> out, float a) {
  auto idx = carbide::thread::index_1d();
  if (float* e = out.get_mut(idx)) *e = a * x[idx.get()] + *e;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void axpy64(carbide::span<const float> x, carbide::disjoint_span<float> out, float a) {
  auto idx = carbide::thread::index_1d();
  if (float* e = out.get_mut(idx)) *e = a * x[idx.get()] + *e;
  clear(out);
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 2, block = (32, 8, 1), index_bits = 32)
void grid32(carbide::span2d<const float> in, carbide::disjoint_span2d<float> out) {
  auto own = carbide::thread::index_2d();
  if (float* e = out.get_mut(own)) *e = in(own.row(), own.col());
}

}  // namespace kernels
