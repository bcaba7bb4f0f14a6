// Vulkan executor: runs a compiled recording on a real device under the Khronos validation layer
// (synchronization validation, submit-time checks) and checks the data every operation produced
// against a CPU reference model. docs/executor.md describes how uses become work.
//
// Per API: Vulkan only (sync2 barriers, vkQueueSubmit2, timeline semaphores, dynamic rendering).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "baton/lower_vulkan.hpp"
#include "baton/plan.hpp"
#include "baton/recording.hpp"

namespace baton::exec {

// Which physical device: Mesa's lavapipe (pinned through VK_DRIVER_FILES) or the first device that
// is not a CPU implementation.
enum class DeviceKind : uint8_t { lavapipe, gpu };
std::optional<DeviceKind> parse_device_kind(std::string_view s);
std::string_view to_string(DeviceKind d);

struct ContextOptions {
  DeviceKind device = DeviceKind::lavapipe;
  bool validation = true;  // the Khronos layer with synchronization validation + submit-time checks
  // Also create a queue of a compute-only family (when the device has one) and run compute groups
  // there. Resources are then created as RunOptions::sharing says (CONCURRENT over both families by
  // default; docs/executor.md, "Async compute"). Without such a family this changes nothing.
  bool async_compute = false;
  // Presentation (the trace player's swapchains): the instance extension VK_KHR_surface, the device
  // extension VK_KHR_swapchain, and a surface: VK_EXT_headless_surface, or where the implementation
  // lacks it (lavapipe of Mesa 22.3) VK_KHR_xcb_surface on a small window of the X server named by
  // $DISPLAY (built only where libxcb was found). Error, naming what is missing, when neither is there.
  // Off by default: only a trace with swapchain images asks for it.
  bool presentation = false;
};

// The surface a presenting context gives its swapchains (none without ContextOptions::presentation).
enum class PresentSurface : uint8_t { none, headless, xcb };
std::string_view to_string(PresentSurface s);

// VALIDATION-type messages of the layer, counted by message id (other types are ignored: the
// loader and the layer report plenty of informational text).
struct ValidationLog {
  std::map<std::string, uint32_t> counts;
  std::vector<std::pair<std::string, std::string>> texts;  // (id, text), first few per id
  // Of the messages in `counts`, those same_queue_racing() recognizes (layer 1.3.239's RACING report
  // against an access of the submitting queue itself): how many, and the first few as (text, why).
  // They stay in `counts` and total(): a consumer that excuses them says so and checks the frame by
  // another oracle first (`baton run`: Baton's validator on the frame's trace; docs/executor.md).
  uint32_t same_queue_racing = 0;
  std::vector<std::pair<std::string, std::string>> same_queue_racing_texts;
  uint32_t total() const;
  // SYNC-HAZARD-* messages.
  uint32_t hazards() const;
  bool empty() const { return counts.empty(); }
  // Counts one message (and keeps its text among the first few of its id), classifying it.
  void add(const std::string& id, const std::string& text);
};

// Whether a layer message is synchronization validation 1.3.239's RACING report against the submitting
// queue's own earlier access (docs/executor.md, "The layer's same-queue RACING report"): a
// SYNC-HAZARD-*-RACING-* found at vkQueueSubmit* whose message names, as the prior access's queue, the
// very queue of the submission (Object 0). A race needs two queues; that version also checks the other
// queue's last batch as unsynchronized ("async") work, and that batch holds the accesses it imported from
// this queue through a semaphore wait. Returns why (naming the two command buffers), or nullopt for any
// other message (a RACING report whose prior access is on another queue is a real race).
std::optional<std::string> same_queue_racing(std::string_view id, std::string_view text);
// How many messages of `log` `baton run` may excuse: its same_queue_racing() messages when the data
// matched and Baton's own validator finds nothing on the frame's trace, else none (a same-queue hazard
// the layer's RACING report might hide is Baton's validator's to find: the layer reports one hazard per
// access and checks the other queue's batch first). `batons_validator` runs Baton's validator and
// returns its message count; it is called only when there is something to excuse and the data matched.
struct Excused {
  uint32_t messages = 0;
  bool checked = false;                  // Baton's validator ran
  size_t batons_validator_messages = 0;  // what it found
};
Excused excusable_messages(const ValidationLog& log, size_t mismatches, const std::function<size_t()>& batons_validator);

class VulkanContext;

// One reserved barrier point with the barriers lowered to sync2 structures. Handles may be
// VK_NULL_HANDLE: the executor fills them from the parallel ResourceId arrays.
// Half begin / end: one half of split barriers, recorded as vkCmdSetEvent2 / vkCmdWaitEvents2 on the
// list's event `event` with this point's barriers as the dependency info (lower_vulkan.hpp).
struct ExecBarrierPoint {
  uint32_t group = 0, list = 0, op = 0;
  Where where = Where::before;
  SplitHalf half = SplitHalf::none;
  uint32_t event = 0, event_list = 0;  // the event: index `event` of list `event_list` of the group
  std::vector<VkMemoryBarrier2> memory;
  std::vector<VkBufferMemoryBarrier2> buffers;
  std::vector<ResourceId> buffer_resources;
  std::vector<VkImageMemoryBarrier2> images;
  std::vector<ResourceId> image_resources;
  size_t size() const { return memory.size() + buffers.size() + images.size(); }
};

// Every barrier point of a recording in execution order (group, list, op, before < after).
struct ExecPlan {
  std::vector<ExecBarrierPoint> points;
  size_t barrier_count() const;
};

// The lowering's output (include/lower/baton/lower_vulkan.hpp) in execution order.
ExecPlan to_exec_plan(const VulkanPlan& plan);

// Where one barrier of an ExecPlan sits, for mutation reports.
struct BarrierRef {
  size_t point = 0;
  enum class Kind : uint8_t { memory, buffer, image } kind = Kind::memory;
  size_t index = 0;
};
std::vector<BarrierRef> enumerate_barriers(const ExecPlan& plan);
std::string describe(const ExecPlan& plan, const BarrierRef& ref, const Recording& rec);

// Where barriers come from: the plan given, or the executor's own references: `full` puts every
// image in GENERAL and a full memory barrier at every point (a safe upper bound), `none` does the
// same layout set-up and then no barriers at all (an unsafe lower bound; it must show hazards).
enum class BarrierSource : uint8_t { plan, full, none };

struct RunOptions {
  BarrierSource source = BarrierSource::plan;
  std::optional<BarrierRef> skip;  // mutation: leave this one barrier out
  // Mutation: leave out the vkCmdWaitEvents2 of this point (a split barrier's end half; its event is
  // still set). The layer must then see the consumer race the producer (tests/exec).
  std::optional<size_t> skip_wait;
  bool check_data = true;
  // Fill every texture with a known value at creation, so that reads before the first write (a
  // TAA history) still give checkable data. Baton's first touch transitions from UNDEFINED, which
  // lets a driver discard contents: lavapipe keeps them, compressed GPU images may not, so this
  // applies on lavapipe only; elsewhere such reads leave their results unchecked.
  bool seed_textures = true;
  // Work sizes. Textures are created at most max_side texels on a side and buffers hold
  // 64..max_words words (the declared sizes are scaled down: the data check compares every
  // texel). Above the defaults a direct dispatch is spread over enough workgroups to cover the
  // largest resource, so that a real GPU is filled by each operation (bench/gpu_barrier_cost).
  uint32_t max_side = 16;
  uint32_t max_words = 256;
  // Extra ALU rounds per compute and fragment invocation, so that each operation takes long enough
  // to time (bench/gpu_barrier_cost). Results are unchanged. Keep it below 2^31.
  uint32_t spin = 0;
  // A group whose queue (Queue::direct / compute) differs from the group before it waits for that
  // group (timeline + binary semaphore, as between two VkQueues) even when both run on one VkQueue.
  // Frame graphs use it: the schedule's cross-queue signal/wait pairs are part of their plan (a
  // compute group's barriers name compute stages only), so a one-queue run waits where they do.
  bool sync_queue_switches = false;
  // Per group: the earlier groups it waits for, replacing the rule above (frame graphs: the
  // schedule's signal/wait pairs, runtime::group_waits, as Runtime::submit waits for an engine's
  // frame; prepare_graph_run and `baton run GRAPH` set it). Waits within one logical queue are left
  // to submission order and the plan's barriers.
  std::optional<std::vector<std::vector<uint32_t>>> waits;
  // Per-operation GPU timestamps (`baton run --timestamps`): TOP_OF_PIPE before each operation's
  // barriers, ALL_COMMANDS after its work and barriers, into RunReport::op_times. The ALL_COMMANDS
  // timestamp makes some drivers drain the queue there (the H200's), so operations then run one at a
  // time: right for their own durations, not for overlap (docs/runtime.md, "Measuring").
  bool op_timestamps = false;
  // Transients in shared memory (frame graphs, docs/runtime.md): per ResourceId the byte offset in
  // one heap of heap_size bytes (kNotPlaced: a resource of its own), from runtime::member_placement
  // over memory_requirements(). Resources a later one took over (part of) the memory of are not
  // read back: their contents are gone by design; the report counts them.
  struct SharedMemory {
    static constexpr uint64_t kNotPlaced = ~uint64_t{0};
    std::vector<uint64_t> offset;
    std::vector<uint8_t> taken_over;
    uint64_t heap_size = 0;
  };
  std::optional<SharedMemory> shared;
  // Sharing of the resources the run creates, where the device has a compute-only family
  // (`baton run --sharing`, docs/runtime.md):
  //   concurrent: VK_SHARING_MODE_CONCURRENT over both families, for every resource;
  //   exclusive:  VK_SHARING_MODE_EXCLUSIVE for every resource; the runtime moves ownership between
  //               the families with release/acquire pairs. A resource pairs cannot hand over (two
  //               families use it with no order between them, or its kept contents would start or
  //               end the frame off the graphics family, where the executor fills and reads back)
  //               makes the run fail with the reason (runtime::Runtime::exclusive_blockers);
  //   automatic:  EXCLUSIVE where pairs can hand the resource over, CONCURRENT with the reason
  //               otherwise (RunReport::sharing).
  // Needs the plan's barriers (source plan) for anything but concurrent. One family (lavapipe):
  // EXCLUSIVE objects, nothing to transfer.
  enum class Sharing : uint8_t { concurrent, exclusive, automatic };
  Sharing sharing = Sharing::concurrent;
};

// One subresource whose contents differ from the reference model.
struct Mismatch {
  ResourceId resource = 0;
  std::string resource_name;
  uint32_t mip = 0, layer = 0, plane = 0;
  uint32_t wrong = 0, checked = 0;  // texels
  uint32_t first_texel = 0;
  uint32_t expected = 0, got = 0;
};
std::string to_string(const Mismatch& m);

struct RunReport {
  ValidationLog validation;
  std::vector<Mismatch> mismatches;
  uint32_t groups = 0, ops = 0, barriers = 0, barrier_calls = 0, submits = 0;
  uint32_t subresources_checked = 0, subresources_undefined = 0;
  // Subresources with no defined texel at the end (never written, or only from undefined data):
  // the data check cannot see them, only the validation layer can.
  std::vector<std::string> undefined;
  double record_ms = 0, gpu_ms = 0, check_ms = 0;
  // GPU time of the whole frame from the runtime's frame timestamps (RuntimeOptions::Timestamps::frame:
  // the earliest list start to the latest end over the queues used), in microseconds; negative when
  // not measured (a queue family used has no timestamp bits).
  double frame_gpu_us = -1;
  // RunOptions::op_timestamps: one entry per operation in submission order, microseconds from the
  // earliest; both queues' timestamps on one time base (one device). Empty where a queue family
  // has no timestamp bits.
  struct OpTime {
    std::string group, list;
    uint32_t op = 0;
    Queue queue = Queue::direct;  // the group's
    double begin_us = 0, end_us = 0;
  };
  std::vector<OpTime> op_times;
  // Memory the resources were bound to with RunOptions::shared: allocations holding placed
  // resources, their bytes, and the bytes bound to more than one resource.
  struct Memory {
    uint32_t heaps = 0;
    uint64_t heap_bytes = 0, aliased_bytes = 0;
    uint32_t placed = 0;  // resources bound into a shared heap
    // No memory type holds both the placed images (device-local) and the placed buffers (host
    // visible, read back by the data check), as on the H200: images and buffers each get a heap of
    // the planned size and alias only among themselves. One heap for both where a type allows it
    // (lavapipe).
    bool split_by_kind = false;
  } memory;
  uint32_t subresources_taken_over = 0;  // not read back: a later transient took over their memory
  // RunOptions::sharing: how many resources were created EXCLUSIVE and CONCURRENT, the release/
  // acquire pairs recorded, and for each CONCURRENT one in automatic mode the reason.
  struct Sharing {
    std::string mode = "concurrent";  // RunOptions::sharing's name
    uint32_t exclusive = 0, concurrent = 0, ownership_transfers = 0;
    std::vector<std::pair<std::string, std::string>> concurrent_why;  // resource name, reason
  } sharing;
  uint32_t queues_used = 0;      // distinct queues the groups were submitted to
  uint32_t semaphore_waits = 0;  // timeline waits between groups on different queues
  bool clean() const { return validation.empty() && mismatches.empty(); }
};

// Instance (with the layer), messenger and device. Not thread-safe; one run at a time.
class VulkanContext {
 public:
  explicit VulkanContext(const ContextOptions& options = {});
  ~VulkanContext();
  VulkanContext(const VulkanContext&) = delete;
  VulkanContext& operator=(const VulkanContext&) = delete;

  std::string device_name() const;
  DeviceKind device_kind() const;
  bool validation_enabled() const;
  bool presentation_enabled() const;  // ContextOptions::presentation
  PresentSurface present_surface() const;
  // Messages received since the last take (setup messages included in the first).
  ValidationLog take_messages();

  // Raw handles, for work outside the executor (load tests, the GPU scripts). One queue, of a
  // family with graphics and compute; memory type: host-visible and coherent.
  VkDevice device() const;
  VkPhysicalDevice physical_device() const;
  VkQueue queue() const;
  uint32_t queue_family() const;
  uint32_t host_memory_type() const;
  // The compute-only queue family and its queue, when ContextOptions::async_compute found one.
  std::optional<uint32_t> compute_family() const;
  VkQueue compute_queue() const;
  // Queue families of the physical device that have compute but not graphics.
  static std::vector<uint32_t> compute_only_families(VkPhysicalDevice physical);

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// The canary: a known missing barrier. The oracle is live when it yields exactly one
// SYNC-HAZARD-READ-AFTER-WRITE and nothing else.
struct CanaryResult {
  bool live = false;
  ValidationLog log;
};
CanaryResult run_canary(VulkanContext& ctx);

// Runs every group of the recording once (one vkQueueSubmit2 per group, timeline signal per
// group), reads every subresource back and compares it with the reference model. Throws Error
// for uses the executor cannot turn into work (one line naming group, list, op, resource).
RunReport run(VulkanContext& ctx, const Recording& rec, const ExecPlan& plan, const RunOptions& options = {});
// The same for a recording whose resources do not all start untouched: every resource history_in
// marks touched (a frame graph's non-transient resources) starts at rest. The executor puts such
// textures into their resting layout in a set-up submission of its own before the first group,
// so the plan's first barrier (from_rest) names the layout they are in; the others start
// UNDEFINED. An empty history means every resource is untouched.
RunReport run(VulkanContext& ctx, const Recording& rec, const History& history_in, const ExecPlan& plan,
              const RunOptions& options = {});

// The memory requirements of the objects run() creates for each resource (the same create infos),
// for placing transients with real sizes (runtime::set_real_sizes).
std::vector<VkMemoryRequirements> memory_requirements(VulkanContext& ctx, const Recording& rec,
                                                      const RunOptions& options = {});

// Checks that every use of the recording can be turned into work, without a device. Throws Error.
void check_executable(const Recording& rec);

}  // namespace baton::exec
