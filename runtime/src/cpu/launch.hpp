// One launch on the CPU: its entry, geometry and arguments, the views its parameters are (for the
// checks and for naming addresses in messages), which block runs next, and how it ended.
#pragma once

#include "shadow.hpp"

#include <carbide/cpu_vocabulary.hpp>
#include <carbide/errors.hpp>
#include <carbide/launch.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace carbide::cpu {

using detail::Coordinates;
using Clock = std::chrono::steady_clock;

// A view parameter's memory.
struct ViewParam {
  const char* name;
  const void* data;  // its first element
  std::uintptr_t begin, end;
  std::size_t element_bytes;
};

// The views among `params`, read from the launch arguments (detail of cpu.hpp's ParamKind).
std::vector<ViewParam> decode_views(const ParamInfo* params, unsigned count, void* const* args);

class Launch {
 public:
  Launch(ModuleEntry entry, const LaunchConfig& config, void* const* args);

  const KernelEntry* simt() const { return simt_; }
  const TileKernelEntry* tile() const { return tile_; }
  const char* kernel() const { return simt_ != nullptr ? simt_->name : tile_->name; }
  void* const* args() const { return args_; }
  Coordinates grid() const { return grid_; }
  Coordinates block() const { return block_; }
  std::uint64_t blocks() const { return blocks_; }
  unsigned threads_per_block() const { return block_.x * block_.y * block_.z; }
  std::uint64_t dynamic_shared_bytes() const { return dynamic_shared_bytes_; }

  // CARBIDE_CPU_CHECKS: the launch records accesses (until its segments run out).
  bool checks() const { return checks_.load(std::memory_order_relaxed); }
  void stop_checking() { checks_.store(false, std::memory_order_relaxed); }
  const std::vector<ViewParam>& views() const { return views_; }
  const ViewParam* view_with_data(const void* data) const;
  // "c[1025]" for an address inside a view parameter.
  std::optional<std::string> name_in_views(std::uintptr_t address) const;
  // The shadow of the buffer holding `address`; null outside every view parameter's memory.
  ShadowCells* shadow_of(std::uintptr_t address) const {
    for (ShadowCells* cells : shadows_)
      if (address >= cells->begin() && address < cells->end()) return cells;
    return nullptr;
  }
  void add_shadow(ShadowCells* cells) { shadows_.push_back(cells); }
  // Shadow for memory no allocation of the context holds (a borrowed pointer), kept for this launch.
  ShadowCells* own_shadow(std::unique_ptr<ShadowCells> cells);

  // The next block to run; false once all have started, or the launch is stopping.
  bool next_block(std::uint64_t* block);
  std::uint64_t blocks_started() const { return next_.load(std::memory_order_relaxed); }
  bool stopping() const { return stopping_.load(std::memory_order_relaxed); }
  // True once CARBIDE_CPU_TIMEOUT has passed, which stops the launch.
  bool past_deadline();
  bool timed_out() const { return timed_out_.load(std::memory_order_relaxed); }
  // Where a block's threads were when a timeout stopped it, for the error.
  void note_stopped(std::string where);
  // The first failure wins and stops the launch; the others' blocks end at their next check.
  void fail(std::exception_ptr failure);

  // Throws the launch's failure, if any: a KernelError (or what else a block threw).
  void finish();

 private:
  const KernelEntry* simt_;
  const TileKernelEntry* tile_;
  void* const* args_;
  Coordinates grid_, block_;
  std::uint64_t blocks_;
  std::uint64_t dynamic_shared_bytes_;
  std::atomic<bool> checks_;
  double timeout_seconds_;
  Clock::time_point deadline_;
  std::vector<ViewParam> views_;
  std::vector<ShadowCells*> shadows_;
  std::vector<std::unique_ptr<ShadowCells>> own_shadows_;

  std::atomic<std::uint64_t> next_{0};
  std::atomic<bool> stopping_{false}, timed_out_{false};
  std::mutex mutex_;
  std::exception_ptr failure_;
  std::vector<std::string> stopped_;
};

// "(x,y,z)"
std::string coordinates_text(Coordinates c);
Coordinates block_coordinates(std::uint64_t flat_block, Coordinates grid);
Coordinates thread_coordinates(unsigned local_index, Coordinates block);
std::array<unsigned, 3> as_array(Coordinates c);

}  // namespace carbide::cpu
