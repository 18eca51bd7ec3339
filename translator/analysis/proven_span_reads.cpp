#include "analysis/proven_span_reads.hpp"

#include "analysis/changed_variables.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/RecursiveASTVisitor.h>

namespace carbide::analysis {
namespace {

namespace vocabulary = model::vocabulary;

// What a guard proves: `index < view.size()` while `region` runs, the test being `test`.
struct Guard {
  const clang::VarDecl* index;
  bool witness;              // index is a witness and the test read it with get()
  const clang::VarDecl* view;
  clang::QualType compared;  // the type the test compares the index in
  const clang::Stmt* test;
  const clang::Stmt* region;
};

const clang::VarDecl* named_variable(const clang::Expr* expr) {
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

// `i` or `w.get()`: the variable, and whether it is a witness read.
std::optional<std::pair<const clang::VarDecl*, bool>> index_variable(const clang::Expr* expr) {
  expr = expr->IgnoreParenImpCasts();
  if (const auto* read = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr)) {
    const clang::CXXMethodDecl* method = read->getMethodDecl();
    const auto kind = method ? vocabulary::witness_kind(method->getParent()) : std::nullopt;
    if (!kind || !vocabulary::is_witness_read(read, *kind) || method->getName() != "get") return std::nullopt;
    if (const clang::VarDecl* witness = named_variable(read->getImplicitObjectArgument()))
      return std::make_pair(witness, true);
    return std::nullopt;
  }
  if (const clang::VarDecl* variable = named_variable(expr)) return std::make_pair(variable, false);
  return std::nullopt;
}

// `x` in `x.size()` on a 1-D view.
const clang::VarDecl* length_of(const clang::Expr* expr) {
  const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr->IgnoreParenImpCasts());
  if (call == nullptr || !vocabulary::is_length_query(call->getMethodDecl())) return nullptr;
  return named_variable(call->getImplicitObjectArgument());
}

bool has_case_label(const clang::Stmt* statement) {
  if (statement == nullptr) return false;
  if (llvm::isa<clang::SwitchCase>(statement)) return true;
  for (const clang::Stmt* child : statement->children())
    if (has_case_label(child)) return true;
  return false;
}

bool has_jump_target(const clang::Stmt* statement) {
  if (statement == nullptr) return false;
  if (llvm::isa<clang::LabelStmt, clang::GotoStmt, clang::IndirectGotoStmt>(statement)) return true;
  for (const clang::Stmt* child : statement->children())
    if (has_jump_target(child)) return true;
  return false;
}

class ReadProver : public clang::RecursiveASTVisitor<ReadProver> {
 public:
  // `covered`: the kernel parameter whose size() the launch made the grid's thread count, if any.
  ReadProver(const clang::Stmt* body, const clang::VarDecl* covered)
      : covered_(covered), assigned_(changed_variables(body).assigned), escaping_(escaping_variables(body)) {}
  std::vector<const clang::CXXOperatorCallExpr*> proven;

  bool TraverseIfStmt(clang::IfStmt* statement) {
    TraverseStmt(statement->getInit());
    TraverseStmt(statement->getConditionVariableDeclStmt());
    TraverseStmt(statement->getCond());
    guarded(statement->getCond(), statement->getCond(), statement->getThen());
    TraverseStmt(statement->getElse());
    return true;
  }
  bool TraverseForStmt(clang::ForStmt* statement) {
    TraverseStmt(statement->getInit());
    TraverseStmt(statement->getConditionVariableDeclStmt());
    TraverseStmt(statement->getCond());
    TraverseStmt(statement->getInc());  // runs before the test is made again
    if (statement->getCond()) guarded(statement->getCond(), statement->getCond(), statement->getBody());
    else TraverseStmt(statement->getBody());
    return true;
  }
  bool TraverseWhileStmt(clang::WhileStmt* statement) {
    TraverseStmt(statement->getConditionVariableDeclStmt());
    TraverseStmt(statement->getCond());
    guarded(statement->getCond(), statement->getCond(), statement->getBody());
    return true;
  }
  bool TraverseConditionalOperator(clang::ConditionalOperator* op) {
    TraverseStmt(op->getCond());
    guarded(op->getCond(), op->getCond(), op->getTrueExpr());
    TraverseStmt(op->getFalseExpr());
    return true;
  }
  bool TraverseBinaryOperator(clang::BinaryOperator* op) {
    if (op->getOpcode() != clang::BO_LAnd) return RecursiveASTVisitor::TraverseBinaryOperator(op);
    TraverseStmt(op->getLHS());
    guarded(op->getLHS(), op->getLHS(), op->getRHS());
    return true;
  }
  bool TraverseCXXForRangeStmt(clang::CXXForRangeStmt* statement) {
    TraverseStmt(statement->getInit());
    TraverseStmt(statement->getRangeInit());
    const auto* range = llvm::dyn_cast<clang::CallExpr>(statement->getRangeInit()->IgnoreImplicit());
    const clang::VarDecl* view = range && vocabulary::is_grid_stride(range) && range->getNumArgs() == 1
                                     ? named_variable(range->getArg(0))
                                     : nullptr;
    if (view == nullptr || has_case_label(statement->getBody())) return TraverseStmt(statement->getBody());
    // Each witness the range yields is below view.size() (grid_stride_range's iterator).
    guards_.push_back({statement->getLoopVariable(), true, view, {}, statement->getRangeInit(), statement->getBody()});
    TraverseStmt(statement->getBody());
    guards_.pop_back();
    return true;
  }
  bool TraverseLambdaExpr(clang::LambdaExpr* lambda) {
    // A lambda may run anywhere it is passed: nothing outside it holds inside.
    std::vector<Guard> outside;
    outside.swap(guards_);
    RecursiveASTVisitor::TraverseLambdaExpr(lambda);
    guards_.swap(outside);
    return true;
  }

  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr* subscript) {
    if (subscript->getOperator() != clang::OO_Subscript || subscript->getNumArgs() != 2) return true;
    const clang::CXXRecordDecl* record = subscript->getArg(0)->getType()->getAsCXXRecordDecl();
    if (vocabulary::view_kind(record) != vocabulary::View::Read) return true;
    const clang::VarDecl* view = named_variable(subscript->getArg(0));
    const auto index = index_variable(subscript->getArg(1));
    if (view == nullptr || !index) return true;
    if (view == covered_ && index->second && made_by_index_1d(index->first) && stable_view(view)) {
      proven.push_back(subscript);
      return true;
    }
    for (const Guard& guard : guards_)
      if (guard.view == view && guard.index == index->first && guard.witness == index->second &&
          proves(guard, subscript->getArg(1)->getType())) {
        proven.push_back(subscript);
        break;
      }
    return true;
  }

 private:
  // The guards `test` makes, for the traversal of `region` (and `region` itself).
  void guarded(const clang::Expr* test, const clang::Stmt* whole_test, const clang::Stmt* region) {
    const std::size_t before = guards_.size();
    if (!has_case_label(region)) add_guards(test, whole_test, region);
    TraverseStmt(const_cast<clang::Stmt*>(region));
    guards_.resize(before);
  }
  void add_guards(const clang::Expr* test, const clang::Stmt* whole_test, const clang::Stmt* region) {
    test = test->IgnoreParenImpCasts();
    const auto* op = llvm::dyn_cast<clang::BinaryOperator>(test);
    if (op == nullptr) return;
    if (op->getOpcode() == clang::BO_LAnd) {
      add_guards(op->getLHS(), whole_test, region);
      add_guards(op->getRHS(), whole_test, region);
      return;
    }
    const clang::Expr* less = op->getOpcode() == clang::BO_LT   ? op->getLHS()
                              : op->getOpcode() == clang::BO_GT ? op->getRHS()
                                                                : nullptr;
    const clang::Expr* length = op->getOpcode() == clang::BO_LT ? op->getRHS() : op->getLHS();
    if (less == nullptr) return;
    const clang::VarDecl* view = length_of(length);
    const auto index = index_variable(less);
    if (view && index) guards_.push_back({index->first, index->second, view, less->getType(), whole_test, region});
  }

  // A view that keeps its length: a local or parameter that nothing assigns or reaches otherwise.
  bool stable_view(const clang::VarDecl* view) const {
    return view->hasLocalStorage() && !view->getType()->isReferenceType() && !assigned_.count(view) &&
           !escaping_.count(view);
  }

  // `auto idx = carbide::thread::index_1d();`: a witness below the launch's thread count.
  static bool made_by_index_1d(const clang::VarDecl* witness) {
    const auto* call = witness->getInit() ? llvm::dyn_cast<clang::CallExpr>(witness->getInit()->IgnoreImplicit()) : nullptr;
    return call && vocabulary::is_index_1d(call);
  }

  // Whether the guard's test still holds at a subscript that converts the index to `converted`.
  bool proves(const Guard& guard, clang::QualType converted) const {
    const clang::VarDecl* view = guard.view;
    if (!stable_view(view)) return false;
    if (guard.witness) return true;  // a witness never changes, and get() is a std::size_t
    const clang::VarDecl* index = guard.index;
    const clang::QualType type = index->getType();
    if (!index->hasLocalStorage() || type->isReferenceType() || type.isVolatileQualified() ||
        !type->isIntegerType() || escaping_.count(index))
      return false;
    // Compared and used as the same unsigned 64-bit value.
    const clang::QualType compared = guard.compared.getCanonicalType().getUnqualifiedType();
    if (compared != converted.getCanonicalType().getUnqualifiedType() || !compared->isUnsignedIntegerType())
      return false;
    return !changed_variables(guard.test).assigned.count(index) &&
           !changed_variables(guard.region).assigned.count(index);
  }

  const clang::VarDecl* covered_;
  std::set<const clang::VarDecl*> assigned_, escaping_;  // in the whole function
  std::vector<Guard> guards_;
};

// The parameter a kernel's `covers = x` names, for the kernel's own definition.
const clang::VarDecl* covered_parameter(const model::Program& program, const clang::FunctionDecl* definition) {
  for (const model::Module& module : program.modules)
    for (const model::Kernel& kernel : module.kernels)
      if (const model::Parameter* covered = model::covered_view(kernel);
          covered && kernel.decl->getCanonicalDecl() == definition->getCanonicalDecl())
        return definition->getParamDecl(unsigned(covered - kernel.params.data()));
  return nullptr;
}

}  // namespace

std::vector<const clang::CXXOperatorCallExpr*> proven_span_reads(const model::Program& program) {
  std::vector<const clang::CXXOperatorCallExpr*> proven;
  for (const clang::FunctionDecl* function : program.device.functions) {
    const clang::FunctionDecl* definition = nullptr;
    if (function->isTemplated() || function->isTemplateInstantiation() || !function->hasBody(definition) ||
        has_jump_target(definition->getBody()))
      continue;
    ReadProver prover(definition->getBody(), covered_parameter(program, definition));
    prover.TraverseStmt(definition->getBody());
    proven.insert(proven.end(), prover.proven.begin(), prover.proven.end());
  }
  return proven;
}

}  // namespace carbide::analysis
