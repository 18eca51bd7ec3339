// Every driver entry point the runtime resolves (driver_api.hpp's list, under the versioned
// names cuda.h gives them), as a function that returns 999, CUDA_ERROR_UNKNOWN. Weak, so that
// the few no_gpu_driver.cpp defines for real take their place. x86-64 assembly: a C++
// definition cannot take its signature from the list.
#include "driver_api.hpp"

#define CARBIDE_FAKE_STRINGIFY(x) #x
#define CARBIDE_FAKE_NAME(x) CARBIDE_FAKE_STRINGIFY(x)
#define CARBIDE_FAILING_ENTRY_POINT(name)                                      \
  asm(".pushsection .text\n"                                                   \
      ".weak " CARBIDE_FAKE_NAME(name) "\n"                                    \
      ".type " CARBIDE_FAKE_NAME(name) ", @function\n" CARBIDE_FAKE_NAME(name) \
      ":\n"                                                                    \
      "  movl $999, %eax\n"                                                    \
      "  ret\n"                                                                \
      ".popsection\n");

CARBIDE_DRIVER_FUNCTIONS(CARBIDE_FAILING_ENTRY_POINT)
