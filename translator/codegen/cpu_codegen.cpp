#include "codegen/cpu_codegen.hpp"

#include "codegen/checked_arrays.hpp"
#include "codegen/copied_declarations.hpp"
#include "codegen/copied_macros.hpp"
#include "codegen/generated_text.hpp"
#include "codegen/shared_sites.hpp"
#include "model/call_arguments.hpp"
#include "model/user_code.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/Builtins.h>
#include <clang/Rewrite/Core/Rewriter.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace carbide::codegen {
namespace {

// The copy lives in a namespace of its own inside an anonymous one: its declarations never meet
// the user's translation unit's, and the stubs name them as carbide_cpu::kernels::vecadd.
constexpr const char* kNamespace = "carbide_cpu";
constexpr const char* kSite = "__FILE__, __LINE__";

std::string access_text(const char* kind) {
  return std::string("::carbide::cpu::touch(::carbide::cpu::Access::") + kind + ", " + kSite + ", ";
}

bool is_value_type(clang::QualType type) {
  const clang::CXXRecordDecl* record = type.getNonReferenceType()->getAsCXXRecordDecl();
  return record != nullptr && model::vocabulary::is_carbide(record) && record->getName() == "vec";
}

// Whether the storage `lvalue` names may be memory the thread does not own outright: reached
// through a pointer, a reference, a view's operator[] or any call returning a reference, a
// member of such, or `this`'s. A local variable (or a member or element of one) is the thread's.
// An lvalue `?:`, comma, cast or pointer to member names what its operand names, so the touch
// wraps the whole expression and records the storage it comes to, as check counts it.
bool reaches_memory(const clang::Expr* lvalue) {
  for (;;) {
    lvalue = lvalue->IgnoreParens();
    if (const auto* choice = llvm::dyn_cast<clang::ConditionalOperator>(lvalue))
      return reaches_memory(choice->getTrueExpr()) || reaches_memory(choice->getFalseExpr());
    if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(lvalue); cast && cast->getSubExpr()->isGLValue()) {
      lvalue = cast->getSubExpr();
      continue;
    }
    if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(lvalue)) {
      if (op->getOpcode() == clang::BO_PtrMemI) return true;
      if (op->getOpcode() != clang::BO_Comma && op->getOpcode() != clang::BO_PtrMemD) return false;
      lvalue = op->getOpcode() == clang::BO_Comma ? op->getRHS() : op->getLHS();
      continue;
    }
    if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(lvalue)) {
      if (member->isArrow()) return true;
      lvalue = member->getBase();
      continue;
    }
    if (const auto* element = llvm::dyn_cast<clang::ArraySubscriptExpr>(lvalue)) {
      const clang::Expr* base = element->getBase()->IgnoreParenImpCasts();
      if (!base->getType()->isArrayType()) return true;  // through a pointer
      lvalue = base;
      continue;
    }
    if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(lvalue)) return op->getOpcode() == clang::UO_Deref;
    if (const auto* call = llvm::dyn_cast<clang::CallExpr>(lvalue)) {
      // carbide::vec is a value: its elements are where the vec is.
      if (const auto* member = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call);
          member && member->getNumArgs() > 0 && is_value_type(member->getArg(0)->getType())) {
        lvalue = member->getArg(0);
        continue;
      }
      return call->isLValue();
    }
    if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(lvalue)) {
      const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      return var != nullptr && var->getType()->isReferenceType();
    }
    return false;
  }
}

bool is_bit_field(const clang::Expr* lvalue) {
  const auto* member = llvm::dyn_cast<clang::MemberExpr>(lvalue->IgnoreParens());
  const auto* field = member ? llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl()) : nullptr;
  return field != nullptr && field->isBitField();
}

bool is_memory_function(const clang::FunctionDecl* callee) {
  switch (callee->getBuiltinID()) {
    case clang::Builtin::BImemcpy: case clang::Builtin::BI__builtin_memcpy:
    case clang::Builtin::BImemmove: case clang::Builtin::BI__builtin_memmove:
    case clang::Builtin::BImemset: case clang::Builtin::BI__builtin_memset:
      return true;
    default:
      return false;
  }
}

const char* memory_function_name(const clang::FunctionDecl* callee) {
  switch (callee->getBuiltinID()) {
    case clang::Builtin::BImemcpy: case clang::Builtin::BI__builtin_memcpy: return "memcpy";
    case clang::Builtin::BImemmove: case clang::Builtin::BI__builtin_memmove: return "memmove";
    default: return "memset";
  }
}

// The edits the CPU form makes, collected over every instance of the device code (an instance's
// expressions stand where its template's are written), then applied inner ones first.
class CpuEdits : public clang::RecursiveASTVisitor<CpuEdits> {
 public:
  explicit CpuEdits(clang::Rewriter& rewriter) : rewriter_(rewriter), sources_(rewriter.getSourceMgr()) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool VisitImplicitCastExpr(clang::ImplicitCastExpr* cast) {
    if (cast->getCastKind() == clang::CK_LValueToRValue) touch(cast->getSubExpr(), "Read");
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator* op) {
    if (op->getOpcode() == clang::BO_Assign) touch(op->getLHS(), "Write");
    else if (op->isCompoundAssignmentOp()) touch(op->getLHS(), "ReadWrite");
    return true;
  }
  bool VisitUnaryOperator(clang::UnaryOperator* op) {
    if (op->isIncrementDecrementOp()) touch(op->getSubExpr(), "ReadWrite");
    return true;
  }
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr* call) {
    if (call->isAssignmentOp() && call->getNumArgs() == 2)
      touch(call->getArg(0), call->getOperator() == clang::OO_Equal ? "Write" : "ReadWrite");
    return true;
  }
  // A record copied out of memory (`Particle p = *at;`).
  bool VisitCXXConstructExpr(clang::CXXConstructExpr* construct) {
    const clang::CXXConstructorDecl* constructor = construct->getConstructor();
    if (constructor && (constructor->isCopyConstructor() || constructor->isMoveConstructor()) &&
        constructor->isTrivial() && construct->getNumArgs() == 1)
      touch(construct->getArg(0), "Read");
    return true;
  }
  bool VisitCallExpr(clang::CallExpr* call) {
    const clang::FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr) return true;
    if (is_memory_function(callee)) {
      replace_memory_function(call, callee);
      return true;
    }
    // Vocabulary calls record their own accesses (a chunk's load, an atomic), meet at barriers and
    // collectives, and check their bounds: they are told the user's line first.
    if (model::vocabulary::needs_site_on_cpu(callee)) mark_site(call);
    // Library code reads and writes what it is given by reference where no touch can see it:
    // the reference is the access.
    // A member operator's object is not one of them: what the operator makes of it (an element's
    // reference) is touched where that is used, and an assignment's target by
    // VisitCXXOperatorCallExpr.
    const unsigned object = model::object_arguments(call, callee);
    if (!model::in_user_code(sources_, callee) && !model::vocabulary::is_carbide(callee))
      for (unsigned i = object; i < call->getNumArgs() && i - object < callee->getNumParams(); ++i) {
        const clang::QualType type = callee->getParamDecl(i - object)->getType();
        if (type->isReferenceType())
          touch(call->getArg(i), type.getNonReferenceType().isConstQualified() ? "Read" : "ReadWrite");
      }
    return true;
  }
  // PTX cannot run on the CPU: the statement becomes a call that fails the launch at its line.
  // Its operands are left alone (they go with it).
  bool TraverseGCCAsmStmt(clang::GCCAsmStmt* statement, DataRecursionQueue* = nullptr) {
    const clang::SourceRange range(statement->getAsmLoc(), statement->getRParenLoc());
    if (editable(range.getBegin(), range.getEnd()) && replaced_.insert(range.getBegin().getRawEncoding()).second)
      rewriter_.ReplaceText(range, "::carbide::cpu::inline_assembly(" + std::string(kSite) + ")");
    return true;
  }
  bool VisitForStmt(clang::ForStmt* loop) {
    if (const clang::Expr* increment = loop->getInc())
      insert(increment->getBeginLoc(), increment->getEndLoc(), "(::carbide::cpu::tick(" + std::string(kSite) + "), ", ")");
    else
      insert_before(loop->getRParenLoc(), "::carbide::cpu::tick(" + std::string(kSite) + ")");
    return true;
  }
  bool VisitWhileStmt(clang::WhileStmt* loop) {
    if (!loop->getConditionVariable()) tick_condition(loop->getCond());
    return true;
  }
  bool VisitDoStmt(clang::DoStmt* loop) {
    tick_condition(loop->getCond());
    return true;
  }
  bool VisitCXXForRangeStmt(clang::CXXForRangeStmt* loop) {
    if (const auto* body = llvm::dyn_cast<clang::CompoundStmt>(loop->getBody()))
      insert_after_token(body->getLBracLoc(), " ::carbide::cpu::tick(" + std::string(kSite) + ");");
    return true;
  }

  // An edit made elsewhere (a checked array), applied in turn with these.
  void add(const TextWrap& wrap) { insert(wrap.begin, wrap.end, wrap.before, wrap.after); }

  // Applies the edits: around an expression, the inner wrapping first, so the outer one encloses it.
  void apply() {
    std::stable_sort(wraps_.begin(), wraps_.end(), [&](const TextWrap& a, const TextWrap& b) {
      return length(a) < length(b);
    });
    for (const TextWrap& wrap : wraps_) {
      rewriter_.InsertTextBefore(wrap.begin, wrap.before);
      rewriter_.InsertTextAfterToken(wrap.end, wrap.after);
    }
  }

 private:
  unsigned length(const TextWrap& wrap) const {
    return sources_.getFileOffset(wrap.end) - sources_.getFileOffset(wrap.begin);
  }

  // Whether `begin`..`end` is text written once in the user's file (not a macro's expansion).
  bool editable(clang::SourceLocation begin, clang::SourceLocation end) const {
    return begin.isValid() && end.isValid() && !begin.isMacroID() && !end.isMacroID() &&
           sources_.getFileID(begin) == sources_.getFileID(end);
  }

  void insert(clang::SourceLocation begin, clang::SourceLocation end, std::string before, std::string after) {
    if (!editable(begin, end) || !seen_.insert({begin.getRawEncoding(), end.getRawEncoding(), before}).second) return;
    wraps_.push_back({begin, end, std::move(before), std::move(after)});
  }
  void insert_before(clang::SourceLocation at, const std::string& text) {
    if (editable(at, at) && seen_.insert({at.getRawEncoding(), 0, text}).second) rewriter_.InsertTextBefore(at, text);
  }
  void insert_after_token(clang::SourceLocation at, const std::string& text) {
    if (editable(at, at) && seen_.insert({0, at.getRawEncoding(), text}).second) rewriter_.InsertTextAfterToken(at, text);
  }

  void touch(const clang::Expr* written, const char* kind) {
    const clang::Expr* lvalue = written->IgnoreParens();
    if (lvalue->isTypeDependent() || !lvalue->isGLValue() || is_bit_field(lvalue) || !reaches_memory(lvalue)) return;
    if (lvalue->getType()->isFunctionType() || lvalue->getType()->isArrayType()) return;
    // The parentheses as written stay inside the touch: a comma's operands are not its arguments.
    insert(written->getBeginLoc(), written->getEndLoc(), access_text(kind), ")");
  }

  void mark_site(const clang::CallExpr* call) {
    insert(call->getBeginLoc(), call->getEndLoc(), "(::carbide::cpu::at(" + std::string(kSite) + "), ", ")");
  }

  void tick_condition(const clang::Expr* condition) {
    if (condition == nullptr) return;
    insert(condition->getBeginLoc(), condition->getEndLoc(), "(::carbide::cpu::tick(" + std::string(kSite) + "), ", ")");
  }

  void replace_memory_function(const clang::CallExpr* call, const clang::FunctionDecl* callee) {
    const clang::SourceRange name = call->getCallee()->IgnoreImplicit()->getSourceRange();
    if (!editable(name.getBegin(), name.getEnd()) || !editable(call->getRParenLoc(), call->getRParenLoc())) return;
    if (!replaced_.insert(name.getBegin().getRawEncoding()).second) return;
    rewriter_.ReplaceText(name, std::string("::carbide::cpu::") + memory_function_name(callee));
    rewriter_.InsertTextBefore(call->getRParenLoc(), std::string(", ") + kSite);
  }

  clang::Rewriter& rewriter_;
  const clang::SourceManager& sources_;
  std::vector<TextWrap> wraps_;
  std::set<std::tuple<unsigned, unsigned, std::string>> seen_;
  std::set<unsigned> replaced_;
};

// The bodies an edit pass reads: each device function as instantiated (a template through its
// instances, whose expressions stand at the template's text), else as written.
std::vector<const clang::FunctionDecl*> instantiated_bodies(const model::Program& program) {
  std::vector<const clang::FunctionDecl*> bodies;
  auto add = [&](const clang::FunctionDecl* function) {
    const clang::FunctionDecl* definition = nullptr;
    if (function->hasBody(definition) && std::find(bodies.begin(), bodies.end(), definition) == bodies.end())
      bodies.push_back(definition);
  };
  std::vector<const clang::FunctionDecl*> functions = program.device.functions;
  functions.insert(functions.end(), program.tile_code.functions.begin(), program.tile_code.functions.end());
  std::vector<const clang::FunctionDecl*> instances = program.device.member_instances;
  instances.insert(instances.end(), program.tile_code.member_instances.begin(), program.tile_code.member_instances.end());
  for (const clang::FunctionDecl* function : functions) {
    if (const clang::FunctionTemplateDecl* pattern = function->getDescribedFunctionTemplate()) {
      bool any = false;
      for (const clang::FunctionDecl* instance : pattern->specializations())
        if (instance->hasBody()) add(instance), any = true;
      if (!any) add(function);
      continue;
    }
    if (!function->isDependentContext()) add(function);
  }
  for (const clang::FunctionDecl* instance : instances) add(instance);
  return bodies;
}

// What a kernel's launch needs to know of its shared memory: the sites it reaches (through its
// helpers too), their variables' names and element sizes, and their bytes together.
struct SharedFootprint {
  struct Site {
    unsigned number;
    std::string name;
    std::uint64_t element_bytes;
  };
  std::vector<Site> sites;
  std::uint64_t static_bytes = 0;
};

SharedFootprint shared_footprint(const clang::FunctionDecl* kernel, clang::ASTContext& context,
                                 const std::map<clang::SourceLocation, unsigned>& numbers) {
  struct Walker : clang::RecursiveASTVisitor<Walker> {
    clang::ASTContext* context;
    const std::map<clang::SourceLocation, unsigned>* numbers;
    SharedFootprint footprint;
    std::set<const clang::FunctionDecl*> visited;
    std::vector<const clang::FunctionDecl*> pending;
    std::map<const clang::Expr*, std::string> names;  // a site's call -> the variable it initializes

    bool VisitVarDecl(clang::VarDecl* var) {
      if (const clang::Expr* init = var->getInit()) names[init->IgnoreImplicit()] = var->getNameAsString();
      return true;
    }
    bool VisitCallExpr(clang::CallExpr* call) {
      const clang::FunctionDecl* callee = call->getDirectCallee();
      if (callee == nullptr) return true;
      if (model::in_user_code(context->getSourceManager(), callee) && visited.insert(callee).second)
        pending.push_back(callee);
      const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(call->getCallee()->IgnoreImpCasts());
      const auto* args = callee->getTemplateSpecializationArgs();
      if (ref == nullptr || !model::vocabulary::is_block_shared(callee->getPrimaryTemplate() ? callee->getPrimaryTemplate()->getTemplatedDecl() : callee) ||
          args == nullptr || args->size() != 2)
        return true;
      const auto number = numbers->find(context->getSourceManager().getExpansionLoc(ref->getNameInfo().getLoc()));
      if (number == numbers->end() || args->get(0).getKind() != clang::TemplateArgument::Type ||
          args->get(1).getKind() != clang::TemplateArgument::Integral)
        return true;
      const std::uint64_t element = std::uint64_t(context->getTypeSizeInChars(args->get(0).getAsType()).getQuantity());
      const std::uint64_t count = args->get(1).getAsIntegral().getZExtValue();
      if (std::none_of(footprint.sites.begin(), footprint.sites.end(),
                       [&](const SharedFootprint::Site& site) { return site.number == number->second; })) {
        const auto name = names.find(call);
        footprint.sites.push_back({number->second, name == names.end() ? "" : name->second, element});
        footprint.static_bytes += (element * count + 15) / 16 * 16;  // each site 16-byte aligned
      }
      return true;
    }
  } walker;
  walker.context = &context;
  walker.numbers = &numbers;
  walker.pending.push_back(kernel);
  walker.visited.insert(kernel);
  while (!walker.pending.empty()) {
    const clang::FunctionDecl* function = walker.pending.back();
    walker.pending.pop_back();
    const clang::FunctionDecl* definition = nullptr;
    if (function->hasBody(definition)) walker.TraverseStmt(definition->getBody());
  }
  return walker.footprint;
}

// What the SIMT and the tile kernels reach, once each, in source order.
std::vector<const clang::Decl*> all_top_level_decls(const model::Program& program, const clang::SourceManager& sources) {
  std::vector<const clang::Decl*> decls = program.device.top_level_decls;
  for (const clang::Decl* decl : program.tile_code.top_level_decls)
    if (std::find(decls.begin(), decls.end(), decl) == decls.end()) decls.push_back(decl);
  std::stable_sort(decls.begin(), decls.end(), [&](const clang::Decl* a, const clang::Decl* b) {
    return sources.isBeforeInTranslationUnit(sources.getExpansionLoc(a->getBeginLoc()),
                                             sources.getExpansionLoc(b->getBeginLoc()));
  });
  return decls;
}

std::string param_kind(model::ParamKind kind) {
  switch (kind) {
    case model::ParamKind::ReadView:
    case model::ParamKind::ExclusiveView:
    case model::ParamKind::AtomicView: return "View";
    case model::ParamKind::ReadView2D: return "ReadView2D";
    case model::ParamKind::ExclusiveView2D: return "View2D";
    case model::ParamKind::TileIn: return "TileInput";
    case model::ParamKind::TileOut: return "TileOutput";
    default: return "Scalar";
  }
}

std::string tile_argument_type(const model::Parameter& param) {
  return "typename tile_argument<" + param.device_type + ">::type";
}

// The entry's parameter table.
std::string param_table(const model::Kernel& kernel) {
  std::string text = "const ::carbide::cpu::ParamInfo params_" + kernel.symbol + "[] = {\n";
  for (const model::Parameter& param : kernel.params) {
    const bool memory = param.kind != model::ParamKind::Scalar;
    const std::string type = memory && (param.kind == model::ParamKind::TileIn || param.kind == model::ParamKind::TileOut)
                                 ? tile_argument_type(param)
                                 : param.device_type;
    text += "    {" + c_string_literal(param.name) + ", sizeof(" + type + "), ::carbide::cpu::ParamKind::" + param_kind(param.kind) +
            ", " + (memory ? "sizeof(" + param.element_type + ")" : std::string("0")) + "},\n";
  }
  return text + "};\n";
}

std::string simt_entry(const model::Module& module, const model::Kernel& kernel, const SharedFootprint& shared,
                       bool synchronizes) {
  std::string args;
  std::string text = "void run_" + kernel.symbol + "(void* const* args) {\n";
  for (std::size_t i = 0; i < kernel.params.size(); ++i) {
    args += (i ? ", " : "") + std::string("argument<") + kernel.params[i].device_type + ">(args[" + std::to_string(i) + "])";
  }
  text += "  " + module.qualified_name + "::" + kernel.name + kernel.template_arguments + "(" + args + ");\n}\n";
  text += param_table(kernel);
  std::string sites;
  for (const SharedFootprint::Site& site : shared.sites)
    sites += "    {" + std::to_string(site.number) + ", " + c_string_literal(site.name) + ", " + std::to_string(site.element_bytes) + "},\n";
  const std::string site_table = "shared_" + kernel.symbol;
  if (!sites.empty()) text += "const ::carbide::cpu::SharedSite " + site_table + "[] = {\n" + sites + "};\n";
  text += "const ::carbide::cpu::KernelEntry entry_" + kernel.symbol + " = {\n    " + c_string_literal(kernel.qualified_name) +
          ", &run_" + kernel.symbol + ", params_" + kernel.symbol + ", " + std::to_string(kernel.params.size()) + ", " +
          (sites.empty() ? "nullptr" : site_table) + ", " + std::to_string(shared.sites.size()) + ", " +
          std::to_string(shared.static_bytes) + ", " + (synchronizes ? "true" : "false") + ",\n    " +
          // A kernel that never meets its block's other threads runs them in a loop compiled
          // beside it, with the kernel inlined into it.
          (synchronizes ? std::string("nullptr") : "&::carbide::cpu::run_threads<&run_" + kernel.symbol + ">") + "};\n\n";
  return text;
}

// A tile kernel's entry runs one tile block: each output's tile at the block's coordinates (the
// flat block index unravelled over its tile grid, row-major; the launch made every output's grid
// the same), its inputs whole.
std::string tile_entry(const model::Module& module, const model::Kernel& kernel) {
  std::string text = "void run_" + kernel.symbol + "(void* const* args, std::uint64_t block) {\n";
  std::vector<std::string> args;
  for (std::size_t i = 0; i < kernel.params.size(); ++i) {
    const model::Parameter& param = kernel.params[i];
    const std::string index = std::to_string(i);
    if (param.kind == model::ParamKind::TileOut) {
      text += "  const auto a" + index + " = argument<" + tile_argument_type(param) + ">(args[" + index + "]);\n";
      args.push_back(param.device_type + "(a" + index + ".data, tile_extents(a" + index + "), tile_coordinates(a" +
                     index + ", block))");

    } else if (param.kind == model::ParamKind::TileIn) {
      text += "  const auto a" + index + " = argument<" + tile_argument_type(param) + ">(args[" + index + "]);\n";
      args.push_back(param.device_type + "(a" + index + ".data, tile_extents(a" + index + "))");
    } else {
      args.push_back("argument<" + param.device_type + ">(args[" + index + "])");
    }
  }
  text += "  " + module.qualified_name + "::" + kernel.name + kernel.template_arguments + "(" + join(args, ", ") + ");\n}\n";
  text += param_table(kernel);
  text += "const ::carbide::cpu::TileKernelEntry entry_" + kernel.symbol + " = {\n    " + c_string_literal(kernel.qualified_name) +
          ", &run_" + kernel.symbol + ", params_" + kernel.symbol + ", " + std::to_string(kernel.params.size()) + "};\n\n";
  return text;
}

// What every entry uses: an argument's bytes as the copy's type (a record of the user's is the
// copy's own type here, with the same layout).
constexpr const char* kEntrySupport = R"(// An argument of the launch, as the copy's type: its bytes, copied.
template <class T>
T argument(const void* bytes) {
  alignas(T) unsigned char storage[sizeof(T)];
  std::memcpy(storage, bytes, sizeof(T));
  return *std::launder(reinterpret_cast<T*>(storage));
}
)";

// What tile entries use besides: a tile argument's type, extents and coordinates.
constexpr const char* kTileEntrySupport = R"(// A tile kernel's parameter and what its launch passes for it (carbide/tile/args.hpp).
template <class Param>
struct tile_argument;
template <class T, int Rank>
struct tile_argument<::carbide::tile::in<T, Rank>> {
  using type = ::carbide::tile::detail::in_arg<T, Rank>;
};
template <class T, class Shape>
struct tile_argument<::carbide::tile::out<T, Shape>> {
  using type = ::carbide::tile::detail::out_arg<T, Shape::rank>;
};
template <class Arg>
auto tile_extents(const Arg& arg) {
  std::array<std::int64_t, std::size(decltype(arg.extent){})> extents{};
  for (std::size_t axis = 0; axis < extents.size(); ++axis) extents[axis] = arg.extent[axis];
  return extents;
}
template <class Arg>
auto tile_coordinates(const Arg& arg, std::uint64_t block) {
  std::array<int, std::size(decltype(arg.tiles){})> at{};
  for (std::size_t axis = at.size(); axis-- > 0;) {
    at[axis] = int(block % std::uint64_t(arg.tiles[axis]));
    block /= std::uint64_t(arg.tiles[axis]);
  }
  return at;
}
)";

}  // namespace

std::string cpu_entry_reference(const model::Kernel& kernel) {
  return std::string("&") + kNamespace + "::entry_" + kernel.symbol;
}

std::string cpu_table_reference(const model::ConstantTable& table) {
  return std::string(kNamespace) + "::" + table.qualified_name;
}

std::string generate_cpu_kernels(const model::Program& program, clang::ASTContext& context,
                                 clang::Preprocessor& preprocessor, const ProvenFacts& proven,
                                 const tile::TilePrograms& tiles, const std::string& preceding) {
  clang::Rewriter rewriter(context.getSourceManager(), context.getLangOpts());
  const auto numbers = number_shared_sites(program, rewriter);
  CpuEdits edits(rewriter);
  for (const clang::FunctionDecl* body : instantiated_bodies(program)) edits.TraverseDecl(const_cast<clang::FunctionDecl*>(body));
  // A failed check names the subscript's line.
  for (const TextWrap& wrap : checked_array_wraps(proven.checked_arrays, context))
    edits.add({wrap.begin, wrap.end, "(::carbide::cpu::at(" + std::string(kSite) + "), " + wrap.before, wrap.after + ")"});
  edits.apply();

  std::string text =
      "\n// The kernels' CPU form (DESIGN section 11): the device code again, for the host compiler, with\n"
      "// each access to memory wrapped in carbide::cpu::touch and each vocabulary call told its line,\n"
      "// for the run-time checks of a CPU launch.\n#include <carbide/carbide.hpp>\n#include <carbide/cpu.hpp>\n#include <array>\n"
      "#include <cstring>\n#include <iterator>\n#include <new>\n#include <utility>\n";
  if (!tiles.kernels().empty()) text += "#include <carbide/tile.hpp>\n";
  std::set<std::string> headers(program.device.std_includes.begin(), program.device.std_includes.end());
  headers.insert(program.tile_code.std_includes.begin(), program.tile_code.std_includes.end());
  for (const std::string& header : headers) text += "#include <" + header + ">\n";
  text += "namespace {\nnamespace " + std::string(kNamespace) + " {\n";
  const std::vector<const clang::Decl*> copied = all_top_level_decls(program, context.getSourceManager());
  text += copy_macros(copied, preprocessor, program.source_path);
  text += copy_declarations(copied, rewriter, program.source_path);
  text += line_of_generated_file(preceding + text, program.stem + ".carbide.cpp");
  const bool any_tile = !tiles.kernels().empty();
  text += "\n" + std::string(kEntrySupport) + (any_tile ? kTileEntrySupport : "") + "\n";
  for (const model::Module& module : program.modules)
    for (const model::Kernel& kernel : module.kernels) {
      if (kernel.is_tile) {
        text += tile_entry(module, kernel);
        continue;
      }
      text += simt_entry(module, kernel, shared_footprint(kernel.decl, context, numbers),
                         proven.synchronizing.count(kernel.decl->getCanonicalDecl()) != 0);
    }
  text += "}  // namespace " + std::string(kNamespace) + "\n}  // namespace\n";
  return text;
}

}  // namespace carbide::codegen
