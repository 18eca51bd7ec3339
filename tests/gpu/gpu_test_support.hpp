#pragma once

#include <carbide/carbide.hpp>

#include <gtest/gtest.h>

// Skips the calling test, saying why, where no CUDA device can be used.
#define CARBIDE_REQUIRE_DEVICE()                                                  \
  do {                                                                            \
    if (carbide::Context::device_count() == 0)                                    \
      GTEST_SKIP() << "no CUDA device: " << carbide::Context::unavailable_reason(); \
  } while (false)
