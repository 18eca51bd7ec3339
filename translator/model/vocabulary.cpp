#include "model/vocabulary.hpp"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/Support/Path.h>

#include <string>

namespace carbide::model::vocabulary {
namespace {

constexpr DeviceFunction kDeviceFunctions[] = {
    {"carbide::thread::index_1d", Role::WitnessSource, Sameness::PerThread},
    {"carbide::thread::index_2d", Role::WitnessSource, Sameness::PerThread},
    {"carbide::thread::index_2d_transposed", Role::WitnessSource, Sameness::PerThread},
    {"carbide::thread::index_1d_halo", Role::WitnessSource, Sameness::PerThread},
    {"carbide::thread::index_2d_halo", Role::WitnessSource, Sameness::PerThread},
    {"carbide::thread::local_index", Role::WitnessSource, Sameness::PerThread},
    {"carbide::thread::lane", Role::WitnessSource, Sameness::PerThread},
    {"carbide::thread::warp_index_1d", Role::WitnessSource, Sameness::PerWarp},
    {"carbide::thread::grid_stride", Role::WitnessSource, Sameness::PerThread},
    {"carbide::thread::thread_idx", Role::ThreadCoordinate, Sameness::PerThread},
    {"carbide::thread::block_idx", Role::BlockConstant, Sameness::PerBlock},
    {"carbide::thread::block_dim", Role::BlockConstant, Sameness::PerBlock},
    {"carbide::thread::grid_dim", Role::BlockConstant, Sameness::PerBlock},
    {"carbide::block::shared", Role::SharedAllocation, Sameness::PerBlock},
    {"carbide::block::shared_at", Role::SharedAllocation, Sameness::PerBlock},
    {"carbide::block::dynamic_shared", Role::SharedAllocation, Sameness::PerBlock},
    {"carbide::block::sync", Role::Barrier, Sameness::PerBlock},
    {"carbide::block::grid_stride", Role::WitnessSource, Sameness::AsArguments},
    {"carbide::warp::shfl_down", Role::WarpCollective, Sameness::PerThread},
    {"carbide::warp::shfl_up", Role::WarpCollective, Sameness::PerThread},
    {"carbide::warp::shfl_xor", Role::WarpCollective, Sameness::PerThread},
    {"carbide::warp::shfl", Role::WarpCollective, Sameness::PerThread},
    {"carbide::warp::broadcast", Role::WarpCollective, Sameness::PerWarp},
    {"carbide::warp::inclusive_scan_add", Role::WarpCollective, Sameness::PerThread},
    {"carbide::warp::reduce_add", Role::WarpCollective, Sameness::PerWarp},
    {"carbide::warp::reduce_max", Role::WarpCollective, Sameness::PerWarp},
    {"carbide::warp::reduce_min", Role::WarpCollective, Sameness::PerWarp},
    // Each lane folds the same halves in the same order; carbide-device-unsupported holds its
    // operation to a pure function of its two values, so every lane gets the same result.
    {"carbide::warp::reduce", Role::WarpCollective, Sameness::PerWarp},
    {"carbide::warp::ballot", Role::WarpCollective, Sameness::PerWarp},
    {"carbide::warp::any", Role::WarpCollective, Sameness::PerWarp},
    {"carbide::warp::all", Role::WarpCollective, Sameness::PerWarp},
    // CUDA's intrinsics, with host definitions in <carbide/intrinsics.hpp>.
    {"carbide::intrinsics::__fdividef", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::rsqrtf", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::rcbrtf", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__saturatef", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__frcp_rn", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__fsqrt_rn", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__fadd_rn", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__fsub_rn", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__fmul_rn", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__fdiv_rn", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__fmaf_rn", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::norm3df", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::rnorm3df", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::sincospif", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::rsqrt", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__drcp_rn", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__dadd_rn", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__dmul_rn", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__fma_rn", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__popc", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__popcll", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__clz", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__clzll", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__ffs", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__ffsll", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__brev", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__brevll", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__umul24", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__mul24", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__umulhi", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__mulhi", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__umul64hi", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__mul64hi", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__sad", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__usad", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__int_as_float", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__float_as_int", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__uint_as_float", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__float_as_uint", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__longlong_as_double", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::__double_as_longlong", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::min", Role::Intrinsic, Sameness::AsArguments},
    {"carbide::intrinsics::max", Role::Intrinsic, Sameness::AsArguments},
};

constexpr llvm::StringLiteral kCataloguedNamespaces[] = {"carbide::thread", "carbide::block",
                                                         "carbide::warp", "carbide::intrinsics"};

struct NamedType {
  llvm::StringLiteral name;
  int kind;
};

constexpr NamedType kWitnesses[] = {
    {"carbide::thread::index_1d_witness", int(Witness::Global1D)},
    {"carbide::thread::index_2d_witness", int(Witness::Global2D)},
    {"carbide::thread::index_2d_transposed_witness", int(Witness::Global2D)},
    {"carbide::thread::index_1d_halo_witness", int(Witness::Global1D)},
    {"carbide::thread::index_2d_halo_witness", int(Witness::Global2D)},
    {"carbide::thread::local_index_witness", int(Witness::Local)},
    {"carbide::thread::lane_witness", int(Witness::Lane)},
    {"carbide::thread::block_index_witness", int(Witness::BlockIndex)},
    {"carbide::thread::warp_index_witness", int(Witness::Warp)},
};

constexpr NamedType kViews[] = {
    {"carbide::span", int(View::Read)},
    {"carbide::span2d", int(View::Read2D)},
    {"carbide::disjoint_span", int(View::Exclusive)},
    {"carbide::disjoint_span2d", int(View::Exclusive2D)},
    {"carbide::atomic_span", int(View::Atomic)},
};

constexpr NamedType kDim3Sources[] = {
    {"carbide::thread::thread_idx", int(Dim3::ThreadIdx)},
    {"carbide::thread::block_idx", int(Dim3::BlockIdx)},
    {"carbide::thread::block_dim", int(Dim3::BlockDim)},
    {"carbide::thread::grid_dim", int(Dim3::GridDim)},
};

std::optional<int> kind_of(const std::string& name, llvm::ArrayRef<NamedType> table) {
  for (const NamedType& entry : table)
    if (name == entry.name) return entry.kind;
  return std::nullopt;
}

std::optional<int> kind_of(const clang::CXXRecordDecl* record, llvm::ArrayRef<NamedType> table) {
  if (!is_carbide(record)) return std::nullopt;
  return kind_of(record->getQualifiedNameAsString(), table);
}

bool named(const clang::NamedDecl* decl, llvm::StringRef name) {
  return is_carbide(decl) && decl->getQualifiedNameAsString() == name;
}

}  // namespace

llvm::ArrayRef<DeviceFunction> device_functions() { return kDeviceFunctions; }

bool needs_site_on_cpu(const clang::FunctionDecl* callee) {
  if (const DeviceFunction* entry = device_function(callee))
    return entry->role == Role::Barrier || entry->role == Role::WarpCollective;
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(callee);
  if (method == nullptr || !is_carbide(method->getParent()) || llvm::isa<clang::CXXConversionDecl>(method) ||
      is_vec(method->getParent()))
    return false;
  static const llvm::StringRef kQueries[] = {"get",   "row",        "col",        "inner",        "size", "rows",
                                             "cols",  "pitch",      "count",      "index",        "piece", "data",
                                             "begin", "end",        "coord",      "first_index",  "second_index",
                                             "tiles", "extent",     "partition"};
  return !method->getIdentifier() || llvm::find(kQueries, method->getName()) == std::end(kQueries);
}

namespace {
constexpr NamedType kTileRecords[] = {
    {"carbide::tile::tile", int(TileRecord::Tile)},
    {"carbide::tile::out", int(TileRecord::Out)},
    {"carbide::tile::in", int(TileRecord::In)},
    {"carbide::tile::in_partition", int(TileRecord::InPartition)},
    {"carbide::tile::irange", int(TileRecord::Irange)},
    {"carbide::tile::shape", int(TileRecord::Shape)},
    {"carbide::tile::padding", int(TileRecord::Padding)},
};

constexpr TileFunction kTileFunctions[] = {
    {"carbide::tile::operator+", TileOp::Arithmetic},  {"carbide::tile::operator-", TileOp::Arithmetic},
    {"carbide::tile::operator*", TileOp::Arithmetic},  {"carbide::tile::operator/", TileOp::Arithmetic},
    {"carbide::tile::operator<", TileOp::Compare},     {"carbide::tile::operator<=", TileOp::Compare},
    {"carbide::tile::operator>", TileOp::Compare},     {"carbide::tile::operator>=", TileOp::Compare},
    {"carbide::tile::operator==", TileOp::Compare},    {"carbide::tile::operator!=", TileOp::Compare},
    {"carbide::tile::exp", TileOp::Math},              {"carbide::tile::exp2", TileOp::Math},
    {"carbide::tile::log", TileOp::Math},              {"carbide::tile::sqrt", TileOp::Math},
    {"carbide::tile::rsqrt", TileOp::Math},            {"carbide::tile::tanh", TileOp::Math},
    {"carbide::tile::abs", TileOp::Math},              {"carbide::tile::max", TileOp::MinMax},
    {"carbide::tile::min", TileOp::MinMax},            {"carbide::tile::fma", TileOp::Fma},
    {"carbide::tile::select", TileOp::Select},         {"carbide::tile::cast", TileOp::Cast},
    {"carbide::tile::zeros", TileOp::Factory},         {"carbide::tile::full", TileOp::Factory},
    {"carbide::tile::iota", TileOp::Factory},          {"carbide::tile::reduce_sum", TileOp::Reduce},
    {"carbide::tile::reduce_max", TileOp::Reduce},     {"carbide::tile::reduce_min", TileOp::Reduce},
    {"carbide::tile::bcast", TileOp::Bcast},           {"carbide::tile::reshape", TileOp::Reshape},
    {"carbide::tile::transpose", TileOp::Transpose},   {"carbide::tile::mma", TileOp::Mma},
    {"carbide::tile::load_like", TileOp::LoadLike},    {"carbide::tile::pad", TileOp::Pad},
    {"carbide::tile::argmax", TileOp::ArgReduce},      {"carbide::tile::argmin", TileOp::ArgReduce},
    {"carbide::tile::operator&&", TileOp::Logical},    {"carbide::tile::operator||", TileOp::Logical},
    {"carbide::tile::operator!", TileOp::Logical},
};
}  // namespace

std::optional<TileHandle> tile_handle(const clang::CXXRecordDecl* record) {
  if (named(record, "carbide::Tensor")) return TileHandle::Tensor;
  if (named(record, "carbide::Partition")) return TileHandle::Partition;
  return std::nullopt;
}

bool is_handle_transfer(const clang::CXXMethodDecl* method) {
  if (method == nullptr || !method->getIdentifier()) return false;
  const auto handle = tile_handle(method->getParent());
  return (handle == TileHandle::Tensor && method->getName() == "partition") ||
         (handle == TileHandle::Partition && method->getName() == "unpartition");
}

bool named_tile_element(const clang::CXXRecordDecl* record) {
  return named(record, "carbide::tile::bf16") || named(record, "carbide::tile::f16");
}

std::optional<TileRecord> tile_record(const clang::CXXRecordDecl* record) {
  if (auto kind = kind_of(record, kTileRecords)) return TileRecord(*kind);
  return std::nullopt;
}

llvm::ArrayRef<TileFunction> tile_functions() { return kTileFunctions; }

const TileFunction* tile_function(const clang::FunctionDecl* function) {
  if (function == nullptr || !is_carbide(function)) return nullptr;
  if (const clang::FunctionDecl* pattern = function->getPrimaryTemplate() ? function->getPrimaryTemplate()->getTemplatedDecl() : nullptr)
    function = pattern;
  const std::string name = function->getQualifiedNameAsString();
  for (const TileFunction& entry : kTileFunctions)
    if (name == entry.name) return &entry;
  return nullptr;
}

std::optional<TileMethod> tile_method(const clang::CXXMethodDecl* method) {
  if (method == nullptr || !method->getIdentifier()) return std::nullopt;
  const auto record = tile_record(method->getParent());
  if (!record) return std::nullopt;
  const llvm::StringRef name = method->getName();
  if (*record == TileRecord::Out && name == "coord") return TileMethod::Coord;
  if (*record == TileRecord::Out && name == "store") return TileMethod::Store;
  if (*record == TileRecord::In && name == "partition") return TileMethod::Partition;
  if (*record == TileRecord::In && name == "extent") return TileMethod::Extent;
  if (*record == TileRecord::InPartition && name == "load") return TileMethod::Load;
  if (*record == TileRecord::InPartition && name == "tiles") return TileMethod::Tiles;
  return std::nullopt;
}

llvm::ArrayRef<llvm::StringLiteral> catalogued_namespaces() { return kCataloguedNamespaces; }

const DeviceFunction* device_function(const clang::FunctionDecl* function) {
  if (function == nullptr || !is_carbide(function)) return nullptr;
  const std::string name = function->getQualifiedNameAsString();
  for (const DeviceFunction& entry : kDeviceFunctions)
    if (name == entry.name) return &entry;
  return nullptr;
}

const DeviceFunction* device_function(const clang::CallExpr* call) {
  return call ? device_function(call->getDirectCallee()) : nullptr;
}

std::optional<Arrival> required_arrival(const clang::CallExpr* call) {
  const DeviceFunction* entry = device_function(call);
  if (entry == nullptr) return std::nullopt;
  if (entry->role == Role::Barrier) return Arrival::Block;
  if (entry->role == Role::WarpCollective) return Arrival::Warp;
  return std::nullopt;
}

bool is_warp_fold(const clang::CallExpr* call) {
  const DeviceFunction* entry = device_function(call);
  return entry != nullptr && entry->name == "carbide::warp::reduce";
}

bool is_barrier(const clang::CallExpr* call) {
  const DeviceFunction* entry = device_function(call);
  return entry && entry->role == Role::Barrier;
}

std::optional<Dim3> dim3_source(const clang::Expr* expr) {
  // `thread_idx().x` reads a member of a materialized temporary.
  const auto* call = llvm::dyn_cast<clang::CallExpr>(expr->IgnoreImplicit()->IgnoreParenImpCasts());
  if (device_function(call) == nullptr) return std::nullopt;
  if (auto kind = kind_of(call->getDirectCallee()->getQualifiedNameAsString(), kDim3Sources))
    return Dim3(*kind);
  return std::nullopt;
}

bool is_extent_query(const clang::CXXMethodDecl* method) {
  if (method == nullptr || !method->getIdentifier() || !is_carbide(method->getParent())) return false;
  const llvm::StringRef name = method->getName();
  return name == "size" || name == "rows" || name == "cols" || name == "pitch";
}

bool is_length_query(const clang::CXXMethodDecl* method) {
  if (method == nullptr || !method->getIdentifier() || method->getName() != "size") return false;
  const auto kind = view_kind(method->getParent());
  return kind == View::Read || kind == View::Exclusive || kind == View::Atomic;
}

bool is_index_1d(const clang::CallExpr* call) {
  const DeviceFunction* entry = device_function(call);
  return entry && llvm::StringRef(entry->name) == "carbide::thread::index_1d";
}

bool is_grid_stride(const clang::CallExpr* call) {
  const DeviceFunction* entry = device_function(call);
  return entry && llvm::StringRef(entry->name) == "carbide::thread::grid_stride";
}

bool is_block_stride(const clang::CallExpr* call) {
  const DeviceFunction* entry = device_function(call);
  return entry && llvm::StringRef(entry->name) == "carbide::block::grid_stride";
}

std::optional<Witness> witness_kind(const clang::CXXRecordDecl* record) {
  if (auto kind = kind_of(record, kWitnesses)) return Witness(*kind);
  return std::nullopt;
}

std::optional<Witness> witness_made_by(const clang::CallExpr* call) {
  const DeviceFunction* entry = device_function(call);
  if (entry == nullptr || entry->role != Role::WitnessSource) return std::nullopt;
  const clang::CXXRecordDecl* made = call->getType()->getAsCXXRecordDecl();
  return witness_kind(made);
}

std::optional<llvm::StringLiteral> narrow_witness_source(const clang::CallExpr* call) {
  const DeviceFunction* entry = device_function(call);
  if (entry == nullptr) return std::nullopt;
  // The 32-bit forms number blocks in their natural order only.
  if (const clang::TemplateArgumentList* arguments = call->getDirectCallee()->getTemplateSpecializationArgs();
      arguments && arguments->size() > 0 && arguments->get(0).getKind() == clang::TemplateArgument::Type &&
      !named(arguments->get(0).getAsType()->getAsCXXRecordDecl(), "carbide::block_order::natural"))
    return std::nullopt;
  const llvm::StringRef name = entry->name;
  if (name == "carbide::thread::index_1d") return llvm::StringLiteral("carbide::detail::index_1d_32");
  if (name == "carbide::thread::index_2d") return llvm::StringLiteral("carbide::detail::index_2d_32");
  if (name == "carbide::thread::index_2d_transposed")
    return llvm::StringLiteral("carbide::detail::index_2d_transposed_32");
  return std::nullopt;
}

bool is_witness_read(const clang::Expr* expr, Witness kind) {
  const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr);
  const clang::CXXMethodDecl* method = call ? call->getMethodDecl() : nullptr;
  if (method == nullptr || !method->getIdentifier()) return false;
  const llvm::StringRef name = method->getName();
  return (name == "get" || name == "row" || name == "col") &&
         witness_kind(method->getParent()) == kind;
}

bool places_blocks_transposed(const clang::CXXRecordDecl* witness) {
  return named(witness, "carbide::thread::index_2d_transposed_witness");
}

std::optional<std::uint64_t> halo_radius(const clang::CXXRecordDecl* witness) {
  const auto* halo = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(witness);
  if (halo == nullptr || !(named(halo, "carbide::thread::index_1d_halo_witness") ||
                           named(halo, "carbide::thread::index_2d_halo_witness")))
    return std::nullopt;
  return halo->getTemplateArgs()[0].getAsIntegral().getZExtValue();
}

std::optional<View> view_kind(const clang::CXXRecordDecl* record) {
  if (auto kind = kind_of(record, kViews)) return View(*kind);
  return std::nullopt;
}

std::optional<Leader> leader_claim(const clang::CXXMethodDecl* method) {
  if (method == nullptr || !method->getIdentifier() || !named(method->getParent(), "carbide::disjoint_span"))
    return std::nullopt;
  if (method->getName() == "get_mut_block") return Leader::Block;
  if (method->getName() == "get_mut_warp_leader") return Leader::Warp;
  return std::nullopt;
}

bool is_chunk_claim(const clang::CXXMethodDecl* method) {
  if (method == nullptr || !method->getIdentifier() || !named(method->getParent(), "carbide::disjoint_span"))
    return false;
  return method->getName() == "get_mut_chunk" || method->getName() == "get_mut_strided_chunks";
}

bool is_whole_chunk_store(const clang::CXXMethodDecl* method) {
  if (method == nullptr || !method->getIdentifier() || method->getName() != "store_whole") return false;
  return named(method->getParent(), "carbide::chunk_mut") || named(method->getParent(), "carbide::strided_chunks_mut");
}

std::optional<SizedClaim> sized_claim(const clang::CXXMethodDecl* method) {
  if (method == nullptr || !named(method->getParent(), "carbide::disjoint_span")) return std::nullopt;
  const llvm::StringRef name = method->getName();
  if (name == "get_mut_pair" || name == "get_mut_radix") return SizedClaim{1, "stride"};
  if (name == "get_mut_block_region") return SizedClaim{1, "region size"};
  if (name == "get_mut_warp_row") return SizedClaim{1, "row length"};
  return std::nullopt;
}

std::optional<unsigned> piece_extent_argument(const clang::CXXMethodDecl* method) {
  if (method == nullptr || !method->getIdentifier()) return std::nullopt;
  const clang::CXXRecordDecl* piece = method->getParent();
  const llvm::StringRef name = method->getName();
  if (named(piece, "carbide::tile_mut")) {
    if (name == "rows") return 1u;
    if (name == "cols") return 2u;
  }
  if (named(piece, "carbide::chunk_mut") && name == "size") return 1u;
  return std::nullopt;
}

bool is_vec(const clang::CXXRecordDecl* record) { return named(record, "carbide::vec"); }

bool is_shared_array(const clang::CXXRecordDecl* record) {
  return named(record, "carbide::shared_array");
}

bool is_block_shared(const clang::NamedDecl* decl) { return named(decl, "carbide::block::shared"); }

bool is_unsafe_block(const clang::CXXRecordDecl* record) {
  return named(record, "carbide::detail::unsafe_block");
}

bool is_internal(const clang::NamedDecl* decl) {
  return is_carbide(decl) &&
         llvm::StringRef(decl->getQualifiedNameAsString()).starts_with("carbide::detail::");
}

bool is_cuda_vector_type(const clang::CXXRecordDecl* record) {
  if (record == nullptr || !record->getDeclContext()->isTranslationUnit()) return false;
  const clang::SourceManager& sources = record->getASTContext().getSourceManager();
  const clang::SourceLocation at = sources.getExpansionLoc(record->getLocation());
  return sources.isInSystemHeader(at) && llvm::sys::path::filename(sources.getFilename(at)) == "vector_types.h";
}

// By the enclosing namespaces, without printing the name: the analyses ask this of every call
// and type they meet.
bool is_carbide(const clang::NamedDecl* decl) {
  if (decl == nullptr) return false;
  const clang::NamespaceDecl* outermost = nullptr;
  for (const clang::DeclContext* scope = decl->getDeclContext(); scope && !scope->isTranslationUnit();
       scope = scope->getParent())
    if (const auto* space = llvm::dyn_cast<clang::NamespaceDecl>(scope)) outermost = space;
  return outermost && outermost->getIdentifier() && outermost->getName() == "carbide";
}

}  // namespace carbide::model::vocabulary
