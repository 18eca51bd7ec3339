#include "tile/tile_model.hpp"

#include "model/parameters.hpp"
#include "model/vocabulary.hpp"
#include "tile/source_text.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/ADT/StringExtras.h>

#include <algorithm>
#include <functional>
#include <set>

namespace carbide::tile {

using model::vocabulary::TileMethod;
using model::vocabulary::TileOp;
using model::vocabulary::TileRecord;

std::int64_t TileType::size() const {
  std::int64_t n = 1;
  for (std::int64_t e : extents) n *= e;
  return n;
}

std::string TileType::shape_text() const {
  std::string text = "shape<";
  for (std::size_t i = 0; i < extents.size(); ++i) text += (i ? ", " : "") + std::to_string(extents[i]);
  return text + ">";
}

namespace {

const clang::ClassTemplateSpecializationDecl* tile_specialization(clang::QualType type, TileRecord kind) {
  const auto* record = type.getNonReferenceType().getCanonicalType()->getAsCXXRecordDecl();
  const auto* spec = llvm::dyn_cast_or_null<clang::ClassTemplateSpecializationDecl>(record);
  return spec && model::vocabulary::tile_record(spec) == kind ? spec : nullptr;
}

std::optional<std::vector<std::int64_t>> shape_extents(clang::QualType type) {
  const auto* spec = tile_specialization(type, TileRecord::Shape);
  if (spec == nullptr || spec->getTemplateArgs().size() != 1) return std::nullopt;
  const clang::TemplateArgument& pack = spec->getTemplateArgs()[0];
  if (pack.getKind() != clang::TemplateArgument::Pack) return std::nullopt;
  std::vector<std::int64_t> extents;
  for (const clang::TemplateArgument& each : pack.pack_elements())
    if (each.getKind() == clang::TemplateArgument::Integral) extents.push_back(each.getAsIntegral().getExtValue());
  return extents;
}

TileType element_only(clang::QualType element, const clang::ASTContext& context) {
  TileType type;
  type.element = model::spell_type(element.getUnqualifiedType(), context);
  // An incomplete element (a ct::in of a declared-only struct) has no size; Clang reports its use.
  if (!element->isIncompleteType() && !element->isDependentType())
    type.element_bytes = int(context.getTypeSizeInChars(element).getQuantity());
  return type;
}

const clang::Expr* strip(const clang::Expr* expr) {
  while (expr != nullptr) {
    expr = expr->IgnoreParenImpCasts();
    if (const auto* cleanups = llvm::dyn_cast<clang::ExprWithCleanups>(expr)) expr = cleanups->getSubExpr();
    else if (const auto* temporary = llvm::dyn_cast<clang::MaterializeTemporaryExpr>(expr)) expr = temporary->getSubExpr();
    else if (const auto* bind = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(expr)) expr = bind->getSubExpr();
    else if (const auto* construct = llvm::dyn_cast<clang::CXXConstructExpr>(expr);
             construct && construct->getNumArgs() == 1 && construct->getConstructor()->isCopyOrMoveConstructor())
      expr = construct->getArg(0);
    else break;
  }
  return expr;
}

const clang::VarDecl* referenced_variable(const clang::Expr* expr) {
  const auto* ref = llvm::dyn_cast_or_null<clang::DeclRefExpr>(strip(expr));
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

int template_integer(const clang::FunctionDecl* callee, unsigned index) {
  const clang::TemplateArgumentList* arguments = callee ? callee->getTemplateSpecializationArgs() : nullptr;
  if (arguments == nullptr || arguments->size() <= index ||
      arguments->get(index).getKind() != clang::TemplateArgument::Integral)
    return -1;
  return int(arguments->get(index).getAsIntegral().getExtValue());
}

struct PartitionVar {
  std::string input;
  TileType tile;  // the element and the tile shape of its loads
};

// What a helper's parameters stand for while its body is read into the kernel (see inline_call).
struct InlineScope {
  std::map<const clang::VarDecl*, std::string> names;    // tiles, views and locals: their names in the entry
  std::map<const clang::VarDecl*, std::string> scalars;  // scalar parameters: the caller's argument, as text
};

// A function a tile kernel's scalar text may call in device code: the standard library, the C
// math functions and CUDA's (system headers), builtins. The user's own functions are not carried
// into the entry; their constant calls are written as values.
bool carried_to_device(const clang::FunctionDecl* callee, const clang::SourceManager& sources) {
  if (callee == nullptr) return false;
  if (callee->getBuiltinID() != 0 || callee->isInStdNamespace()) return true;
  return sources.isInSystemHeader(sources.getExpansionLoc(callee->getLocation()));
}

class ModelBuilder {
 public:
  ModelBuilder(clang::ASTContext& context, TileKernel& kernel) : context_(context), kernel_(kernel) {}

  void read_parameters() {
    for (const model::Parameter& param : kernel_.kernel->params) {
      const clang::QualType type = param.decl->getType();
      if (param.kind == model::ParamKind::TileOut) {
        if (auto tile = tile_type_of(type, context_)) kernel_.outs[param.name] = *tile;
        else unsupported(param.decl, "'" + param.name + "' is a ct::out whose tile shape is not a ct::shape of constants");
      } else if (param.kind == model::ParamKind::TileIn) {
        const auto* spec = tile_specialization(type, TileRecord::In);
        if (spec == nullptr || spec->getTemplateArgs().size() != 2 ||
            spec->getTemplateArgs()[1].getKind() != clang::TemplateArgument::Integral) {
          unsupported(param.decl, "'" + param.name + "' is a ct::in whose rank is not a constant");
          continue;
        }
        const TileType element = element_only(spec->getTemplateArgs()[0].getAsType(), context_);
        kernel_.ins[param.name] = {element.element, element.element_bytes,
                                   int(spec->getTemplateArgs()[1].getAsIntegral().getExtValue())};
      }
    }
  }

  void read_body(const clang::Stmt* body, std::vector<Statement>& out) {
    std::vector<Statement>* const outer = out_;
    out_ = &out;
    if (const auto* block = llvm::dyn_cast<clang::CompoundStmt>(body)) {
      for (const clang::Stmt* each : block->body()) read_statement(each, out);
    } else {
      read_statement(body, out);
    }
    out_ = outer;
  }

 private:
  template <class Node>
  void unsupported(const Node* where, std::string message) {
    kernel_.problems.push_back({Problem::Kind::Unsupported, where->getBeginLoc(), where->getSourceRange(), std::move(message)});
  }
  void shape_problem(const clang::Expr* where, std::string message) {
    kernel_.problems.push_back({Problem::Kind::Shape, where->getExprLoc(), where->getSourceRange(), std::move(message)});
  }

  std::string text_of(const clang::Stmt* statement) const { return tile::text_of(statement, context_); }

  // The name a variable has in the entry: its own, or, inside a helper, the one its inlining gave it.
  std::string name_of(const clang::VarDecl* var) const {
    for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope)
      if (auto found = scope->names.find(var); found != scope->names.end()) return found->second;
    return var->getNameAsString();
  }
  // A name for a variable declared in a helper's body: unique in the entry ("__": reserved in C++,
  // so no user name is one).
  std::string local_name(const clang::VarDecl* var) {
    if (scopes_.empty()) return var->getNameAsString();
    const std::string name = var->getNameAsString() + "__" + helper_tags_.back();
    scopes_.back().names[var] = name;
    return name;
  }

  // A uniform scalar as C++ the entry can compile: the user's text, with the tile queries in it
  // (`pa.tiles(1)`, `a.extent(0)`) replaced by what the device library computes them with, a
  // helper's names by the entry's, enumerators and a helper's template arguments by their values,
  // and constant calls of the user's functions (which the entry does not have) by their values.
  std::string scalar_text(const clang::Expr* expr) {
    return rewritten_text(expr, context_, [&](const clang::Stmt* s) -> std::optional<std::string> {
      if (const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(s)) return query_replacement(call);
      if (const auto* ref = llvm::dyn_cast<clang::DeclRefExpr>(s)) {
        if (const auto* enumerator = llvm::dyn_cast<clang::EnumConstantDecl>(ref->getDecl()))
          return "(" + llvm::toString(enumerator->getInitVal(), 10) + ")";
        const auto* var = llvm::dyn_cast<clang::VarDecl>(ref->getDecl());
        if (var == nullptr) return std::nullopt;
        for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
          if (auto found = scope->scalars.find(var); found != scope->scalars.end()) return found->second;
          if (auto found = scope->names.find(var); found != scope->names.end()) return found->second;
        }
        return std::nullopt;
      }
      if (const auto* parameter = llvm::dyn_cast<clang::SubstNonTypeTemplateParmExpr>(s); parameter && !scopes_.empty())
        return constant_text(parameter, context_);
      if (const auto* call = llvm::dyn_cast<clang::CallExpr>(s);
          call && !llvm::isa<clang::CXXOperatorCallExpr>(call) &&
          !carried_to_device(call->getDirectCallee(), context_.getSourceManager())) {
        if (auto value = constant_text(call, context_)) return value;
        unsupported(call, "'" + text_of(call) + "' calls a function of this program, which the tile kernel's "
                          "entry does not carry; make it constexpr with constant arguments (its value is then "
                          "computed when translating), or pass its value as a kernel parameter");
      }
      return std::nullopt;
    });
  }

  std::optional<std::string> query_replacement(const clang::CXXMemberCallExpr* call) {
    const auto method = model::vocabulary::tile_method(call->getMethodDecl());
    const clang::VarDecl* object = referenced_variable(call->getImplicitObjectArgument());
    if (!method || object == nullptr || call->getNumArgs() != 1) return std::nullopt;
    const std::string axis = scalar_text(call->getArg(0));
    if (*method == TileMethod::Extent) return name_of(object) + ".extent[" + axis + "]";
    if (*method == TileMethod::Tiles) {
      auto found = partitions_.find(name_of(object));
      if (found == partitions_.end()) return std::nullopt;
      const PartitionVar& partition = found->second;
      std::string extents;
      for (std::size_t i = 0; i < partition.tile.extents.size(); ++i)
        extents += (i ? ", " : "") + std::to_string(partition.tile.extents[i]);
      return "ctd::tile_count<" + extents + ">(" + partition.input + ", " + axis + ")";
    }
    return std::nullopt;
  }

  void read_statement(const clang::Stmt* statement, std::vector<Statement>& out) {
    if (llvm::isa<clang::NullStmt>(statement)) return;
    if (const auto* declarations = llvm::dyn_cast<clang::DeclStmt>(statement)) {
      for (const clang::Decl* decl : declarations->decls()) read_declaration(decl, statement, out);
      return;
    }
    if (const auto* loop = llvm::dyn_cast<clang::CXXForRangeStmt>(statement)) return read_loop(loop, out);
    if (const auto* branch = llvm::dyn_cast<clang::IfStmt>(statement)) return read_constant_branch(branch, out);
    if (llvm::isa<clang::CompoundStmt>(statement)) return read_body(statement, out);
    if (const auto* expr = llvm::dyn_cast<clang::Expr>(statement)) return read_expression_statement(expr, out);
    if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt>(statement))
      return unsupported(statement, "a loop in a tile kernel runs over tiles with 'for (int k : ct::irange(n))'");
    if (llvm::isa<clang::SwitchStmt, clang::ConditionalOperator>(statement))
      return unsupported(statement, "a tile kernel says what the whole tile block does and has no branches; "
                                    "choose between tiles with ct::select");
    unsupported(statement, "a tile kernel says what the whole tile block does, so its statements are "
                           "declarations, assignments of tiles, stores and 'for (int k : ct::irange(n))' "
                           "loops; this statement is none of them");
  }

  // `if constexpr (Causal)`, or any `if` whose condition is a constant (a template argument): the
  // branch it takes is part of the kernel, the other is not.
  void read_constant_branch(const clang::IfStmt* branch, std::vector<Statement>& out) {
    const clang::Expr* condition = branch->getCond();
    bool taken = false;
    if (branch->getInit() != nullptr || branch->getConditionVariable() != nullptr || condition == nullptr ||
        condition->isValueDependent() || !condition->EvaluateAsBooleanCondition(taken, context_))
      return unsupported(branch, "a tile kernel says what the whole tile block does and branches only on "
                                 "constants ('if constexpr (Causal)'); choose between tiles with ct::select");
    if (const clang::Stmt* body = taken ? branch->getThen() : branch->getElse()) read_body(body, out);
  }

  void read_declaration(const clang::Decl* decl, const clang::Stmt* statement, std::vector<Statement>& out) {
    const clang::SourceLocation at = decl->getLocation();
    if (const auto* bindings = llvm::dyn_cast<clang::DecompositionDecl>(decl)) {
      const auto* call = llvm::dyn_cast_or_null<clang::CXXMemberCallExpr>(strip(bindings->getInit()));
      const clang::VarDecl* object = call ? referenced_variable(call->getImplicitObjectArgument()) : nullptr;
      if (object == nullptr || model::vocabulary::tile_method(call->getMethodDecl()) != TileMethod::Coord)
        return unsupported(statement, "a structured binding in a tile kernel takes an out's coordinates: "
                                      "'auto [bm, bn] = c.coord();'");
      Statement coord{StatementKind::Coord, at, name_of(object)};
      for (const clang::BindingDecl* binding : bindings->bindings()) coord.names.push_back(binding->getNameAsString());
      out.push_back(std::move(coord));
      return;
    }
    const auto* var = llvm::dyn_cast<clang::VarDecl>(decl);
    if (var == nullptr) return unsupported(statement, "only variables are declared in a tile kernel");
    if (tile_specialization(var->getType(), TileRecord::InPartition)) return read_partition(var, statement);
    if (auto type = tile_type_of(var->getType(), context_);
        type && tile_specialization(var->getType(), TileRecord::Tile)) {
      if (var->getInit() == nullptr) return unsupported(statement, "a tile is declared with its value: 'auto t = ct::zeros<...>();'");
      const int value = read_expression(var->getInit());
      const std::string name = local_name(var);
      values_.insert(name);
      out.push_back({StatementKind::Let, at, name, {}, value});
      return;
    }
    const clang::QualType type = var->getType();
    if (!type->isArithmeticType() || var->getInit() == nullptr)
      return unsupported(statement, "a tile kernel declares tiles, partitions of its inputs and "
                                    "arithmetic scalars; '" + var->getNameAsString() + "' is none of them");
    const std::string init = scalar_text(var->getInit());
    const std::string name = local_name(var);
    out.push_back({StatementKind::Scalar, at, name, {}, -1,
                   "const " + model::spell_type(type.getUnqualifiedType(), context_) + " " + name + " = " + init + ";"});
  }

  void read_partition(const clang::VarDecl* var, const clang::Stmt* statement) {
    const auto* call = llvm::dyn_cast_or_null<clang::CXXMemberCallExpr>(strip(var->getInit()));
    const clang::VarDecl* input = call ? referenced_variable(call->getImplicitObjectArgument()) : nullptr;
    if (input == nullptr || model::vocabulary::tile_method(call->getMethodDecl()) != TileMethod::Partition ||
        !kernel_.ins.count(name_of(input)))
      return unsupported(statement, "a partition in a tile kernel is one of a ct::in parameter: "
                                    "'auto pa = a.partition(ct::shape<BM, BK>{});'");
    const auto* spec = tile_specialization(var->getType(), TileRecord::InPartition);
    PartitionVar partition{name_of(input), element_only(spec->getTemplateArgs()[0].getAsType(), context_)};
    partition.tile.extents = shape_extents(spec->getTemplateArgs()[2].getAsType()).value_or(std::vector<std::int64_t>{});
    const int rank = kernel_.ins[partition.input].rank;
    if (int(partition.tile.extents.size()) != rank)
      shape_problem(call, "'" + partition.input + "' has rank " + std::to_string(rank) + " but is partitioned into " +
                              partition.tile.shape_text() + " tiles of rank " +
                              std::to_string(partition.tile.extents.size()) + "; give the shape one extent per axis");
    partitions_[local_name(var)] = std::move(partition);
  }

  void read_loop(const clang::CXXForRangeStmt* loop, std::vector<Statement>& out) {
    const clang::Expr* range = strip(loop->getRangeInit());
    const auto* construct = llvm::dyn_cast_or_null<clang::CXXConstructExpr>(range);
    if (const auto* cast = llvm::dyn_cast_or_null<clang::CXXFunctionalCastExpr>(range))
      construct = llvm::dyn_cast<clang::CXXConstructExpr>(strip(cast->getSubExpr()));
    if (construct == nullptr || construct->getNumArgs() != 1 ||
        model::vocabulary::tile_record(construct->getConstructor()->getParent()) != TileRecord::Irange)
      return unsupported(loop, "a loop in a tile kernel runs over tiles with 'for (int k : ct::irange(n))'");
    const std::string count = scalar_text(construct->getArg(0));
    const std::string counter = local_name(loop->getLoopVariable());
    Statement statement{StatementKind::Loop, loop->getBeginLoc(), counter, {}, -1, count};
    read_body(loop->getBody(), statement.body);
    out.push_back(std::move(statement));
  }

  void read_expression_statement(const clang::Expr* expr, std::vector<Statement>& out) {
    expr = strip(expr);
    if (const auto* assign = llvm::dyn_cast<clang::CXXOperatorCallExpr>(expr);
        assign && assign->getOperator() == clang::OO_Equal && assign->getNumArgs() == 2) {
      const clang::VarDecl* target = referenced_variable(assign->getArg(0));
      if (target != nullptr && values_.count(name_of(target))) {
        const int value = read_expression(assign->getArg(1));
        check_same_shape(assign, node_type(value), tile_type_of(target->getType(), context_), "'='");
        out.push_back({StatementKind::Assign, expr->getBeginLoc(), name_of(target), {}, value});
        return;
      }
    }
    if (const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr);
        call && model::vocabulary::tile_method(call->getMethodDecl()) == TileMethod::Store && call->getNumArgs() == 1) {
      const clang::VarDecl* target = referenced_variable(call->getImplicitObjectArgument());
      auto found = target ? kernel_.outs.find(name_of(target)) : kernel_.outs.end();
      if (found != kernel_.outs.end()) {
        const int value = read_expression(call->getArg(0));
        const auto stored = node_type(value);
        if (stored && stored->extents != found->second.extents)
          shape_problem(call, "the tile stored has " + stored->shape_text() + " but '" + found->first +
                                  "' is a tile of " + found->second.shape_text() + "; store a tile of the out's shape");
        out.push_back({StatementKind::Store, expr->getBeginLoc(), found->first, {}, value});
        return;
      }
    }
    unsupported(expr, "this expression's value is lost: a tile kernel's statements assign tiles or "
                      "store them ('c.store(t);')");
  }

  std::optional<TileType> node_type(int index) const { return kernel_.node(index).type; }

  void check_same_shape(const clang::Expr* at, const std::optional<TileType>& a, const std::optional<TileType>& b,
                        const std::string& op) {
    if (a && b && a->extents != b->extents)
      shape_problem(at, "the operands of " + op + " have different shapes: " + a->shape_text() + " and " +
                            b->shape_text() + "; bring them to one shape (ct::bcast, ct::reshape) first");
  }

  int add(Node node) {
    kernel_.nodes.push_back(std::move(node));
    return int(kernel_.nodes.size()) - 1;
  }

  int scalar(const clang::Expr* expr) {
    Node node{NodeKind::Scalar, scalar_text(expr)};
    node.expr = expr;
    return add(std::move(node));
  }

  int read_expression(const clang::Expr* written) {
    const clang::Expr* expr = strip(written);
    std::optional<TileType> type = tile_type_of(expr->getType(), context_);
    if (!type) return scalar(expr);
    if (const clang::VarDecl* var = referenced_variable(expr); var && values_.count(name_of(var))) {
      Node node{NodeKind::Value, name_of(var), type};
      node.expr = expr;
      return add(std::move(node));
    }
    if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr);
        member && model::vocabulary::tile_method(member->getMethodDecl()) == TileMethod::Load)
      return read_partition_load(member, *type);
    const auto* call = llvm::dyn_cast<clang::CallExpr>(expr);
    const clang::FunctionDecl* callee = call ? call->getDirectCallee() : nullptr;
    const model::vocabulary::TileFunction* function = model::vocabulary::tile_function(callee);
    if (function == nullptr && callee != nullptr && !model::vocabulary::is_carbide(callee) && callee->hasBody() &&
        !llvm::isa<clang::CXXMethodDecl>(callee))
      return inline_call(call, callee);
    if (function == nullptr) {
      unsupported(expr, "'" + text_of(expr) + "' makes a tile with something other than the ops of "
                        "<carbide/tile.hpp> and functions over them; the translator lowers only those");
      return add(Node{NodeKind::Value, "", type});
    }
    if (function->op == TileOp::LoadLike) return read_load_like(call, *type);
    Node node{NodeKind::Scalar, callee->getNameAsString(), type};
    node.expr = expr;
    const bool is_operator = llvm::isa<clang::CXXOperatorCallExpr>(call);
    if (is_operator)
      node.name = clang::getOperatorSpelling(llvm::cast<clang::CXXOperatorCallExpr>(call)->getOperator());
    for (const clang::Expr* argument : call->arguments()) node.operands.push_back(read_expression(argument));
    switch (function->op) {
      case TileOp::Arithmetic:
        node.kind = call->getNumArgs() == 1 ? NodeKind::Negate : NodeKind::Arithmetic;
        break;
      case TileOp::Compare: node.kind = NodeKind::Compare; break;
      case TileOp::Logical: node.kind = call->getNumArgs() == 1 ? NodeKind::Negate : NodeKind::Compare; break;
      case TileOp::Negate: node.kind = NodeKind::Negate; break;
      case TileOp::Math: node.kind = NodeKind::Math; break;
      case TileOp::MinMax: node.kind = NodeKind::MinMax; break;
      case TileOp::Fma: node.kind = NodeKind::Fma; break;
      case TileOp::Select: node.kind = NodeKind::Select; break;
      case TileOp::Cast: node.kind = NodeKind::Cast; break;
      case TileOp::Factory:
        node.kind = NodeKind::Factory;
        if (node.name == "iota") node.axis = template_integer(callee, 2);
        break;
      case TileOp::Reduce:
      case TileOp::ArgReduce:
        node.kind = NodeKind::Reduce;
        node.axis = template_integer(callee, 0);
        node.site = kernel_.reduction_sites++;
        break;
      case TileOp::Bcast: node.kind = NodeKind::Bcast; node.axis = template_integer(callee, 0); break;
      case TileOp::Reshape: node.kind = NodeKind::Reshape; break;
      case TileOp::Transpose: node.kind = NodeKind::Transpose; break;
      case TileOp::Mma: node.kind = NodeKind::Mma; break;
      case TileOp::LoadLike:
      case TileOp::Pad:
        break;  // load_like is read above; a padding is an argument of a load alone
    }
    const int index = add(std::move(node));
    check_operand_shapes(index);
    return index;
  }

  // A function of the program over tiles (`gelu(t)`), read into the kernel in place of its call:
  // each tile argument becomes a tile of the entry, each scalar argument's text stands for its
  // parameter, the body's statements join the kernel's before the calling statement, and the
  // returned expression is the call's value. Nothing of the function is carried to the device.
  int inline_call(const clang::CallExpr* call, const clang::FunctionDecl* callee) {
    const std::string name = callee->getNameAsString();
    const auto* body = llvm::dyn_cast_or_null<clang::CompoundStmt>(callee->getBody());
    const auto* last = body && !body->body_empty() ? llvm::dyn_cast<clang::ReturnStmt>(body->body_back()) : nullptr;
    const bool recursive = std::count(callees_.begin(), callees_.end(), callee) > 0;
    if (last == nullptr || last->getRetValue() == nullptr || recursive || out_ == nullptr) {
      unsupported(call, recursive ? "'" + name + "' calls itself; a tile kernel's functions over tiles are read into "
                                    "the kernel, which needs them to end"
                                  : "'" + name + "' makes a tile in a tile kernel; a function over tiles ends with its "
                                    "one 'return', after declarations and assignments of tiles");
      return add(Node{NodeKind::Value, "", tile_type_of(call->getType(), context_)});
    }
    InlineScope scope;
    const std::string tag = name + std::to_string(++inlined_);
    for (unsigned i = 0; i < callee->getNumParams() && i < call->getNumArgs(); ++i) {
      const clang::ParmVarDecl* param = callee->getParamDecl(i);
      const clang::Expr* argument = call->getArg(i);
      if (tile_specialization(param->getType(), TileRecord::Tile)) {
        const int value = read_expression(argument);
        const std::string local = param->getNameAsString() + "__" + tag;
        values_.insert(local);
        out_->push_back({StatementKind::Let, call->getBeginLoc(), local, {}, value});
        scope.names[param] = local;
      } else if (const clang::VarDecl* view = referenced_variable(argument);
                 view && !param->getType().getNonReferenceType()->isArithmeticType()) {
        scope.names[param] = name_of(view);  // an in, out or partition, under the caller's name
      } else {
        scope.scalars[param] = "(" + scalar_text(argument) + ")";
      }
    }
    scopes_.push_back(std::move(scope));
    helper_tags_.push_back(tag);
    callees_.push_back(callee);
    for (const clang::Stmt* each : body->body())
      if (each != last) read_statement(each, *out_);
    const int result = read_expression(last->getRetValue());
    callees_.pop_back();
    helper_tags_.pop_back();
    scopes_.pop_back();
    return result;
  }

  int read_partition_load(const clang::CXXMemberCallExpr* call, const TileType& type) {
    Node node{NodeKind::Load, "load", type};
    node.expr = call;
    const clang::VarDecl* object = referenced_variable(call->getImplicitObjectArgument());
    auto found = object ? partitions_.find(name_of(object)) : partitions_.end();
    if (found == partitions_.end()) {
      unsupported(call, "a tile kernel loads from a partition it declared: 'auto pa = a.partition(ct::shape<BM, BK>{});'");
      return add(std::move(node));
    }
    node.input = found->second.input;
    for (const clang::Expr* argument : call->arguments()) {
      if (tile_specialization(argument->getType(), TileRecord::Padding)) {
        if (auto pad = padding_text(argument)) node.pad = *pad;
        continue;
      }
      node.index.push_back(scalar_text(argument));
    }
    if (int(node.index.size()) != kernel_.ins[node.input].rank && int(found->second.tile.extents.size()) == kernel_.ins[node.input].rank)
      shape_problem(call, "a load from a partition of '" + node.input + "' (rank " +
                              std::to_string(kernel_.ins[node.input].rank) + ") takes one tile coordinate per axis; this one has " +
                              std::to_string(node.index.size()));
    return add(std::move(node));
  }

  // `ct::pad(value)`: the value's text.
  std::optional<std::string> padding_text(const clang::Expr* argument) {
    const auto* pad = llvm::dyn_cast<clang::CallExpr>(strip(argument));
    const auto* function = pad ? model::vocabulary::tile_function(pad->getDirectCallee()) : nullptr;
    if (function && function->op == TileOp::Pad && pad->getNumArgs() == 1) return scalar_text(pad->getArg(0));
    unsupported(argument, "a load's padding is written 'ct::pad(value)'");
    return std::nullopt;
  }

  int read_load_like(const clang::CallExpr* call, const TileType& type) {
    Node node{NodeKind::Load, "load_like", type};
    node.expr = call;
    const clang::VarDecl* input = call->getNumArgs() >= 2 ? referenced_variable(call->getArg(0)) : nullptr;
    const clang::VarDecl* like = call->getNumArgs() >= 2 ? referenced_variable(call->getArg(1)) : nullptr;
    if (input == nullptr || like == nullptr || !kernel_.ins.count(name_of(input)) || !kernel_.outs.count(name_of(like))) {
      unsupported(call, "load_like reads a ct::in parameter at a ct::out parameter's coordinates: 'ct::load_like(x, y)'");
      return add(std::move(node));
    }
    node.input = name_of(input);
    node.like = name_of(like);
    const int rank = kernel_.ins[node.input].rank;
    if (rank != int(type.extents.size()))
      shape_problem(call, "load_like reads '" + node.input + "' (rank " + std::to_string(rank) + ") in tiles of '" +
                              node.like + "', " + type.shape_text() + "; the input and the out need one rank");
    if (call->getNumArgs() == 3)
      if (auto pad = padding_text(call->getArg(2))) node.pad = *pad;
    return add(std::move(node));
  }

  void check_operand_shapes(int index) {
    const Node& node = kernel_.node(index);
    auto operand = [&](std::size_t i) { return i < node.operands.size() ? node_type(node.operands[i]) : std::nullopt; };
    const std::string op = "'" + node.name + "'";
    switch (node.kind) {
      case NodeKind::Arithmetic:
      case NodeKind::Compare:
      case NodeKind::MinMax:
        check_same_shape(node.expr, operand(0), operand(1), op);
        break;
      case NodeKind::Fma:
        check_same_shape(node.expr, operand(0), operand(1), op);
        check_same_shape(node.expr, operand(0), operand(2), op);
        check_same_shape(node.expr, operand(1), operand(2), op);
        break;
      case NodeKind::Select:
        check_same_shape(node.expr, operand(1), operand(2), op);
        check_same_shape(node.expr, operand(0), operand(1), op);
        check_same_shape(node.expr, operand(0), operand(2), op);
        break;
      case NodeKind::Reduce:
        if (auto x = operand(0); x && (node.axis < 0 || node.axis >= int(x->extents.size())))
          shape_problem(node.expr, op + " along axis " + std::to_string(node.axis) + " of a tile of " +
                                       x->shape_text() + ", which has " + std::to_string(x->extents.size()) + " axes");
        break;
      case NodeKind::Bcast:
        if (auto x = operand(0), like = operand(1); x && like) {
          std::vector<std::int64_t> expected = like->extents;
          if (node.axis >= 0 && node.axis < int(expected.size())) expected.erase(expected.begin() + node.axis);
          if (x->extents != expected) {
            TileType wanted = *like;
            wanted.extents = expected;
            shape_problem(node.expr, "bcast<" + std::to_string(node.axis) + "> broadcasts a tile of " +
                                         x->shape_text() + " to " + like->shape_text() + ", which needs " +
                                         wanted.shape_text() + " (the shape without axis " +
                                         std::to_string(node.axis) + ")");
          }
        }
        break;
      case NodeKind::Reshape:
        if (auto x = operand(0); x && x->size() != node.type->size())
          shape_problem(node.expr, "reshape from " + x->shape_text() + " (" + std::to_string(x->size()) +
                                       " elements) to " + node.type->shape_text() + " (" +
                                       std::to_string(node.type->size()) + ") changes the element count");
        break;
      case NodeKind::Mma:
        if (auto a = operand(0), b = operand(1), acc = operand(2); a && b && acc) check_mma_shapes(node, *a, *b, *acc);
        break;
      default:
        break;
    }
  }

  // a · b with acc: shape<M, K> · shape<K, N> + shape<M, N>, or the same under one leading batch axis.
  void check_mma_shapes(const Node& node, const TileType& a, const TileType& b, const TileType& acc) {
    const std::size_t rank = a.extents.size();
    if ((rank != 2 && rank != 3) || b.extents.size() != rank || a.extents[rank - 1] != b.extents[rank - 2])
      return shape_problem(node.expr, "mma multiplies a of " + a.shape_text() + " by b of " + b.shape_text() +
                                          "; a's columns and b's rows (k) must agree");
    if (rank == 3 && a.extents[0] != b.extents[0])
      return shape_problem(node.expr, "mma multiplies a of " + a.shape_text() + " (a batch of " + std::to_string(a.extents[0]) +
                                          ") by b of " + b.shape_text() + " (a batch of " + std::to_string(b.extents[0]) +
                                          "); the batch extents must agree");
    std::vector<std::int64_t> result(a.extents.begin(), a.extents.end() - 1);
    result.push_back(b.extents.back());
    if (acc.extents != result) {
      TileType made = acc;
      made.extents = result;
      shape_problem(node.expr, "mma of a " + a.shape_text() + " by b " + b.shape_text() + " makes " + made.shape_text() +
                                   ", but the accumulator is " + acc.shape_text());
    }
  }

  clang::ASTContext& context_;
  TileKernel& kernel_;
  std::map<std::string, PartitionVar> partitions_;
  std::set<std::string> values_;  // the tile variables, by their names in the entry
  std::vector<Statement>* out_ = nullptr;  // the statements being read, where inlined ones join
  std::vector<InlineScope> scopes_;  // the helpers being read, innermost last
  std::vector<std::string> helper_tags_;
  std::vector<const clang::FunctionDecl*> callees_;
  int inlined_ = 0;
};

}  // namespace

std::optional<TileType> tile_type_of(clang::QualType type, const clang::ASTContext& context) {
  const clang::ClassTemplateSpecializationDecl* spec = tile_specialization(type, TileRecord::Tile);
  if (spec == nullptr) spec = tile_specialization(type, TileRecord::Out);
  if (spec == nullptr || spec->getTemplateArgs().size() != 2) return std::nullopt;
  TileType tile = element_only(spec->getTemplateArgs()[0].getAsType(), context);
  auto extents = shape_extents(spec->getTemplateArgs()[1].getAsType());
  if (!extents) return std::nullopt;
  tile.extents = *extents;
  return tile;
}

TileKernel build_tile_kernel(clang::ASTContext& context, const model::Kernel& kernel) {
  TileKernel tile;
  tile.kernel = &kernel;
  ModelBuilder builder(context, tile);
  builder.read_parameters();
  if (const clang::Stmt* body = kernel.decl->getBody()) builder.read_body(body, tile.body);
  return tile;
}

}  // namespace carbide::tile
