// A device function's clang::CFG as a graph of evaluation steps, one node for each CFG element
// and one for each block's terminator, with the barriers marked: the ground the barrier phases
// stand on. Every way control can go is an edge here (if, loops, switch, goto, break, continue,
// return, ?:, && and ||), and every call the function makes is a node, implicit ones included
// (constructors, destructors, default arguments and member initializers), so no statement kind
// is a special case.
//
// What may run between two barriers is a question of barrier-free paths: a node is reachable
// from another when some path leads there without passing a barrier. A loop whose first test
// provably passes (runs_at_least_once) enters its body directly the first time: its header is
// given a copy that only the ways in from outside the loop reach, and which leads to the body
// alone, so that the code before the loop does not flow past it.
#pragma once

#include <clang/Analysis/CFG.h>
#include <llvm/ADT/BitVector.h>

#include <functional>
#include <map>
#include <vector>

namespace carbide::analysis {

class BarrierFlow {
 public:
  struct Node {
    const clang::CFGBlock* block = nullptr;
    const clang::Stmt* statement = nullptr;  // the element's statement; null for a terminator or
                                             // an implicit destructor
    const clang::CFGElement* element = nullptr;  // null for a terminator
    bool barrier = false;
    bool first_entry_copy = false;  // a node of a header's copy (see above)
    std::vector<unsigned> successors, predecessors;
  };

  // `is_barrier` says which elements are barriers, and which blocks' terminators count as one
  // (element null); `enters_body_first` which loop headers (the blocks whose terminator is the
  // loop) may skip the first test.
  using BarrierTest = std::function<bool(const clang::CFGBlock& block, const clang::CFGElement* element)>;
  BarrierFlow(const clang::CFG& cfg, const BarrierTest& is_barrier,
              const std::function<bool(const clang::Stmt* loop)>& enters_body_first);

  const std::vector<Node>& nodes() const { return nodes_; }
  // The nodes a statement of the CFG is evaluated at (more than one where a header was copied).
  std::vector<unsigned> nodes_of(const clang::Stmt* statement) const;
  // A block's terminator node (the original, not a copy).
  unsigned terminator_of(const clang::CFGBlock* block) const;
  unsigned first_of(const clang::CFGBlock* block) const { return first_node_[block->getBlockID()]; }

  // The nodes reachable from `from` (after it) without passing a barrier; `from` itself only by
  // a cycle. Barriers are never in the set.
  llvm::BitVector reachable_from(unsigned from) const;
  // The nodes from which `to` is reachable without passing a barrier.
  llvm::BitVector reaching(unsigned to) const;

  // True for a node on a cycle without a barrier: a thread may evaluate it again before the
  // next barrier.
  bool on_barrier_free_cycle(unsigned node) const { return cyclic_.test(node); }

  // The blocks of the natural loop of each header (a block that dominates the source of an
  // edge into it), by header.
  const std::map<const clang::CFGBlock*, std::vector<bool>>& natural_loops() const { return loops_; }
  bool in_loop(const clang::CFGBlock* header, unsigned node) const;

 private:
  void link(unsigned from, unsigned to);
  void find_cycles();
  llvm::BitVector walk(unsigned start, bool forward) const;

  std::vector<Node> nodes_;
  std::vector<unsigned> first_node_, terminator_;  // by block ID
  std::multimap<const clang::Stmt*, unsigned> statement_nodes_;
  llvm::BitVector cyclic_;
  std::map<const clang::CFGBlock*, std::vector<bool>> loops_;  // each body's blocks, by block ID
};

}  // namespace carbide::analysis
