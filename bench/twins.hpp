// The hand-written CUDA twins of the samples (samples/*/<name>_reference.cu), launched on the
// legacy default stream, which Carbide's default stream is too.
#pragma once

#include <cstddef>

namespace reference {
void launch_vecadd(const float* a, const float* b, float* c, std::size_t n);
void launch_saxpy(float a, const float* x, const float* y, float* out, std::size_t n);
void launch_sum(const float* in, std::size_t n, float* total, unsigned blocks);
}  // namespace reference
