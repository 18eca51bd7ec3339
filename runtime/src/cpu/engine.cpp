#include "engine.hpp"

#include "device.hpp"

#include <algorithm>
#include <utility>

namespace carbide::cpu {

void Worker::run_blocks(Launch& launch) {
  try {
    std::uint64_t block = 0;
    while (launch.next_block(&block)) {
      if (launch.simt() != nullptr) block_.run(launch, block);
      else launch.tile()->run_block(launch.args(), block);  // the tile operations' reference code
    }
  } catch (...) {
    launch.fail(std::current_exception());
  }
}

Engine::Engine(Device& device) : device_(device), pool_(device.workers()) {
  for (unsigned i = 0; i < device.workers(); ++i) workers_.push_back(std::make_unique<Worker>(*this));
}

Engine::~Engine() = default;

void Engine::prepare_checks(Launch& launch) {
  // Cells keep kBits of a segment: clear them all before an old number could pass for a new one.
  if (numbered_ - last_clear_ >= Segments::kPerLaunch) {
    device_.clear_shadows();
    for (auto& worker : workers_) worker->block().clear_shadows();
    last_clear_ = numbered_;
  }
  segments_.begin(numbered_);
  // Twice over the views: an allocation two views of different element sizes reach gets the finer
  // granule before any shadow is handed to the launch.
  for (const ViewParam& view : launch.views())
    if (view.begin != view.end) device_.shadow(view.begin, view.end, granule_shift_for(view.element_bytes));
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> borrowed;  // memory no allocation holds
  unsigned borrowed_shift = 3;
  for (const ViewParam& view : launch.views()) {
    if (view.begin == view.end) continue;
    const unsigned shift = granule_shift_for(view.element_bytes);
    if (ShadowCells* cells = device_.shadow(view.begin, view.end, shift)) {
      if (launch.shadow_of(view.begin) != cells) launch.add_shadow(cells);
    } else {
      borrowed.emplace_back(view.begin, view.end);
      borrowed_shift = std::min(borrowed_shift, shift);
    }
  }
  // Borrowed ranges that overlap share one shadow, kept for this launch only.
  std::sort(borrowed.begin(), borrowed.end());
  for (std::size_t i = 0; i < borrowed.size();) {
    auto [begin, end] = borrowed[i];
    for (++i; i < borrowed.size() && borrowed[i].first < end; ++i) end = std::max(end, borrowed[i].second);
    launch.own_shadow(std::make_unique<ShadowCells>(begin, end - begin, borrowed_shift));
  }
}

void Engine::run(Launch& launch) {
  std::lock_guard lock(mutex_);
  const bool checked = launch.checks();
  if (checked) prepare_checks(launch);
  pool_.run([&](unsigned worker) { workers_[worker]->run_blocks(launch); });
  if (checked) numbered_ += std::min(segments_.used(), Segments::kPerLaunch);
  launch.finish();
}

}  // namespace carbide::cpu
