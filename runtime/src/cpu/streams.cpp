// Streams, events and graphs of a CPU context (backend.hpp).
#include "backend.hpp"

#include "device.hpp"
#include "engine.hpp"

#include "../driver.hpp"

#include <chrono>
#include <cstring>
#include <functional>
#include <mutex>
#include <vector>

namespace carbide::cpu {

namespace {

using Work = std::function<void()>;

// A created stream; the default stream (a null handle) never captures.
struct StreamState {
  std::mutex mutex;
  bool capturing = false;
  bool spoiled = false;  // a call that waits on the host came during the capture
  std::vector<Work> captured;
};

struct EventState {
  std::mutex mutex;
  bool recorded = false;
  Clock::time_point when;
};

struct GraphState {
  std::vector<Work> work;
};

StreamState* state_of(const Stream& stream) { return static_cast<StreamState*>(stream.native_handle()); }

// Runs `work` now, or keeps it for the graph while the stream captures.
void submit(const Stream& stream, Work work) {
  if (StreamState* state = state_of(stream)) {
    std::unique_lock lock(state->mutex);
    if (state->capturing) {
      state->captured.push_back(std::move(work));
      return;
    }
  }
  work();
}

}  // namespace

Device* device_of(const Context& context) { return context.state()->cpu.get(); }

void require_same_kind(const char* what, const Context& a, const Context& b) {
  if (a.is_cpu() != b.is_cpu())
    throw Error(std::string(what) + ": one of its arguments belongs to the CPU context and the other to a GPU; use "
                "streams, events and graphs of one device");
}

std::shared_ptr<void> create_stream() { return std::make_shared<StreamState>(); }

void synchronize(const Stream& stream) {
  StreamState* state = state_of(stream);
  if (state == nullptr) return;
  std::lock_guard lock(state->mutex);
  if (!state->capturing) return;
  state->spoiled = true;
  throw DriverError(int(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED), "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED",
                    "Stream::synchronize", "the stream is capturing; the capture is spoiled, end it with end_capture");
}

void copy(const Stream& stream, void* to, const void* from, std::size_t bytes) {
  submit(stream, [to, from, bytes] { std::memmove(to, from, bytes); });
}

void fill_zero(const Stream& stream, void* to, std::size_t bytes) {
  submit(stream, [to, bytes] { std::memset(to, 0, bytes); });
}

std::shared_ptr<void> create_event() { return std::make_shared<EventState>(); }

void record(const Stream& stream, const Event& event) {
  // Like a buffer, an event recorded into a graph must outlive the graph.
  EventState* target = static_cast<EventState*>(event.native_handle());
  submit(stream, [target] {
    std::lock_guard lock(target->mutex);
    target->recorded = true;
    target->when = Clock::now();
  });
}

float elapsed_ms(const Event& start, const Event& end) {
  auto* first = static_cast<EventState*>(start.native_handle());
  auto* last = static_cast<EventState*>(end.native_handle());
  std::scoped_lock lock(first->mutex, last->mutex);
  if (!first->recorded || !last->recorded)
    throw DriverError(int(CUDA_ERROR_INVALID_HANDLE), "CUDA_ERROR_INVALID_HANDLE", "Event::elapsed_ms",
                      "record both events (start first) on streams of one device");
  return std::chrono::duration<float, std::milli>(last->when - first->when).count();
}

void begin_capture(const Stream& stream) {
  StreamState* state = state_of(stream);
  std::lock_guard lock(state->mutex);
  if (state->capturing)
    throw DriverError(int(CUDA_ERROR_ILLEGAL_STATE), "CUDA_ERROR_ILLEGAL_STATE", "Stream::begin_capture",
                      "the stream is capturing already; end that capture first");
  state->capturing = true;
  state->spoiled = false;
  state->captured.clear();
}

std::shared_ptr<void> end_capture(const Stream& stream) {
  StreamState* state = state_of(stream);
  std::lock_guard lock(state->mutex);
  if (!state->capturing)
    throw DriverError(int(CUDA_ERROR_ILLEGAL_STATE), "CUDA_ERROR_ILLEGAL_STATE", "Stream::end_capture",
                      "the stream is not capturing; call begin_capture first");
  state->capturing = false;
  auto graph = std::make_shared<GraphState>();
  graph->work = std::move(state->captured);
  state->captured.clear();
  if (state->spoiled)
    throw DriverError(int(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED), "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED",
                      "Stream::end_capture",
                      "a call during the capture was not allowed while capturing (one that waits on the host, such "
                      "as a synchronous copy or synchronize()); queue only launches, copy_from and the *_async copies");
  return graph;
}

void replay(const void* graph, const Stream& stream) {
  for (const Work& work : static_cast<const GraphState*>(graph)->work) submit(stream, work);
}

void launch(const Stream& stream, ModuleEntry entry, const LaunchConfig& config, void* const* args) {
  Device& device = *device_of(stream.context());
  StreamState* state = state_of(stream);
  if (state != nullptr) {
    std::unique_lock lock(state->mutex);
    if (state->capturing) {
      // The graph keeps the argument bytes, as cuGraph keeps kernel parameters.
      const ParamInfo* params = entry.simt != nullptr ? entry.simt->params : entry.tile->params;
      const unsigned count = entry.simt != nullptr ? entry.simt->param_count : entry.tile->param_count;
      std::vector<std::vector<std::max_align_t>> bytes(count);
      for (unsigned i = 0; i < count; ++i) {
        bytes[i].resize((params[i].bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t));
        std::memcpy(bytes[i].data(), args[i], params[i].bytes);
      }
      state->captured.push_back([&device, entry, config, bytes = std::move(bytes)]() mutable {
        std::vector<void*> pointers;
        for (auto& arg : bytes) pointers.push_back(arg.data());
        Launch replay(entry, config, pointers.data());
        device.engine().run(replay);
      });
      return;
    }
  }
  Launch now(entry, config, args);
  device.engine().run(now);
}

}  // namespace carbide::cpu
