// CUDA's own spellings, for the parse that checks a Carbide file (the translator, clangd,
// clang-tidy). Code moved over from CUDA keeps its idioms at first: `threadIdx.x`,
// `__syncthreads()`, `atomicAdd(&bins[b], 1)`. Declared here as unavailable, each use is an
// error that names the Carbide form to write instead, at the user's line, rather than Clang's
// bare "use of undeclared identifier". docs/migrating-from-cuda.md has the whole table.
//
// Only that parse sees these declarations: nvcc has the real ones, and other host compilers
// never build a file the translator has not accepted.
#pragma once

#if defined(__clang__) && !defined(__CUDA__) && !defined(__CUDACC__)

namespace carbide::detail {
struct cuda_coordinates {
  unsigned x, y, z;
};
}  // namespace carbide::detail

#define CARBIDE_CUDA_IDIOM(instead) __attribute__((unavailable("in a Carbide kernel, " instead)))

// The coordinates. A thread's outputs are reached through its witness, so that no thread can
// name another's element; the raw coordinates are for shared-memory indexes and arithmetic.
extern const carbide::detail::cuda_coordinates threadIdx CARBIDE_CUDA_IDIOM(
    "write carbide::thread::thread_idx() (or, to reach outputs, the witness carbide::thread::index_1d() or index_2d())");
extern const carbide::detail::cuda_coordinates blockIdx CARBIDE_CUDA_IDIOM("write carbide::thread::block_idx()");
extern const carbide::detail::cuda_coordinates blockDim CARBIDE_CUDA_IDIOM("write carbide::thread::block_dim()");
extern const carbide::detail::cuda_coordinates gridDim CARBIDE_CUDA_IDIOM("write carbide::thread::grid_dim()");
extern const int warpSize CARBIDE_CUDA_IDIOM("a warp is 32 threads; write 32 (or carbide::thread::lane() for the lane)");

// Barriers and warp collectives: Carbide's forms are checked for divergence. Any arguments.
#define CARBIDE_CUDA_COLLECTIVE(result, name, instead) \
  template <class... Ignored>                          \
  result name(Ignored...) CARBIDE_CUDA_IDIOM(instead);
CARBIDE_CUDA_COLLECTIVE(void, __syncthreads, "write carbide::block::sync()")
CARBIDE_CUDA_COLLECTIVE(void, __syncwarp,
                        "warp collectives synchronize their lanes themselves: write carbide::warp::shfl_down, reduce_add, ...")
CARBIDE_CUDA_COLLECTIVE(int, __shfl_sync,
                        "write carbide::warp::broadcast<lane>(value) for one lane's value, shfl(value, src_lane), or "
                        "reduce_add, reduce_max, reduce_min for a whole-warp reduction (all 32 lanes take part)")
CARBIDE_CUDA_COLLECTIVE(int, __shfl_down_sync, "write carbide::warp::shfl_down(value, delta) (all 32 lanes take part)")
CARBIDE_CUDA_COLLECTIVE(int, __shfl_up_sync, "write carbide::warp::shfl_up(value, delta) (all 32 lanes take part)")
CARBIDE_CUDA_COLLECTIVE(int, __shfl_xor_sync, "write carbide::warp::shfl_xor(value, lane_mask) (all 32 lanes take part)")
CARBIDE_CUDA_COLLECTIVE(unsigned, __ballot_sync, "write carbide::warp::ballot(predicate)")
CARBIDE_CUDA_COLLECTIVE(int, __any_sync, "write carbide::warp::any(predicate)")
CARBIDE_CUDA_COLLECTIVE(int, __all_sync, "write carbide::warp::all(predicate)")
#undef CARBIDE_CUDA_COLLECTIVE

// Loads and stores with cache hints: a span's read is already a read-only-cache load, and the
// streaming hints are methods of the span and of a thread's piece.
#define CARBIDE_CUDA_CACHED_ACCESS(name, instead) \
  template <class... Ignored>                     \
  int name(Ignored...) CARBIDE_CUDA_IDIOM(instead);
CARBIDE_CUDA_CACHED_ACCESS(__ldg, "read the element of a carbide::span<const T> as in[i]: a span's read is already a "
                                  "read-only-cache load (ld.global.nc)")
CARBIDE_CUDA_CACHED_ACCESS(__ldcs, "write x.load_streaming(i) on a carbide::span<const T>")
CARBIDE_CUDA_CACHED_ACCESS(__stcs, "write row.store_streaming(k, v) on a warp row or a block region")
#undef CARBIDE_CUDA_CACHED_ACCESS

// Atomics: on a view of global memory they are its methods, so the view says that threads
// share its elements; in shared memory, the array's fetch_add.
#define CARBIDE_CUDA_ATOMIC(name, method)                                                     \
  template <class... Ignored>                                                                 \
  int name(Ignored...) CARBIDE_CUDA_IDIOM(                                                    \
      "take the output as a carbide::atomic_span<T> and write view." method "(i, v); in shared " \
      "memory, tile.fetch_add(i, v)");
CARBIDE_CUDA_ATOMIC(atomicAdd, "fetch_add")
CARBIDE_CUDA_ATOMIC(atomicSub, "fetch_add")
CARBIDE_CUDA_ATOMIC(atomicExch, "exchange")
CARBIDE_CUDA_ATOMIC(atomicCAS, "compare_exchange")
CARBIDE_CUDA_ATOMIC(atomicMax, "fetch_max")
CARBIDE_CUDA_ATOMIC(atomicMin, "fetch_min")
#undef CARBIDE_CUDA_ATOMIC

// Declaration specifiers. A macro can only say so as a preprocessor error (GCC's pragma, which
// Clang reports at the user's line); the declaration then parses as plain C++, so the error
// comes once. CUDA's own headers define these too (where a file includes them, after this):
// theirs replace these, in a system header, without a warning. __device__ and __host__ are left
// alone, since CUDA's headers keep a __device__ that is already defined, and a plain function
// is a device helper anyway.
#define CARBIDE_CUDA_SPECIFIER(text) _Pragma(#text)
#if !defined(__global__)
#define __global__ \
  CARBIDE_CUDA_SPECIFIER(GCC error "in a Carbide file, a kernel is CARBIDE_KERNEL CARBIDE_LAUNCH_CONTRACT(domain = 1, block = (256, 1, 1)) void k(...), in a named namespace, with its outputs as views (docs/migrating-from-cuda.md)")
#endif
#if !defined(__shared__)
#define __shared__ \
  CARBIDE_CUDA_SPECIFIER(GCC error "in a Carbide kernel, shared memory is auto tile = carbide::block::shared<float, 256>(); and extern __shared__ is carbide::block::dynamic_shared<float>() with dynamic_shared = BYTES in the contract")
#endif
#if !defined(__constant__)
#define __constant__ \
  CARBIDE_CUDA_SPECIFIER(GCC error "in a Carbide file, a constant table is CARBIDE_CONSTANT float taps[17]; in the kernels' namespace, set from host code with module.set_taps(stream, values)")
#endif
#if !defined(__launch_bounds__)
#define __launch_bounds__(...) CARBIDE_CUDA_SPECIFIER(GCC error "in a Carbide file, write CARBIDE_LAUNCH_BOUNDS(threads, blocks) before the kernel")
#endif

#define CARBIDE_CUDA_VIEW_SUBSCRIPT                                                            \
  CARBIDE_CUDA_IDIOM(                                                                          \
      "a disjoint_span has no subscript, so that a thread writes only its own elements: write " \
      "`if (T* e = view.get_mut(idx)) *e = ...;` with idx = carbide::thread::index_1d(), or "  \
      "a chunk, tile, pair or block form (docs/user-guide.md)")

#else
#define CARBIDE_CUDA_VIEW_SUBSCRIPT = delete
#endif
