// CUDA's vector types (float2, float4, int4, uint4, ...) and their make_ functions, which nvcc
// declares in every file it compiles. A Carbide file uses them as CUDA code does: as values and
// as the elements of views, read and written in one vector access.
//
// They are CUDA's own declarations, from headers that need no GPU, so that a file that also
// includes <cuda_runtime.h> sees one definition of each (the headers have include guards).
// cuda_idioms.hpp comes first: CUDA's host_defines.h keeps a __global__ or __shared__ that is
// already defined, so the idioms' messages stay in force.
#pragma once

#include <carbide/cuda_idioms.hpp>

// A host compile without CUDA's include directory declares none of them; CMake's Carbide::runtime
// target, the translator's parse and carbide-tidy under a compilation database all have it.
#if defined(__CUDACC__)
#define CARBIDE_HAS_CUDA_VECTOR_TYPES 1
#elif __has_include(<vector_types.h>)
#include <vector_functions.h>
#include <vector_types.h>
#define CARBIDE_HAS_CUDA_VECTOR_TYPES 1
#else
#define CARBIDE_HAS_CUDA_VECTOR_TYPES 0
#endif

#include <type_traits>

namespace carbide::detail {

// The vector types that __ldg, __ldcs and __stcs load and store in one access.
#if CARBIDE_HAS_CUDA_VECTOR_TYPES
template <class T>
inline constexpr bool is_cuda_vector_type =
    std::is_same_v<T, char2> || std::is_same_v<T, char4> || std::is_same_v<T, uchar2> ||
    std::is_same_v<T, uchar4> || std::is_same_v<T, short2> || std::is_same_v<T, short4> ||
    std::is_same_v<T, ushort2> || std::is_same_v<T, ushort4> || std::is_same_v<T, int2> ||
    std::is_same_v<T, int4> || std::is_same_v<T, uint2> || std::is_same_v<T, uint4> ||
    std::is_same_v<T, longlong2> || std::is_same_v<T, ulonglong2> || std::is_same_v<T, float2> ||
    std::is_same_v<T, float4> || std::is_same_v<T, double2>;
#else
template <class T>
inline constexpr bool is_cuda_vector_type = false;
#endif

}  // namespace carbide::detail
