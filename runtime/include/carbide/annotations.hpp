// Carbide's source annotations. They are macros so that any host compiler accepts an annotated
// file; under Clang (the translator, clangd, clang-tidy) they become `annotate` attributes that
// carry their arguments into the AST, and everywhere else they vanish.
#pragma once

#if defined(__clang__) && !defined(__CUDA__)
#define CARBIDE_KERNEL [[clang::annotate("carbide.kernel")]]
// A kernel of the Tile path (<carbide/tile.hpp>): it says what one tile block does.
#define CARBIDE_TILE_KERNEL [[clang::annotate("carbide.tile_kernel")]]
#define CARBIDE_LAUNCH_BOUNDS(...) [[clang::annotate("carbide.launch_bounds", __VA_ARGS__)]]
// The contract travels as text: `domain = 1, block = (256, 1, 1)` is not an expression, so the
// translator parses it and resolves the `constexpr` names it mentions.
#define CARBIDE_LAUNCH_CONTRACT(...) [[clang::annotate("carbide.launch_contract", #__VA_ARGS__)]]
#else
#define CARBIDE_KERNEL
#define CARBIDE_TILE_KERNEL
#define CARBIDE_LAUNCH_BOUNDS(...)
#define CARBIDE_LAUNCH_CONTRACT(...)
#endif

// A table in the device's constant memory, at a kernel namespace's scope:
// `CARBIDE_CONSTANT float taps[17];`. Kernels read it; the host sets it through the module,
// `module.set_taps(stream, values)`. nvcc places it in constant memory; every other compiler sees
// an inline variable: the CPU form's copy in the stubs, and in the user's own file a host copy that
// kernels never read (carbide-constant-table reports host code that uses it).
#if defined(__CUDACC__)
#define CARBIDE_CONSTANT __constant__
#elif defined(__clang__) && !defined(__CUDA__)
#define CARBIDE_CONSTANT [[clang::annotate("carbide.constant")]] inline
#else
#define CARBIDE_CONSTANT inline
#endif

#if defined(__CUDACC__)
#define CARBIDE_DEVICE __device__ __forceinline__
#define CARBIDE_HOST_DEVICE __host__ __device__ __forceinline__
#else
#define CARBIDE_DEVICE inline
#define CARBIDE_HOST_DEVICE inline
#endif

namespace carbide::detail {
// The object an unsafe block declares; the translator finds the block through its type and
// reads the reason from its initializer.
struct unsafe_block {
  const char* reason;
};
}  // namespace carbide::detail

// `"" reason` only compiles when the reason is a string literal, so it cannot be computed.
#define CARBIDE_UNSAFE(reason) \
  if ([[maybe_unused]] constexpr ::carbide::detail::unsafe_block carbide_unsafe_block{"" reason}; true)

// A precondition a kernel states and checks: `CARBIDE_REQUIRE((n & (n - 1)) == 0);`. Every
// thread that reaches it tests the condition and stops the launch when it is false, with
// NDEBUG too (unlike assert). The checker relies on it for the code that follows, as it relies
// on the test of an `if`: a power-of-two stride the host promised becomes one the kernel proves.
#define CARBIDE_REQUIRE(condition)                                                      \
  do {                                                                                  \
    if (!(condition)) ::carbide::requirement_failed(#condition, __FILE__, __LINE__, __func__); \
  } while (false)
