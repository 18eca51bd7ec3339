#include "tile/emitter.hpp"

#include "codegen/generated_text.hpp"
#include "model/parameters.hpp"

#include <clang/AST/DeclTemplate.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/ErrorHandling.h>

namespace carbide::tile {
namespace {

std::string shape_type(const TileType& type) {
  std::string text = "ct::shape<";
  for (std::size_t i = 0; i < type.extents.size(); ++i) text += (i ? ", " : "") + std::to_string(type.extents[i]);
  return text + ">";
}

class Emitter {
 public:
  Emitter(const TileKernel& kernel, const TilePlan& plan, const clang::SourceManager& sources, std::string path)
      : kernel_(kernel), plan_(plan), sources_(sources), path_(std::move(path)) {}

  std::string entry() {
    const model::Kernel& kernel = *kernel_.kernel;
    std::string text = "// " + kernel.qualified_name + ": tile kernel; the planner chose " +
                       std::to_string(plan_.threads) + " threads, " +
                       (plan_.gemm       ? gemm_summary()
                        : plan_.mma_warps ? "mma.sync m16n8k16 in " + std::to_string(plan_.mma_warps) +
                                                " warps along M, tiles in chunks of " + std::to_string(plan_.vector) + " elements"
                                          : "tiles in chunks of " + std::to_string(plan_.vector) + " elements") +
                       "\n";
    if (!plan_.whole_launch) return text + entry_head(kernel.entry_name) + " {\n" + body() + "}\n";
    whole_body_ = true;
    const std::string function = kernel.entry_name + "_body";
    text += "// Two entries over one body, chosen by the stub at each launch: " + kernel.entry_name +
            "\n// masks the tiles on the edges; " + whole_entry_name(kernel.entry_name) +
            "\n// runs the launches whose tiles are all whole and aligned and lie along the first axis, without edge tests.\n"
            "template <bool kWhole>\n__device__ __forceinline__ void " + function + "(" + parameters() + ") {\n" + body() +
            "}\n";
    for (const bool whole : {false, true})
      text += entry_head(whole ? whole_entry_name(kernel.entry_name) : kernel.entry_name) + " { " + function + "<" +
              (whole ? "true" : "false") + ">(" + arguments() + "); }\n";
    return text;
  }

 private:
  std::string entry_head(const std::string& name) const {
    return "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(plan_.threads) +
           (plan_.min_blocks ? ", " + std::to_string(plan_.min_blocks) : "") + ") " + name + "(" + parameters() + ")";
  }

  std::string body() {
    std::string text = "  namespace ct = ::carbide::tile;\n  namespace ctd = ::carbide::tile::detail;\n";
    text += template_constants();
    if (plan_.gemm) text += gemm_plan_type();
    std::string statements;
    for (const auto& [name, type] : kernel_.outs)
      // A GEMM plan orders the tile blocks for L2 reuse (grouped rasterization).
      statements += "  const auto " + name + "_coord = " +
                    (plan_.gemm ? "ctd::gemm_block_coord<P0>(" : std::string("ctd::block_coord") + (whole_body_ ? "<kWhole>" : "") + "(") +
                    name + ");\n";
    for (std::size_t i = 0; i < kernel_.body.size(); ++i) statements += statement(kernel_.body[i], i, "  ");
    text += layout_aliases(statements);
    if (plan_.layouts.scratch_bytes > 0)
      text += "  // Bytes of shared memory the exchanges between layouts below use, one after another.\n"
              "  constexpr int kScratch = " + std::to_string(plan_.layouts.scratch_bytes) + ";\n";
    return text + statements;
  }

  // The layouts the statements name: blocked (L0; every kernel without a GEMM plan has it), the
  // body's mma results (LM), the GEMM plan's accumulator (LA).
  std::string layout_aliases(const std::string& statements) const {
    const auto named = [&](const std::string& alias) {
      for (const char* after : {">", ",", ";"})
        if (statements.find(alias + after) != std::string::npos) return true;
      return false;
    };
    std::string text;
    if (!plan_.gemm || named("L0"))
      text += "  using L0 = ctd::blocked<" + std::to_string(plan_.threads) + ", " + std::to_string(plan_.vector) + ">;\n";
    if (named("LM"))
      text += "  using LM = ctd::mma_c<" + std::to_string(plan_.mma_warps) + ", 1>;  // the C fragments of mma.sync m16n8k16, " +
              std::to_string(plan_.mma_warps) + " warps along M\n";
    if (named("LA")) text += std::string("  using LA = ctd::") + (plan_.uses_wgmma() ? "sm90" : "sm80") + "::acc<P0>;\n";
    return text;
  }

  std::string arguments() const {
    std::vector<std::string> names;
    for (const model::Parameter& param : kernel_.kernel->params) names.push_back(param.name);
    return llvm::join(names, ", ");
  }

  std::string gemm_summary() const {
    const GemmPlan& gemm = *plan_.gemm;
    if (plan_.uses_wgmma())
      return "wgmma m64n" + std::to_string(gemm.block_n) + "k16 in " + std::to_string(gemm.block_m / 64) +
             " consumer warpgroups fed by a TMA producer warpgroup, " + std::to_string(gemm.stages) + " stages, " +
             std::to_string(plan_.dynamic_shared_bytes) + " bytes of shared memory";
    return "mma.sync m16n8k16 over " + std::to_string(gemm.warps_m) + "×" + std::to_string(gemm.warps_n) +
           " warps, " + std::to_string(gemm.stages) + " cp.async stages, " +
           std::to_string(plan_.dynamic_shared_bytes) + " bytes of shared memory";
  }

  std::string parameters() const {
    std::string text;
    for (const model::Parameter& param : kernel_.kernel->params) {
      std::string type = param.device_type;
      if (param.kind == model::ParamKind::TileOut)
        type = "::carbide::tile::detail::out_arg<" + param.element_type + ", " +
               std::to_string(kernel_.outs.at(param.name).extents.size()) + ">";
      else if (param.kind == model::ParamKind::TileIn)
        type = "::carbide::tile::detail::in_arg<" + param.element_type + ", " +
               std::to_string(kernel_.ins.at(param.name).rank) + ">";
      text += std::string(text.empty() ? "" : ", ") + type + " " + param.name;
    }
    // The TMA copies read their tensor maps through the parameters' addresses.
    if (plan_.uses_wgmma())
      for (const std::string& operand : {plan_.gemm->a, plan_.gemm->b})
        text += ", const __grid_constant__ ::carbide::tile::detail::tensor_map " + tensor_map_parameter(operand);
    return text;
  }

  // An instance's template parameters, under their own names, for the user's scalar text.
  std::string template_constants() const {
    const clang::FunctionDecl* decl = kernel_.kernel->decl;
    const clang::FunctionTemplateDecl* pattern = decl->getPrimaryTemplate();
    const clang::TemplateArgumentList* arguments = decl->getTemplateSpecializationArgs();
    if (pattern == nullptr || arguments == nullptr) return "";
    std::string text;
    const clang::TemplateParameterList* parameters = pattern->getTemplateParameters();
    const clang::ASTContext& context = decl->getASTContext();
    for (unsigned i = 0; i < parameters->size() && i < arguments->size(); ++i) {
      const clang::NamedDecl* parameter = parameters->getParam(i);
      if (!parameter->getIdentifier()) continue;
      const clang::TemplateArgument& argument = arguments->get(i);
      if (argument.getKind() == clang::TemplateArgument::Type)
        text += "  using " + parameter->getNameAsString() + " = " + model::spell_type(argument.getAsType(), context) + ";\n";
      else if (argument.getKind() == clang::TemplateArgument::Integral) {
        // An enumeration's value as its underlying integer: the entry does not declare the enum,
        // and the model writes its enumerators as integers too.
        clang::QualType type = argument.getIntegralType();
        if (const auto* enumeration = type->getAs<clang::EnumType>()) type = enumeration->getDecl()->getIntegerType();
        text += "  [[maybe_unused]] constexpr " + model::spell_type(type, context) + " " + parameter->getNameAsString() +
                " = " + llvm::toString(argument.getAsIntegral(), 10) + ";\n";
      }
    }
    return text;
  }

  std::string line(clang::SourceLocation at) const {
    return codegen::line_directive(sources_.getExpansionLineNumber(at), path_);
  }

  std::string statement(const Statement& s, std::size_t index, const std::string& indent) {
    const bool top = indent.size() == 2;
    if (plan_.gemm && top && index == plan_.gemm->loop) return "";
    std::string text = line(s.at);
    switch (s.kind) {
      case StatementKind::Coord:
        text += indent + "const int ";
        for (std::size_t i = 0; i < s.names.size(); ++i)
          text += (i ? ", " : "") + s.names[i] + " = " + s.name + "_coord[" + std::to_string(i) + "]";
        return text + ";\n";
      case StatementKind::Scalar:
        return text + indent + s.text + "\n";
      case StatementKind::Let:
        if (plan_.gemm && top && index == plan_.gemm->accumulator) return text + gemm_mainloop(s, indent);
        return text + indent + "auto " + s.name + " = " + expression(s.value) + ";\n";
      case StatementKind::Assign:
        return text + indent + s.name + " = " + expression(s.value) + ";\n";
      case StatementKind::Store:
        return text + indent + "ctd::store" + (whole_body_ ? "<kWhole>" : "") + "(" + s.name + ", " + s.name +
               "_coord, " + expression(s.value) + ");\n";
      case StatementKind::Loop: {
        text += indent + "for (int " + s.name + " = 0; " + s.name + " < (" + s.text + "); ++" + s.name + ") {\n";
        ++loop_depth_;
        for (std::size_t i = 0; i < s.body.size(); ++i) text += statement(s.body[i], i, indent + "  ");
        --loop_depth_;
        return text + indent + "}\n";
      }
    }
    return text;
  }

  std::string gemm_plan_type() const {
    const GemmPlan& gemm = *plan_.gemm;
    const std::string tile = std::to_string(gemm.block_m) + ", " + std::to_string(gemm.block_n) + ", " +
                             std::to_string(gemm.block_k) + ", ";
    const std::string plan = plan_.uses_wgmma() ? "ctd::sm90::gemm_plan<" + gemm.element + ", " + tile + std::to_string(gemm.stages)
                                     : "ctd::sm80::gemm_plan<" + gemm.element + ", " + tile +
                                           std::to_string(gemm.warps_m) + ", " + std::to_string(gemm.warps_n) + ", " +
                                           std::to_string(gemm.stages);
    return "  using P0 = " + plan + ">;\n" + "  static_assert(P0::kThreads == " + std::to_string(plan_.threads) +
           " && P0::kSmemBytes == " + std::to_string(plan_.dynamic_shared_bytes) +
           ", \"the launch gives what the plan needs\");\n";
  }

  std::string gemm_mainloop(const Statement& s, const std::string& indent) const {
    const GemmPlan& gemm = *plan_.gemm;
    const bool wgmma = plan_.uses_wgmma();
    const std::string maps = wgmma ? tensor_map_parameter(gemm.a) + ", " + tensor_map_parameter(gemm.b) + ", " : "";
    // A batched GEMM runs the main loop on its tile's matrix, and keeps the tile's rank.
    const auto operand = [&](const std::string& name) {
      return gemm.batch.empty() ? name : "ctd::batch_slice(" + name + ", " + gemm.batch + ")";
    };
    std::string loop = "ctd::" + std::string(wgmma ? "sm90" : "sm80") + "::gemm_mainloop<P0>(" + operand(gemm.a) + ", " +
                       operand(gemm.b) + ", " + maps + gemm.row + ", " + gemm.column + ")";
    if (!gemm.batch.empty()) loop = "ctd::reshape<" + shape_type(*kernel_.node(s.value).type) + ", LA, 0>(" + loop + ")";
    return indent +
           (wgmma ? "// The k-loop of mma below: TMA copies k tiles into a ring of stages, wgmma multiplies them.\n"
                  : "// The k-loop of mma below, pipelined: cp.async stages, ldmatrix, mma.sync, zero-filled edges.\n") +
           indent + "auto " + s.name + " = " + loop + ";\n";
  }

  std::string operands(const Node& node) {
    std::string text;
    for (std::size_t i = 0; i < node.operands.size(); ++i) text += (i ? ", " : "") + expression(node.operands[i]);
    return text;
  }

  // Node `index` as its reader takes it: converted through shared memory where the layout plan
  // says the reader wants another layout.
  std::string expression(int index) {
    const NodeLayout& layout = plan_.layouts.nodes[std::size_t(index)];
    std::string text = value(index);
    if (layout.relayout) text = "ctd::relayout<" + layout.relayout->text() + ", kScratch>(" + text + ")";
    return text;
  }

  std::string layout_of(int index) const { return plan_.layouts.nodes[std::size_t(index)].layout->text(); }
  bool across(int index) const { return plan_.layouts.nodes[std::size_t(index)].across; }

  std::string value(int index) {
    const Node& node = kernel_.node(index);
    switch (node.kind) {
      case NodeKind::Value:
        return node.name;
      case NodeKind::Scalar:
        return "(" + node.name + ")";
      case NodeKind::Load: {
        const std::string element = kernel_.ins.at(node.input).element;
        std::string where = node.index.empty() ? node.like + "_coord" : "{" + llvm::join(node.index, ", ") + "}";
        const std::string pad = node.pad.empty() ? "0" : node.pad;
        const bool blocked = layout_of(index) == "L0";
        return "ctd::load<" + shape_type(*node.type) + ", " + layout_of(index) + (blocked && whole_body_ ? ", kWhole" : "") +
               ">(" + node.input + ", " + where + ", static_cast<" + element + ">(" + pad + "))";
      }
      case NodeKind::Factory: {
        const std::string axis = node.name == "iota" && node.axis >= 0 ? ", " + std::to_string(node.axis) : "";
        const std::string head =
            "ctd::" + node.name + "<" + node.type->element + ", " + shape_type(*node.type) + ", " + layout_of(index) + axis + ">(";
        if (node.name == "full") return head + "static_cast<" + node.type->element + ">(" + operands(node) + "))";
        return head + ")";
      }
      case NodeKind::Arithmetic:
      case NodeKind::Compare:
        return "(" + expression(node.operands[0]) + " " + node.name + " " + expression(node.operands[1]) + ")";
      case NodeKind::Negate:
        return "(" + node.name + expression(node.operands[0]) + ")";
      case NodeKind::Math:
      case NodeKind::MinMax:
      case NodeKind::Fma:
      case NodeKind::Select:
        return "ctd::" + node.name + "(" + operands(node) + ")";
      case NodeKind::Cast:
        return "ctd::cast<" + node.type->element + ">(" + operands(node) + ")";
      case NodeKind::Reduce: {
        const std::string axis = std::to_string(node.axis);
        if (across(index))
          return "ctd::reduce_across<ctd::" + node.name + "_op, " + axis + ", " + layout_of(index) + ", kScratch>(" +
                 operands(node) + ")";
        // A reduction outside any loop runs once: its scratch needs no barrier against an earlier run.
        return "ctd::" + node.name + "<" + axis + ", " + std::to_string(node.site) + (loop_depth_ > 0 ? "" : ", false") + ">(" +
               operands(node) + ")";
      }
      case NodeKind::Bcast:
        return "ctd::bcast" + std::string(across(index) ? "_any<" : "<") + std::to_string(node.axis) +
               (across(index) ? ", kScratch" : "") + ">(" + operands(node) + ")";
      case NodeKind::Reshape:
        if (!across(index) && layout_of(index) == "L0") return "ctd::reshape<" + shape_type(*node.type) + ">(" + operands(node) + ")";
        return "ctd::reshape<" + shape_type(*node.type) + ", " + layout_of(index) + ", " +
               (across(index) ? "kScratch" : "0") + ">(" + operands(node) + ")";
      case NodeKind::Transpose:
        // Read by an mma as its b: the operand in place (transposed_operand); otherwise moved.
        if (plan_.layouts.nodes[std::size_t(index)].transposed_operand)
          return "ctd::read_transposed(" + operands(node) + ")";
        return "ctd::transpose<" + layout_of(index) + ", kScratch>(" + operands(node) + ")";
      case NodeKind::Mma:
        return "ctd::mma<kScratch>(" + operands(node) + ")";
    }
    llvm_unreachable("every node kind is printed above");
  }

  const TileKernel& kernel_;
  const TilePlan& plan_;
  const clang::SourceManager& sources_;
  std::string path_;
  int loop_depth_ = 0;
  bool whole_body_ = false;  // the body of a kernel with a whole entry: its loads, stores and coordinates take kWhole
};

}  // namespace

std::string emit_tile_entry(const TileKernel& kernel, const TilePlan& plan, const clang::SourceManager& sources,
                            const std::string& source_path) {
  return Emitter(kernel, plan, sources, source_path).entry();
}

}  // namespace carbide::tile
