#include "codegen/tile_stubs.hpp"

#include "codegen/generated_text.hpp"

namespace carbide::codegen {
namespace {

std::string names_of(const model::Kernel& kernel, model::ParamKind kind) {
  std::string names;
  for (const model::Parameter& param : kernel.params)
    if (param.kind == kind) names += (names.empty() ? "" : ", ") + param.name;
  return names;
}

std::string integers(const std::vector<std::int64_t>& values) {
  std::vector<std::string> texts;
  for (std::int64_t value : values) texts.push_back(std::to_string(value));
  return "{" + join(texts, ", ") + "}";
}

std::string extents_of(const std::string& param) { return "carbide::detail::tile_extents(" + param + "_arg)"; }

// The whole-launch test of the plan, as the stub evaluates it (runtime/include/carbide/tile_launch.hpp).
std::string whole_launch_test(const tile::WholeLaunch& whole) {
  std::vector<std::string> terms;
  for (const auto& [output, tile] : whole.outputs)
    terms.push_back("carbide::detail::whole_row_tiles(" + extents_of(output) + ", " + integers(tile) + ")");
  for (const auto& read : whole.like_reads)
    terms.push_back("carbide::detail::covers(" + extents_of(read.input) + ", " + extents_of(read.output) + ")");
  for (const auto& read : whole.fixed_reads)
    terms.push_back("carbide::detail::covers_tile(" + extents_of(read.input) + ", " + integers(read.at) + ", " +
                    integers(read.shape) + ")");
  return join(terms, " &&\n      ");
}

}  // namespace

std::string tile_kernel_declaration(const model::Kernel& kernel, const std::string& parameters) {
  const std::string prefix = kernel.is_template() ? "  " + kernel.template_head + "\n" : "";
  return "  // Launches the tile kernel " + kernel.qualified_name + kernel.template_parameters +
         " on `stream`, one tile block per tile of " + names_of(kernel, model::ParamKind::TileOut) +
         ".\n  // Throws carbide::LaunchContractError for an argument or launch that does not fit, "
         "carbide::AliasingError\n  // if an output overlaps another argument, carbide::Error for an "
         "empty (moved-from) handle.\n" +
         prefix + "  void " + kernel.name + "(const carbide::Stream& stream" + parameters + ") const;\n\n";
}

std::string tile_contract_constant(const model::Kernel& kernel, const tile::TilePlan& plan) {
  // mma.sync needs sm_80, wgmma and TMA sm_90 (plan.min_compute); the rest runs anywhere the module loads.
  return "const carbide::LaunchContract " + kernel.symbol + "_contract{\n    " + c_string_literal(kernel.qualified_name) +
         ", 1, {" + std::to_string(plan.threads) + ", 1, 1}, " + std::to_string(plan.dynamic_shared_bytes) + ", " +
         std::to_string(plan.min_compute) + ", " + std::to_string(plan.threads) + "};\n";
}

std::string tile_kernel_definition(const model::Kernel& kernel, const TileEntries& entries, const tile::TilePlan& plan,
                                   const std::string& parameters) {
  std::string text = std::string(kernel.is_instance() ? "template <>\n" : "") + "void Module::" + kernel.name +
                     kernel.template_arguments + "(const carbide::Stream& stream" + parameters + ") const {\n" +
                     "  const char* kernel = " + c_string_literal(kernel.qualified_name) + ";\n";
  std::string outputs, devices = "{\"stream\", stream.context().ordinal()}", buffers, args;
  for (const model::Parameter& param : kernel.params) {
    const std::string name = param.name;
    if (param.kind == model::ParamKind::TileOut)
      text += "  auto " + name + "_arg = carbide::detail::tile_output(kernel, " + c_string_literal(name) + ", " + name + ");\n";
    else if (param.kind == model::ParamKind::TileIn)
      text += "  auto " + name + "_arg = carbide::detail::tile_input<" + param.tile_rank + ">(kernel, " +
              c_string_literal(name) + ", " + name + ");\n";
    if (param.kind == model::ParamKind::TileOut || param.kind == model::ParamKind::TileIn) {
      const bool out = param.kind == model::ParamKind::TileOut;
      if (out) outputs += std::string(outputs.empty() ? "" : ", ") + "carbide::detail::output_tiles(" + c_string_literal(name) + ", " + name + "_arg)";
      devices += ",\n       {" + c_string_literal(name) + ", " + name + ".context().ordinal()}";
      buffers += std::string(buffers.empty() ? "" : ",\n") + "       {" + c_string_literal(name) + ", " + name +
                 ".device_ptr(), " + name + ".bytes(), " + (out ? "true" : "false") + "}";
      args += std::string(args.empty() ? "" : ", ") + "&" + name + "_arg";
    } else {
      args += std::string(args.empty() ? "" : ", ") + "const_cast<void*>(static_cast<const void*>(&" + name + "))";
    }
  }
  text += "  const std::uint64_t blocks = carbide::detail::tile_grid(kernel, {" + outputs + "});\n";
  if (plan.gemm)
    text += std::string("  carbide::detail::check_") + (plan.gemm->batch.empty() ? "" : "batched_") +
            "gemm_operands(kernel, carbide::detail::matrix_operand(" + c_string_literal(plan.gemm->output) +
            ", " + plan.gemm->output + "_arg),\n      carbide::detail::matrix_operand(" + c_string_literal(plan.gemm->a) + ", " +
            plan.gemm->a + "_arg), carbide::detail::matrix_operand(" + c_string_literal(plan.gemm->b) + ", " + plan.gemm->b +
            "_arg));\n";
  std::string tensor_maps;
  if (plan.uses_wgmma()) {
    // The TMA boxes: BM rows × 64 columns of a, BK rows × 64 columns of b (tile/gemm_sm90.hpp).
    const tile::GemmPlan& gemm = *plan.gemm;
    for (const auto& [operand, rows] : {std::pair{gemm.a, gemm.block_m}, std::pair{gemm.b, gemm.block_k}}) {
      const std::string map = tile::tensor_map_parameter(operand);
      tensor_maps += "  const auto " + map + " = carbide::detail::tile_tensor_map(loaded_.context(), kernel, " + c_string_literal(operand) + ", " +
                     operand + "_arg, " + std::to_string(rows) + ", 64);\n";
      args += ", const_cast<void*>(static_cast<const void*>(&" + map + "))";
    }
  }
  text += "  carbide::detail::check_same_device(kernel, loaded_.context().ordinal(),\n      {" + devices + "});\n";
  text += "  carbide::detail::check_no_aliasing(kernel,\n      {\n" + buffers + "});\n";
  std::string entry = std::to_string(entries.index);
  if (plan.whole_launch && entries.whole) {
    text += "  // Every tile whole and aligned, tiles along the first axis only: the entry without edge tests.\n"
            "  const bool whole =\n      " + whole_launch_test(*plan.whole_launch) + ";\n";
    text += "  const std::size_t entry = whole ? " + std::to_string(*entries.whole) + " : " + entry + ";\n";
    entry = "entry";
  }
  text += "  const carbide::LaunchConfig1D config(blocks, " + std::to_string(plan.threads) + ", " +
          std::to_string(plan.dynamic_shared_bytes) + ");\n";
  text += "  carbide::validate_launch(" + kernel.symbol + "_contract, config, loaded_.context().limits(),\n"
          "                           loaded_.footprint(" + entry + "));\n";
  text += tensor_maps;
  text += "  loaded_.reserve_dynamic_shared(" + entry + ", config.dynamic_shared_bytes);\n";
  text += "  void* args[] = {" + args + "};\n  loaded_.launch(" + entry + ", stream, config, args);\n}\n\n";
  return text;
}

}  // namespace carbide::codegen
