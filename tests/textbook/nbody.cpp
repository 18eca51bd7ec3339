// nbody.cpp — port of cuda-samples 5_Domain_Specific/nbody (bodysystemcuda.cu, float):
// `integrateBodies` with `computeBodyAccel` and `bodyBodyInteraction`, the tile loop of GPU Gems 3
// ch. 31: each thread stages one body of the tile into shared memory, syncs, accumulates the
// tile's interactions with its own body, syncs; then updates its own velocity and position.
//
// Changed from the textbook:
// - `float4` → `struct Body { float x, y, z, w; }`, `float3` → `struct Accel`; the template on the
//   float type and the multi-GPU `deviceOffset` dropped (the host passes slices instead);
// - `if (index >= deviceNumBodies) return;` before the tile loop is a barrier behind a
//   thread-dependent return when the body count is not a multiple of the block, which
//   carbide-divergent-barrier reports (with the return as its note); here every thread runs the
//   loop and the own-slot writes are guarded: `vel.get_mut(idx)`, `newPos.get_mut(idx)`;
// - `extern __shared__ float4 sharedPos[]` (the block's size) → `block::shared<Body, BLOCK>()`.
//
// Accepted by `carbide check` with no finding:
// RUN: %corpus_check %s 2>&1 | count 0
#include <carbide/carbide.hpp>

namespace kernels {

struct Body {
  float x, y, z, w;
};
struct Accel {
  float x, y, z;
};

constexpr unsigned BLOCK = 256;
constexpr float SOFTENING_SQUARED = 0.00125f;

Accel bodyBodyInteraction(Accel ai, Body bi, Body bj) {
  float rx = bj.x - bi.x, ry = bj.y - bi.y, rz = bj.z - bi.z;
  float distSqr = rx * rx + ry * ry + rz * rz + SOFTENING_SQUARED;
  float invDist = rsqrtf(distSqr);
  float invDistCube = invDist * invDist * invDist;
  float s = bj.w * invDistCube;
  ai.x += rx * s;
  ai.y += ry * s;
  ai.z += rz * s;
  return ai;
}

CARBIDE_KERNEL
CARBIDE_LAUNCH_BOUNDS(BLOCK)
CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (BLOCK, 1, 1))
void integrateBodies(carbide::disjoint_span<Body> newPos, carbide::span<const Body> oldPos,
                     carbide::disjoint_span<Body> vel, unsigned numBodies, float deltaTime, float damping,
                     int numTiles) {
  auto idx = carbide::thread::index_1d();
  unsigned index = idx.get();
  auto sharedPos = carbide::block::shared<Body, BLOCK>();
  Body position = index < numBodies ? oldPos[index] : Body{0, 0, 0, 0};
  Accel acc = {0.0f, 0.0f, 0.0f};
  for (int tile = 0; tile < numTiles; tile++) {
    sharedPos[carbide::thread::thread_idx().x] = oldPos[tile * carbide::thread::block_dim().x + carbide::thread::thread_idx().x];
    carbide::block::sync();
    for (unsigned counter = 0; counter < carbide::thread::block_dim().x; counter++)
      acc = bodyBodyInteraction(acc, position, sharedPos[counter]);
    carbide::block::sync();
  }
  if (Body* v = vel.get_mut(idx)) {
    Body velocity = *v;
    velocity.x += acc.x * deltaTime;
    velocity.y += acc.y * deltaTime;
    velocity.z += acc.z * deltaTime;
    velocity.x *= damping;
    velocity.y *= damping;
    velocity.z *= damping;
    position.x += velocity.x * deltaTime;
    position.y += velocity.y * deltaTime;
    position.z += velocity.z * deltaTime;
    *v = velocity;
    if (Body* p = newPos.get_mut(idx)) *p = position;
  }
}

}  // namespace kernels
