#include "tile/layout_plan.hpp"

#include <algorithm>

namespace carbide::tile {

std::string Layout::text() const {
  switch (kind) {
    case Kind::Blocked: return "L0";
    case Kind::MmaC: return "LM";
    case Kind::GemmAcc: return "LA";
    case Kind::Rows: return "ctd::rows_of<" + parent->text() + ", " + std::to_string(extent) + ">";
    case Kind::Cols: return "ctd::cols_of<" + parent->text() + ", " + std::to_string(extent) + ">";
  }
  return "";
}

bool Layout::operator==(const Layout& other) const {
  if (kind != other.kind || extent != other.extent) return false;
  if (!parent || !other.parent) return parent == other.parent;
  return *parent == *other.parent;
}

bool LayoutPlan::uses(Layout::Kind kind) const {
  const auto within = [&](const Layout& layout) {
    for (const Layout* at = &layout; at != nullptr; at = at->parent.get())
      if (at->kind == kind) return true;
    return false;
  };
  for (const NodeLayout& node : nodes)
    if ((node.layout && within(*node.layout)) || (node.relayout && within(*node.relayout))) return true;
  for (const auto& [name, layout] : variables)
    if (within(layout)) return true;
  return false;
}

namespace {

// What a layout variable is known to be: unknown, or a layout whose parent (rows_of, cols_of) is
// a variable of its own.
struct Term {
  enum class Kind { Unknown, Blocked, MmaC, GemmAcc, Rows, Cols };
  Kind kind = Kind::Unknown;
  int parent = -1;
  std::int64_t extent = 0;
  bool extents_disagree = false;  // two rows_of of one parent over different row lengths met
};

// Layout variables, unified as terms.
class Unifier {
 public:
  int fresh(Term term = Term{}) {
    link_.push_back(int(link_.size()));
    terms_.push_back(term);
    return int(link_.size()) - 1;
  }
  int find(int v) {
    while (link_[std::size_t(v)] != v) v = link_[std::size_t(v)] = link_[std::size_t(link_[std::size_t(v)])];
    return v;
  }
  const Term& term(int v) { return terms_[std::size_t(find(v))]; }

  bool compatible(int a, int b, int depth = 0) {
    a = find(a), b = find(b);
    if (a == b) return true;
    const Term &x = terms_[std::size_t(a)], &y = terms_[std::size_t(b)];
    if (x.kind == Term::Kind::Unknown || y.kind == Term::Kind::Unknown) return true;
    if (x.kind != y.kind || depth > 8) return false;
    if (x.kind == Term::Kind::Rows || x.kind == Term::Kind::Cols) return compatible(x.parent, y.parent, depth + 1);
    return true;
  }
  // Unifies two compatible variables.
  void merge(int a, int b) {
    a = find(a), b = find(b);
    if (a == b) return;
    Term &x = terms_[std::size_t(a)], &y = terms_[std::size_t(b)];
    if (x.kind == Term::Kind::Unknown) {
      link_[std::size_t(a)] = b;
      return;
    }
    if (y.kind != Term::Kind::Unknown && (x.kind == Term::Kind::Rows || x.kind == Term::Kind::Cols)) {
      y.extents_disagree = y.extents_disagree || x.extents_disagree || x.extent != y.extent;
      const int xp = x.parent, yp = y.parent;
      link_[std::size_t(a)] = b;
      merge(xp, yp);
      return;
    }
    link_[std::size_t(b)] = a;
  }

  // The layout a variable ended with: unknown ones are blocked.
  Layout resolve(int v, int depth = 0) {
    const Term term = this->term(v);
    Layout layout;
    switch (term.kind) {
      case Term::Kind::Unknown:
      case Term::Kind::Blocked: layout.kind = Layout::Kind::Blocked; break;
      case Term::Kind::MmaC: layout.kind = Layout::Kind::MmaC; break;
      case Term::Kind::GemmAcc: layout.kind = Layout::Kind::GemmAcc; break;
      case Term::Kind::Rows:
      case Term::Kind::Cols: {
        layout.kind = term.kind == Term::Kind::Rows ? Layout::Kind::Rows : Layout::Kind::Cols;
        layout.parent = std::make_shared<const Layout>(depth > 8 ? Layout{} : resolve(term.parent, depth + 1));
        layout.extent = layout.parent->c_fragment() ? 0 : term.extent;
        break;
      }
    }
    return layout;
  }

 private:
  std::vector<int> link_;
  std::vector<Term> terms_;
};


std::int64_t last_extent(const TileType& type) { return type.extents.empty() ? 1 : type.extents.back(); }
std::int64_t rows_of_matrix(const TileType& type) { return type.size() / last_extent(type); }
// A bcast along `axis` of `like` that spreads a row across a matrix's rows: the second-to-last
// axis, with nothing but unit extents before it.
bool spreads_a_row(const TileType& like, int axis) {
  if (like.extents.size() < 2 || axis != int(like.extents.size()) - 2) return false;
  return std::all_of(like.extents.begin(), like.extents.end() - 2, [](std::int64_t e) { return e == 1; });
}
int compute_bytes(const TileType& type) {
  const bool sixteen_bit = type.element.find("carbide::tile::bf16") != std::string::npos ||
                           type.element.find("carbide::tile::f16") != std::string::npos;
  return sixteen_bit ? 4 : std::max(1, type.element_bytes);
}
std::uint64_t bytes_of(const TileType& type) { return std::uint64_t(type.size()) * std::uint64_t(std::max(1, type.element_bytes)); }

class LayoutWalk {
 public:
  LayoutWalk(const TileKernel& kernel, const std::vector<const Statement*>& skipped)
      : kernel_(kernel), skipped_(skipped), node_lv_(kernel.nodes.size(), -1), plan_nodes_(kernel.nodes.size()) {}

  void fix_variable(const std::string& name, Term::Kind kind) { variable(name, Term{kind}); }

  void statements(const std::vector<Statement>& body) {
    for (const Statement& statement : body) {
      if (std::find(skipped_.begin(), skipped_.end(), &statement) != skipped_.end()) continue;
      switch (statement.kind) {
        case StatementKind::Let: {
          const int value = visit(statement.value);
          if (value >= 0) want(statement.value, variable(statement.name));
          break;
        }
        case StatementKind::Assign:
          if (visit(statement.value) >= 0) want(statement.value, variable(statement.name));
          break;
        case StatementKind::Store: visit(statement.value); break;
        case StatementKind::Loop: statements(statement.body); break;
        case StatementKind::Coord:
        case StatementKind::Scalar: break;
      }
    }
  }

  LayoutPlan finish() {
    LayoutPlan plan;
    plan.nodes = std::move(plan_nodes_);
    for (std::size_t n = 0; n < kernel_.nodes.size(); ++n)
      if (node_lv_[n] >= 0) plan.nodes[n].layout = unifier_.resolve(node_lv_[n]);
    for (const auto& [n, target] : conversions_) {
      const Layout wanted = unifier_.resolve(target);
      if (!(wanted == *plan.nodes[std::size_t(n)].layout)) plan.nodes[std::size_t(n)].relayout = wanted;
    }
    for (const auto& [name, lv] : variables_) plan.variables[name] = unifier_.resolve(lv);
    for (std::size_t n = 0; n < kernel_.nodes.size(); ++n) check(plan, int(n));
    return plan;
  }

 private:
  int variable(const std::string& name, Term term = Term{}) {
    auto found = variables_.find(name);
    if (found == variables_.end()) return variables_[name] = unifier_.fresh(term);
    if (term.kind != Term::Kind::Unknown) unifier_.merge(found->second, unifier_.fresh(term));
    return found->second;
  }

  // The reader of node n takes it in `target`'s layout: one layout for both, or a conversion.
  void want(int n, int target) {
    const int lv = node_lv_[std::size_t(n)];
    if (lv < 0) return;
    if (unifier_.compatible(lv, target)) unifier_.merge(lv, target);
    else conversions_.emplace_back(n, target);
  }

  const Node& node(int n) const { return kernel_.node(n); }

  // The layout variable of node n's value (-1 for a scalar), after its operands'.
  int visit(int n) {
    const Node& at = node(n);
    if (!at.type) return -1;
    int& lv = node_lv_[std::size_t(n)];
    switch (at.kind) {
      case NodeKind::Value: lv = variable(at.name); break;
      case NodeKind::Load:
      case NodeKind::Factory:
      case NodeKind::Scalar: lv = unifier_.fresh(); break;
      case NodeKind::Arithmetic:
      case NodeKind::Compare:
      case NodeKind::Negate:
      case NodeKind::Math:
      case NodeKind::MinMax:
      case NodeKind::Fma:
      case NodeKind::Select:
      case NodeKind::Cast:
        lv = unifier_.fresh();
        for (int operand : at.operands)
          if (visit(operand) >= 0) want(operand, lv);
        break;
      case NodeKind::Reduce: visit_reduce(n); break;
      case NodeKind::Bcast: visit_bcast(n); break;
      case NodeKind::Reshape: {
        const int x = visit(at.operands[0]);
        const TileType& from = *node(at.operands[0]).type;
        const Term::Kind kind = unifier_.term(x).kind;
        const bool same_matrix = last_extent(from) == last_extent(*at.type);
        lv = same_matrix || kind == Term::Kind::Rows || kind == Term::Kind::Cols ? x : unifier_.fresh();
        break;
      }
      case NodeKind::Transpose:
        visit(at.operands[0]);
        lv = unifier_.fresh();
        plan_nodes_[std::size_t(n)].across = true;
        break;
      case NodeKind::Mma: visit_mma(n); break;
    }
    return lv;
  }

  // Along the last axis of a tile (not itself a row vector): in registers, into rows_of its layout.
  // Along any other axis: through shared memory, into whatever layout its reader wants.
  void visit_reduce(int n) {
    const Node& at = node(n);
    const int x = visit(at.operands[0]);
    const TileType& from = *node(at.operands[0]).type;
    const Term::Kind kind = unifier_.term(x).kind;
    if (at.axis == int(from.extents.size()) - 1 && kind != Term::Kind::Rows && kind != Term::Kind::Cols) {
      node_lv_[std::size_t(n)] = unifier_.fresh(Term{Term::Kind::Rows, x, last_extent(from)});
    } else {
      node_lv_[std::size_t(n)] = unifier_.fresh();
      plan_nodes_[std::size_t(n)].across = true;
    }
  }

  // The result has like's layout. In registers when x is like's rows (bcast along the last axis)
  // or like's columns (a row spread across a matrix's rows); x is converted to that where it is
  // in another layout. Other axes go through shared memory.
  void visit_bcast(int n) {
    const Node& at = node(n);
    visit(at.operands[0]);
    const int like = visit(at.operands[1]);
    const TileType& target = *node(at.operands[1]).type;
    node_lv_[std::size_t(n)] = like;
    if (at.axis == int(target.extents.size()) - 1)
      want(at.operands[0], unifier_.fresh(Term{Term::Kind::Rows, like, last_extent(target)}));
    else if (spreads_a_row(target, at.axis))
      want(at.operands[0], unifier_.fresh(Term{Term::Kind::Cols, like, rows_of_matrix(target)}));
    else
      plan_nodes_[std::size_t(n)].across = true;
  }

  // The result and the accumulator it reads are C fragments; a and b are staged from any layout,
  // and b = transpose(x) is x read in place.
  void visit_mma(int n) {
    const Node& at = node(n);
    visit(at.operands[0]);
    const Node& b = node(at.operands[1]);
    if (b.kind == NodeKind::Transpose) {
      visit(b.operands[0]);
      plan_nodes_[std::size_t(at.operands[1])].transposed_operand = true;
    } else {
      visit(at.operands[1]);
    }
    node_lv_[std::size_t(n)] = unifier_.fresh(Term{Term::Kind::MmaC});
    if (visit(at.operands[2]) >= 0) want(at.operands[2], node_lv_[std::size_t(n)]);
  }

  void problem(LayoutPlan& plan, int n, std::string message) const {
    const Node& at = node(n);
    plan.problems.push_back({Problem::Kind::Lowering, at.expr ? at.expr->getExprLoc() : clang::SourceLocation{},
                             at.expr ? at.expr->getSourceRange() : clang::SourceRange{}, std::move(message)});
  }

  // What the device library cannot take, and the shared bytes each exchange needs.
  void check(LayoutPlan& plan, int n) {
    const Node& at = node(n);
    NodeLayout& mine = plan.nodes[std::size_t(n)];
    if (!at.type || node_lv_[std::size_t(n)] < 0) return;
    auto grow = [&](std::uint64_t bytes) { plan.scratch_bytes = std::max(plan.scratch_bytes, bytes); };
    if (mine.relayout) grow(bytes_of(*at.type));
    const Term& term = unifier_.term(node_lv_[std::size_t(n)]);
    if (term.extents_disagree && mine.layout->vector() && !mine.layout->parent->c_fragment())
      problem(plan, n, "this row vector is read against tiles of different row lengths; the lowering keeps a "
                       "row vector in the layout of one of them, so give them one length");
    switch (at.kind) {
      case NodeKind::Reduce: {
        const Node& x = node(at.operands[0]);
        const Layout& from = *plan.nodes[std::size_t(at.operands[0])].layout;
        if (mine.across) grow(std::uint64_t(x.type->size()) * compute_bytes(*x.type));
        else if (from.vector())
          problem(plan, n, "a reduction of this row vector would need its rows' layout to hold whole rows; "
                           "reshape it to the tile it came from first");
        break;
      }
      case NodeKind::Bcast:
        if (mine.across) grow(bytes_of(*node(at.operands[0]).type));
        break;
      case NodeKind::Reshape: {
        const Layout& from = plan.nodes[std::size_t(at.operands[0])].relayout.value_or(*plan.nodes[std::size_t(at.operands[0])].layout);
        const bool registers = from == *mine.layout &&
                               (from.kind == Layout::Kind::Blocked || from.vector() ||
                                last_extent(*node(at.operands[0]).type) == last_extent(*at.type));
        mine.across = !registers;
        if (mine.across) grow(bytes_of(*at.type));
        break;
      }
      case NodeKind::Transpose:
        if (!mine.transposed_operand) grow(bytes_of(*at.type));
        break;
      case NodeKind::Mma: {
        const TileType& a = *node(at.operands[0]).type;
        const TileType& b = *node(at.operands[1]).type;  // as read: a transposed one's shape is k × n too
        const Layout& a_layout = plan.nodes[std::size_t(at.operands[0])].relayout.value_or(*plan.nodes[std::size_t(at.operands[0])].layout);
        const std::uint64_t a_bytes = a_layout.kind == Layout::Kind::MmaC ? 0 : (bytes_of(a) + 127) / 128 * 128;
        grow(a_bytes + bytes_of(b));
        break;
      }
      default:
        break;
    }
  }

  const TileKernel& kernel_;
  const std::vector<const Statement*>& skipped_;
  Unifier unifier_;
  std::vector<int> node_lv_;
  std::vector<NodeLayout> plan_nodes_;
  std::map<std::string, int> variables_;
  std::vector<std::pair<int, int>> conversions_;
};

}  // namespace

LayoutPlan plan_layouts(const TileKernel& kernel, const std::string& gemm_accumulator,
                        const std::vector<const Statement*>& skipped) {
  LayoutWalk walk(kernel, skipped);
  if (!gemm_accumulator.empty()) walk.fix_variable(gemm_accumulator, Term::Kind::GemmAcc);
  walk.statements(kernel.body);
  return walk.finish();
}

}  // namespace carbide::tile
