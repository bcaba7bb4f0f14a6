#include "baton/exec_watermark.hpp"
#include "vk_util.hpp"

namespace baton::exec {

uint64_t FrameWatermark::poll() {
  uint64_t value = 0;
  BATON_VK(vkGetSemaphoreCounterValue(device_, timeline_, &value));
  // Monotonic even if two threads poll at once: only ever move the watermark forward.
  uint64_t seen = completed_.load(std::memory_order_relaxed);
  while (value > seen && !completed_.compare_exchange_weak(seen, value, std::memory_order_release)) {
  }
  return completed();
}

}  // namespace baton::exec
