// The one header a Carbide program includes: the annotations, the device vocabulary and, for
// host code, the runtime that loads and launches the generated module.
#pragma once

#include <carbide/annotations.hpp>
#include <carbide/device.hpp>
#include <carbide/intrinsics.hpp>

#if !defined(__CUDACC__)
#include <carbide/runtime.hpp>
#endif
