// Kernel signatures: raw pointers get a fix-it to the view that says what the kernel does.
// RUN: not %carbide check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
#include <string>

namespace kernels {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void raw(const float* in,
// CHECK: kernel-signature.cpp:[[@LINE-1]]:10: error: parameter 'in' of kernel 'kernels::raw' is a raw pointer, which carries no length and no ownership; write carbide::span<const float> instead [carbide-kernel-signature]
// CHECK: {{^}}   [[#@LINE-2]] | void raw(const float* in,
// CHECK-NEXT: {{^}}      |          ^~~~~~~~~~~~
// CHECK-NEXT: {{^}}      |          carbide::span<const float>
         float* out,
// CHECK: kernel-signature.cpp:[[@LINE-1]]:10: error: parameter 'out' of kernel 'kernels::raw' is a raw pointer{{.*}}write carbide::disjoint_span<float> (one element per thread) or carbide::atomic_span<float> instead [carbide-kernel-signature]
         const std::string& name,
// CHECK: kernel-signature.cpp:[[@LINE-1]]:10: error: parameter 'name' of kernel 'kernels::raw' is a reference{{.*}} [carbide-kernel-signature]
         carbide::span<float> shared) {}
// CHECK: kernel-signature.cpp:[[@LINE-1]]:10: error: parameter 'shared' of kernel 'kernels::raw' is a carbide::span of mutable elements{{.*}} [carbide-kernel-signature]

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
int sum(carbide::span<const float> in) { return 0; }
// CHECK: kernel-signature.cpp:[[@LINE-1]]:5: error: kernel 'kernels::sum' returns 'int'; a kernel returns void and writes its results through a carbide::disjoint_span or carbide::atomic_span parameter [carbide-kernel-signature]

struct Holder {
  CARBIDE_KERNEL
  CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
  void member(carbide::disjoint_span<float> out) {}
  // CHECK: kernel-signature.cpp:[[@LINE-1]]:8: error: kernel 'kernels::member' is a member function; a kernel is a free function in a namespace [carbide-kernel-signature]
};

}  // namespace kernels

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void global_kernel(carbide::disjoint_span<float> out) {}
// CHECK: kernel-signature.cpp:[[@LINE-1]]:6: error: kernel 'global_kernel' is in the global namespace; put it in a named namespace, which becomes its module [carbide-kernel-signature]

namespace {
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void hidden(carbide::disjoint_span<float> out) {}
// CHECK: kernel-signature.cpp:[[@LINE-1]]:6: error: kernel 'hidden' is in an anonymous namespace, which the generated host stubs (another translation unit) cannot name; put it in a named namespace [carbide-kernel-signature]
}  // namespace

namespace kernels {
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void fülle(carbide::disjoint_span<float> out) {}
// CHECK: kernel-signature.cpp:[[@LINE-1]]:6: error: kernel 'kernels::fülle' has a name that is not ASCII, which nvcc refuses for a device entry point; give the kernel and its namespaces ASCII names [carbide-kernel-signature]
// A parameter pack: the generated API could not repeat the template's parameters.
template <class... Ts>
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void packed(carbide::disjoint_span<float> out) {}
// CHECK: kernel-signature.cpp:[[@LINE-1]]:6: error: kernel template 'kernels::packed': template parameter 'Ts' is a parameter pack; the generated launch API repeats a kernel's template parameters, which may be types and integral values [carbide-kernel-signature]

// An instance the host launches is checked with its arguments: T = float* is a raw pointer.
template <class T>
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void fill_with(carbide::disjoint_span<float> out, T value) {}
// CHECK: kernel-signature.cpp:[[@LINE-1]]:51: error: parameter 'value' of kernel 'kernels::fill_with<float *>' is a raw pointer

// Two kernels of one name (a template beside a plain kernel overloads it in C++): the Module
// has one launch function per name.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void fill_with(carbide::disjoint_span<float> out) {}
// CHECK: kernel-signature.cpp:[[@LINE-1]]:6: error: kernel 'fill_with' has the name of another kernel in namespace 'kernels'; the generated Module launches kernels by name, so give each its own [carbide-kernel-signature]
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

struct Params {
  float scale;
  unsigned count;
};

// Good: views, a builtin scalar and a plain struct.
CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void scale(carbide::span<const float> in, carbide::disjoint_span<float> out, Params p, float bias) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = p.scale * in[idx.get()] + bias;
}

}  // namespace good

void launches(const kernels::Module& bad, const good::Module& module, const carbide::Stream& stream,
              const carbide::DeviceBuffer<float>& in, carbide::DeviceBuffer<float>& out,
              const carbide::DeviceBuffer<double>& in64, carbide::DeviceBuffer<double>& out64) {
  bad.fill_with<float*>(stream, bad.prepare_fill_with<float*>(carbide::LaunchConfig1D(1, 256)), out, nullptr);
  module.twice(stream, module.prepare_twice<float, 256>(carbide::LaunchConfig1D(4, 256)), in, out);
  module.twice(stream, module.prepare_twice<double, 128>(carbide::LaunchConfig1D(8, 128)), in64, out64);
}
