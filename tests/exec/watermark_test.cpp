// FrameWatermark load test on lavapipe: many frames in flight with random work sizes; each frame's
// last command writes its frame number into a buffer the frame owns, and the CPU poisons that
// buffer when it reuses it. A slot recycled before its frame completed would show the poison (or
// an older frame) instead of its frame number; a slot held past the poll that saw completion is a
// late recycle. Both must never happen, and a deliberate early recycle must be caught.
#include <atomic>
#include <thread>

#include "baton/exec_watermark.hpp"
#include "exec_fixture.hpp"
#include "random_exec_recording.hpp"

namespace baton::exec::test {
namespace {

constexpr uint32_t kPoison = 0xDEAD0000u;

struct Buffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint32_t* map = nullptr;
};

class LoadRig {
 public:
  explicit LoadRig(VulkanContext& ctx, uint32_t slots) : ctx_(ctx), dev_(ctx.device()) {
    VkSemaphoreTypeCreateInfo tci{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
    tci.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
    VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    sci.pNext = &tci;
    EXPECT_EQ(vkCreateSemaphore(dev_, &sci, nullptr, &timeline), VK_SUCCESS);
    EXPECT_EQ(vkCreateSemaphore(dev_, &sci, nullptr, &gate), VK_SUCCESS);
    VkCommandPoolCreateInfo cpi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpi.queueFamilyIndex = ctx.queue_family();
    cpi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    EXPECT_EQ(vkCreateCommandPool(dev_, &cpi, nullptr, &pool_), VK_SUCCESS);
    scratch_ = make(kScratchBytes);
    for (uint32_t i = 0; i < slots; ++i) {
      owned.push_back(make(256));
      VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
      ai.commandPool = pool_;
      ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
      ai.commandBufferCount = 1;
      VkCommandBuffer cb;
      EXPECT_EQ(vkAllocateCommandBuffers(dev_, &ai, &cb), VK_SUCCESS);
      cbs_.push_back(cb);
    }
  }
  ~LoadRig() {
    vkDeviceWaitIdle(dev_);
    vkQueueWaitIdle(ctx_.queue());
    for (Buffer& b : owned) destroy(b);
    destroy(scratch_);
    vkDestroyCommandPool(dev_, pool_, nullptr);
    vkDestroySemaphore(dev_, timeline, nullptr);
    vkDestroySemaphore(dev_, gate, nullptr);
  }

  // Frame `value` in `slot`: `fills` fills of the scratch buffer of `bytes` each (the random work),
  // then the frame number into the frame-owned buffer, last. `gate_value` > 0: the work waits until the
  // host signals `gate` to that value (open()).
  void submit(uint32_t slot, uint64_t value, uint32_t fills, VkDeviceSize bytes, uint64_t gate_value = 0) {
    VkCommandBuffer cb = cbs_[slot];
    vkResetCommandBuffer(cb, 0);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cb, &bi);
    // Orders this frame's transfers after the previous frames' (the scratch buffer is shared).
    VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
    mb.srcStageMask = mb.dstStageMask = VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT;
    mb.srcAccessMask = mb.dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    di.memoryBarrierCount = 1;
    di.pMemoryBarriers = &mb;
    vkCmdPipelineBarrier2(cb, &di);
    for (uint32_t i = 0; i < fills; ++i) {
      vkCmdFillBuffer(cb, scratch_.buffer, 0, bytes, static_cast<uint32_t>(value + i));
      vkCmdPipelineBarrier2(cb, &di);  // the fills of one frame overwrite each other in order
    }
    vkCmdFillBuffer(cb, owned[slot].buffer, 0, VK_WHOLE_SIZE, static_cast<uint32_t>(value));
    vkEndCommandBuffer(cb);
    VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
    cbi.commandBuffer = cb;
    VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    signal.semaphore = timeline;
    signal.value = value;
    signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    si.commandBufferInfoCount = 1;
    si.pCommandBufferInfos = &cbi;
    si.signalSemaphoreInfoCount = 1;
    si.pSignalSemaphoreInfos = &signal;
    VkSemaphoreSubmitInfo wait{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    wait.semaphore = gate;
    wait.value = gate_value;
    wait.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    if (gate_value > 0) {
      si.waitSemaphoreInfoCount = 1;
      si.pWaitSemaphoreInfos = &wait;
    }
    EXPECT_EQ(vkQueueSubmit2(ctx_.queue(), 1, &si, VK_NULL_HANDLE), VK_SUCCESS);
  }
  void open(uint64_t gate_value) {
    VkSemaphoreSignalInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
    si.semaphore = gate;
    si.value = gate_value;
    EXPECT_EQ(vkSignalSemaphore(dev_, &si), VK_SUCCESS);
  }
  void wait(uint64_t value) {
    VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
    wi.semaphoreCount = 1;
    wi.pSemaphores = &timeline;
    wi.pValues = &value;
    vkWaitSemaphores(dev_, &wi, UINT64_MAX);
  }

  static constexpr VkDeviceSize kScratchBytes = 8u << 20;
  VkSemaphore timeline = VK_NULL_HANDLE;
  VkSemaphore gate = VK_NULL_HANDLE;  // host-signalled: holds a frame's work back (EarlyRecycleIsDetected)
  std::vector<Buffer> owned;

 private:
  Buffer make(VkDeviceSize bytes) {
    Buffer b;
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = bytes;
    bi.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    EXPECT_EQ(vkCreateBuffer(dev_, &bi, nullptr, &b.buffer), VK_SUCCESS);
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(dev_, b.buffer, &mr);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = mr.size;
    ai.memoryTypeIndex = ctx_.host_memory_type();
    EXPECT_EQ(vkAllocateMemory(dev_, &ai, nullptr, &b.memory), VK_SUCCESS);
    vkBindBufferMemory(dev_, b.buffer, b.memory, 0);
    void* p = nullptr;
    vkMapMemory(dev_, b.memory, 0, VK_WHOLE_SIZE, 0, &p);
    b.map = static_cast<uint32_t*>(p);
    return b;
  }
  void destroy(Buffer& b) {
    vkDestroyBuffer(dev_, b.buffer, nullptr);
    vkFreeMemory(dev_, b.memory, nullptr);
  }
  VulkanContext& ctx_;
  VkDevice dev_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  Buffer scratch_;
  std::vector<VkCommandBuffer> cbs_;
};

TEST(FrameWatermark, RecyclesExactlyWhenCompleteUnderLoad) {
  VulkanContext& ctx = lavapipe();
  (void)ctx.take_messages();
  constexpr uint32_t kSlots = 6, kFrames = 240;
  LoadRig rig(ctx, kSlots);
  FrameWatermark wm(ctx.device(), rig.timeline);
  FrameRecycler<uint32_t> recycler;
  std::vector<uint32_t> free_slots;
  for (uint32_t i = 0; i < kSlots; ++i) free_slots.push_back(i);

  // A reader on another thread: the watermark only ever moves forward.
  std::atomic<bool> done{false};
  std::atomic<uint32_t> backwards{0};
  std::thread reader([&] {
    uint64_t last = 0;
    while (!done.load()) {
      const uint64_t v = wm.completed();
      if (v < last) ++backwards;
      last = v;
    }
  });

  uint32_t early = 0, late = 0, released = 0, polls = 0;
  uint64_t max_in_flight = 0;
  auto poll_and_recycle = [&] {
    const uint64_t done_value = wm.poll();
    ++polls;
    for (auto& [frame, slot] : recycler.collect(wm)) {
      ++released;
      if (frame > done_value) ++early;
      // The frame's last command wrote its number: anything else means the GPU had not finished.
      if (rig.owned[slot].map[0] != static_cast<uint32_t>(frame)) ++early;
      free_slots.push_back(slot);
    }
    // Held past the poll that saw its completion?
    for (const auto& h : recycler.held())
      if (h.first <= done_value) ++late;
  };

  Prng rng(7);
  for (uint32_t f = 0; f < kFrames; ++f) {
    while (free_slots.empty()) poll_and_recycle();
    const uint32_t slot = free_slots.back();
    free_slots.pop_back();
    rig.owned[slot].map[0] = kPoison | f;  // CPU reuse of the frame-owned buffer
    const uint64_t frame = wm.begin_frame();
    rig.submit(slot, frame, rng.in(0, 6), VkDeviceSize{rng.in(1, 64)} << 16);
    recycler.retire(frame, slot);
    max_in_flight = std::max(max_in_flight, wm.submitted() - wm.completed());
    if (rng.chance(50)) poll_and_recycle();
  }
  rig.wait(wm.submitted());
  poll_and_recycle();
  done = true;
  reader.join();

  std::printf(
      "watermark: %u frames, %u slots, up to %llu frames in flight, %u polls, %u released, %u early, %u "
      "late\n",
      kFrames, kSlots, static_cast<unsigned long long>(max_in_flight), polls, released, early, late);
  EXPECT_EQ(early, 0u);
  EXPECT_EQ(late, 0u);
  EXPECT_EQ(backwards.load(), 0u);
  EXPECT_EQ(released, kFrames);
  EXPECT_GE(max_in_flight, 3u);
  const ValidationLog log = ctx.take_messages();
  EXPECT_TRUE(log.empty()) << log.total() << " validation messages, first: "
                           << (log.texts.empty() ? std::string() : log.texts.front().second);
}

// The detector itself: recycling without looking at the watermark sees the poison instead of the
// frame number. The frame's work waits for a semaphore the host signals only after the early look,
// so the GPU cannot have finished it whatever its speed (the H200 finished 8 fills of 8 MiB before
// the host looked, once in a whole-suite run, when the work alone held it back).
TEST(FrameWatermark, EarlyRecycleIsDetected) {
  VulkanContext& ctx = lavapipe();
  LoadRig rig(ctx, 1);
  uint32_t caught = 0;
  constexpr uint32_t kFrames = 5;
  for (uint64_t frame = 1; frame <= kFrames; ++frame) {
    rig.owned[0].map[0] = kPoison;
    rig.submit(0, frame, 8, LoadRig::kScratchBytes, /*gate_value=*/frame);
    if (rig.owned[0].map[0] != static_cast<uint32_t>(frame)) ++caught;  // early: not written yet
    rig.open(frame);
    rig.wait(frame);
    EXPECT_EQ(rig.owned[0].map[0], static_cast<uint32_t>(frame));  // after completion: always right
  }
  EXPECT_EQ(caught, kFrames);
  const ValidationLog log = ctx.take_messages();
  EXPECT_TRUE(log.empty()) << log.total() << " validation messages, first: "
                           << (log.texts.empty() ? std::string() : log.texts.front().second);
}

}  // namespace
}  // namespace baton::exec::test
