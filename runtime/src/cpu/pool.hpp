// The workers that run a launch's blocks: one OS thread per core, the calling thread among them,
// so a launch of a few blocks starts at once and the host thread is never idle while it waits.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace carbide::cpu {

class WorkerPool {
 public:
  // `participants` - 1 threads, the caller being the other.
  explicit WorkerPool(unsigned participants);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  unsigned participants() const { return unsigned(threads_.size()) + 1; }
  // Runs work(0) on the calling thread and work(i) on each pool thread i, and returns once all
  // have returned. `work` must not throw. One call at a time.
  void run(const std::function<void(unsigned)>& work);

 private:
  void serve(unsigned participant);

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(unsigned)>* work_ = nullptr;
  std::uint64_t generation_ = 0;
  unsigned running_ = 0;
  bool closing_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace carbide::cpu
