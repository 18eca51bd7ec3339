// Types the generated launch API cannot declare before the user's code — a nested struct as a
// scalar and as a view's element — are reported by carbide-kernel-signature, and the user's call
// of the launch still compiles: no Clang error comes from inside the generated API header.
// RUN: not %carbide check %s 2> %t.err
// RUN: FileCheck %s --implicit-check-not=error: < %t.err
#include <carbide/carbide.hpp>

namespace kernels {

struct World {
  struct Particle {
    float x;
  };
};

CARBIDE_KERNEL
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = 256)
void nested(World::Particle first, carbide::span<const World::Particle> rest, carbide::disjoint_span<float> out) {}
// CHECK: unnameable-argument-types.cpp:[[@LINE-1]]:13: error: parameter 'first' of kernel 'kernels::nested' has a type the generated launch API cannot name before your code; declare the type as a plain struct at namespace scope, or pass its underlying integer type [carbide-kernel-signature]
// CHECK: unnameable-argument-types.cpp:[[@LINE-2]]:36: error: parameter 'rest' of kernel 'kernels::nested' has a type the generated launch API cannot name before your code; declare 'kernels::World::Particle' as a plain struct at namespace scope [carbide-kernel-signature]

}  // namespace kernels

int main() {
  auto ctx = carbide::Context::create(0);
  auto stream = ctx.default_stream();
  auto rest = carbide::DeviceBuffer<kernels::World::Particle>::zeroed(stream, 256);
  auto out = carbide::DeviceBuffer<float>::zeroed(stream, 256);
  auto module = kernels::load(ctx);
  module.nested(stream, module.prepare_nested(carbide::LaunchConfig1D(1, 256)), kernels::World::Particle{1.f}, rest,
                out);
}
