// Events: streams ordered against each other on the device, the host waiting for one point of a
// stream, and timing between two points.
#include "driver.hpp"

#include "cpu/backend.hpp"
#include "driver_api.hpp"

namespace carbide {

namespace detail {
CUevent native(const Event& event) { return static_cast<CUevent>(event.native_handle()); }
}  // namespace detail

Event Context::create_event() const {
  if (cpu::device_of(*this)) return Event(*this, cpu::create_event());
  detail::make_current(*this);
  CUevent event = nullptr;
  detail::check(detail::driver().cuEventCreate(&event, CU_EVENT_DEFAULT), "cuEventCreate");
  auto owner = state_;  // the event must die before its context
  return Event(*this, std::shared_ptr<void>(event, [owner](void* e) {
                 detail::driver().cuEventDestroy(static_cast<CUevent>(e));
               }));
}

void Stream::record(Event& event) const {
  cpu::require_same_kind("Stream::record", context_, event.context());
  if (cpu::device_of(context_)) return cpu::record(*this, event);
  detail::make_current(context_);
  detail::check(detail::driver().cuEventRecord(detail::native(event), detail::native(*this)),
                "cuEventRecord");
}

void Stream::wait(const Event& event) const {
  cpu::require_same_kind("Stream::wait", context_, event.context());
  if (cpu::device_of(context_)) return;  // its work ran when it was recorded
  detail::make_current(context_);
  detail::check(
      detail::driver().cuStreamWaitEvent(detail::native(*this), detail::native(event), 0),
      "cuStreamWaitEvent");
}

void Event::synchronize() const {
  if (cpu::device_of(context_)) return;
  detail::make_current(context_);
  detail::check(detail::driver().cuEventSynchronize(detail::native(*this)), "cuEventSynchronize");
}

float Event::elapsed_ms(const Event& start, const Event& end) {
  cpu::require_same_kind("Event::elapsed_ms", start.context(), end.context());
  if (cpu::device_of(end.context())) return cpu::elapsed_ms(start, end);
  end.synchronize();
  float ms = 0;
  detail::check(
      detail::driver().cuEventElapsedTime(&ms, detail::native(start), detail::native(end)),
      "cuEventElapsedTime", "record both events (start first) on streams of one device");
  return ms;
}

}  // namespace carbide
