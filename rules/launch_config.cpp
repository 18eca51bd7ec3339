#include "launch_config.hpp"

#include "model/module_api.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>

#include <array>
#include <cstdint>
#include <optional>

namespace carbide::rules {
namespace {

// A configuration's fields where they are constants (nullopt where they are not); a field the
// run-time check needs a value for is left to it.
using Extent = std::array<std::optional<std::uint64_t>, 3>;
struct ConstantConfig {
  int domain = 1;
  Extent grid, block;
  std::optional<std::uint64_t> dynamic_shared;
  std::string grid_text;  // the grid argument as written
};

std::optional<std::uint64_t> constant(const clang::Expr* expr, const clang::ASTContext& ast) {
  clang::Expr::EvalResult result;
  if (expr->isValueDependent() || !expr->EvaluateAsInt(result, ast) || result.Val.getInt().getActiveBits() > 64)
    return std::nullopt;
  return result.Val.getInt().getZExtValue();
}

// An Extent3 (a std::array of three): `{16, 16, 1}`, or any constant expression of the type. The
// elements a brace list leaves out are zero, as in the aggregate.
Extent extent(const clang::Expr* expr, const clang::ASTContext& ast) {
  Extent result;
  clang::Expr::EvalResult whole;
  if (!expr->isValueDependent() && expr->EvaluateAsRValue(whole, ast) && whole.Val.isStruct() &&
      whole.Val.getStructNumFields() == 1 && whole.Val.getStructField(0).isArray()) {
    const clang::APValue& array = whole.Val.getStructField(0);
    for (unsigned i = 0; i < 3 && i < array.getArraySize(); ++i) {
      const clang::APValue& element =
          i < array.getArrayInitializedElts() ? array.getArrayInitializedElt(i) : array.getArrayFiller();
      if (element.isInt()) result[i] = element.getInt().getZExtValue();
    }
    return result;
  }
  // Some elements are constants: std::array's braces are elided, so the list's one element is
  // the list of its member array.
  const auto* list = llvm::dyn_cast<clang::InitListExpr>(expr->IgnoreImplicit());
  if (list != nullptr && list->getNumInits() == 1)
    if (const auto* inner = llvm::dyn_cast<clang::InitListExpr>(list->getInit(0)->IgnoreImplicit())) list = inner;
  if (list == nullptr) return result;
  for (unsigned i = 0; i < 3; ++i) result[i] = i < list->getNumInits() ? constant(list->getInit(i), ast) : 0;
  return result;
}

// The LaunchConfig1D/2D/3D an argument constructs, directly or through a const variable.
const clang::CXXConstructExpr* config_construction(const clang::Expr* expr) {
  for (int depth = 0; depth < 4; ++depth) {
    expr = expr->IgnoreImplicit()->IgnoreParens();
    if (const auto* cast = llvm::dyn_cast<clang::CXXFunctionalCastExpr>(expr)) {
      expr = cast->getSubExpr();
    } else if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
      const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
      if (var == nullptr || !var->getType().isConstQualified() || var->getType()->isReferenceType() ||
          var->getInit() == nullptr)
        return nullptr;
      expr = var->getInit();
    } else {
      return llvm::dyn_cast<clang::CXXConstructExpr>(expr);
    }
  }
  return nullptr;
}

std::optional<ConstantConfig> constant_config(const clang::Expr* argument, const clang::ASTContext& ast) {
  const clang::CXXConstructExpr* construct = config_construction(argument);
  if (construct == nullptr || construct->getNumArgs() < 2) return std::nullopt;
  const clang::CXXRecordDecl* record = construct->getConstructor()->getParent();
  if (!model::vocabulary::is_carbide(record)) return std::nullopt;
  ConstantConfig config;
  const llvm::StringRef name = record->getName();
  if (name == "LaunchConfig1D") {
    config.domain = 1;
    config.grid = {constant(construct->getArg(0), ast), 1, 1};
    config.block = {constant(construct->getArg(1), ast), 1, 1};
  } else if (name == "LaunchConfig2D" || name == "LaunchConfig3D") {
    config.domain = name == "LaunchConfig2D" ? 2 : 3;
    config.grid = extent(construct->getArg(0), ast);
    config.block = extent(construct->getArg(1), ast);
  } else {
    return std::nullopt;
  }
  config.dynamic_shared = construct->getNumArgs() > 2 ? constant(construct->getArg(2), ast) : 0;
  config.grid_text = source_text(ast, construct->getArg(0));
  return config;
}

// What a constant field breaks, as the run-time check would say it; empty when nothing does.
std::vector<std::string> broken_fields(const ConstantConfig& config, const contract::Contract& contract) {
  static constexpr const char* kAxis[] = {"x", "y", "z"};
  std::vector<std::string> broken;
  if (config.domain != contract.domain)
    broken.push_back("a LaunchConfig" + std::to_string(config.domain) + "D where the contract's domain is " +
                     std::to_string(contract.domain));
  for (int axis = 0; axis < 3; ++axis)
    if (config.block[axis] && *config.block[axis] != contract.block[axis])
      broken.push_back(std::string("block.") + kAxis[axis] + " is " + std::to_string(*config.block[axis]) +
                       " where the contract says " + std::to_string(contract.block[axis]));
  for (int axis = contract.domain; axis < 3; ++axis)
    if (config.grid[axis] && *config.grid[axis] != 1)
      broken.push_back(std::string("grid.") + kAxis[axis] + " is " + std::to_string(*config.grid[axis]) +
                       " where a domain-" + std::to_string(contract.domain) + " kernel needs 1");
  if (config.dynamic_shared && *config.dynamic_shared != contract.dynamic_shared_bytes)
    broken.push_back("dynamic shared memory is " + std::to_string(*config.dynamic_shared) +
                     " bytes where the contract says " + std::to_string(contract.dynamic_shared_bytes));
  return broken;
}

// The configuration to write: the contract's fields, with the grid as written where the
// domains agree.
std::string suggestion(const ConstantConfig& config, const contract::Contract& contract) {
  const std::string shared =
      contract.dynamic_shared_bytes == 0 ? "" : ", " + std::to_string(contract.dynamic_shared_bytes);
  const auto& block = contract.block;
  if (contract.domain == 1)
    return "carbide::LaunchConfig1D(" + (config.domain == 1 ? config.grid_text : std::string("grid")) + ", " +
           std::to_string(block[0]) + shared + ")";
  const std::string grid = config.domain == contract.domain ? config.grid_text
                           : contract.domain == 2           ? "{grid_x, grid_y, 1}"
                                                            : "{grid_x, grid_y, grid_z}";
  return "carbide::LaunchConfig" + std::to_string(contract.domain) + "D(" + grid + ", {" + std::to_string(block[0]) +
         ", " + std::to_string(block[1]) + ", " + std::to_string(block[2]) + "}" + shared + ")";
}

class Finder : public clang::RecursiveASTVisitor<Finder> {
 public:
  Finder(const RuleContext& context, std::string_view rule) : context_(context), rule_(rule) {}

  bool VisitCXXMemberCallExpr(clang::CXXMemberCallExpr* call) {
    const clang::SourceManager& sources = context_.ast.getSourceManager();
    if (call->getNumArgs() != 1 || !sources.isInMainFile(sources.getExpansionLoc(call->getBeginLoc())))
      return true;
    const clang::CXXMethodDecl* method = call->getMethodDecl();
    const auto api = model::api_member(method, context_.program);
    // A kernel template's instances each have their own contract; the call names one by its
    // template arguments, which this rule does not match yet: the run-time check covers them.
    if (!api || api->member != model::ApiMember::Prepare || method->getTemplateSpecializationArgs() != nullptr ||
        !api->kernel->contract || !api->kernel->contract->parsed)
      return true;
    const contract::Contract& contract = *api->kernel->contract->parsed;
    const auto config = constant_config(call->getArg(0), context_.ast);
    if (!config) return true;
    const std::vector<std::string> broken = broken_fields(*config, contract);
    if (broken.empty()) return true;
    std::string fields;
    for (const std::string& field : broken) fields += (fields.empty() ? "" : "; ") + field;
    auto result = finding(rule_, diag::Severity::Error, call->getArg(0)->getExprLoc(),
                          "this launch configuration breaks the contract of '" + api->kernel->qualified_name +
                              "': " + fields + ", so '" + method->getNameAsString() +
                              "' would throw carbide::LaunchContractError here at run time; write " +
                              suggestion(*config, contract),
                          call->getArg(0)->getSourceRange());
    result.notes.push_back({api->kernel->contract->location, "the contract of '" + api->kernel->qualified_name + "'"});
    context_.reporter.report(std::move(result));
    return true;
  }

 private:
  const RuleContext& context_;
  std::string_view rule_;
};

}  // namespace

void LaunchConfigRule::check(const RuleContext& context) {
  Finder finder(context, name());
  finder.TraverseDecl(context.ast.getTranslationUnitDecl());
}

}  // namespace carbide::rules
