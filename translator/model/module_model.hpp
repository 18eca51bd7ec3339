// The module model: what the rest of the pipeline knows about a translation unit's kernels.
// Built once from the AST; rules read it, code generators print it.
#pragma once

#include "contract/contract_parser.hpp"

#include <clang/AST/Decl.h>
#include <clang/AST/DeclCXX.h>

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace carbide::model {

enum class ParamKind {
  ReadView,       // carbide::span<const T>
  ReadView2D,     // carbide::span2d<const T>
  ExclusiveView,  // carbide::disjoint_span<T>
  ExclusiveView2D,  // carbide::disjoint_span2d<T>
  AtomicView,     // carbide::atomic_span<T>
  TileOut,        // carbide::tile::out<T, shape<...>>: this tile block's region of a Partition
  TileIn,         // carbide::tile::in<T, Rank>: a read-only Tensor
  Scalar,         // a trivially copyable value
  Unsupported,    // see Parameter::unsupported
};

enum class UnsupportedParam {
  None,
  RawPointer,
  Reference,
  NotTriviallyCopyable,
  MutableSharedView,    // carbide::span<T> with a non-const T
  UnnameableScalar,     // a scalar type the generated API cannot declare
  TileElement,          // a ct::in / ct::out of something other than numbers
};

// Views whose buffer no other argument of the same launch may share.
inline bool is_exclusive(ParamKind kind) {
  return kind == ParamKind::ExclusiveView || kind == ParamKind::ExclusiveView2D ||
         kind == ParamKind::AtomicView;
}
inline bool is_flat_view(ParamKind kind) {
  return kind == ParamKind::ReadView || kind == ParamKind::ExclusiveView || kind == ParamKind::AtomicView;
}

inline bool is_view(ParamKind kind) {
  return kind == ParamKind::ReadView || kind == ParamKind::ReadView2D || is_exclusive(kind);
}

struct Parameter {
  const clang::ParmVarDecl* decl = nullptr;
  std::string name;
  ParamKind kind = ParamKind::Unsupported;
  UnsupportedParam unsupported = UnsupportedParam::None;
  std::string device_type;    // the kernel's own parameter type, fully qualified
  std::string element_type;   // views and tile parameters: the element type without const
  std::string tile_shape;     // TileOut: `carbide::tile::shape<1, B>`, as the API names it
  std::string tile_rank;      // TileIn: the rank, as the API names it (`2`, or a template's `R`)
  std::string forward_declaration;  // a user record (scalar or view element): how the API header declares it
  const clang::CXXRecordDecl* user_record = nullptr;  // that record
};

struct LaunchBounds {
  std::uint64_t max_threads = 0;
  std::uint64_t min_blocks = 0;
  clang::SourceLocation location;
};

struct ContractAnnotation {
  std::string text;
  clang::SourceLocation location;  // the CARBIDE_LAUNCH_CONTRACT token
  std::optional<contract::Contract> parsed;
  std::optional<contract::ContractError> error;
};

struct Kernel {
  const clang::FunctionDecl* decl = nullptr;
  std::string name;            // vecadd
  std::string qualified_name;  // kernels::vecadd, kernels::reduce<256>
  std::string entry_name;      // carbide_kernels_vecadd: the extern "C" PTX entry
  // A kernel template and its instances: the parameter list the API's member templates repeat,
  // `template <unsigned int Block>`, and an instance's arguments, `<256>` (empty for the
  // template itself). Both empty for a plain kernel.
  std::string template_head;
  std::string template_parameters;  // `<T, Block>`: the template's parameters as arguments
  std::string template_arguments;
  // What the stubs name this kernel's own constants by: its name, and an instance's arguments.
  std::string symbol;
  // A template parameter the generated API cannot repeat (a pack, a template template
  // parameter): the kernel-signature rule reports it.
  std::string unsupported_template_parameter;
  // Enumerations its template parameters are of, as the API header (read before the user's file)
  // declares them: `namespace kernels { enum class Activation; }`.
  std::vector<std::string> forward_declarations;
  bool is_template() const { return !template_head.empty() && template_arguments.empty(); }
  bool is_instance() const { return !template_arguments.empty(); }
  // A CARBIDE_TILE_KERNEL: the translator plans its threads and writes its device code
  // (translator/tile/); it has no contract of the user's.
  bool is_tile = false;
  std::vector<Parameter> params;
  std::optional<ContractAnnotation> contract;
  std::optional<LaunchBounds> bounds;
  bool has_contract() const { return contract.has_value(); }
  bool has_valid_contract() const { return contract && contract->parsed; }
};

// The parameter a valid contract's `covers = x` names, when it is a 1-D view and the domain is 1:
// the launch checks that the grid's threads equal its size(). Null otherwise.
inline const Parameter* covered_view(const Kernel& kernel) {
  if (!kernel.has_valid_contract() || kernel.contract->parsed->covers.empty() || kernel.contract->parsed->domain != 1)
    return nullptr;
  for (const Parameter& param : kernel.params)
    if (param.name == kernel.contract->parsed->covers && is_flat_view(param.kind)) return &param;
  return nullptr;
}

// A namespace holding kernels; the generated Module class lives in it.
struct Module {
  std::vector<std::string> namespace_path;  // "" for an anonymous namespace
  std::vector<bool> inline_namespaces;      // which of namespace_path are inline
  std::string qualified_name;
  std::vector<Kernel> kernels;  // plain kernels and the instances of templates the host launches
  std::vector<Kernel> kernel_templates;  // as written, for the API's member templates
};

// The kernels host code names: plain kernels and templates as written (not their instances),
// in source order.
std::vector<const Kernel*> named_kernels(const Module& module);

// A CARBIDE_CONSTANT table: `CARBIDE_CONSTANT float taps[17];` in a kernel namespace.
struct ConstantTable {
  const clang::VarDecl* decl = nullptr;
  std::string name;                         // taps
  std::string qualified_name;               // conv::taps
  std::vector<std::string> namespace_path;  // the module that sets it
  std::string element_type;                 // float, float4: as the API spells it
  std::vector<std::uint64_t> extents;       // {17}, {4, 4}; empty for a single value
  std::uint64_t elements = 1;               // the product of the extents
  std::string symbol;  // _ZN4conv4tapsE: its name in the PTX, which the driver finds it by
  // Why it cannot be a table (the constant-table rule says it); empty where it can.
  std::string problem;
};

// The part of the file compiled for the device.
struct DeviceCode {
  std::vector<const clang::Decl*> top_level_decls;  // in source order
  // Kernels and every function they reach, as written (templates, not their instances), in
  // source order.
  std::vector<const clang::FunctionDecl*> functions;
  // The instances device code calls whose pattern is not a function template of its own: the
  // call operators of generic lambdas and the members of class templates. Their patterns are
  // dependent (a generic lambda is written inside its enclosing function), so the analyses check
  // these with every type known.
  std::vector<const clang::FunctionDecl*> member_instances;
  std::vector<std::string> std_includes;            // device-usable standard headers
  std::vector<clang::FileID> files;  // the user's file and the headers of theirs that hold device code
};

struct Program {
  std::string source_path;  // absolute
  std::string stem;         // vecadd
  std::vector<Module> modules;
  std::vector<ConstantTable> constant_tables;  // in source order, those with a problem too
  DeviceCode device;
  // What the tile kernels reach: the tile emitter lowers them, so the .cu never copies this; the
  // CPU form (codegen/cpu_codegen) runs it on the tile operations' reference implementations.
  DeviceCode tile_code;
  // What the host stubs define so that they can size the buffers of views of user records:
  // those records and what their fields name, in source order.
  std::vector<const clang::Decl*> host_type_decls;
  std::size_t kernel_count() const;
};

}  // namespace carbide::model
