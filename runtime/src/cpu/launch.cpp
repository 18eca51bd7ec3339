#include "launch.hpp"

#include <carbide/device.hpp>
#include <carbide/tile/args.hpp>

#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace carbide::cpu {

namespace {

// The layouts cpu.hpp's ParamKind comments give, as device.hpp and tile/args.hpp have them.
static_assert(sizeof(span<const float>) == 16 && sizeof(disjoint_span<float>) == 16 &&
              sizeof(atomic_span<float>) == 16);
static_assert(sizeof(disjoint_span2d<float>) == 32 && sizeof(span2d<const float>) == 40);
static_assert(sizeof(tile::detail::in_arg<float, 2>) == 16 + 16 * 2 && sizeof(tile::detail::out_arg<float, 2>) == 16 + 24 * 2);
using TileInput3 = tile::detail::in_arg<float, 3>;
using TileOutput3 = tile::detail::out_arg<float, 3>;
static_assert(offsetof(TileInput3, extent) == 8 && offsetof(TileInput3, stride) == 8 + 8 * 3);
static_assert(offsetof(TileOutput3, extent) == 8 && offsetof(TileOutput3, stride) == 8 + 8 * 3);

std::uint64_t word(const void* arg, std::size_t offset) {
  std::uint64_t value;
  std::memcpy(&value, static_cast<const char*>(arg) + offset, sizeof value);
  return value;
}

// A view's first element and its extent in elements: {T* data; size_t size} for spans, rows ×
// pitch for a 2-D output, the first axis's extent times its stride for a tile argument.
std::optional<ViewParam> decode(const ParamInfo& param, const void* arg) {
  std::uint64_t data = word(arg, 0), elements = 0;
  switch (param.kind) {
    case ParamKind::Scalar: return std::nullopt;
    case ParamKind::View: elements = word(arg, 8); break;
    case ParamKind::View2D: elements = word(arg, 8) * word(arg, 24); break;  // rows × pitch
    case ParamKind::ReadView2D: elements = word(arg, 8); break;             // its span's size
    case ParamKind::TileInput:
    case ParamKind::TileOutput: {
      const std::size_t rank = (param.bytes - 16) / (param.kind == ParamKind::TileInput ? 16 : 24);
      elements = word(arg, 8) * word(arg, 8 + 8 * rank);  // extent[0] × stride[0]
      break;
    }
  }
  return ViewParam{param.name, reinterpret_cast<const void*>(data), std::uintptr_t(data),
                   std::uintptr_t(data + elements * param.element_bytes), param.element_bytes};
}

bool checks_from_environment() {
  const char* value = std::getenv("CARBIDE_CPU_CHECKS");
  if (value == nullptr || *value == '\0') return true;
  const std::string_view text(value);
  if (text == "off" || text == "0" || text == "false") return false;
  if (text == "on" || text == "1" || text == "true") return true;
  throw Error("CARBIDE_CPU_CHECKS=" + std::string(text) + ": expected on or off");
}

double timeout_from_environment() {
  const char* value = std::getenv("CARBIDE_CPU_TIMEOUT");
  if (value == nullptr || *value == '\0') return 60;
  char* end = nullptr;
  const double seconds = std::strtod(value, &end);
  if (end == value || *end != '\0' || !(seconds > 0))
    throw Error(std::string("CARBIDE_CPU_TIMEOUT=") + value + ": expected a number of seconds above 0");
  return seconds;
}

std::string seconds_text(double seconds) {
  std::string text = std::to_string(seconds);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text + " s";
}

Coordinates extent(const Extent3& e) { return {unsigned(e[0]), unsigned(e[1]), unsigned(e[2])}; }

}  // namespace

std::vector<ViewParam> decode_views(const ParamInfo* params, unsigned count, void* const* args) {
  std::vector<ViewParam> views;
  for (unsigned i = 0; i < count; ++i)
    if (auto view = decode(params[i], args[i])) views.push_back(*view);
  return views;
}

Launch::Launch(ModuleEntry entry, const LaunchConfig& config, void* const* args)
    : simt_(entry.simt),
      tile_(entry.tile),
      args_(args),
      grid_(extent(config.grid)),
      block_(extent(config.block)),
      blocks_(config.grid[0] * config.grid[1] * config.grid[2]),
      dynamic_shared_bytes_(config.dynamic_shared_bytes),
      checks_(simt_ != nullptr && checks_from_environment()),
      timeout_seconds_(timeout_from_environment()),
      deadline_(Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_seconds_))) {
  if (simt_ != nullptr) views_ = decode_views(simt_->params, simt_->param_count, args);
  else views_ = decode_views(tile_->params, tile_->param_count, args);
}

const ViewParam* Launch::view_with_data(const void* data) const {
  for (const ViewParam& view : views_)
    if (view.data == data) return &view;
  return nullptr;
}

std::optional<std::string> Launch::name_in_views(std::uintptr_t address) const {
  for (const ViewParam& view : views_)
    if (address >= view.begin && address < view.end && view.element_bytes != 0)
      return std::string(view.name) + "[" + std::to_string((address - view.begin) / view.element_bytes) + "]";
  return std::nullopt;
}

ShadowCells* Launch::own_shadow(std::unique_ptr<ShadowCells> cells) {
  own_shadows_.push_back(std::move(cells));
  shadows_.push_back(own_shadows_.back().get());
  return shadows_.back();
}

bool Launch::next_block(std::uint64_t* block) {
  if (stopping() || past_deadline()) return false;
  *block = next_.fetch_add(1, std::memory_order_relaxed);
  return *block < blocks_;
}

bool Launch::past_deadline() {
  if (Clock::now() < deadline_) return false;
  if (!timed_out_.exchange(true)) stopping_.store(true);
  return true;
}

void Launch::note_stopped(std::string where) {
  std::lock_guard lock(mutex_);
  stopped_.push_back(std::move(where));
}

void Launch::fail(std::exception_ptr failure) {
  std::lock_guard lock(mutex_);
  if (failure_ == nullptr) failure_ = std::move(failure);
  stopping_.store(true);
}

void Launch::finish() {
  if (failure_ != nullptr) std::rethrow_exception(failure_);
  if (!timed_out()) return;
  // Only the blocks a check stopped are listed: the others ended before the deadline or never began.
  constexpr std::size_t kListed = 8;
  std::string where;
  for (std::size_t i = 0; i < stopped_.size() && i < kListed; ++i) where += "\n  " + stopped_[i];
  if (stopped_.size() > kListed) where += "\n  and " + std::to_string(stopped_.size() - kListed) + " more blocks";
  const std::uint64_t started = blocks_started() < blocks_ ? blocks_started() : blocks_;
  if (started < blocks_) where += "\n  " + std::to_string(blocks_ - started) + " blocks had not started";
  throw KernelError(KernelError::Kind::Timeout, kernel(),
                    "ran past CARBIDE_CPU_TIMEOUT (" + seconds_text(timeout_seconds_) +
                        ") and was stopped; its threads were at:" + where);
}

std::string coordinates_text(Coordinates c) {
  return "(" + std::to_string(c.x) + "," + std::to_string(c.y) + "," + std::to_string(c.z) + ")";
}

Coordinates block_coordinates(std::uint64_t flat_block, Coordinates grid) {
  return {unsigned(flat_block % grid.x), unsigned(flat_block / grid.x % grid.y),
          unsigned(flat_block / grid.x / grid.y)};
}

Coordinates thread_coordinates(unsigned local_index, Coordinates block) {
  return {local_index % block.x, local_index / block.x % block.y, local_index / block.x / block.y};
}

std::array<unsigned, 3> as_array(Coordinates c) { return {c.x, c.y, c.z}; }

}  // namespace carbide::cpu
