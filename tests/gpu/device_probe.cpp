// Prints why no CUDA device can be used, the reason the GPU tests skip with, or nothing when one
// can: ctest runs it before the tests (skip_notice.cmake.in) to say so at the top of its output.
#include <carbide/carbide.hpp>

#include <cstdio>

int main() {
  std::printf("%s\n", carbide::Context::unavailable_reason().c_str());
  return 0;
}
