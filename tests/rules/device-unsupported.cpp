// Constructs that cannot run on a GPU are reported where they are written.
// RUN: not %corpus_check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>
#include <typeinfo>

namespace kernels {

float from_elsewhere(float x);

struct Shape {
  virtual float area() const { return 0.f; }
};

float factorial(float n) { return n <= 1.f ? 1.f : n * factorial(n - 1.f); }
// CHECK: device-unsupported.cpp:[[@LINE-1]]:56: error: recursive call to 'kernels::factorial': device threads have a small fixed stack; rewrite the recursion as a loop [carbide-device-unsupported]

float ping(float x);
float pong(float x) { return x < 1.f ? x : ping(x / 2.f); }
// CHECK: device-unsupported.cpp:[[@LINE-1]]:44: error: recursive call to 'kernels::ping'
float ping(float x) { return pong(x - 1.f); }

float checked(float x) {
  if (x < 0.f) throw x;
  // CHECK: device-unsupported.cpp:[[@LINE-1]]:16: error: 'throw' cannot run on the device
  return x;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void bad(carbide::span<const float> in, carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  Shape shape{};
  float* scratch = new float[4];
  // CHECK: device-unsupported.cpp:[[@LINE-1]]:20: error: 'new' allocates on the device heap
  delete[] scratch;
  // CHECK: device-unsupported.cpp:[[@LINE-1]]:3: error: 'delete' has no place in device code
  float a = shape.area();
  // CHECK: device-unsupported.cpp:[[@LINE-1]]:13: error: virtual call to 'kernels::Shape::area'
  bool same = typeid(shape) == typeid(Shape);
  // CHECK: device-unsupported.cpp:[[@LINE-1]]:15: error: 'typeid' needs RTTI
  // CHECK: device-unsupported.cpp:[[@LINE-2]]:32: error: 'typeid' needs RTTI
  if (float* o = out.get_mut(idx))
    *o = from_elsewhere(in[idx.get()]) + factorial(a) + ping(1.f) + checked(1.f) + same;
  // CHECK: device-unsupported.cpp:[[@LINE-1]]:10: error: call to 'kernels::from_elsewhere', whose body is not visible
}


namespace deep {

// A helper more than nine calls below its kernel: the checker follows helpers' shared memory and
// barriers through nine levels, so the call past them is refused, not followed in part.
float level10(float x) { return x; }
float level9(float x) { return level10(x) + 1.f; }
// CHECK: device-unsupported.cpp:[[@LINE-1]]:32: error: call to 'kernels::deep::level10' more than 9 helpers below a kernel
float level8(float x) { return level9(x) + 1.f; }
float level7(float x) { return level8(x) + 1.f; }
float level6(float x) { return level7(x) + 1.f; }
float level5(float x) { return level6(x) + 1.f; }
float level4(float x) { return level5(x) + 1.f; }
float level3(float x) { return level4(x) + 1.f; }
float level2(float x) { return level3(x) + 1.f; }
float level1(float x) { return level2(x) + 1.f; }

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 64)
void ten_levels(carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) *o = level1(1.f);
}

}  // namespace deep

}  // namespace kernels
