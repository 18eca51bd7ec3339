// CUDA graphs: a stream's work captured once and replayed with one launch each time.
#include "driver.hpp"

#include "cpu/backend.hpp"
#include "driver_api.hpp"

namespace carbide {

void Stream::begin_capture() const {
  if (handle_ == nullptr)
    throw Error(
        "Stream::begin_capture: the default stream cannot be captured; capture a stream from "
        "Context::create_stream()");
  if (cpu::device_of(context_)) return cpu::begin_capture(*this);
  detail::make_current(context_);
  // Thread-local: only this thread's calls are restricted while it captures; other threads'
  // allocations and copies go on as usual.
  detail::check(detail::driver().cuStreamBeginCapture(detail::native(*this),
                                                      CU_STREAM_CAPTURE_MODE_THREAD_LOCAL),
                "cuStreamBeginCapture");
}

Graph Stream::end_capture() const {
  if (cpu::device_of(context_)) return Graph(context_, cpu::end_capture(*this));
  detail::make_current(context_);
  CUgraph graph = nullptr;
  const CUresult ended = detail::driver().cuStreamEndCapture(detail::native(*this), &graph);
  detail::check(ended, "cuStreamEndCapture",
                ended == CUDA_ERROR_STREAM_CAPTURE_INVALIDATED
                    ? "a call during the capture was not allowed while capturing (one that "
                      "waits on the host, such as a synchronous copy or synchronize(), or an "
                      "allocation); queue only launches, copy_from and the *_async copies"
                    : "");
  // The executable graph does not need the captured one, which goes at once.
  CUgraphExec exec = nullptr;
  const CUresult instantiated = detail::driver().cuGraphInstantiateWithFlags(&exec, graph, 0);
  detail::driver().cuGraphDestroy(graph);
  detail::check(instantiated, "cuGraphInstantiateWithFlags");
  auto owner = context_.state();  // the graph must die before its context
  return Graph(context_, std::shared_ptr<void>(exec, [owner](void* e) {
                 detail::driver().cuGraphExecDestroy(static_cast<CUgraphExec>(e));
               }));
}

void Graph::launch(const Stream& stream) const {
  cpu::require_same_kind("Graph::launch", context_, stream.context());
  if (cpu::device_of(context_)) return cpu::replay(handle_.get(), stream);
  detail::make_current(context_);
  detail::check(detail::driver().cuGraphLaunch(static_cast<CUgraphExec>(handle_.get()),
                                               detail::native(stream)),
                "cuGraphLaunch");
}

}  // namespace carbide
