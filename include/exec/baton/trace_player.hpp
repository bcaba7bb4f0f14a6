// The trace player (`baton replay`): executes a Vulkan trace (docs/trace-format.md) through real
// API calls under the Khronos validation layer, so that the layer's verdict on a barrier stream can
// be set against Baton's validator on the same stream (docs/replay.md).
//
// Resources are created as described (every usage the uses need, each in its own memory), every
// `use`/`clear` becomes one real command touching exactly its subresources, barriers are recorded
// as written (one vkCmdPipelineBarrier2 per barrier command), submissions are vkQueueSubmit2 with
// their binary semaphores. What the player cannot express is bad input (baton::Error naming the
// trace entry), never a silent skip.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "baton/exec_vulkan.hpp"
#include "baton/validate.hpp"

namespace baton::exec {

struct ReplayReport {
  ValidationLog log;  // the layer's VALIDATION messages during the replay, by id
  uint32_t submissions = 0, command_buffers = 0, commands = 0, barriers = 0;
  uint32_t secondary_command_buffers = 0;  // recorded for executes (vkCmdExecuteCommands)
  uint32_t host_waits = 0;     // vkWaitForFences, vkWaitSemaphores, vkQueueWaitIdle, vkDeviceWaitIdle made
  uint32_t host_signals = 0;   // vkSignalSemaphore calls made
  uint32_t acquires = 0, presents = 0;  // vkAcquireNextImageKHR / vkQueuePresentKHR calls made
  uint32_t queues_used = 0;    // distinct VkQueues the submissions went to
  bool queues_merged = false;  // the trace has two queues, the device one: all ran on one VkQueue
};

// Throws baton::Error (one line naming the trace entry) for what the player cannot express: a
// D3D12 trace, depth attachments, a submission's `present` list (present steps are played, on a context
// with ContextOptions::presentation), dispatches on swapchain images, discards, a use whose stage/access has
// no one command, a layout a command cannot take, more than two queues, ownership transfers the device's
// families cannot carry. Needs no device.
void check_playable(const validate::Trace& trace);

// Plays traces on one context (pipelines are made once; each play creates and destroys its
// resources and waits for the device, so the layer's state does not carry between plays).
class TracePlayer {
 public:
  explicit TracePlayer(VulkanContext& ctx);
  ~TracePlayer();
  TracePlayer(const TracePlayer&) = delete;
  TracePlayer& operator=(const TracePlayer&) = delete;

  // check_playable, then the replay. Messages pending in the context before the call are dropped.
  ReplayReport play(const validate::Trace& trace);
  // Whether two trace queues get two VkQueues (the context has a compute-only family).
  bool has_second_queue() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The trace as the player runs it when two trace queues share one VkQueue: every submission on
// the first submission's queue and family, its lists of that type. For comparing with the
// validator (docs/replay.md).
validate::Trace merge_queues(const validate::Trace& trace);
// The trace with every execute replaced by its secondary lists' commands (what vkCmdExecuteCommands
// means: the secondaries' commands run at that point of the primary). The differential test validates
// this form too, so that its classifiers see one list per command buffer submitted.
validate::Trace inline_secondaries(const validate::Trace& trace);

}  // namespace baton::exec
