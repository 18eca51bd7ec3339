// The one header a Carbide program includes: the annotations, the device vocabulary and, for
// host code, the runtime that loads and launches the generated module.
#pragma once

#include <carbide/annotations.hpp>
#include <carbide/device.hpp>
// Carbide's first pass over a file reads only the kernels' signatures, to declare the module API
// that host code calls; it defines CARBIDE_SIGNATURES_ONLY and skips what only function bodies
// and host code use, which is most of the parse.
#if !defined(CARBIDE_SIGNATURES_ONLY)
#include <carbide/intrinsics.hpp>
#if !defined(__CUDACC__)
#include <carbide/runtime.hpp>
#endif
#endif
