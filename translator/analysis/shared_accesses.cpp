#include "analysis/shared_accesses.hpp"

#include "analysis/barrier_phases.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/RecursiveASTVisitor.h>

#include <map>

namespace carbide::analysis {

namespace {

bool is_shared_array_method(const clang::CallExpr* call, llvm::StringRef name) {
  const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(call->getDirectCallee());
  return method && model::vocabulary::is_shared_array(method->getParent()) &&
         (name.empty() || (method->getIdentifier() && method->getName() == name));
}

}  // namespace

bool is_tile_access(const clang::CallExpr* call) {
  if (const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call))
    return op->getOperator() == clang::OO_Subscript && is_shared_array_method(op, "");
  return llvm::isa<clang::CXXMemberCallExpr>(call) && is_shared_array_method(call, "fetch_add");
}

const clang::Expr* tile_handle(const clang::CallExpr* access) {
  if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(access))
    return member->getImplicitObjectArgument();
  return access->getArg(0);
}

const clang::Expr* tile_index(const clang::CallExpr* access) {
  return access->getArg(llvm::isa<clang::CXXMemberCallExpr>(access) ? 0 : 1);
}

bool is_dynamic_handle(const clang::Expr* handle) {
  const auto* specialization = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(
      handle->getType()->getAsCXXRecordDecl());
  return specialization && specialization->getTemplateArgs().size() == 2 &&
         specialization->getTemplateArgs()[1].getKind() == clang::TemplateArgument::Integral &&
         specialization->getTemplateArgs()[1].getAsIntegral().isAllOnes();
}

unsigned first_parameter_argument(const clang::CallExpr* call) {
  const auto* method = llvm::dyn_cast_or_null<clang::CXXMethodDecl>(call->getDirectCallee());
  return llvm::isa<clang::CXXOperatorCallExpr>(call) && method && method->isImplicitObjectMemberFunction() ? 1 : 0;
}

namespace {

bool binds_const(clang::QualType type) {
  return !type->isReferenceType() || type.getNonReferenceType().isConstQualified();
}

// How the expression around `lvalue` uses it. Only what surely reads alone is a read: an
// lvalue-to-rvalue conversion, a const reference or a by-value parameter bound to it, a const
// member function called on it. Everything else (a return by reference, ?:, a comma, a cast, a
// reference member bound, a pointer to member) may write.
AccessUse use_of(const clang::Expr* lvalue, const clang::ParentMap& parents, bool& leaves_element) {
  AccessUse use;
  use.reads = use.writes = true;
  const clang::Stmt* parent = parents.getParent(const_cast<clang::Expr*>(lvalue));
  while (const auto* paren = llvm::dyn_cast_or_null<clang::ParenExpr>(parent)) {
    lvalue = paren;
    parent = parents.getParent(const_cast<clang::ParenExpr*>(paren));
  }
  if (parent == nullptr) return use;
  if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(parent)) {
    if (cast->getCastKind() == clang::CK_LValueToRValue) {
      use.writes = false;
      return use;
    }
    if (cast->getCastKind() == clang::CK_NoOp || cast->getCastKind() == clang::CK_UncheckedDerivedToBase ||
        cast->getCastKind() == clang::CK_DerivedToBase)
      return use_of(cast, parents, leaves_element);
    if (cast->getCastKind() == clang::CK_ArrayToPointerDecay) {
      // A member array subscripted: an element of the element, as long as the subscript stays in it.
      const auto* subscript = llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(parents.getParent(cast));
      if (subscript == nullptr || subscript->getBase() != cast) return use;
      const auto* array = llvm::dyn_cast<clang::ConstantArrayType>(lvalue->getType()->getAsArrayTypeUnsafe());
      const auto* literal = llvm::dyn_cast<clang::IntegerLiteral>(subscript->getIdx()->IgnoreParenImpCasts());
      if (array == nullptr || literal == nullptr || literal->getValue().uge(array->getSize())) leaves_element = true;
      return use_of(subscript, parents, leaves_element);
    }
    return use;
  }
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(parent)) {
    if (member->getBase() == lvalue && !member->isArrow() && llvm::isa<clang::FieldDecl>(member->getMemberDecl()))
      return use_of(member, parents, leaves_element);
    if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(member->getMemberDecl()))
      use.writes = !method->isConst();
    return use;
  }
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(parent)) {
    if (op->isAssignmentOp() && op->getLHS() == lvalue) use.reads = op->isCompoundAssignmentOp();
    return use;
  }
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(parent)) {
    use.aliased = op->getOpcode() == clang::UO_AddrOf;
    return use;
  }
  if (const auto* declaration = llvm::dyn_cast<clang::DeclStmt>(parent)) {
    for (const clang::Decl* decl : declaration->decls())
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(decl); var && var->getInit() == lvalue)
        use.aliased = use.writes = !binds_const(var->getType());
    return use;
  }
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(parent)) {
    if (const auto* operator_call = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call);
        operator_call && operator_call->isAssignmentOp() && call->getArg(0) == lvalue) {
      use.reads = operator_call->getOperator() != clang::OO_Equal;
      return use;
    }
    const clang::FunctionDecl* callee = call->getDirectCallee();
    const unsigned offset = first_parameter_argument(call);
    if (offset == 1 && call->getArg(0) == lvalue) {  // the object of a member operator
      use.writes = !llvm::cast<clang::CXXMethodDecl>(callee)->isConst();
      return use;
    }
    for (unsigned i = offset; callee && i < call->getNumArgs(); ++i)
      if (call->getArg(i) == lvalue && i - offset < callee->getNumParams())
        use.aliased = use.writes = !binds_const(callee->getParamDecl(i - offset)->getType());
    return use;
  }
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(parent)) {
    const clang::CXXConstructorDecl* constructor = construct->getConstructor();
    for (unsigned i = 0; i < construct->getNumArgs() && i < constructor->getNumParams(); ++i)
      if (construct->getArg(i) == lvalue) use.writes = !binds_const(constructor->getParamDecl(i)->getType());
    return use;
  }
  return use;
}

}  // namespace

AccessUse classify_use(const clang::CallExpr* access, const clang::ParentMap& parents) {
  AccessUse result;
  if (llvm::isa<clang::CXXMemberCallExpr>(access)) {
    result.reads = result.writes = result.atomic = true;
    return result;
  }
  bool leaves_element = false;
  result = use_of(access, parents, leaves_element);
  result.leaves_element = leaves_element;
  return result;
}

namespace {

const clang::FunctionDecl* user_definition(const clang::CallExpr* call) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  const clang::FunctionDecl* definition = callee ? callee->getDefinition() : nullptr;
  if (definition == nullptr || definition->getBody() == nullptr || model::vocabulary::is_carbide(definition))
    return nullptr;
  return definition;
}

std::vector<const clang::CallExpr*> calls_in(const clang::Stmt* body) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    std::vector<const clang::CallExpr*> found;
    bool VisitCallExpr(clang::CallExpr* call) {
      found.push_back(call);
      return true;
    }
  } finder;
  finder.TraverseStmt(const_cast<clang::Stmt*>(body));
  return finder.found;
}

bool reaches_barrier(const clang::FunctionDecl* function, int depth) {
  if (depth > kMaxHelperDepth) return true;  // too deep to follow: assume it may
  if (contains_barrier(function->getBody())) return true;
  for (const clang::CallExpr* call : calls_in(function->getBody()))
    if (const clang::FunctionDecl* helper = user_definition(call); helper && reaches_barrier(helper, depth + 1))
      return true;
  return false;
}

// True when the function, or a helper it calls, indexes the launch's dynamic shared memory,
// which is every function's: its accesses meet the caller's.
bool touches_dynamic_shared(const clang::FunctionDecl* function, int depth) {
  if (depth > kMaxHelperDepth) return true;
  for (const clang::CallExpr* call : calls_in(function->getBody())) {
    if (is_tile_access(call) && is_dynamic_handle(tile_handle(call))) return true;
    if (const clang::FunctionDecl* helper = user_definition(call); helper && touches_dynamic_shared(helper, depth + 1))
      return true;
  }
  return false;
}

bool is_shared_array_type(clang::QualType type) {
  return model::vocabulary::is_shared_array(type.getNonReferenceType()->getAsCXXRecordDecl());
}

// An argument without the copy that passes it by value.
const clang::Expr* passed(const clang::Expr* argument) {
  for (;;) {
    argument = argument->IgnoreParenImpCasts();
    if (const auto* copy = llvm::dyn_cast<clang::CXXConstructExpr>(argument); copy && copy->getNumArgs() == 1) {
      argument = copy->getArg(0);
      continue;
    }
    if (const auto* temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(argument)) {
      argument = temporary->getSubExpr();
      continue;
    }
    return argument;
  }
}

// True when the parameter holds every value of the argument: the same witness or array, or an
// integer at least as wide (and wider where the signedness differs).
bool keeps_value(const clang::ParmVarDecl* parameter, const clang::Expr* argument, const clang::ASTContext& context) {
  const clang::QualType to = parameter->getType().getNonReferenceType().getCanonicalType().getUnqualifiedType();
  const clang::QualType from = argument->getType().getCanonicalType().getUnqualifiedType();
  if (to == from) return true;
  if (!to->isIntegerType() || !from->isIntegerType() || to->isBooleanType() || from->isBooleanType()) return false;
  const auto to_bits = context.getIntWidth(to), from_bits = context.getIntWidth(from);
  return to_bits > from_bits || (to_bits == from_bits && to->isSignedIntegerType() == from->isSignedIntegerType());
}

// Each parameter of a helper, as an expression of the function being analysed (null where it
// is none: a value the helper computes, or a conversion that may change it).
using Bindings = std::map<const clang::ParmVarDecl*, const clang::Expr*>;

const clang::Expr* in_caller_terms(const clang::Expr* expr, const Bindings& outer) {
  expr = passed(expr);
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr);
  const auto* parameter = ref ? llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl()) : nullptr;
  if (parameter == nullptr) return outer.empty() ? expr : nullptr;  // outer empty: the caller itself
  if (outer.empty()) return expr;
  const auto found = outer.find(parameter);
  return found == outer.end() ? nullptr : found->second;
}

void collect(const clang::CallExpr* call, const Bindings& outer, int depth, std::vector<HelperAccess>& found) {
  const clang::FunctionDecl* helper = user_definition(call);
  if (helper == nullptr || depth > kMaxHelperDepth) return;
  const clang::ASTContext& context = helper->getASTContext();
  Bindings bindings;
  const unsigned offset = first_parameter_argument(call);
  for (unsigned i = 0; i < helper->getNumParams() && i + offset < call->getNumArgs(); ++i) {
    const clang::ParmVarDecl* parameter = helper->getParamDecl(i);
    const clang::Expr* given = call->getArg(i + offset);
    const clang::Expr* argument = in_caller_terms(given, outer);
    bindings[parameter] = argument && keeps_value(parameter, passed(given), context) ? argument : nullptr;
  }
  const clang::ParentMap parents(const_cast<clang::Stmt*>(helper->getBody()));
  for (const clang::CallExpr* inner : calls_in(helper->getBody())) {
    if (is_tile_access(inner)) {
      const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(passed(tile_handle(inner)));
      const auto* parameter = ref ? llvm::dyn_cast<clang::ParmVarDecl>(ref->getDecl()) : nullptr;
      const auto bound = parameter ? bindings.find(parameter) : bindings.end();
      // A helper's own dynamic shared memory is the caller's too: every handle to it is the same
      // bytes. Its own fixed array is its own.
      if (parameter == nullptr && is_dynamic_handle(tile_handle(inner))) {
        found.push_back({inner, tile_handle(inner), tile_index(inner), helper, classify_use(inner, parents)});
        continue;
      }
      if (bound == bindings.end() || bound->second == nullptr) continue;
      // An index the helper computes (`ty * 33 + tx`) stays in the helper's terms: it is encoded
      // with the helper's own values, in which its parameters are unknown.
      const clang::Expr* index = in_caller_terms(tile_index(inner), bindings);
      found.push_back({inner, bound->second, index ? index : tile_index(inner), index ? nullptr : helper,
                       classify_use(inner, parents)});
    } else if (inlinable_helper(inner) != nullptr) {
      collect(inner, bindings, depth + 1, found);
    }
  }
}

}  // namespace

bool reaches_barrier(const clang::FunctionDecl* function) { return reaches_barrier(function, 0); }

const clang::FunctionDecl* inlinable_helper(const clang::CallExpr* call) {
  const clang::FunctionDecl* helper = user_definition(call);
  if (helper == nullptr) return nullptr;
  bool takes_array = false;
  for (const clang::ParmVarDecl* parameter : helper->parameters())
    takes_array = takes_array || is_shared_array_type(parameter->getType());
  return (takes_array || touches_dynamic_shared(helper, 0)) && !reaches_barrier(helper) ? helper : nullptr;
}

std::vector<HelperAccess> helper_accesses(const clang::CallExpr* call) {
  std::vector<HelperAccess> found;
  collect(call, {}, 0, found);
  return found;
}

}  // namespace carbide::analysis
