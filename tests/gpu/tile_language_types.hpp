// What tile_language_kernels.cpp and its tests both name: an enumeration the GEMM epilogue's
// template parameter is of (the generated API header declares it before this definition).
#pragma once

namespace gpu_tile_language {

enum class Activation { Gelu, Relu };

}  // namespace gpu_tile_language
