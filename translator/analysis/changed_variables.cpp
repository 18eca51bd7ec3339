#include "analysis/changed_variables.hpp"

#include "model/call_arguments.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/ParentMap.h>
#include <clang/AST/RecursiveASTVisitor.h>

#include <optional>
#include <vector>

namespace carbide::analysis {
namespace {

// An implicit conversion that leaves an lvalue the same storage: an added const, a base class.
bool keeps_storage(const clang::ImplicitCastExpr* cast) {
  switch (cast->getCastKind()) {
    case clang::CK_NoOp:
    case clang::CK_DerivedToBase:
    case clang::CK_UncheckedDerivedToBase:
      return true;
    default:
      return false;
  }
}

// The expression one step down that names the storage `expr` is, or holds it as a member
// (`p.n`) or an element of an array (`offsets[k]`); null when there is none.
const clang::Expr* holder_of(const clang::Expr* expr) {
  if (const auto* paren = llvm::dyn_cast<clang::ParenExpr>(expr)) return paren->getSubExpr();
  if (const auto* full = llvm::dyn_cast<clang::FullExpr>(expr)) return full->getSubExpr();
  if (const auto* cast = llvm::dyn_cast<clang::ImplicitCastExpr>(expr))
    return keeps_storage(cast) ? cast->getSubExpr() : nullptr;
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(expr))
    return !member->isArrow() && llvm::isa<clang::FieldDecl>(member->getMemberDecl()) ? member->getBase() : nullptr;
  if (const auto* element = llvm::dyn_cast<clang::ArraySubscriptExpr>(expr)) {
    const auto* decayed = llvm::dyn_cast<clang::ImplicitCastExpr>(element->getBase());
    if (decayed && decayed->getCastKind() == clang::CK_ArrayToPointerDecay) return decayed->getSubExpr();
  }
  return nullptr;
}

// The variable a name stands for; a structured binding stands for a part of the object it
// decomposes.
const clang::VarDecl* referenced_variable(const clang::DeclRefExpr* ref) {
  if (const auto* binding = llvm::dyn_cast<clang::BindingDecl>(ref->getDecl()))
    return llvm::dyn_cast_or_null<clang::VarDecl>(binding->getDecomposedDecl());
  return llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
}

}  // namespace

const clang::VarDecl* stored_variable(const clang::Expr* expr) {
  while (const clang::Expr* holder = holder_of(expr)) expr = holder;
  const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(expr);
  return ref ? referenced_variable(ref) : nullptr;
}

namespace {

// How the expression around a variable's storage uses it. Only what surely leaves the storage
// as it was is a read; anything not recognised may change it.
enum class Use {
  reads,
  reads_unless_cast,  // binds a const reference, or calls a const member function, of code that
                      // could cast the const away: anything but Carbide's own functions
  assigns,            // assigns or steps it
  aliases,            // anything else: it may change where no assignment names it
};

// Whether `user` may be the storage its operand `used` is without naming it as stored_variable
// follows it: an arm of an lvalue ?:, the right of a comma, a member through a member pointer,
// a cast to a reference.
bool may_be_storage(const clang::Expr* user, const clang::Expr* used) {
  if (!user->isGLValue()) return false;
  if (const auto* choice = llvm::dyn_cast<clang::ConditionalOperator>(user)) return choice->getCond() != used;
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(user))
    return (op->getOpcode() == clang::BO_Comma && op->getRHS() == used) ||
           (op->getOpcode() == clang::BO_PtrMemD && op->getLHS() == used);
  return llvm::isa<clang::ExplicitCastExpr>(user);
}

struct StorageStep {
  const clang::Expr* storage;
  bool named;  // stored_variable follows the step
};

// The expression around `used` that is still its storage, or a part of it; none where the
// expression around uses it.
std::optional<StorageStep> step_up(const clang::Expr* used, const clang::ParentMap& parents) {
  const auto* user = llvm::dyn_cast_or_null<clang::Expr>(parents.getParent(used));
  if (user == nullptr) return std::nullopt;
  if (const auto* decay = llvm::dyn_cast<clang::ImplicitCastExpr>(user);
      decay && decay->getCastKind() == clang::CK_ArrayToPointerDecay) {
    // Subscripted, an element of the array; otherwise a pointer into it, used by what is around.
    const auto* element = llvm::dyn_cast_or_null<clang::ArraySubscriptExpr>(parents.getParent(decay));
    if (element == nullptr || element->getBase() != decay) return std::nullopt;
    return StorageStep{element, true};
  }
  if (holder_of(user) == used) return StorageStep{user, true};
  if (may_be_storage(user, used)) return StorageStep{user, false};
  return std::nullopt;
}

bool trivial_method(const clang::FunctionDecl* function) {
  const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(function);
  return method && method->isTrivial();
}

// A reference of type `type` bound to the storage, or a copy of it when `type` is no reference.
Use binding_use(clang::QualType type, bool trusted) {
  if (!type->isReferenceType()) return Use::reads;
  if (!type.getNonReferenceType().isConstQualified()) return Use::aliases;
  return trusted ? Use::reads : Use::reads_unless_cast;
}

// The storage passed for `callee`'s parameter `index`. A trivial copy or move (`Params q = p;`,
// `q = p`) reads its source member by member.
Use parameter_use(const clang::FunctionDecl* callee, unsigned index) {
  if (index >= callee->getNumParams()) return Use::aliases;  // passed through `...`
  if (trivial_method(callee)) return Use::reads;
  return binding_use(callee->getParamDecl(index)->getType(), model::vocabulary::is_carbide(callee));
}

// `method` called on the storage. A lambda's const call leaves its closure as it was: the
// closure has no member it could change (what it captured by reference is used in its body).
Use object_use(const clang::CXXMethodDecl* method) {
  if (method->isStatic()) return Use::reads;  // the object is only evaluated
  if (!method->isConst()) return Use::aliases;  // it may change the object through `this`
  const bool trusted = model::vocabulary::is_carbide(method) || method->isTrivial() || method->getParent()->isLambda();
  return trusted ? Use::reads : Use::reads_unless_cast;
}

Use member_use(const clang::MemberExpr* member) {
  if (const auto* method = llvm::dyn_cast<clang::CXXMethodDecl>(member->getMemberDecl())) return object_use(method);
  // A static member or an enumerator named through the object: the object is only evaluated.
  return llvm::isa<clang::VarDecl, clang::EnumConstantDecl>(member->getMemberDecl()) ? Use::reads : Use::aliases;
}

Use argument_use(const clang::CallExpr* call, const clang::Expr* used) {
  const clang::FunctionDecl* callee = call->getDirectCallee();
  if (callee == nullptr) return Use::aliases;
  const unsigned objects = model::object_arguments(call, callee);
  for (unsigned i = 0; i < call->getNumArgs(); ++i) {
    if (call->getArg(i) != used) continue;
    if (i < objects) return object_use(llvm::cast<clang::CXXMethodDecl>(callee));
    return parameter_use(callee, i - objects);
  }
  return Use::aliases;  // the callee itself: a function reference, say
}

Use construction_use(const clang::CXXConstructExpr* construct, const clang::Expr* used) {
  for (unsigned i = 0; i < construct->getNumArgs(); ++i)
    if (construct->getArg(i) == used) return parameter_use(construct->getConstructor(), i);
  return Use::aliases;
}

// `for (element : storage)`: the loop variable copies or references each element of an array;
// a class's iterators may give out what changes it.
Use range_use(const clang::CXXForRangeStmt* loop) {
  if (!loop->getRangeInit()->getType()->isArrayType()) return Use::aliases;
  return binding_use(loop->getLoopVariable()->getType(), false);
}

Use declaration_use(const clang::DeclStmt* declaration, const clang::Expr* used, const clang::ParentMap& parents) {
  if (const auto* loop = llvm::dyn_cast_or_null<clang::CXXForRangeStmt>(parents.getParent(declaration));
      loop && loop->getRangeStmt() == declaration)
    return range_use(loop);
  for (const clang::Decl* decl : declaration->decls())
    if (const auto* variable = llvm::dyn_cast<clang::VarDecl>(decl); variable && variable->getInit() == used)
      return binding_use(variable->getType(), false);
  return Use::aliases;
}

// A capture's initializer: a copy reads the variable, an init-capture binds it as a declaration
// would; a capture by reference is the variable itself in the body, whose uses count there.
Use capture_use(const clang::LambdaExpr* lambda, const clang::Expr* used) {
  const clang::LambdaCapture* capture = lambda->capture_begin();
  for (const clang::Expr* init : lambda->capture_inits()) {
    const clang::LambdaCapture& current = *capture++;
    if (init != used) continue;
    const auto* variable =
        current.capturesVariable() ? llvm::dyn_cast<clang::VarDecl>(current.getCapturedVar()) : nullptr;
    return variable && variable->isInitCapture() ? binding_use(variable->getType(), false) : Use::reads;
  }
  return Use::aliases;
}

// An expression standing as a statement (its value discarded): in a block, or a loop's or
// branch's body (their conditions are converted to values before they get here).
bool discards(const clang::Stmt* user) {
  return llvm::isa<clang::CompoundStmt, clang::IfStmt, clang::ForStmt, clang::CXXForRangeStmt, clang::WhileStmt,
                   clang::DoStmt, clang::SwitchStmt, clang::SwitchCase, clang::LabelStmt, clang::AttributedStmt>(user);
}

Use use_by(const clang::Stmt* user, const clang::Expr* used, const clang::ParentMap& parents) {
  // The statement asked about itself, or an operand inside a type (decltype): not evaluated here.
  if (user == nullptr) return Use::reads;
  if (const auto* cast = llvm::dyn_cast<clang::CastExpr>(user)) {
    // Its value taken, or discarded (`(void)x`); any other conversion of the storage may change it.
    const bool reads = cast->getCastKind() == clang::CK_LValueToRValue || cast->getCastKind() == clang::CK_ToVoid;
    return reads ? Use::reads : Use::aliases;
  }
  if (llvm::isa<clang::UnaryExprOrTypeTraitExpr, clang::CXXNoexceptExpr, clang::CXXTypeidExpr>(user))
    return Use::reads;  // sizeof and the like
  if (const auto* member = llvm::dyn_cast<clang::MemberExpr>(user)) return member_use(member);
  if (const auto* op = llvm::dyn_cast<clang::UnaryOperator>(user))
    return op->isIncrementDecrementOp() ? Use::assigns : Use::aliases;
  if (const auto* op = llvm::dyn_cast<clang::BinaryOperator>(user)) {
    if (op->isAssignmentOp() && op->getLHS() == used) return Use::assigns;
    return op->isCommaOp() && op->getLHS() == used ? Use::reads : Use::aliases;  // a comma's left is discarded
  }
  if (const auto* call = llvm::dyn_cast<clang::CXXOperatorCallExpr>(user);
      call && call->isAssignmentOp() && call->getArg(0) == used)
    return Use::assigns;
  if (const auto* call = llvm::dyn_cast<clang::CallExpr>(user)) return argument_use(call, used);
  if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(user)) return construction_use(construct, used);
  if (const auto* declaration = llvm::dyn_cast<clang::DeclStmt>(user))
    return declaration_use(declaration, used, parents);
  if (const auto* lambda = llvm::dyn_cast<clang::LambdaExpr>(user)) return capture_use(lambda, used);
  // Returned by reference, or bound to a reference member (`Ref holder{a}`).
  if (llvm::isa<clang::ReturnStmt, clang::InitListExpr>(user))
    return used->getType().isConstQualified() ? Use::reads_unless_cast : Use::aliases;
  return discards(user) ? Use::reads : Use::aliases;
}

// How the expression around `ref` uses the variable's storage, found where the storage (or the
// part of it that `ref` is the base of) is used as a whole.
Use use_of(const clang::DeclRefExpr* ref, const clang::ParentMap& parents) {
  const clang::Expr* storage = ref;
  bool named = true;
  while (const std::optional<StorageStep> step = step_up(storage, parents)) {
    storage = step->storage;
    named = named && step->named;
  }
  const Use use = use_by(parents.getParent(storage), storage, parents);
  // A write through ?:, a comma or a cast is seen by no assignment that names the variable.
  return use == Use::assigns && !named ? Use::aliases : use;
}

struct ChangeFinder : clang::RecursiveASTVisitor<ChangeFinder> {
  explicit ChangeFinder(const clang::Stmt* statement) : parents(const_cast<clang::Stmt*>(statement)) {}
  clang::ParentMap parents;
  ChangedVariables found;

  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    const clang::VarDecl* variable = referenced_variable(ref);
    if (variable == nullptr) return true;
    const Use use = use_of(ref, parents);
    if (use == Use::assigns) found.assigned.insert(variable);
    if (use == Use::aliases) found.aliased.insert(variable);
    return true;
  }
};

// A variable escapes where a use may change it other than by an assignment naming it, or where
// a lambda that captured it by reference writes it: no assignment in the function names the
// change where the lambda is called.
struct EscapeFinder : clang::RecursiveASTVisitor<EscapeFinder> {
  explicit EscapeFinder(const clang::Stmt* body) : parents(const_cast<clang::Stmt*>(body)) {}
  clang::ParentMap parents;
  std::set<const clang::VarDecl*> escaping;
  std::vector<const clang::LambdaExpr*> lambdas;

  bool TraverseLambdaExpr(clang::LambdaExpr* lambda) {
    lambdas.push_back(lambda);
    const bool result = RecursiveASTVisitor::TraverseLambdaExpr(lambda);
    lambdas.pop_back();
    return result;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr* ref) {
    const clang::VarDecl* variable = referenced_variable(ref);
    if (variable == nullptr) return true;
    const Use use = use_of(ref, parents);
    const bool written_through_capture =
        use == Use::assigns && ref->refersToEnclosingVariableOrCapture() && captured_by_reference(ref->getDecl());
    if (use == Use::reads_unless_cast || use == Use::aliases || written_through_capture) escaping.insert(variable);
    return true;
  }

 private:
  bool captured_by_reference(const clang::ValueDecl* variable) const {
    for (auto it = lambdas.rbegin(); it != lambdas.rend(); ++it)
      for (const clang::LambdaCapture& capture : (*it)->captures())
        if (capture.capturesVariable() && capture.getCapturedVar() == variable)
          return capture.getCaptureKind() == clang::LCK_ByRef;
    return false;
  }
};

}  // namespace

std::set<const clang::VarDecl*> escaping_variables(const clang::Stmt* statement) {
  if (statement == nullptr) return {};
  EscapeFinder finder(statement);
  finder.TraverseStmt(const_cast<clang::Stmt*>(statement));
  return std::move(finder.escaping);
}

ChangedVariables changed_variables(const clang::Stmt* statement) {
  if (statement == nullptr) return {};
  ChangeFinder finder(statement);
  finder.TraverseStmt(const_cast<clang::Stmt*>(statement));
  return std::move(finder.found);
}

}  // namespace carbide::analysis
