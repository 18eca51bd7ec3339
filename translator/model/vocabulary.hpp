// The device vocabulary of <carbide/carbide.hpp>, named here and nowhere else. Every analysis,
// rule and code generator that recognises one of Carbide's functions or types asks this
// catalogue, so a name added to the headers is added here once (tests/unit/vocabulary_test.cpp
// fails while a header declares a function the catalogue does not know), and the rules cannot
// drift apart the way separate lists of names did.
#pragma once

#include <clang/AST/DeclCXX.h>
#include <clang/AST/Expr.h>
#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <optional>

namespace carbide::model::vocabulary {

// Which threads a value is the same for.
enum class Sameness { PerThread, PerWarp, PerBlock, AsArguments };

// What a call of one of Carbide's device functions does, for the analyses.
enum class Role {
  WitnessSource,     // index_1d, index_2d(_transposed), local_index, lane: an unforgeable per-thread index
  ThreadCoordinate,  // thread_idx: the thread's position in its block
  BlockConstant,     // block_idx, block_dim, grid_dim: one value for the whole block
  SharedAllocation,  // block::shared, block::dynamic_shared: the block's one array
  Barrier,           // block::sync: every thread of the block must arrive
  WarpCollective,    // shuffles, warp reductions and votes: every lane of the warp must arrive
  Intrinsic,         // CUDA's intrinsics (__fdividef, __popc, ...): pure functions of their arguments
};

struct DeviceFunction {
  llvm::StringLiteral name;  // qualified, "carbide::warp::shfl_up"
  Role role;
  Sameness result;           // what its result is the same for
};

// Every free function of carbide::thread, carbide::block, carbide::warp and carbide::intrinsics.
llvm::ArrayRef<DeviceFunction> device_functions();

// The namespaces whose free functions the catalogue must list in full.
llvm::ArrayRef<llvm::StringLiteral> catalogued_namespaces();

const DeviceFunction* device_function(const clang::FunctionDecl* function);
// The callee's entry; null for an indirect call or anything not Carbide's.
const DeviceFunction* device_function(const clang::CallExpr* call);

// Who must reach a call together: the block for a barrier, the warp for a warp collective.
enum class Arrival { Block, Warp };
std::optional<Arrival> required_arrival(const clang::CallExpr* call);
bool is_barrier(const clang::CallExpr* call);
// `warp::reduce(v, op)`: the collective that calls an operation of the user's (its argument 1).
bool is_warp_fold(const clang::CallExpr* call);

// The dim3 a coordinate function returns: thread_idx().x and friends.
enum class Dim3 { ThreadIdx, BlockIdx, BlockDim, GridDim };
std::optional<Dim3> dim3_source(const clang::Expr* expr);

// `size()`, `rows()`, `cols()`, `pitch()` of a Carbide view or piece: the same for every thread
// that holds the same object.
bool is_extent_query(const clang::CXXMethodDecl* method);

// `size()` of a 1-D view: its length in elements, fixed for the launch.
bool is_length_query(const clang::CXXMethodDecl* method);

// `thread::index_1d()`: below grid.x × block.x, the thread count of a 1-D launch.
bool is_index_1d(const clang::CallExpr* call);

// `thread::grid_stride(view)`: the loop's witnesses are the thread's indexes below view.size().
bool is_grid_stride(const clang::CallExpr* call);

// `block::grid_stride(n)`: the block's own indexes below n, the same for all its threads.
bool is_block_stride(const clang::CallExpr* call);

// The index witnesses, by what they index.
// BlockIndex: an index of a block-stride loop (block::grid_stride), the same for the whole block.
// Warp: the warp's number across a 1-D grid (thread::warp_index_1d), the same for its lanes.
enum class Witness { Global1D, Global2D, Local, Lane, BlockIndex, Warp };
std::optional<Witness> witness_kind(const clang::CXXRecordDecl* record);
// index_2d_transposed()'s witness: the same kind as index_2d()'s (Global2D, for the domain and
// the other rules), but its block stands at the transposed coordinates, which the launch must
// check against the output's tile grid.
bool places_blocks_transposed(const clang::CXXRecordDecl* witness);
// R of index_1d_halo<R>()'s and index_2d_halo<R>()'s witnesses (Global1D, Global2D): blocks
// overlap by a halo of R, so each radius partitions a view its own way. None for other records.
std::optional<std::uint64_t> halo_radius(const clang::CXXRecordDecl* witness);
// The witness a global index source makes (index_1d → Global1D), for the launch domain.
std::optional<Witness> witness_made_by(const clang::CallExpr* call);
// For index_1d(), index_2d() and index_2d_transposed(): the generated-code function that makes the
// same witness in 32-bit arithmetic ("carbide::detail::index_1d_32"), for kernels whose launch
// checked that the grid allows it. None for any other call.
std::optional<llvm::StringLiteral> narrow_witness_source(const clang::CallExpr* call);
// `w.get()` (or row()/col()) on a witness of the given kind.
bool is_witness_read(const clang::Expr* expr, Witness kind);

// The parameter views.
enum class View { Read, Read2D, Exclusive, Exclusive2D, Atomic };
std::optional<View> view_kind(const clang::CXXRecordDecl* record);

// A thread's own piece of an exclusive view, with the template argument that bounds a method's
// result: tile_mut<T, R, C>::rows() ≤ R, cols() ≤ C; chunk_mut<T, K>::size() ≤ K.
std::optional<unsigned> piece_extent_argument(const clang::CXXMethodDecl* method);

// A claim on an exclusive view whose partition depends on a run-time argument: the stride of
// get_mut_pair and get_mut_radix<R>, the size of get_mut_block_region, the row length of
// get_mut_warp_row. Claims with two values of
// it overlap, so that argument must be one value for the whole launch.
struct SizedClaim {
  unsigned argument;        // which argument of the call
  llvm::StringLiteral what; // "stride", "region size"
};
std::optional<SizedClaim> sized_claim(const clang::CXXMethodDecl* method);

// The leader forms: `view.get_mut_block(lid)`, non-null for the block's local thread 0 alone, and
// `view.get_mut_warp_leader(w)`, for the warp's lane 0 alone (each only inside the view).
enum class Leader { Block, Warp };
std::optional<Leader> leader_claim(const clang::CXXMethodDecl* method);

// `view.get_mut_chunk<K>(idx)` and `view.get_mut_strided_chunks<K, N>(idx)`: pieces of K
// consecutive elements (K is the first template argument).
bool is_chunk_claim(const clang::CXXMethodDecl* method);
// `store_whole` of chunk_mut and strided_chunks_mut: all K elements in one store, for views
// whose length is a multiple of K.
bool is_whole_chunk_store(const clang::CXXMethodDecl* method);

// The Tile path's vocabulary (<carbide/tile.hpp>, namespace carbide::tile).
enum class TileRecord { Tile, Out, In, InPartition, Irange, Shape, Padding };
std::optional<TileRecord> tile_record(const clang::CXXRecordDecl* record);
// ct::bf16 and ct::f16, the element types of tiles besides the arithmetic ones.
bool named_tile_element(const clang::CXXRecordDecl* record);

enum class TileOp {
  Arithmetic,  // + - * /
  Compare,     // < <= > >= == !=
  Negate,      // unary -
  Math,        // exp, exp2, log, sqrt, rsqrt, tanh, abs
  MinMax,      // max, min of two tiles
  Fma,
  Select,
  Cast,
  Factory,     // zeros, full, iota
  Reduce,      // reduce_sum, reduce_max, reduce_min
  ArgReduce,   // argmax, argmin
  Logical,     // && || ! of masks
  Bcast,
  Reshape,
  Transpose,
  Mma,
  LoadLike,
  Pad,
};
struct TileFunction {
  llvm::StringLiteral name;  // qualified, "carbide::tile::reduce_sum"
  TileOp op;
};
llvm::ArrayRef<TileFunction> tile_functions();
const TileFunction* tile_function(const clang::FunctionDecl* function);

// The methods of the tile records a tile kernel calls.
enum class TileMethod { Coord, Store, Partition, Extent, Load, Tiles };
std::optional<TileMethod> tile_method(const clang::CXXMethodDecl* method);

// The host runtime's owning tile handles: `std::move(t).partition(shape)` empties a Tensor into a
// Partition, `std::move(p).unpartition()` empties the Partition back into a Tensor.
enum class TileHandle { Tensor, Partition };
std::optional<TileHandle> tile_handle(const clang::CXXRecordDecl* record);
// partition() on a Tensor, unpartition() on a Partition: the calls that empty their object.
bool is_handle_transfer(const clang::CXXMethodDecl* method);

bool is_shared_array(const clang::CXXRecordDecl* record);
bool is_vec(const clang::CXXRecordDecl* record);  // carbide::vec<T, K>, a value in registers
bool is_block_shared(const clang::NamedDecl* decl);  // the function block::shared, for codegen
bool is_unsafe_block(const clang::CXXRecordDecl* record);
bool is_internal(const clang::NamedDecl* decl);      // carbide::detail, the generated code's own
bool is_carbide(const clang::NamedDecl* decl);       // anything in namespace carbide
// CUDA's float4, uint2, ... from <vector_types.h>, which carbide.hpp includes.
bool is_cuda_vector_type(const clang::CXXRecordDecl* record);

// Whether a CPU run must be told the user's line before this call (codegen/cpu_codegen): a
// barrier or a warp collective, or a member of a view, shared array or claim that reaches memory
// itself or checks what it is given (a chunk's load, an atomic, a bounds-checked operator[], a
// butterfly claim's stride), not a pure query (size(), get(), coord()) and not carbide::vec, a
// value in the thread's registers.
bool needs_site_on_cpu(const clang::FunctionDecl* callee);

}  // namespace carbide::model::vocabulary
