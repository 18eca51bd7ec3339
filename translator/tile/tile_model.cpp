#include "tile/tile_model.hpp"

#include "model/parameters.hpp"
#include "model/vocabulary.hpp"

#include <clang/AST/DeclCXX.h>
#include <clang/AST/DeclTemplate.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/StmtCXX.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

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
      } else if (param.kind == model::ParamKind::Scalar) {
        scalars_.insert(param.name);
      }
    }
  }

  void read_body(const clang::Stmt* body, std::vector<Statement>& out) {
    if (const auto* block = llvm::dyn_cast<clang::CompoundStmt>(body)) {
      for (const clang::Stmt* each : block->body()) read_statement(each, out);
      return;
    }
    read_statement(body, out);
  }

 private:
  template <class Node>
  void unsupported(const Node* where, std::string message) {
    kernel_.problems.push_back({Problem::Kind::Unsupported, where->getBeginLoc(), where->getSourceRange(), std::move(message)});
  }
  void shape_problem(const clang::Expr* where, std::string message) {
    kernel_.problems.push_back({Problem::Kind::Shape, where->getExprLoc(), where->getSourceRange(), std::move(message)});
  }

  std::string text_of(const clang::Stmt* statement) const {
    const clang::SourceManager& sources = context_.getSourceManager();
    const clang::CharSourceRange range = clang::CharSourceRange::getTokenRange(
        sources.getExpansionRange(statement->getSourceRange()).getAsRange());
    return clang::Lexer::getSourceText(range, sources, context_.getLangOpts()).str();
  }

  // A uniform scalar as C++ the entry can compile: the user's text, with the tile queries in it
  // (`pa.tiles(1)`, `a.extent(0)`) replaced by what the device library computes them with.
  std::string scalar_text(const clang::Expr* expr) {
    struct Query {
      const clang::CXXMemberCallExpr* call;
      std::string replacement;
    };
    std::vector<Query> queries;
    std::function<void(const clang::Stmt*)> visit = [&](const clang::Stmt* s) {
      if (s == nullptr) return;
      if (const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(s))
        if (auto replacement = query_replacement(call)) {
          queries.push_back({call, *replacement});
          return;
        }
      for (const clang::Stmt* child : s->children()) visit(child);
    };
    visit(expr);
    std::string text = text_of(expr);
    if (queries.empty()) return text;
    const clang::SourceManager& sources = context_.getSourceManager();
    const unsigned base = sources.getFileOffset(sources.getExpansionLoc(expr->getBeginLoc()));
    std::sort(queries.begin(), queries.end(), [&](const Query& a, const Query& b) {
      return sources.getFileOffset(sources.getExpansionLoc(a.call->getBeginLoc())) >
             sources.getFileOffset(sources.getExpansionLoc(b.call->getBeginLoc()));
    });
    for (const Query& query : queries) {
      const unsigned begin = sources.getFileOffset(sources.getExpansionLoc(query.call->getBeginLoc())) - base;
      const std::size_t length = text_of(query.call).size();
      if (begin + length <= text.size()) text.replace(begin, length, query.replacement);
    }
    return text;
  }

  std::optional<std::string> query_replacement(const clang::CXXMemberCallExpr* call) {
    const auto method = model::vocabulary::tile_method(call->getMethodDecl());
    const clang::VarDecl* object = referenced_variable(call->getImplicitObjectArgument());
    if (!method || object == nullptr || call->getNumArgs() != 1) return std::nullopt;
    const std::string axis = text_of(call->getArg(0));
    if (*method == TileMethod::Extent) return object->getNameAsString() + ".extent[" + axis + "]";
    if (*method == TileMethod::Tiles) {
      auto found = partitions_.find(object->getNameAsString());
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
    if (const auto* expr = llvm::dyn_cast<clang::Expr>(statement)) return read_expression_statement(expr, out);
    if (llvm::isa<clang::ForStmt, clang::WhileStmt, clang::DoStmt>(statement))
      return unsupported(statement, "a loop in a tile kernel runs over tiles with 'for (int k : ct::irange(n))'");
    if (llvm::isa<clang::IfStmt, clang::SwitchStmt, clang::ConditionalOperator>(statement))
      return unsupported(statement, "a tile kernel says what the whole tile block does and has no branches; "
                                    "choose between tiles with ct::select");
    unsupported(statement, "a tile kernel says what the whole tile block does, so its statements are "
                           "declarations, assignments of tiles, stores and 'for (int k : ct::irange(n))' "
                           "loops; this statement is none of them");
  }

  void read_declaration(const clang::Decl* decl, const clang::Stmt* statement, std::vector<Statement>& out) {
    const clang::SourceLocation at = decl->getLocation();
    if (const auto* bindings = llvm::dyn_cast<clang::DecompositionDecl>(decl)) {
      const auto* call = llvm::dyn_cast_or_null<clang::CXXMemberCallExpr>(strip(bindings->getInit()));
      const clang::VarDecl* object = call ? referenced_variable(call->getImplicitObjectArgument()) : nullptr;
      if (object == nullptr || model::vocabulary::tile_method(call->getMethodDecl()) != TileMethod::Coord)
        return unsupported(statement, "a structured binding in a tile kernel takes an out's coordinates: "
                                      "'auto [bm, bn] = c.coord();'");
      Statement coord{StatementKind::Coord, at, object->getNameAsString()};
      for (const clang::BindingDecl* binding : bindings->bindings()) {
        coord.names.push_back(binding->getNameAsString());
        scalars_.insert(binding->getNameAsString());
      }
      out.push_back(std::move(coord));
      return;
    }
    const auto* var = llvm::dyn_cast<clang::VarDecl>(decl);
    if (var == nullptr) return unsupported(statement, "only variables are declared in a tile kernel");
    const std::string name = var->getNameAsString();
    if (tile_specialization(var->getType(), TileRecord::InPartition)) return read_partition(var, statement);
    if (auto type = tile_type_of(var->getType(), context_);
        type && tile_specialization(var->getType(), TileRecord::Tile)) {
      if (var->getInit() == nullptr) return unsupported(statement, "a tile is declared with its value: 'auto t = ct::zeros<...>();'");
      const int value = read_expression(var->getInit());
      values_.insert(name);
      out.push_back({StatementKind::Let, at, name, {}, value});
      return;
    }
    const clang::QualType type = var->getType();
    if (!type->isArithmeticType() || var->getInit() == nullptr)
      return unsupported(statement, "a tile kernel declares tiles, partitions of its inputs and "
                                    "arithmetic scalars; '" + name + "' is none of them");
    scalars_.insert(name);
    out.push_back({StatementKind::Scalar, at, name, {}, -1,
                   "const " + model::spell_type(type.getUnqualifiedType(), context_) + " " + name + " = " +
                       scalar_text(var->getInit()) + ";"});
  }

  void read_partition(const clang::VarDecl* var, const clang::Stmt* statement) {
    const auto* call = llvm::dyn_cast_or_null<clang::CXXMemberCallExpr>(strip(var->getInit()));
    const clang::VarDecl* input = call ? referenced_variable(call->getImplicitObjectArgument()) : nullptr;
    if (input == nullptr || model::vocabulary::tile_method(call->getMethodDecl()) != TileMethod::Partition ||
        !kernel_.ins.count(input->getNameAsString()))
      return unsupported(statement, "a partition in a tile kernel is one of a ct::in parameter: "
                                    "'auto pa = a.partition(ct::shape<BM, BK>{});'");
    const auto* spec = tile_specialization(var->getType(), TileRecord::InPartition);
    PartitionVar partition{input->getNameAsString(), element_only(spec->getTemplateArgs()[0].getAsType(), context_)};
    partition.tile.extents = shape_extents(spec->getTemplateArgs()[2].getAsType()).value_or(std::vector<std::int64_t>{});
    const int rank = kernel_.ins[partition.input].rank;
    if (int(partition.tile.extents.size()) != rank)
      shape_problem(call, "'" + partition.input + "' has rank " + std::to_string(rank) + " but is partitioned into " +
                              partition.tile.shape_text() + " tiles of rank " +
                              std::to_string(partition.tile.extents.size()) + "; give the shape one extent per axis");
    partitions_[var->getNameAsString()] = std::move(partition);
  }

  void read_loop(const clang::CXXForRangeStmt* loop, std::vector<Statement>& out) {
    const clang::Expr* range = strip(loop->getRangeInit());
    const auto* construct = llvm::dyn_cast_or_null<clang::CXXConstructExpr>(range);
    if (const auto* cast = llvm::dyn_cast_or_null<clang::CXXFunctionalCastExpr>(range))
      construct = llvm::dyn_cast<clang::CXXConstructExpr>(strip(cast->getSubExpr()));
    if (construct == nullptr || construct->getNumArgs() != 1 ||
        model::vocabulary::tile_record(construct->getConstructor()->getParent()) != TileRecord::Irange)
      return unsupported(loop, "a loop in a tile kernel runs over tiles with 'for (int k : ct::irange(n))'");
    const std::string counter = loop->getLoopVariable()->getNameAsString();
    scalars_.insert(counter);
    Statement statement{StatementKind::Loop, loop->getBeginLoc(), counter, {}, -1, scalar_text(construct->getArg(0))};
    read_body(loop->getBody(), statement.body);
    out.push_back(std::move(statement));
  }

  void read_expression_statement(const clang::Expr* expr, std::vector<Statement>& out) {
    expr = strip(expr);
    if (const auto* assign = llvm::dyn_cast<clang::CXXOperatorCallExpr>(expr);
        assign && assign->getOperator() == clang::OO_Equal && assign->getNumArgs() == 2) {
      const clang::VarDecl* target = referenced_variable(assign->getArg(0));
      if (target != nullptr && values_.count(target->getNameAsString())) {
        const int value = read_expression(assign->getArg(1));
        check_same_shape(assign, node_type(value), tile_type_of(target->getType(), context_), "'='");
        out.push_back({StatementKind::Assign, expr->getBeginLoc(), target->getNameAsString(), {}, value});
        return;
      }
    }
    if (const auto* call = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr);
        call && model::vocabulary::tile_method(call->getMethodDecl()) == TileMethod::Store && call->getNumArgs() == 1) {
      const clang::VarDecl* target = referenced_variable(call->getImplicitObjectArgument());
      auto found = target ? kernel_.outs.find(target->getNameAsString()) : kernel_.outs.end();
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
    if (const clang::VarDecl* var = referenced_variable(expr); var && values_.count(var->getNameAsString())) {
      Node node{NodeKind::Value, var->getNameAsString(), type};
      node.expr = expr;
      return add(std::move(node));
    }
    if (const auto* member = llvm::dyn_cast<clang::CXXMemberCallExpr>(expr);
        member && model::vocabulary::tile_method(member->getMethodDecl()) == TileMethod::Load)
      return read_partition_load(member, *type);
    const auto* call = llvm::dyn_cast<clang::CallExpr>(expr);
    const clang::FunctionDecl* callee = call ? call->getDirectCallee() : nullptr;
    const model::vocabulary::TileFunction* function = model::vocabulary::tile_function(callee);
    if (function == nullptr) {
      unsupported(expr, "'" + text_of(expr) + "' makes a tile with something other than the ops of "
                        "<carbide/tile.hpp>; the translator lowers only those");
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
      case TileOp::Negate: node.kind = NodeKind::Negate; break;
      case TileOp::Math: node.kind = NodeKind::Math; break;
      case TileOp::MinMax: node.kind = NodeKind::MinMax; break;
      case TileOp::Fma: node.kind = NodeKind::Fma; break;
      case TileOp::Select: node.kind = NodeKind::Select; break;
      case TileOp::Cast: node.kind = NodeKind::Cast; break;
      case TileOp::Factory: node.kind = NodeKind::Factory; break;
      case TileOp::Reduce:
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
        break;  // load_like is read above; a padding is an argument of load_like alone
    }
    const int index = add(std::move(node));
    check_operand_shapes(index);
    return index;
  }

  int read_partition_load(const clang::CXXMemberCallExpr* call, const TileType& type) {
    Node node{NodeKind::Load, "load", type};
    node.expr = call;
    const clang::VarDecl* object = referenced_variable(call->getImplicitObjectArgument());
    auto found = object ? partitions_.find(object->getNameAsString()) : partitions_.end();
    if (found == partitions_.end()) {
      unsupported(call, "a tile kernel loads from a partition it declared: 'auto pa = a.partition(ct::shape<BM, BK>{});'");
      return add(std::move(node));
    }
    node.input = found->second.input;
    for (const clang::Expr* argument : call->arguments()) node.index.push_back(scalar_text(argument));
    return add(std::move(node));
  }

  int read_load_like(const clang::CallExpr* call, const TileType& type) {
    Node node{NodeKind::Load, "load_like", type};
    node.expr = call;
    const clang::VarDecl* input = call->getNumArgs() >= 2 ? referenced_variable(call->getArg(0)) : nullptr;
    const clang::VarDecl* like = call->getNumArgs() >= 2 ? referenced_variable(call->getArg(1)) : nullptr;
    if (input == nullptr || like == nullptr || !kernel_.ins.count(input->getNameAsString()) ||
        !kernel_.outs.count(like->getNameAsString())) {
      unsupported(call, "load_like reads a ct::in parameter at a ct::out parameter's coordinates: 'ct::load_like(x, y)'");
      return add(std::move(node));
    }
    node.input = input->getNameAsString();
    node.like = like->getNameAsString();
    const int rank = kernel_.ins[node.input].rank;
    if (rank != int(type.extents.size()))
      shape_problem(call, "load_like reads '" + node.input + "' (rank " + std::to_string(rank) + ") in tiles of '" +
                              node.like + "', " + type.shape_text() + "; the input and the out need one rank");
    if (call->getNumArgs() == 3) {
      const auto* pad = llvm::dyn_cast<clang::CallExpr>(strip(call->getArg(2)));
      const auto* function = pad ? model::vocabulary::tile_function(pad->getDirectCallee()) : nullptr;
      if (function && function->op == TileOp::Pad && pad->getNumArgs() == 1) node.pad = scalar_text(pad->getArg(0));
      else unsupported(call->getArg(2), "the padding of load_like is written 'ct::pad(value)'");
    }
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
        break;
      case NodeKind::Select:
        check_same_shape(node.expr, operand(1), operand(2), op);
        check_same_shape(node.expr, operand(0), operand(1), op);
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
        if (auto a = operand(0), b = operand(1), acc = operand(2); a && b && acc) {
          if (a->extents.size() != 2 || b->extents.size() != 2 || a->extents[1] != b->extents[0])
            shape_problem(node.expr, "mma multiplies a of " + a->shape_text() + " by b of " + b->shape_text() +
                                         "; a's columns and b's rows (k) must agree");
          else if (acc->extents != std::vector<std::int64_t>{a->extents[0], b->extents[1]})
            shape_problem(node.expr, "mma of a " + a->shape_text() + " by b " + b->shape_text() + " makes shape<" +
                                         std::to_string(a->extents[0]) + ", " + std::to_string(b->extents[1]) +
                                         ">, but the accumulator is " + acc->shape_text());
        }
        break;
      default:
        break;
    }
  }

  clang::ASTContext& context_;
  TileKernel& kernel_;
  std::map<std::string, PartitionVar> partitions_;
  std::set<std::string> values_;   // the tile variables
  std::set<std::string> scalars_;  // scalar parameters, coordinates, counters, scalar locals
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
