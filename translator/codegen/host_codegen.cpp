#include "codegen/host_codegen.hpp"

#include "analysis/view_claims.hpp"
#include "codegen/copied_declarations.hpp"
#include "codegen/cpu_codegen.hpp"
#include "codegen/copied_macros.hpp"
#include "codegen/generated_text.hpp"
#include "codegen/tile_stubs.hpp"
#include "model/constant_tables.hpp"
#include "model/module_api.hpp"
#include "support/file_names.hpp"

#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/BLAKE3.h>
#include <llvm/Support/Path.h>

#include <cstdio>
#include <set>

namespace carbide::codegen {
namespace {

using model::ParamKind;

std::string tag_name(const model::Kernel& kernel) { return kernel.name + "_kernel"; }

// The tag as the API names it: `reduce_kernel`, or in a template `reduce_kernel<Block>` and in
// an instance `reduce_kernel<256>`.
std::string tag_type(const model::Kernel& kernel) {
  if (kernel.is_instance()) return tag_name(kernel) + kernel.template_arguments;
  return tag_name(kernel) + kernel.template_parameters;
}

// What a declaration of the API starts with: a template's head; an instance's stub is an
// explicit specialization.
std::string template_prefix(const model::Kernel& kernel, const std::string& indent) {
  if (kernel.is_instance()) return indent + "template <>\n";
  if (kernel.is_template()) return indent + kernel.template_head + "\n";
  return "";
}

// The member function `name` of Module, as a stub defines it: `Module::reduce<256>`.
std::string member(const model::Kernel& kernel, const std::string& name) {
  return "Module::" + name + kernel.template_arguments;
}


// The API's shape follows the annotations alone, so that host code still type-checks while a
// malformed contract is being reported; stubs are only generated once every contract is valid.

// How the host passes each kind: a buffer for a view (mutable only where the kernel writes),
// the value itself for a builtin scalar, a const reference for a record (which the API header
// only forward-declares), a placeholder for a type the header cannot name.
std::string host_parameter(const model::Parameter& param) {
  switch (param.kind) {
    case ParamKind::ReadView:
      return "const carbide::DeviceBuffer<" + param.element_type + ">& " + param.name;
    case ParamKind::ReadView2D:
      return "const carbide::DeviceBuffer2D<" + param.element_type + ">& " + param.name;
    case ParamKind::ExclusiveView:
    case ParamKind::AtomicView:
      return "carbide::DeviceBuffer<" + param.element_type + ">& " + param.name;
    case ParamKind::ExclusiveView2D:
      return "carbide::DeviceBuffer2D<" + param.element_type + ">& " + param.name;
    case ParamKind::TileOut:
      return "carbide::Partition<" + param.element_type + ", " + param.tile_shape + ">& " + param.name;
    case ParamKind::TileIn:
      return "const carbide::Tensor<" + param.element_type + ">& " + param.name;
    case ParamKind::Scalar:
      break;
    case ParamKind::Unsupported:
      if (param.unsupported == model::UnsupportedParam::UnnameableScalar ||
          param.unsupported == model::UnsupportedParam::TileElement)
        return "carbide::detail::unnameable_argument " + param.name;
      break;
  }
  if (!param.forward_declaration.empty()) return "const " + param.device_type + "& " + param.name;
  return param.device_type + " " + param.name;
}

std::string parameter_list(const model::Kernel& kernel) {
  std::string text;
  for (const model::Parameter& param : kernel.params) text += ",\n      " + host_parameter(param);
  return text;
}

std::string launch_name(const model::Kernel& kernel) {
  return kernel.has_contract() ? kernel.name : model::unchecked_launch_name(kernel.name);
}

std::string exclusive_names(const model::Kernel& kernel) {
  std::string names;
  for (const model::Parameter& param : kernel.params)
    if (model::is_exclusive(param.kind)) names += (names.empty() ? "" : ", ") + param.name;
  return names;
}

// A contract-less kernel has no prepare_k and no k, only unsafe_launch_k. A call of either would
// draw "no member named" and nothing else (carbide-missing-contract is not reported where the
// file does not compile), so the module declares both deleted, with what to write instead; Clang
// prints the reason at the user's call. k taking prepare_k's result is not deleted: one error for
// `m.k(stream, m.prepare_k(config), …)`. Not for kernel templates, whose members are templates.
std::string missing_contract_stand_ins(const model::Kernel& kernel) {
  if (kernel.is_template()) return "";
  const std::string reason = c_string_literal(
      "kernel '" + kernel.qualified_name + "' has no CARBIDE_LAUNCH_CONTRACT: add one above the kernel, or "
      "launch it unchecked with " + model::unchecked_launch_name(kernel.name) + "(stream, config, ...)");
  const std::string prepare = model::prepare_function_name(kernel.name);
  return "  // " + kernel.name + " has no launch contract, so no " + prepare + " and no " + kernel.name +
         ": calls of them say why.\n"
         "#if defined(__clang__) && __clang_major__ >= 19\n"
         "#pragma clang diagnostic push\n#pragma clang diagnostic ignored \"-Wc++26-extensions\"\n"
         "#define CARBIDE_NO_CONTRACT(reason) delete (reason)\n#else\n#define CARBIDE_NO_CONTRACT(reason) delete\n#endif\n"
         "  template <class... Arguments>\n  carbide::detail::missing_contract " + prepare +
         "(Arguments&&...) const = CARBIDE_NO_CONTRACT(" + reason + ");\n"
         "  template <class... Arguments>\n  void " + kernel.name + "(Arguments&&...) const = CARBIDE_NO_CONTRACT(" +
         reason + ");\n"
         "  template <class Stream, class... Arguments>\n  void " + kernel.name +
         "(Stream&&, carbide::detail::missing_contract, Arguments&&...) const {}\n"
         "#undef CARBIDE_NO_CONTRACT\n#if defined(__clang__) && __clang_major__ >= 19\n#pragma clang diagnostic pop\n#endif\n\n";
}

std::string kernel_declarations(const model::Kernel& kernel) {
  if (kernel.is_tile) return tile_kernel_declaration(kernel, parameter_list(kernel));
  std::string text;
  const std::string prefix = template_prefix(kernel, "  ");
  if (kernel.has_contract()) {
    const std::string tag = tag_name(kernel);
    text += "  // Proof that a configuration satisfies " + kernel.name + "'s contract on this device.\n" +
            prefix + "  struct " + tag + " {\n   private:\n    friend class Module;\n";
    // A template's tags are made for each instance the stubs define; the one body serves all.
    if (kernel.is_template())
      text += "    static carbide::Prepared<" + tag + "> make(const carbide::LaunchConfig& config,\n"
              "                                             const void* module) {\n"
              "      return carbide::Prepared<" + tag + ">(config, module);\n    }\n  };\n\n";
    else
      text += "    static carbide::Prepared<" + tag + "> make(const carbide::LaunchConfig& config,\n"
              "                                                    const void* module);\n  };\n\n";
    text += "  // Checks `config` against `" + kernel.contract->text + "` and this device's limits;\n"
            "  // throws carbide::LaunchContractError naming the field that does not fit.\n" + prefix +
            "  carbide::Prepared<" + tag_type(kernel) + "> " + model::prepare_function_name(kernel.name) +
            "(const carbide::LaunchConfig& config) const;\n\n";
    text += "  // Launches " + kernel.qualified_name + kernel.template_parameters + " on `stream`.";
  } else {
    text += missing_contract_stand_ins(kernel);
    text += "  // Launches " + kernel.qualified_name + kernel.template_parameters +
            ", which has no launch contract: only the device's limits are checked.";
  }
  const std::string exclusive = exclusive_names(kernel);
  if (!exclusive.empty())
    text += "\n  // Throws carbide::AliasingError if " + exclusive +
            " overlaps another buffer argument.";
  text += "\n" + prefix + "  void " + launch_name(kernel) + "(const carbide::Stream& stream, ";
  text += kernel.has_contract()
              ? "const carbide::Prepared<" + tag_type(kernel) + ">& prepared"
              : "const carbide::LaunchConfig& config";
  text += parameter_list(kernel) + ") const;\n\n";
  return text;
}

std::string image_array(const std::string& bytes) {
  std::string text = "const unsigned char kModuleImage[] = {";
  char hex[8];
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    if (i % 16 == 0) text += "\n   ";
    std::snprintf(hex, sizeof hex, " 0x%02x,", static_cast<unsigned char>(bytes[i]));
    text += hex;
  }
  return text + "\n    0x00};  // the driver reads PTX as a NUL-terminated string\n";
}

std::string contract_constant(const model::Kernel& kernel) {
  const contract::Contract& c = *kernel.contract->parsed;
  const std::uint64_t bound = kernel.bounds ? kernel.bounds->max_threads : 0;
  return "const carbide::LaunchContract " + kernel.symbol + "_contract{\n    " +
         c_string_literal(kernel.qualified_name) + ", " + std::to_string(c.domain) + ", {" +
         std::to_string(c.block[0]) + ", " + std::to_string(c.block[1]) + ", " +
         std::to_string(c.block[2]) + "}, " + std::to_string(c.dynamic_shared_bytes) + ", " +
         std::to_string(c.min_compute) + ", " + std::to_string(bound) +
         (c.index_bits != 64 ? ", " + std::to_string(c.index_bits) : "") + "};\n";
}

std::string argument_setup(const model::Kernel& kernel) {
  std::string text, buffers, devices = "       {\"stream\", stream.context().ordinal()}", pointers;
  for (const model::Parameter& param : kernel.params) {
    if (!model::is_view(param.kind)) continue;
    buffers += std::string(buffers.empty() ? "" : ",\n") + "       {" + c_string_literal(param.name) +
               ", " + param.name + ".device_ptr(), " + param.name + ".bytes(), " +
               (model::is_exclusive(param.kind) ? "true" : "false") + "}";
    devices += ",\n       {" + c_string_literal(param.name) + ", " + param.name + ".context().ordinal()}";
  }
  text += "  carbide::detail::check_same_device(\n      " + c_string_literal(kernel.qualified_name) +
          ", loaded_.context().ordinal(),\n      {\n" + devices + "});\n";
  if (!exclusive_names(kernel).empty())
    text += "  carbide::detail::check_no_aliasing(\n      " + c_string_literal(kernel.qualified_name) +
            ",\n      {\n" + buffers + "});\n";
  for (const model::Parameter& param : kernel.params) {
    std::string arg;
    if (param.kind == ParamKind::ReadView || param.kind == ParamKind::ReadView2D)
      text += "  auto " + param.name + "_view = carbide::detail::read_view(" + param.name + ");\n";
    else if (param.kind == ParamKind::ExclusiveView || param.kind == ParamKind::ExclusiveView2D)
      text += "  auto " + param.name + "_view = carbide::detail::exclusive_view(" + param.name + ");\n";
    else if (param.kind == ParamKind::AtomicView)
      text += "  auto " + param.name + "_view = carbide::detail::atomic_view(" + param.name + ");\n";
    arg = model::is_view(param.kind) ? "&" + param.name + "_view"
                           : "const_cast<void*>(static_cast<const void*>(&" + param.name + "))";
    pointers += (pointers.empty() ? "" : ", ") + arg;
  }
  text += "  void* args[] = {" + (pointers.empty() ? std::string("nullptr") : pointers) + "};\n";
  return text;
}

// For each 2-D output the kernel claims with thread::index_2d_transposed(), the check that
// `config`'s grid is the output's tile grid transposed, without which two blocks could own one
// tile (carbide::validate_transposed_output). carbide-disjoint-foreign-write has made sure that
// each such view is a parameter, claimed in one form.
std::string transposed_output_checks(const model::Kernel& kernel, const analysis::ViewClaims& made,
                                     const std::string& config) {
  std::string text;
  for (const model::Parameter& param : kernel.params) {
    const auto found = made.find(param.decl);
    if (param.kind != ParamKind::ExclusiveView2D || found == made.end()) continue;
    const auto transposed = llvm::find_if(
        found->second, [](const analysis::ViewClaim& claim) { return claim.transposed.has_value(); });
    if (transposed == found->second.end()) continue;
    text += "  carbide::validate_transposed_output(\n      " + c_string_literal(kernel.qualified_name) +
            ",\n      {" + c_string_literal(param.name) + ", " + param.name + ".rows(), " + param.name +
            ".cols(), " + std::to_string(transposed->transposed->rows) + ", " +
            std::to_string(transposed->transposed->cols) + "},\n      " + config + ");\n";
  }
  return text;
}

// For each output the kernel stores whole chunks of K into (store_whole), the check that its
// length is a multiple of K: every chunk is then whole or empty, so the store needs no partial
// path (carbide::validate_whole_chunks). carbide-whole-store has made sure that every whole
// store is traced to a parameter's claim.
std::string whole_chunk_checks(const model::Kernel& kernel, const analysis::ViewClaims& made) {
  std::string text;
  for (const model::Parameter& param : kernel.params) {
    const auto found = made.find(param.decl);
    if (param.kind != ParamKind::ExclusiveView || found == made.end()) continue;
    std::set<std::uint64_t> chunks;
    for (const analysis::ViewClaim& claim : found->second)
      if (claim.whole_chunk) chunks.insert(*claim.whole_chunk);
    for (const std::uint64_t chunk : chunks)
      text += "  carbide::validate_whole_chunks(" + c_string_literal(kernel.qualified_name) + ", " + c_string_literal(param.name) +
              ", " + param.name + ".size(), " + std::to_string(chunk) + ");\n";
  }
  return text;
}

// A kernel whose contract says `index_bits = 32` computes its indexes in 32 bits: each view must
// hold fewer than 2^32 elements (carbide::validate_index_extent; the grid is checked with the
// contract).
std::string index_extent_checks(const model::Kernel& kernel) {
  if (!kernel.has_valid_contract() || kernel.contract->parsed->index_bits != 32) return "";
  std::string text;
  for (const model::Parameter& param : kernel.params) {
    if (!model::is_view(param.kind)) continue;
    const bool two_d = param.kind == ParamKind::ReadView2D || param.kind == ParamKind::ExclusiveView2D;
    text += "  carbide::validate_index_extent(" + c_string_literal(kernel.qualified_name) + ", " + c_string_literal(param.name) +
            ", " + (two_d ? param.name + ".rows() * " + param.name + ".cols()" : param.name + ".size()") + ");\n";
  }
  return text;
}

// `covers = x`: the grid must have one thread per element of x, which is what lets the kernel's
// reads x[idx.get()] go unchecked (analysis/proven_span_reads).
std::string exact_cover_check(const model::Kernel& kernel) {
  const model::Parameter* covered = model::covered_view(kernel);
  if (covered == nullptr) return "";
  return "  carbide::validate_exact_cover(" + c_string_literal(kernel.qualified_name) + ", " + c_string_literal(covered->name) + ", " +
         covered->name + ".size(), prepared.config());\n";
}

std::string kernel_definitions(const model::Kernel& kernel, std::size_t index,
                               const analysis::ViewClaims& claims) {
  const std::string i = std::to_string(index);
  const std::string prefix = template_prefix(kernel, "");
  std::string text;
  if (kernel.has_contract()) {
    const std::string tag = "Module::" + tag_type(kernel);
    if (!kernel.is_instance())
      text += "carbide::Prepared<" + tag + "> " + tag + "::make(const carbide::LaunchConfig& config,\n"
              "    const void* module) {\n  return carbide::Prepared<" + tag_name(kernel) +
              ">(config, module);\n}\n\n";
    text += prefix + "carbide::Prepared<" + tag + "> " + member(kernel, model::prepare_function_name(kernel.name)) +
            "(const carbide::LaunchConfig& config) const {\n"
            "  carbide::validate_launch(" + kernel.symbol + "_contract, config, loaded_.context().limits(),\n"
            "                           loaded_.footprint(" + i + "));\n"
            "  loaded_.reserve_dynamic_shared(" + i + ", config.dynamic_shared_bytes);\n"
            "  return " + tag_type(kernel) + "::make(config, loaded_.identity());\n}\n\n";
    text += prefix + "void " + member(kernel, kernel.name) + "(const carbide::Stream& stream, const carbide::Prepared<" +
            tag_type(kernel) + ">& prepared" + parameter_list(kernel) + ") const {\n"
            "  carbide::detail::check_prepared_for(" + c_string_literal(kernel.qualified_name) +
            ", prepared.module_identity(), loaded_);\n" +
            transposed_output_checks(kernel, claims, "prepared.config()") + whole_chunk_checks(kernel, claims) +
            index_extent_checks(kernel) + exact_cover_check(kernel) + argument_setup(kernel) +
            "  loaded_.launch(" + i + ", stream, prepared.config(), args);\n}\n\n";
  } else {
    text += prefix + "void " + member(kernel, launch_name(kernel)) + "(const carbide::Stream& stream, "
            "const carbide::LaunchConfig& config" + parameter_list(kernel) + ") const {\n"
            "  carbide::validate_device_limits(" + c_string_literal(kernel.qualified_name) +
            ", config, loaded_.context().limits(),\n"
            "                                  loaded_.footprint(" + i + "));\n"
            "  loaded_.reserve_dynamic_shared(" + i + ", config.dynamic_shared_bytes);\n" +
            transposed_output_checks(kernel, claims, "config") + whole_chunk_checks(kernel, claims) +
            argument_setup(kernel) +
            "  loaded_.launch(" + i + ", stream, config, args);\n}\n\n";
  }
  return text;
}

// `[17]`, `[4][4]`: a table's extents as a declarator spells them.
std::string extents_suffix(const model::ConstantTable& table) {
  std::string text;
  for (const std::uint64_t extent : table.extents) text += "[" + std::to_string(extent) + "]";
  return text;
}

// The setters' parameters after the stream: the whole table, and for an array a pointer and a
// count (std::vector's data() and size()), which the runtime checks.
std::string whole_table_parameter(const model::ConstantTable& table) {
  if (table.extents.empty()) return "const " + table.element_type + "& value";
  return "const " + table.element_type + " (&values)" + extents_suffix(table);
}
std::string counted_table_parameters(const model::ConstantTable& table) {
  return "const " + table.element_type + "* values, std::size_t count";
}

std::string table_declarations(const model::ConstantTable& table) {
  const std::string setter = model::constant_setter_name(table.name);
  std::string text = "  // Sets the constant table " + table.qualified_name + " (" + table.element_type +
                     extents_suffix(table) + ") for the kernels launched on `stream`\n"
                     "  // after it, copying as cudaMemcpyToSymbolAsync does.\n"
                     "  void " + setter + "(const carbide::Stream& stream, " + whole_table_parameter(table) + ") const;\n";
  if (!table.extents.empty())
    text += "  // The same from `count` values, which must be " + std::to_string(table.elements) +
            "; throws carbide::Error otherwise.\n"
            "  void " + setter + "(const carbide::Stream& stream, " + counted_table_parameters(table) + ") const;\n";
  return text + "\n";
}

std::string table_definitions(const model::ConstantTable& table, std::size_t index) {
  const std::string setter = "void Module::" + model::constant_setter_name(table.name) + "(const carbide::Stream& stream, ";
  const std::string i = std::to_string(index);
  if (table.extents.empty())
    return setter + whole_table_parameter(table) + ") const {\n  loaded_.set_constant(" + i + ", stream, &value, 1);\n}\n\n";
  return setter + whole_table_parameter(table) + ") const {\n  loaded_.set_constant(" + i + ", stream, values, " +
         std::to_string(table.elements) + ");\n}\n\n" + setter + counted_table_parameters(table) +
         ") const {\n  loaded_.set_constant(" + i + ", stream, values, count);\n}\n\n";
}

// What the module's loader tells the runtime of each table.
std::string table_sites(const std::vector<const model::ConstantTable*>& tables) {
  std::string text;
  for (const model::ConstantTable* table : tables)
    text += std::string(text.empty() ? "" : ",\n       ") + "{" + c_string_literal(table->qualified_name) + ", " +
            c_string_literal(table->symbol) + ", &" + cpu_table_reference(*table) + ", " +
            std::to_string(table->elements) + ", sizeof(" + table->element_type + ")}";
  return text;
}

// What the API header declares: plain kernels and templates as written, never instances (the
// header is made before any are known, and must read the same once they are).
// A template whose parameters the API cannot repeat, or a second kernel of one name, is left
// out; carbide-kernel-signature reports it.
std::vector<const model::Kernel*> api_kernels(const model::Module& module) {
  std::vector<const model::Kernel*> kernels;
  for (const model::Kernel* kernel : model::named_kernels(module))
    if (kernel->unsupported_template_parameter.empty() &&
        llvm::none_of(kernels, [&](const model::Kernel* other) { return other->name == kernel->name; }))
      kernels.push_back(kernel);
  return kernels;
}

}  // namespace

std::string generate_api_header(const model::Program& program) {
  const std::string source_name = support::printable_name(llvm::sys::path::filename(program.source_path));
  std::string text = banner(source_name, "the launch API of its kernels");
  text += "#pragma once\n\n#include <carbide/runtime.hpp>\n";
  std::set<std::string> forward;
  for (const model::Module& module : program.modules)
    for (const model::Kernel* kernel : api_kernels(module)) {
      for (const model::Parameter& param : kernel->params)
        if (!param.forward_declaration.empty()) forward.insert(param.forward_declaration);
      forward.insert(kernel->forward_declarations.begin(), kernel->forward_declarations.end());
    }
  if (!forward.empty()) text += "\n";
  for (const std::string& declaration : forward) text += declaration + "\n";

  for (const model::Module& module : program.modules) {
    text += "\n" + open_namespaces(module.namespace_path, module.inline_namespaces) + "\n";
    text += "// The kernels of namespace " + module.qualified_name + ", loaded into one context.\n"
            "class Module {\n public:\n";
    for (const model::Kernel* kernel : api_kernels(module)) text += kernel_declarations(*kernel);
    for (const model::ConstantTable* table : model::constant_tables_of(program, module))
      text += table_declarations(*table);
    text += " private:\n  friend Module load(const carbide::Context& context);\n"
            "  explicit Module(carbide::detail::LoadedModule loaded) : loaded_(std::move(loaded)) {}\n"
            "  carbide::detail::LoadedModule loaded_;\n};\n\n"
            "// Loads the kernels of " + source_name + " into `context`.\n"
            "Module load(const carbide::Context& context);\n\n";
    text += close_namespaces(module.namespace_path);
  }
  return text;
}

std::string tag_api_header(std::string& header) {
  const std::string tag = llvm::toHex(
      llvm::BLAKE3::hash<8>(llvm::arrayRefFromStringRef(header)), /*LowerCase=*/false);
  header += "\n// Names this header for the stubs translated with it.\n#define CARBIDE_API_" + tag + " 1\n";
  return tag;
}

std::string generate_host_stubs(const model::Program& program, const ModuleImage& image,
                                const std::string& api_header_name, const std::string& api_tag,
                                clang::ASTContext& context, clang::Preprocessor& preprocessor,
                                const ProvenFacts& proven, const tile::TilePrograms& tiles) {
  const std::string source_name = support::printable_name(llvm::sys::path::filename(program.source_path));
  std::string text = banner(source_name, "host stubs that load and launch its kernels");
  // The stem holds no '"' or backslash (support::unusable_source_path): a header name has no escapes.
  text += "#include \"" + api_header_name + "\"\n";
  text += "#ifndef CARBIDE_API_" + api_tag + "\n#error \"" + api_header_name +
          " is not the header translated with these stubs (an interrupted translation?); "
          "run carbide translate again\"\n#endif\n";
  if (!program.host_type_decls.empty()) {
    // The same tokens as the user's definitions, so the two translation units agree (ODR).
    text += "\n// The records the views hold, as " + source_name +
            " defines them: the stubs need their size.\n";
    for (const std::string& header : program.device.std_includes) text += "#include <" + header + ">\n";
    clang::Rewriter unchanged(context.getSourceManager(), context.getLangOpts());
    text += copy_macros(program.host_type_decls, preprocessor, program.source_path);
    text += copy_declarations(program.host_type_decls, unchanged, program.source_path);
    text += line_of_generated_file(text, program.stem + ".carbide.cpp");
  }
  text += "\nnamespace {\n\n// " + image.description +
          ".\n" + image_array(image.bytes) + "\n}  // namespace\n";
  text += generate_cpu_kernels(program, context, preprocessor, proven, tiles, text);
  for (const model::Module& module : program.modules) {
    text += "\n" + open_namespaces(module.namespace_path, module.inline_namespaces) + "namespace {\n";
    for (const model::Kernel& kernel : module.kernels)
      if (kernel.is_tile) text += tile_contract_constant(kernel, tiles.find(kernel)->plan);
      else if (kernel.has_contract()) text += contract_constant(kernel);
    text += "}  // namespace\n\nModule load(const carbide::Context& context) {\n"
            "  return Module(carbide::detail::LoadedModule(context, kModuleImage, {";
    // The kernels' entries in order, then the whole-launch entries of the tile kernels that have one.
    std::vector<std::string> entries;
    for (const model::Kernel& kernel : module.kernels) entries.push_back(kernel.entry_name);
    std::vector<std::optional<std::size_t>> whole_entries;
    for (const model::Kernel& kernel : module.kernels) {
      whole_entries.emplace_back();
      if (!kernel.is_tile || !tiles.find(kernel)->plan.whole_launch) continue;
      whole_entries.back() = entries.size();
      entries.push_back(tile::whole_entry_name(kernel.entry_name));
    }
    for (std::size_t i = 0; i < entries.size(); ++i) text += std::string(i ? ", " : "") + c_string_literal(entries[i]);
    // On a CPU context, the same entries' CPU forms: a whole-launch entry runs its kernel's, which
    // has no edge tests to leave out.
    text += "},\n      {";
    for (std::size_t i = 0; i < module.kernels.size(); ++i)
      text += std::string(i ? ", " : "") + cpu_entry_reference(module.kernels[i]);
    for (std::size_t i = 0; i < module.kernels.size(); ++i)
      if (whole_entries[i]) text += ", " + cpu_entry_reference(module.kernels[i]);
    const std::vector<const model::ConstantTable*> tables = model::constant_tables_of(program, module);
    text += tables.empty() ? "}));\n}\n\n" : "},\n      {" + table_sites(tables) + "}));\n}\n\n";
    for (std::size_t i = 0; i < tables.size(); ++i) text += table_definitions(*tables[i], i);
    for (std::size_t i = 0; i < module.kernels.size(); ++i) {
      const model::Kernel& kernel = module.kernels[i];
      text += kernel.is_tile ? tile_kernel_definition(kernel, {i, whole_entries[i]}, tiles.find(kernel)->plan,
                                                      parameter_list(kernel))
                             : kernel_definitions(kernel, i, proven.kernel_claims.at(kernel.decl));
    }
    text += close_namespaces(module.namespace_path);
  }
  return text;
}

}  // namespace carbide::codegen
