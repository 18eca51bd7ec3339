// Kernel signatures of kernel templates' instances: each instance the host launches is checked
// with its arguments, and a template beside a plain kernel of the same name is reported.
// carbide-tidy sees only explicit instances (it compiles the file as the compiler does, with no
// launches instantiated), so tests/tidy/compare_with_check.py leaves this file out.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

// An instance the host launches is checked with its arguments: T = float* is a raw pointer.
template <class T>
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void fill_with(carbide::disjoint_span<float> out, T value) {}
// CHECK: kernel-signature-templates.cpp:[[@LINE-1]]:51: error: parameter 'value' of kernel 'kernels::fill_with<float *>' is a raw pointer

// Two kernels of one name (a template beside a plain kernel overloads it in C++): the Module
// has one launch function per name.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void fill_with(carbide::disjoint_span<float> out) {}
// CHECK: kernel-signature-templates.cpp:[[@LINE-1]]:6: error: kernel 'fill_with' has the name of another kernel in namespace 'kernels'; the generated Module launches kernels by name, so give each its own [carbide-kernel-signature]
// CHECK: note: the other kernel

}  // namespace kernels

namespace good {

// Good: a kernel template over its element type and block size; the host launches two instances.
template <class T, unsigned Block>
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (Block, 1, 1))
void twice(carbide::span<const T> in, carbide::disjoint_span<T> out) {
  auto idx = carbide::thread::index_1d();
  if (T* o = out.get_mut(idx)) *o = 2 * in[idx.get()];
}

}  // namespace good

void launches(const kernels::Module& bad, const good::Module& module, const carbide::Stream& stream,
              const carbide::DeviceBuffer<float>& in, carbide::DeviceBuffer<float>& out,
              const carbide::DeviceBuffer<double>& in64, carbide::DeviceBuffer<double>& out64) {
  bad.fill_with<float*>(stream, bad.prepare_fill_with<float*>(carbide::LaunchConfig1D(1, 256)), out, nullptr);
  module.twice(stream, module.prepare_twice<float, 256>(carbide::LaunchConfig1D(4, 256)), in, out);
  module.twice(stream, module.prepare_twice<double, 128>(carbide::LaunchConfig1D(8, 128)), in64, out64);
}
