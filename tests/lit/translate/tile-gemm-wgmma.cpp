// A tile GEMM translated for sm_90a alone is planned on wgmma fed by TMA: a producer warpgroup and
// a consumer per 64 rows, stages filling the shared memory, the operands' tensor maps built by the
// stub and passed after the kernel's own parameters. Any other target set keeps mma.sync, which
// every image of a fatbin can run. ptxas accepts the wgmma, TMA and mbarrier PTX for sm_90a.
// RUN: rm -rf %t && %carbide translate %s -o %t/hopper --cuda-arch sm_90a
// RUN: FileCheck --check-prefix=CU %s < %t/hopper/tile-gemm-wgmma.carbide.cu
// RUN: FileCheck --check-prefix=STUBS %s < %t/hopper/tile-gemm-wgmma.carbide.cpp
// RUN: FileCheck --check-prefix=PTX %s < %t/hopper/tile-gemm-wgmma.ptx
// RUN: %ptxas -arch=sm_90a %t/hopper/tile-gemm-wgmma.ptx -o %t/hopper/gemm.cubin
// RUN: %cxx_user -I%t/hopper -include %t/hopper/tile-gemm-wgmma.carbide.hpp -c %s -o %t/main.o
// RUN: %cxx_user -I%t/hopper -c %t/hopper/tile-gemm-wgmma.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/main.o %t/stubs.o %runtime_lib -ldl -o %t/main
// RUN: %carbide translate %s -o %t/fat --cuda-arch sm_80 --cuda-arch sm_90a
// RUN: FileCheck --check-prefix=MMA-SYNC %s < %t/fat/tile-gemm-wgmma.carbide.cu
// RUN: %carbide translate %s -o %t/sm90 --cuda-arch sm_90
// RUN: FileCheck --check-prefix=MMA-SYNC %s < %t/sm90/tile-gemm-wgmma.carbide.cu
#include <carbide/carbide.hpp>
#include <carbide/tile.hpp>

namespace ct = carbide::tile;

namespace kernels {

template <int BM, int BN, int BK>
CARBIDE_TILE_KERNEL
void gemm(ct::out<ct::bf16, ct::shape<BM, BN>> c, ct::in<ct::bf16, 2> a, ct::in<ct::bf16, 2> b, float alpha) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<BM, BK>{});
  auto pb = b.partition(ct::shape<BK, BN>{});
  auto acc = ct::zeros<float, ct::shape<BM, BN>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(ct::cast<ct::bf16>(acc * alpha));
}
// CU: // kernels::gemm<128, 256, 64>: tile kernel; the planner chose 384 threads, wgmma m64n256k16 in 2 consumer warpgroups fed by a TMA producer warpgroup, 4 stages, 197696 bytes of shared memory
// CU-NEXT: extern "C" __global__ void __launch_bounds__(384, 1) carbide_kernels_gemm_128_256_64(::carbide::tile::detail::out_arg<carbide::tile::bf16, 2> c, ::carbide::tile::detail::in_arg<carbide::tile::bf16, 2> a, ::carbide::tile::detail::in_arg<carbide::tile::bf16, 2> b, float alpha, const __grid_constant__ ::carbide::tile::detail::tensor_map a__tensor_map, const __grid_constant__ ::carbide::tile::detail::tensor_map b__tensor_map) {
// CU: using P0 = ctd::sm90::gemm_plan<carbide::tile::bf16, 128, 256, 64, 4>;
// CU-NEXT: static_assert(P0::kThreads == 384 && P0::kSmemBytes == 197696, "the launch gives what the plan needs");
// CU-NEXT: const auto c_coord = ctd::gemm_block_coord<P0>(c);
// CU: auto acc = ctd::sm90::gemm_mainloop<P0>(a, b, a__tensor_map, b__tensor_map, bm, bn);
// CU-NOT: for (int k
// CU: ctd::store(c, c_coord, ctd::cast<carbide::tile::bf16>((acc * (alpha))));
// A k tile of half a swizzle row falls back to mma.sync in the same translation.
// CU: // kernels::gemm<128, 256, 32>: tile kernel; the planner chose 256 threads, mma.sync m16n8k16
// CU: auto acc = ctd::sm80::gemm_mainloop<P0>(a, b, bm, bn);
// MMA-SYNC: // kernels::gemm<128, 256, 64>: tile kernel; the planner chose 256 threads, mma.sync m16n8k16 over 2×4 warps
// MMA-SYNC-NOT: tensor_map
// STUBS: const carbide::LaunchContract gemm_128_256_64_contract{
// STUBS-NEXT: "kernels::gemm<128, 256, 64>", 1, {384, 1, 1}, 197696, 90, 384};
// STUBS: void Module::gemm<128, 256, 64>(const carbide::Stream& stream,
// STUBS: carbide::detail::check_gemm_operands(kernel,
// STUBS: carbide::validate_launch(gemm_128_256_64_contract, config,
// STUBS: const auto a__tensor_map = carbide::detail::tile_tensor_map(loaded_.context(), kernel, "a", a_arg, 128, 64);
// STUBS-NEXT: const auto b__tensor_map = carbide::detail::tile_tensor_map(loaded_.context(), kernel, "b", b_arg, 64, 64);
// STUBS-NEXT: loaded_.reserve_dynamic_shared(0, config.dynamic_shared_bytes);
// STUBS-NEXT: void* args[] = {&c_arg, &a_arg, &b_arg, const_cast<void*>(static_cast<const void*>(&alpha)), const_cast<void*>(static_cast<const void*>(&a__tensor_map)), const_cast<void*>(static_cast<const void*>(&b__tensor_map))};
// PTX: .target sm_90a
// PTX: .entry carbide_kernels_gemm_128_256_64(
// PTX: .param .align 128 .b8 carbide_kernels_gemm_128_256_64_param_{{[0-9]+}}[128]
// PTX-DAG: mbarrier.init.shared.b64
// PTX-DAG: cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// PTX-DAG: mbarrier.try_wait.parity.shared::cta.b64
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16

// f16 operands and a 128-column tile: the m64n128k16 atom on .f16 (ptxas checks it above), seven
// 32 KiB stages in 227 KiB.
CARBIDE_TILE_KERNEL
void gemm_f16(ct::out<float, ct::shape<128, 128>> c, ct::in<ct::f16, 2> a, ct::in<ct::f16, 2> b) {
  auto [bm, bn] = c.coord();
  auto pa = a.partition(ct::shape<128, 64>{});
  auto pb = b.partition(ct::shape<64, 128>{});
  auto acc = ct::zeros<float, ct::shape<128, 128>>();
  for (int k : ct::irange(pa.tiles(1)))
    acc = ct::mma(pa.load(bm, k), pb.load(k, bn), acc);
  c.store(acc);
}
// CU: // kernels::gemm_f16: tile kernel; the planner chose 384 threads, wgmma m64n128k16 in 2 consumer warpgroups fed by a TMA producer warpgroup, 7 stages, 230512 bytes of shared memory
// CU: using P0 = ctd::sm90::gemm_plan<carbide::tile::f16, 128, 128, 64, 7>;
// PTX-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16

}  // namespace kernels

int main() {
  auto context = carbide::Context::create(0);
  const auto module = kernels::load(context);
  auto stream = context.default_stream();
  auto a = carbide::Tensor<ct::bf16>::zeroed(stream, {256, 64});
  auto b = carbide::Tensor<ct::bf16>::zeroed(stream, {64, 512});
  auto c = carbide::Tensor<ct::bf16>::zeroed(stream, {256, 512}).partition(ct::shape<128, 256>{});
  module.gemm<128, 256, 64>(stream, c, a, b, 1.f);
  module.gemm<128, 256, 32>(stream, c, a, b, 1.f);
  const auto a16 = carbide::Tensor<ct::f16>::zeroed(stream, {256, 64});
  const auto b16 = carbide::Tensor<ct::f16>::zeroed(stream, {64, 256});
  auto c32 = carbide::Tensor<float>::zeroed(stream, {256, 256}).partition(ct::shape<128, 128>{});
  module.gemm_f16(stream, c32, a16, b16);
}
