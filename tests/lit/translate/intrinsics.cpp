// CUDA's intrinsics are Carbide's vocabulary: the host parse finds them, the rules accept them,
// the generated .cu calls CUDA's own (fast-math PTX, nothing copied), and the host build of the
// same file links with their host definitions.
// RUN: rm -rf %t && %carbide_translate %s -o %t
// RUN: FileCheck %s --check-prefix=PTX < %t/intrinsics.ptx
// RUN: FileCheck %s --check-prefix=CU < %t/intrinsics.carbide.cu
// RUN: %cxx_user -I%t -include %t/intrinsics.carbide.hpp -c %s -o %t/intrinsics.o
// RUN: %cxx_user -I%t -c %t/intrinsics.carbide.cpp -o %t/stubs.o
// RUN: %cxx_user %t/intrinsics.o %t/stubs.o %runtime_lib -ldl -o %t/intrinsics
// PTX-DAG: ex2.approx.f32
// PTX-DAG: rsqrt.approx.f32
// PTX-DAG: div.approx.f32
// PTX-DAG: popc.b32
// CU-NOT: carbide::intrinsics
// CU-NOT: inline float __expf
#include <carbide/carbide.hpp>

namespace fast {

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1))
void math(carbide::span<const float> in, carbide::span<const unsigned> bits,
          carbide::disjoint_span<float> out) {
  auto idx = carbide::thread::index_1d();
  if (float* o = out.get_mut(idx)) {
    const float x = in[idx.get()];
    *o = __fdividef(__expf(x), rsqrtf(x + 1.0f)) + float(__popc(bits[idx.get()])) +
         __saturatef(x) + __int_as_float(__float_as_int(x));
  }
}

}  // namespace fast

int main() { return 0; }
