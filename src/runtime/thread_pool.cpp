#include "thread_pool.hpp"

namespace baton::runtime {

ThreadPool::ThreadPool(uint32_t threads) {
  for (uint32_t i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

// Takes the next job of the current batch and runs it outside the lock. False when none is left.
bool ThreadPool::take_and_run() {
  std::unique_lock lock(mutex_);
  if (!job_ || next_ >= count_) return false;
  const uint32_t i = next_++;
  const std::function<void(uint32_t)>* job = job_;
  lock.unlock();
  (*job)(i);
  lock.lock();
  if (++finished_ == count_) done_.notify_all();
  return true;
}

void ThreadPool::work() {
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || (job_ && batch_ != seen && next_ < count_); });
      if (stop_) return;
      seen = batch_;
    }
    while (take_and_run()) {
    }
  }
}

void ThreadPool::run(uint32_t count, const std::function<void(uint32_t)>& job) {
  if (count == 0) return;
  {
    std::lock_guard lock(mutex_);
    job_ = &job;
    count_ = count;
    next_ = finished_ = 0;
    ++batch_;
  }
  wake_.notify_all();
  while (take_and_run()) {
  }
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return finished_ == count_; });
  job_ = nullptr;
}

}  // namespace baton::runtime
