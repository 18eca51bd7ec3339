#include "analysis/barrier_flow.hpp"

#include <clang/AST/StmtCXX.h>
#include <clang/Analysis/Analyses/Dominators.h>

#include <deque>

namespace carbide::analysis {
namespace {

std::vector<const clang::CFGBlock*> reachable_successors(const clang::CFGBlock& block) {
  std::vector<const clang::CFGBlock*> successors;
  for (const clang::CFGBlock::AdjacentBlock& adjacent : block.succs())
    if (const clang::CFGBlock* successor = adjacent.getReachableBlock()) successors.push_back(successor);
  return successors;
}

std::vector<bool> reachable_from_entry(const clang::CFG& cfg) {
  std::vector<bool> reached(cfg.getNumBlockIDs(), false);
  std::deque<const clang::CFGBlock*> work = {&cfg.getEntry()};
  reached[cfg.getEntry().getBlockID()] = true;
  while (!work.empty()) {
    const clang::CFGBlock* block = work.front();
    work.pop_front();
    for (const clang::CFGBlock* successor : reachable_successors(*block))
      if (!reached[successor->getBlockID()]) {
        reached[successor->getBlockID()] = true;
        work.push_back(successor);
      }
  }
  return reached;
}

}  // namespace

BarrierFlow::BarrierFlow(const clang::CFG& cfg, const BarrierTest& is_barrier,
                         const std::function<bool(const clang::Stmt* loop)>& enters_body_first) {
  const unsigned blocks = cfg.getNumBlockIDs();
  first_node_.assign(blocks, 0);
  terminator_.assign(blocks, 0);
  // One chain of nodes for a block: its elements in order, then its terminator.
  const auto add_chain = [&](const clang::CFGBlock* block, bool copy) {
    const auto first = unsigned(nodes_.size());
    for (auto element = block->begin(); element != block->end(); ++element) {
      Node& node = nodes_.emplace_back();
      node.block = block;
      node.element = &*element;
      node.first_entry_copy = copy;
      node.barrier = is_barrier(*block, &*element);
      if (auto statement = element->getAs<clang::CFGStmt>()) {
        node.statement = statement->getStmt();
        statement_nodes_.emplace(node.statement, unsigned(nodes_.size() - 1));
      }
    }
    Node& terminator = nodes_.emplace_back();
    terminator.block = block;
    terminator.first_entry_copy = copy;
    terminator.barrier = is_barrier(*block, nullptr);
    for (auto node = first; node + 1 < nodes_.size(); ++node) link(node, node + 1);
    return std::pair{first, unsigned(nodes_.size() - 1)};
  };
  for (const clang::CFGBlock* block : cfg)
    std::tie(first_node_[block->getBlockID()], terminator_[block->getBlockID()]) = add_chain(block, false);

  // Natural loops: an edge into a block that dominates its source closes one.
  const std::vector<bool> reached = reachable_from_entry(cfg);
  clang::CFGDomTree dominators(const_cast<clang::CFG*>(&cfg));
  for (const clang::CFGBlock* block : cfg) {
    if (!reached[block->getBlockID()]) continue;
    for (const clang::CFGBlock* header : reachable_successors(*block)) {
      if (!dominators.dominates(header, block)) continue;
      std::vector<bool>& body = loops_.try_emplace(header, blocks, false).first->second;
      body[header->getBlockID()] = true;
      std::deque<const clang::CFGBlock*> work;
      if (!body[block->getBlockID()]) {
        body[block->getBlockID()] = true;
        work.push_back(block);
      }
      while (!work.empty()) {
        const clang::CFGBlock* at = work.front();
        work.pop_front();
        for (const clang::CFGBlock::AdjacentBlock& adjacent : at->preds())
          if (const clang::CFGBlock* predecessor = adjacent.getReachableBlock();
              predecessor && reached[predecessor->getBlockID()] && !body[predecessor->getBlockID()]) {
            body[predecessor->getBlockID()] = true;
            work.push_back(predecessor);
          }
      }
    }
  }

  // A `for` whose first test passes: its header's copy, entered from outside the loop only.
  std::map<const clang::CFGBlock*, std::pair<unsigned, unsigned>> first_entry;
  for (const auto& [header, body] : loops_)
    if (const auto* loop = llvm::dyn_cast_or_null<clang::ForStmt>(header->getTerminatorStmt());
        loop && header->succ_size() == 2 && header->succ_begin()->getReachableBlock() && enters_body_first(loop)) {
      const auto copy = add_chain(header, true);
      first_entry[header] = copy;
      link(copy.second, first_node_[header->succ_begin()->getReachableBlock()->getBlockID()]);
    }
  for (const clang::CFGBlock* block : cfg)
    for (const clang::CFGBlock* successor : reachable_successors(*block)) {
      const auto copy = first_entry.find(successor);
      const bool from_outside = copy != first_entry.end() && !loops_.at(successor)[block->getBlockID()];
      link(terminator_[block->getBlockID()],
           from_outside ? copy->second.first : first_node_[successor->getBlockID()]);
    }
  find_cycles();
}

// Strongly connected components of the graph without its barriers (Kosaraju): a node is on a
// barrier-free cycle when its component has another node, or an edge to itself.
void BarrierFlow::find_cycles() {
  const auto count = unsigned(nodes_.size());
  std::vector<unsigned> finished;
  std::vector<bool> visited(count, false);
  for (unsigned root = 0; root < count; ++root) {
    if (visited[root] || nodes_[root].barrier) continue;
    std::vector<std::pair<unsigned, std::size_t>> stack = {{root, 0}};
    visited[root] = true;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next < nodes_[node].successors.size()) {
        const unsigned successor = nodes_[node].successors[next++];
        if (!visited[successor] && !nodes_[successor].barrier) {
          visited[successor] = true;
          stack.push_back({successor, 0});
        }
      } else {
        finished.push_back(node);
        stack.pop_back();
      }
    }
  }
  std::vector<int> component(count, -1);
  std::vector<unsigned> sizes;
  for (auto it = finished.rbegin(); it != finished.rend(); ++it) {
    if (component[*it] != -1) continue;
    const auto id = int(sizes.size());
    sizes.push_back(0);
    std::vector<unsigned> work = {*it};
    component[*it] = id;
    while (!work.empty()) {
      const unsigned node = work.back();
      work.pop_back();
      ++sizes[id];
      for (unsigned predecessor : nodes_[node].predecessors)
        if (component[predecessor] == -1 && !nodes_[predecessor].barrier) {
          component[predecessor] = id;
          work.push_back(predecessor);
        }
    }
  }
  cyclic_.resize(count);
  for (unsigned node = 0; node < count; ++node) {
    if (component[node] == -1) continue;
    bool self_loop = false;
    for (unsigned successor : nodes_[node].successors) self_loop = self_loop || successor == node;
    if (sizes[component[node]] > 1 || self_loop) cyclic_.set(node);
  }
}

void BarrierFlow::link(unsigned from, unsigned to) {
  nodes_[from].successors.push_back(to);
  nodes_[to].predecessors.push_back(from);
}

std::vector<unsigned> BarrierFlow::nodes_of(const clang::Stmt* statement) const {
  std::vector<unsigned> found;
  const auto [begin, end] = statement_nodes_.equal_range(statement);
  for (auto it = begin; it != end; ++it) found.push_back(it->second);
  return found;
}

unsigned BarrierFlow::terminator_of(const clang::CFGBlock* block) const {
  return terminator_[block->getBlockID()];
}

bool BarrierFlow::in_loop(const clang::CFGBlock* header, unsigned node) const {
  const auto loop = loops_.find(header);
  return loop != loops_.end() && loop->second[nodes_[node].block->getBlockID()];
}

llvm::BitVector BarrierFlow::walk(unsigned start, bool forward) const {
  llvm::BitVector seen(unsigned(nodes_.size()));
  std::vector<unsigned> work = {start};
  while (!work.empty()) {
    const unsigned at = work.back();
    work.pop_back();
    for (unsigned next : forward ? nodes_[at].successors : nodes_[at].predecessors) {
      if (nodes_[next].barrier || seen.test(next)) continue;
      seen.set(next);
      work.push_back(next);
    }
  }
  return seen;
}

llvm::BitVector BarrierFlow::reachable_from(unsigned from) const { return walk(from, true); }
llvm::BitVector BarrierFlow::reaching(unsigned to) const { return walk(to, false); }

}  // namespace carbide::analysis
