// carbide-devices: lists the CUDA devices the runtime can use, or says why there are none.
// Exit status 0 when there is at least one, so scripts can ask before running GPU work.
#include <carbide/runtime.hpp>

#include <cstdio>

int main() {
  const int count = carbide::Context::device_count();
  if (count == 0) {
    std::printf("no CUDA device: %s\n", carbide::Context::unavailable_reason().c_str());
    return 1;
  }
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    const carbide::DeviceLimits& limits = carbide::Context::create(ordinal).limits();
    std::printf("%d: %s (sm_%d)\n", ordinal, limits.name.c_str(), limits.compute_capability);
  }
  return 0;
}
