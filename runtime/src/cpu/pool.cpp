#include "pool.hpp"

namespace carbide::cpu {

WorkerPool::WorkerPool(unsigned participants) {
  for (unsigned i = 1; i < participants; ++i) threads_.emplace_back([this, i] { serve(i); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    closing_ = true;
  }
  wake_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void WorkerPool::run(const std::function<void(unsigned)>& work) {
  {
    std::lock_guard lock(mutex_);
    work_ = &work;
    running_ = unsigned(threads_.size());
    ++generation_;
  }
  wake_.notify_all();
  work(0);
  std::unique_lock lock(mutex_);
  done_.wait(lock, [this] { return running_ == 0; });
  work_ = nullptr;
}

void WorkerPool::serve(unsigned participant) {
  std::uint64_t seen = 0;
  for (;;) {
    const std::function<void(unsigned)>* work = nullptr;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return closing_ || generation_ != seen; });
      if (closing_) return;
      seen = generation_;
      work = work_;
    }
    (*work)(participant);
    std::lock_guard lock(mutex_);
    if (--running_ == 0) done_.notify_one();
  }
}

}  // namespace carbide::cpu
