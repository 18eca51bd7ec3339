// A record that kernels read and write through views, with its device helper, in a header of
// the user's: the kernels' file and the test both include it.
#pragma once

#include <cstdint>

namespace gpu_vocabulary {

struct Particle {
  float position[3];
  float velocity[3];
  std::uint32_t id;
};

inline Particle advanced(const Particle& p, float dt) {
  Particle next = p;
  for (int d = 0; d < 3; ++d) next.position[d] += p.velocity[d] * dt;
  next.id = p.id + 1;
  return next;
}

}  // namespace gpu_vocabulary
