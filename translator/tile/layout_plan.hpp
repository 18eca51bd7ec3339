// Layout assignment: the register layout of every tile value of a kernel, and where a value must
// change layout on its way to the op that reads it (docs/tile-lowering.md, "Layouts").
//
// Like type inference: each value's layout is a variable; ops relate them (an elementwise op's
// operands and result share one; an mma's result is a C fragment layout and so is the
// accumulator it reads; a reduction along the last axis leaves rows_of its operand's layout, and
// bcast along it wants rows_of its target's; a variable has one layout however often it is
// assigned). Unifying those relations in the kernel's order gives each value the layout its
// neighbours need; where two needs disagree, the value is converted through shared memory on the
// edge that met the disagreement, and what nothing constrains is blocked. Loads and factories take
// whatever layout their readers want, so a bias row read by a GEMM epilogue is loaded straight
// into the accumulator's columns.
#pragma once

#include "tile/tile_model.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace carbide::tile {

struct Layout {
  enum class Kind {
    Blocked,  // ctd::blocked<threads, vector>, named L0 in the entry
    MmaC,     // ctd::mma_c<warps, 1>: the result of an mma in the body, LM
    GemmAcc,  // the GEMM plan's accumulator (sm80::acc<P0> or sm90::acc<P0>), LA
    Rows,     // ctd::rows_of<parent, extent>: a row vector in the parent's rows
    Cols,     // ctd::cols_of<parent, extent>: a row vector spread over the parent's columns
  };
  Kind kind = Kind::Blocked;
  std::shared_ptr<const Layout> parent;  // Rows, Cols
  std::int64_t extent = 0;               // Rows: the parent's last extent; Cols: its rows (0 for C fragments)

  bool c_fragment() const { return kind == Kind::MmaC || kind == Kind::GemmAcc; }
  bool vector() const { return kind == Kind::Rows || kind == Kind::Cols; }
  std::string text() const;  // as the entry names it: "L0", "ctd::rows_of<LM, 0>"
  bool operator==(const Layout& other) const;
};

struct NodeLayout {
  std::optional<Layout> layout;    // the value's own
  std::optional<Layout> relayout;  // the layout its reader takes it in, where that differs
  bool across = false;             // Reduce, Bcast, Reshape: through shared memory, not in registers
  bool transposed_operand = false;  // a Transpose that an mma reads as its b, in place
};

struct LayoutPlan {
  std::vector<NodeLayout> nodes;               // by node index
  std::map<std::string, Layout> variables;     // each tile variable's
  std::uint64_t scratch_bytes = 0;             // the most any exchange through shared memory needs
  std::vector<Problem> problems;
  bool uses(Layout::Kind kind) const;
};

// `gemm_accumulator`: the variable a GEMM plan's main loop makes (its statements `skipped`:
// the accumulator's declaration and the k-loop, which the main loop replaces), or empty.
LayoutPlan plan_layouts(const TileKernel& kernel, const std::string& gemm_accumulator,
                        const std::vector<const Statement*>& skipped);

}  // namespace carbide::tile
