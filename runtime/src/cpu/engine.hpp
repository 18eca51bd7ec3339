// The SIMT engine (DESIGN §11): launches run one at a time, their blocks spread over a pool of
// workers, each running a block's threads as a plain loop or as fibers (block_run.hpp).
#pragma once

#include "block_run.hpp"
#include "launch.hpp"
#include "pool.hpp"
#include "segments.hpp"
#include "sites.hpp"

#include <memory>
#include <mutex>
#include <vector>

namespace carbide::cpu {

class Device;
class Engine;

// One participant of the pool, with what it keeps from block to block.
class Worker {
 public:
  explicit Worker(Engine& engine) : block_(engine, *this) {}
  // Runs blocks of `launch` until none is left or the launch stops; never throws.
  void run_blocks(Launch& launch);

  FiberStacks& stacks() { return stacks_; }
  SiteCache& sites() { return sites_; }
  BlockRun& block() { return block_; }
  // Counts the checks a thread makes (ticks, barriers), so that the clock is read at every
  // 1024th only.
  bool time_to_read_clock() { return (++checks_ & 1023) == 0; }

 private:
  FiberStacks stacks_;
  SiteCache sites_;
  std::uint64_t checks_ = 0;
  BlockRun block_;  // after what it refers to
};

class Engine {
 public:
  explicit Engine(Device& device);
  ~Engine();

  // Runs `launch` to its end on the workers; throws its failure (KernelError). Launches from
  // several host threads take turns.
  void run(Launch& launch);

  SiteTable& sites() { return sites_; }
  const Segments& segments() const { return segments_; }
  Segments& segments() { return segments_; }

 private:
  // The shadows of the launch's view parameters, and the engine's segment numbering for it.
  void prepare_checks(Launch& launch);

  Device& device_;
  std::mutex mutex_;
  SiteTable sites_;
  Segments segments_;
  std::uint64_t numbered_ = 0;    // segments numbered before the current launch
  std::uint64_t last_clear_ = 0;  // numbered_ when every shadow was last cleared
  std::vector<std::unique_ptr<Worker>> workers_;
  WorkerPool pool_;  // last: its threads stop before the workers go
};

}  // namespace carbide::cpu
