// Kernel templates: the API header repeats each template's parameters on the launch functions
// (member templates of Module), and every instance the host launches (or that the file
// instantiates explicitly, for launches in other files) gets its own PTX entry,
// contract and stubs (explicit specializations), checked and compiled with its arguments. The
// host program, with the header force-included, compiles and links against the stubs.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck --check-prefix=API %s < %t/kernel-templates.carbide.hpp
// RUN: FileCheck --check-prefix=CU %s < %t/kernel-templates.carbide.cu
// RUN: FileCheck --check-prefix=STUBS %s < %t/kernel-templates.carbide.cpp
// RUN: FileCheck --check-prefix=PTX %s < %t/kernel-templates.ptx
// RUN: %cxx_user -I%t -include %t/kernel-templates.carbide.hpp -c %s -o %t/main.o
// RUN: %cxx_user -I%t -c %t/kernel-templates.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/main.o %t/stubs.o %runtime_lib -ldl -o %t/main
//
// API: template <class T, unsigned int Block>
// API-NEXT: struct scaled_kernel {
// API: template <class T, unsigned int Block>
// API-NEXT: carbide::Prepared<scaled_kernel<T, Block>> prepare_scaled(const carbide::LaunchConfig& config) const;
// API: template <class T, unsigned int Block>
// API-NEXT: void scaled(const carbide::Stream& stream, const carbide::Prepared<scaled_kernel<T, Block>>& prepared,
// API-NEXT: carbide::DeviceBuffer<T>& out,
// API-NEXT: const carbide::DeviceBuffer<T>& in,
// API-NEXT: T factor) const;
// API-NOT: 256
//
// CU: template <class T, unsigned Block>
// CU: extern "C" __global__ void __launch_bounds__(128) carbide_kernels_scaled_float_128(
// CU: extern "C" __global__ void __launch_bounds__(256) carbide_kernels_scaled_float_256(carbide::disjoint_span<float> out, carbide::span<const float> in, float factor) {
// CU-NEXT: ::carbide::detail::assume_block_shape<256, 1, 1>();
// CU-NEXT: ::kernels::scaled<float, 256>(out, in, factor);
// CU: extern "C" __global__ void __launch_bounds__(64) carbide_kernels_scaled_double_64(carbide::disjoint_span<double> out, carbide::span<const double> in, double factor) {
// CU-NEXT: ::carbide::detail::assume_block_shape<64, 1, 1>();
// CU-NEXT: ::kernels::scaled<double, 64>(out, in, factor);
//
// STUBS: const carbide::LaunchContract scaled_float_128_contract{
// STUBS: const carbide::LaunchContract scaled_float_256_contract{
// STUBS-NEXT: "kernels::scaled<float, 256>", 1, {256, 1, 1}, 1024, 0, 0};
// STUBS: const carbide::LaunchContract scaled_double_64_contract{
// STUBS-NEXT: "kernels::scaled<double, 64>", 1, {64, 1, 1}, 512, 0, 0};
// STUBS: return Module(carbide::detail::LoadedModule(context, kModuleImage, {"carbide_kernels_scaled_float_128", "carbide_kernels_scaled_float_256", "carbide_kernels_scaled_double_64"},
// STUBS-NEXT: {&carbide_cpu::entry_scaled_float_128, &carbide_cpu::entry_scaled_float_256, &carbide_cpu::entry_scaled_double_64}));
// STUBS: template <>
// STUBS-NEXT: carbide::Prepared<Module::scaled_kernel<float, 128>> Module::prepare_scaled<float, 128>(
// STUBS: template <>
// STUBS-NEXT: void Module::scaled<float, 128>(
// STUBS: template <>
// STUBS-NEXT: carbide::Prepared<Module::scaled_kernel<float, 256>> Module::prepare_scaled<float, 256>(const carbide::LaunchConfig& config) const {
// STUBS-NEXT: carbide::validate_launch(scaled_float_256_contract,
// STUBS: template <>
// STUBS-NEXT: void Module::scaled<float, 256>(const carbide::Stream& stream, const carbide::Prepared<scaled_kernel<float, 256>>& prepared,
// STUBS-NEXT: carbide::DeviceBuffer<float>& out,
// STUBS-NEXT: const carbide::DeviceBuffer<float>& in,
// STUBS-NEXT: float factor) const {
// STUBS: template <>
// STUBS-NEXT: carbide::Prepared<Module::scaled_kernel<double, 64>> Module::prepare_scaled<double, 64>(
//
// PTX: .entry carbide_kernels_scaled_float_128(
// PTX: .reqntid 128, 1, 1
// PTX: .entry carbide_kernels_scaled_float_256(
// PTX: .reqntid 256, 1, 1
// PTX: .entry carbide_kernels_scaled_double_64(
// PTX: .reqntid 64, 1, 1
#include <carbide/carbide.hpp>

namespace kernels {

// The contract and the shared array follow the template's arguments.
template <class T, unsigned Block>
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (Block, 1, 1), dynamic_shared = Block * sizeof(T))
void scaled(carbide::disjoint_span<T> out, carbide::span<const T> in, T factor) {
  auto lid = carbide::thread::local_index();
  auto idx = carbide::thread::index_1d();
  auto staged = carbide::block::dynamic_shared<T>();
  staged[lid.get()] = idx.get() < in.size() ? in[idx.get()] : T(0);
  carbide::block::sync();
  if (T* o = out.get_mut(idx)) *o = factor * staged[Block - 1 - lid.get()];
}

// Host code in other files launches what an explicit instantiation names.
template void scaled<float, 128>(carbide::disjoint_span<float>, carbide::span<const float>, float);

// Never launched: declared in the API, with no entry.
template <class T>
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (128, 1, 1))
void unused(carbide::disjoint_span<T> out) {}

}  // namespace kernels

int main() {
  auto context = carbide::Context::create(0);
  auto stream = context.default_stream();
  auto module = kernels::load(context);
  auto in = carbide::DeviceBuffer<float>::zeroed(stream, 1024);
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, 1024);
  module.scaled(stream, module.prepare_scaled<float, 256>(carbide::LaunchConfig1D(4, 256, 256 * 4)), out, in, 2.f);
  auto in64 = carbide::DeviceBuffer<double>::zeroed(stream, 1024);
  auto out64 = carbide::DeviceBuffer<double>::zeroed(stream, 1024);
  module.scaled<double, 64>(stream, module.prepare_scaled<double, 64>(carbide::LaunchConfig1D(16, 64, 64 * 8)), out64, in64, 0.5);
  return 0;
}
