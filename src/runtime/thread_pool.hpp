// The runtime's own job system, used when the engine gives none: a fixed set of threads started
// once, running one batch of jobs at a time (Runtime::submit records a frame's lists in parallel
// through it). Not a general-purpose scheduler.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace baton::runtime {

class ThreadPool {
 public:
  explicit ThreadPool(uint32_t threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  // Runs job(0) .. job(count - 1) on the pool's threads and the calling thread; returns when all
  // have finished. One batch at a time (callers serialize).
  void run(uint32_t count, const std::function<void(uint32_t)>& job);
  uint32_t size() const { return static_cast<uint32_t>(workers_.size()) + 1; }

 private:
  void work();
  bool take_and_run();
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(uint32_t)>* job_ = nullptr;
  uint32_t count_ = 0, next_ = 0, finished_ = 0;
  uint64_t batch_ = 0;
  bool stop_ = false;
};

}  // namespace baton::runtime
