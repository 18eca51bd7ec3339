// The tile model: what one CARBIDE_TILE_KERNEL instance does, as statements over named tile
// values with static shapes, read from the instantiated AST. The planner chooses how to run it and
// the emitter prints it; the model itself only records and checks. Shapes come from the Clang
// types that <carbide/tile.hpp> gives each op's result, so a mismatch is found here, at the op,
// and reported by carbide-tile-shape naming both shapes.
#pragma once

#include "model/module_model.hpp"

#include <clang/AST/ASTContext.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace carbide::tile {

// An element type and a static shape: `float` × shape<1, 1024>.
struct TileType {
  std::string element;                // as C++ names it anywhere: "float", "::carbide::tile::bf16"
  int element_bytes = 0;
  std::vector<std::int64_t> extents;  // outermost first
  std::int64_t size() const;
  std::int64_t last() const { return extents.empty() ? 1 : extents.back(); }
  std::string shape_text() const;     // "shape<1, 1024>"
  bool operator==(const TileType&) const = default;
};

enum class NodeKind {
  Value,       // a named tile value
  Scalar,      // a uniform scalar, as C++ text
  Load,        // a partition's load or load_like
  Factory,     // zeros, full, iota
  Arithmetic,  // + - * /
  Compare,
  Negate,
  Math,        // exp, log, ...
  MinMax,
  Fma,
  Select,
  Cast,
  Reduce,
  Bcast,
  Reshape,
  Transpose,
  Mma,
};

struct Node {
  NodeKind kind = NodeKind::Scalar;
  std::string name;              // the op ("+", "exp", "reduce_sum", "zeros"), value or scalar text
  std::optional<TileType> type;  // none for a scalar
  std::vector<int> operands;     // node indices
  int axis = -1;                 // Reduce, Bcast
  int site = -1;                 // Reduce: numbered in the kernel, for its shared scratch
  std::string input;             // Load: the ct::in parameter read
  std::vector<std::string> index;  // Load: tile coordinates as C++ text; empty for load_like
  std::string like;              // load_like: the ct::out parameter whose coordinates it takes
  std::string pad;               // Load: the padding value's text; empty for zero
  const clang::Expr* expr = nullptr;
};

enum class StatementKind {
  Coord,   // auto [bm, bn] = c.coord();
  Scalar,  // a scalar declaration, as C++ text
  Let,     // auto t = <tile expression>;
  Assign,  // t = <tile expression>;
  Store,   // c.store(<tile expression>);
  Loop,    // for (int k : ct::irange(n)) { ... }
};

struct Statement {
  StatementKind kind = StatementKind::Scalar;
  clang::SourceLocation at;
  std::string name;                // Let/Assign: the value; Store/Coord: the out; Loop: the counter
  std::vector<std::string> names;  // Coord: the bound names
  int value = -1;                  // Let/Assign/Store: the expression's root node
  std::string text;                // Scalar: the declaration; Loop: the trip count
  std::vector<Statement> body;     // Loop
};

struct Problem {
  // Shape: carbide-tile-shape. Unsupported: what a tile kernel cannot say (carbide-device-unsupported).
  // Lowering: what it may say but the lowering for the translation's targets cannot take
  // (carbide-tile-lowering), found by the planner.
  enum class Kind { Shape, Unsupported, Lowering };
  Kind kind;
  clang::SourceLocation at;
  clang::SourceRange range;
  std::string message;
};

struct InputParam {
  std::string element;
  int element_bytes = 0;
  int rank = 0;
};

struct TileKernel {
  const model::Kernel* kernel = nullptr;
  std::vector<Node> nodes;
  std::vector<Statement> body;
  std::vector<Problem> problems;
  std::map<std::string, TileType> outs;   // each ct::out parameter: element and tile shape
  std::map<std::string, InputParam> ins;  // each ct::in parameter
  int reduction_sites = 0;
  const Node& node(int index) const { return nodes[std::size_t(index)]; }
};

TileKernel build_tile_kernel(clang::ASTContext& context, const model::Kernel& kernel);

// The element and static shape of a ct::tile / ct::out type; none for any other type.
std::optional<TileType> tile_type_of(clang::QualType type, const clang::ASTContext& context);

}  // namespace carbide::tile
