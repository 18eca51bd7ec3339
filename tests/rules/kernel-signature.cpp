// Kernel signatures: raw pointers get a fix-it to the view that says what the kernel does.
// RUN: not %corpus_check %s 2> %t.err
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

}  // namespace kernels

namespace good {

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

