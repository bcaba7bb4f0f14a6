// Completion watermark: frames are numbered 1, 2, ...; frame N's last submission signals N on one
// timeline semaphore. poll() reads the counter once and publishes it; any thread reads it without
// locks. A FrameRecycler hands back what a frame owned exactly when that frame has completed:
// never earlier, and no later than the first poll that sees the completion.
//
// Per API: Vulkan timeline semaphore (vkGetSemaphoreCounterValue). D3D12: the same over an
// ID3D12Fence (GetCompletedValue).
#pragma once

#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

namespace baton::exec {

class FrameWatermark {
 public:
  FrameWatermark(VkDevice device, VkSemaphore timeline, uint64_t start = 0)
      : device_(device), timeline_(timeline), submitted_(start), completed_(start) {}

  // The value the frame about to be submitted must signal (after its last work).
  uint64_t begin_frame() { return ++submitted_; }
  uint64_t submitted() const { return submitted_; }

  // Reads the semaphore once and publishes the value; returns it.
  uint64_t poll();
  // The last published completed value: an atomic load, no lock, callable from any thread.
  uint64_t completed() const noexcept { return completed_.load(std::memory_order_acquire); }
  bool is_complete(uint64_t frame) const noexcept { return frame <= completed(); }

 private:
  static_assert(std::atomic<uint64_t>::is_always_lock_free, "the watermark must be lock-free");
  VkDevice device_;
  VkSemaphore timeline_;
  uint64_t submitted_;
  std::atomic<uint64_t> completed_;
};

// Items retired with the frame that last used them, released in frame order once complete.
template <class T>
class FrameRecycler {
 public:
  void retire(uint64_t frame, T item) { held_.emplace_back(frame, std::move(item)); }
  // Everything whose frame is complete according to the watermark's last poll.
  std::vector<std::pair<uint64_t, T>> collect(const FrameWatermark& w) {
    const uint64_t done = w.completed();
    std::vector<std::pair<uint64_t, T>> out;
    while (!held_.empty() && held_.front().first <= done) {
      out.push_back(std::move(held_.front()));
      held_.pop_front();
    }
    return out;
  }
  const std::deque<std::pair<uint64_t, T>>& held() const { return held_; }

 private:
  std::deque<std::pair<uint64_t, T>> held_;  // frames are retired in increasing order
};

}  // namespace baton::exec
