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
// is none: a value the helper computes, or a conversion that may change it); for a lambda, also
// each shared array it captures.
using Bindings = std::map<const clang::ValueDecl*, const clang::Expr*>;

// `expr` in the terms of the function being analysed: itself where `outer` is null (the call is
// that function's own), else what the variable it names stands for; null where it has none.
const clang::Expr* in_caller_terms(const clang::Expr* expr, const Bindings* outer) {
  expr = passed(expr);
  if (outer == nullptr) return expr;
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr);
  const auto found = ref ? outer->find(ref->getDecl()) : outer->end();
  return found == outer->end() ? nullptr : found->second;
}

void collect(const clang::CallExpr* call, const Bindings* outer, int depth, std::vector<HelperAccess>& found) {
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
  // A lambda's captured arrays are the arrays it was made with, in the caller's terms where it was
  // made there; so are its captured constants. Any other capture may hold another value at the
  // call than where the lambda was made (a copy keeps the old one, a reference sees a later
  // assignment), and the capture's expression stands where it was made: it stays in the lambda's
  // terms, unknown there.
  if (const clang::LambdaExpr* lambda = followed_lambda(call)) {
    auto init = lambda->capture_init_begin();
    for (const clang::LambdaCapture& capture : lambda->captures()) {
      const clang::Expr* made_with = *init++;
      if (!capture.capturesVariable() || made_with == nullptr) continue;
      const clang::ValueDecl* captured = capture.getCapturedVar();
      const clang::QualType type = captured->getType();
      if (is_shared_array_type(type) || (type.isConstQualified() && !type->isReferenceType()))
        bindings[captured] = in_caller_terms(made_with, outer);
    }
  }
  const clang::ParentMap parents(const_cast<clang::Stmt*>(helper->getBody()));
  for (const clang::CallExpr* inner : calls_in(helper->getBody())) {
    if (is_tile_access(inner)) {
      const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(passed(tile_handle(inner)));
      const auto bound = ref ? bindings.find(ref->getDecl()) : bindings.end();
      // A helper's own dynamic shared memory is the caller's too: every handle to it is the same
      // bytes. Its own fixed array is its own.
      if (bound == bindings.end() && is_dynamic_handle(tile_handle(inner))) {
        found.push_back({inner, tile_handle(inner), tile_index(inner), helper, classify_use(inner, parents)});
        continue;
      }
      if (bound == bindings.end() || bound->second == nullptr) continue;
      // An index the helper computes (`ty * 33 + tx`) stays in the helper's terms: it is encoded
      // with the helper's own values, in which its parameters are unknown.
      const clang::Expr* index = in_caller_terms(tile_index(inner), &bindings);
      found.push_back({inner, bound->second, index ? index : tile_index(inner), index ? nullptr : helper,
                       classify_use(inner, parents)});
    } else if (inlinable_helper(inner) != nullptr) {
      collect(inner, &bindings, depth + 1, found);
    }
  }
}

// The lambda a local variable is initialized with, if any.
const clang::LambdaExpr* lambda_held(const clang::VarDecl* var) {
  if (var == nullptr || var->getInit() == nullptr) return nullptr;
  return llvm::dyn_cast<clang::LambdaExpr>(passed(var->getInit())->IgnoreImplicit());
}

// The local variable a call of a lambda names (`load(i)` for `auto load = [&](…) {…};`).
const clang::VarDecl* closure_variable(const clang::CallExpr* call) {
  const auto* op = llvm::dyn_cast<clang::CXXOperatorCallExpr>(call);
  if (op == nullptr || op->getOperator() != clang::OO_Call || op->getNumArgs() == 0) return nullptr;
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(op->getArg(0)->IgnoreParenImpCasts());
  const auto* var = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  return var != nullptr && var->isLocalVarDecl() && !var->getType()->isReferenceType() ? var : nullptr;
}

// True when every mention of `var` in its function calls it: no copy, no reference, no capture,
// nothing passed on, so every call of the lambda it holds is in sight.
bool only_called(const clang::VarDecl* var) {
  const auto* function = llvm::dyn_cast_or_null<clang::FunctionDecl>(var->getParentFunctionOrMethod());
  if (function == nullptr || function->getBody() == nullptr) return false;
  const clang::ParentMap parents(function->getBody());
  struct Mentions : clang::RecursiveASTVisitor<Mentions> {
    const clang::VarDecl* var;
    std::vector<const clang::DeclRefExpr*> found;
    bool shouldVisitImplicitCode() const { return true; }
    bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
      if (ref->getDecl() == var) found.push_back(ref);
      return true;
    }
  } mentions;
  mentions.var = var;
  mentions.TraverseStmt(function->getBody());
  for (const clang::DeclRefExpr* ref : mentions.found) {
    const clang::Stmt* user = parents.getParent(ref);
    while (llvm::isa_and_nonnull<clang::ImplicitCastExpr, clang::ParenExpr>(user)) user = parents.getParent(user);
    const auto* call = llvm::dyn_cast_or_null<clang::CXXOperatorCallExpr>(user);
    if (call == nullptr || call->getOperator() != clang::OO_Call ||
        call->getArg(0)->IgnoreParenImpCasts() != ref)
      return false;
  }
  return true;
}

}  // namespace

const clang::VarDecl* lambda_holder(const clang::LambdaExpr* lambda, const clang::ParentMap& parents) {
  const clang::Stmt* at = parents.getParent(lambda);
  while (at != nullptr && !llvm::isa<clang::DeclStmt>(at) && llvm::isa<clang::Expr>(at)) at = parents.getParent(at);
  if (const auto* declaration = llvm::dyn_cast_or_null<clang::DeclStmt>(at))
    for (const clang::Decl* decl : declaration->decls())
      if (const auto* var = llvm::dyn_cast<clang::VarDecl>(decl); var && lambda_held(var) == lambda) return var;
  return nullptr;
}

bool checked_at_calls(const clang::LambdaExpr* lambda, const clang::VarDecl* holder) {
  const clang::CXXMethodDecl* body = lambda->getCallOperator();
  // A generic lambda's body holds calls the pattern cannot resolve, barriers among them maybe.
  if (holder == nullptr || body->getDescribedFunctionTemplate() != nullptr || reaches_barrier(body)) return false;
  // An array the lambda declares itself would be checked nowhere: it is not the caller's.
  for (const clang::CallExpr* call : calls_in(body->getBody()))
    if (const auto* entry = model::vocabulary::device_function(call);
        entry && entry->role == model::vocabulary::Role::SharedAllocation)
      return false;
  bool captures_array = false;
  for (const clang::LambdaCapture& capture : lambda->captures())
    captures_array = captures_array ||
                     (capture.capturesVariable() && is_shared_array_type(capture.getCapturedVar()->getType()));
  return (captures_array || touches_dynamic_shared(body, 0)) && only_called(holder);
}

const clang::LambdaExpr* followed_lambda(const clang::CallExpr* call) {
  const clang::VarDecl* holder = closure_variable(call);
  const clang::LambdaExpr* lambda = lambda_held(holder);
  if (lambda == nullptr || call->getDirectCallee() != lambda->getCallOperator()) return nullptr;
  return checked_at_calls(lambda, holder) ? lambda : nullptr;
}

bool reaches_barrier(const clang::FunctionDecl* function) { return reaches_barrier(function, 0); }

const clang::FunctionDecl* inlinable_helper(const clang::CallExpr* call) {
  const clang::FunctionDecl* helper = user_definition(call);
  if (helper == nullptr) return nullptr;
  bool takes_array = false;
  for (const clang::ParmVarDecl* parameter : helper->parameters())
    takes_array = takes_array || is_shared_array_type(parameter->getType());
  // A lambda checked at its calls brings the arrays it captures.
  takes_array = takes_array || followed_lambda(call) != nullptr;
  return (takes_array || touches_dynamic_shared(helper, 0)) && !reaches_barrier(helper) ? helper : nullptr;
}

std::vector<HelperAccess> helper_accesses(const clang::CallExpr* call) {
  std::vector<HelperAccess> found;
  collect(call, nullptr, 0, found);
  return found;
}

}  // namespace carbide::analysis
