// Baton runtime (Vulkan): what an engine calls every frame. What the backends share (Result,
// JobSystem, Res, Use, placement helpers) is in runtime_common.hpp; D3D12: runtime_d3d12.hpp.
//
//   Runtime rt = Runtime::create(device_desc);          // the engine's VkDevice and queues
//   Frame& f = rt.begin_frame();
//   Res hdr   = f.create_image("hdr", image_info);       // transient: placed in shared memory
//   Res back  = f.import_image("backbuffer", img, info, Access::render_target);
//   f.add_pass({"lighting", Queue::direct, false, false, {{hdr, Access::render_target}},
//               [&](PassContext& c) { vkCmdBeginRendering(c.cmd, ...); }});
//   Result<FrameInfo> r = rt.submit(f);                  // compile -> memory -> record -> submit
//   ... rt.completed() >= r.value().ticket once the GPU is done with the frame.
//
// Per frame, `submit` builds a frame graph from the declarations, asks the device for the real
// memory requirements of every transient (vkGet{Image,Buffer}MemoryRequirements), lets the graph's
// aliasing phase place them with those sizes and alignments, binds them into one VkDeviceMemory at
// the planned offsets (so memory is really shared), records one command buffer per list (pass)
// through the engine's job system with the planned barriers around each pass's callback, and
// submits one vkQueueSubmit2 per group with the schedule's cross-queue waits as semaphores
// (timeline semaphores per queue, plus one binary semaphore per wait because the Khronos layer
// 1.3.239 does not follow timeline waits between queues). The frame's objects are retired when
// the GPU has finished it (the completion watermark).
//
// Errors are values at this boundary: no call below throws (the text names the pass, resource and
// subresource, as the compiler's errors do). docs/runtime.md is the integration guide.
//
// Per API: Vulkan only (sync2, vkQueueSubmit2, timeline semaphores; Vulkan 1.3). Async compute uses
// VK_SHARING_MODE_CONCURRENT for transients by default; EXCLUSIVE resources used on two queue
// families get queue-family ownership transfers (RuntimeOptions::transient_sharing, docs/runtime.md).
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "baton/core.hpp"
#include "baton/graph.hpp"
#include "baton/runtime_common.hpp"
#include "baton/lower_vulkan.hpp"

namespace baton::runtime {

struct QueueDesc {
  VkQueue queue = VK_NULL_HANDLE;
  uint32_t family = 0;
};

// The engine's device. The graphics queue's family must support graphics and compute. Without a
// compute queue, async passes run on the graphics queue (still ordered by semaphores as the
// schedule says, since their barriers name only compute stages).
struct DeviceDesc {
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  QueueDesc graphics;
  std::optional<QueueDesc> compute;
};

struct RuntimeOptions {
  JobSystem jobs;            // empty: the runtime's own thread pool
  uint32_t threads = 0;      // own pool size and record job count; 0 = hardware concurrency (at most 8)
  uint32_t frames_in_flight = 2;  // begin_frame waits for the frame this many frames back
  bool aliasing = true;      // transients share memory (false: each at its own offset)
  graph::ScheduleOptions schedule;
  bool checks = true;        // the frame graph's checks (coverage, resting, aliasing, serial order)
  // Transients used on two queue families: VK_SHARING_MODE_CONCURRENT (the default, run on the
  // H200 in earlier rounds), or EXCLUSIVE with queue-family ownership transfers (release/acquire
  // pairs, docs/runtime.md; a transient pairs cannot hand over fails the frame naming it), or
  // automatic: EXCLUSIVE where pairs can hand the transient over, CONCURRENT otherwise (two families
  // use it with no order between them), each such one with its reason in FrameInfo::concurrent_why.
  // Imported EXCLUSIVE resources always get the pairs.
  enum class Sharing : uint8_t { concurrent, exclusive, automatic };
  Sharing transient_sharing = Sharing::concurrent;
  // GPU timestamps, read by Runtime::timings (FrameTimings::valid false where a queue family the
  // frame uses has no timestamp bits):
  //   frame: the first list on each queue starts with a TOP_OF_PIPE timestamp and the last list on
  //          each queue ends with an ALL_COMMANDS one: the frame's span, without disturbing it;
  //   lists: every list does both. An ALL_COMMANDS timestamp after each pass makes some drivers
  //          (NVIDIA's, measured on the H200) wait for the queue to drain there, so use it for the
  //          passes' own durations in a frame that runs them one at a time, not for overlap.
  enum class Timestamps : uint8_t { off, frame, lists };
  Timestamps timestamps = Timestamps::off;
  // What barriers are recorded, for measuring what they cost (issue 17; docs/runtime.md):
  //   planned: Baton's plan (the only mode for rendering);
  //   full:    the plan's barriers widened to ALL_COMMANDS / MEMORY_READ|MEMORY_WRITE on both sides,
  //            after one such global barrier before every list: every pass drains everything before it;
  //   none:    UNSAFE, a lower bound only: the plan's layout transitions and ownership transfers with
  //            no stages and no accesses, nothing else (the layer reports hazards; data may be wrong).
  enum class Barriers : uint8_t { planned, full, none };
  Barriers barriers = Barriers::planned;
  // Split barriers (graph::CompileOptions::split_barriers; planned barriers only): a barrier with
  // independent work between its producer and its consumer becomes vkCmdSetEvent2 after the producer
  // and vkCmdWaitEvents2 before the consumer, also across the command buffers of one group. The
  // runtime creates the frame's VkEvents and destroys them when the frame retires.
  bool split_barriers = false;
};

struct PassContext {
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  uint32_t queue_family = 0;
  std::string_view pass;
  // Native handles of the resources this pass declared (VK_NULL_HANDLE for a resource the pass did
  // not declare, or of the other kind: a pass touches only what it declared).
  VkImage image(Res r) const;
  VkBuffer buffer(Res r) const;
  // The layout Baton's barriers put one subresource of a declared image in for this pass (merged
  // reads may give GENERAL or DEPTH_STENCIL_READ_ONLY_OPTIMAL rather than the access's own layout);
  // VK_IMAGE_LAYOUT_UNDEFINED for what the pass did not declare.
  VkImageLayout layout(Res r, uint32_t mip = 0, uint32_t layer = 0, uint32_t plane = 0) const;
  // A view of a declared image (range resolved against the image; format UNDEFINED = the image's),
  // owned by the runtime and destroyed when the frame retires. VK_NULL_HANDLE if not declared.
  VkImageView view(Res r, const SubresourceRange& range = {}, VkImageViewType type = VK_IMAGE_VIEW_TYPE_2D,
                   VkFormat format = VK_FORMAT_UNDEFINED) const;
  const void* frame = nullptr;  // internal
  const void* list = nullptr;   // internal
};

struct PassDesc {
  std::string name;
  Queue queue = Queue::direct;  // capability: direct (graphics), compute, copy
  bool async = false;           // on its own queue (async compute / copy)
  bool side_effect = false;     // never culled
  std::vector<Use> uses;
  std::function<void(PassContext&)> execute;  // records the pass's commands; may be empty
};

class Frame;

// Memory really used by the frame's transients.
struct MemoryInfo {
  uint32_t heaps = 0;           // VkDeviceMemory allocations bound to transients
  uint64_t heap_bytes = 0;      // their size
  uint64_t aliased_bytes = 0;   // bytes bound to more than one resource
  uint64_t unaliased_bytes = 0; // what one allocation per transient would have needed
  uint64_t alignment = 0;       // the placement alignment used
  uint32_t memory_type = 0;
};

struct FrameInfo {
  uint64_t ticket = 0;  // completed() >= ticket: the GPU has finished the frame
  MemoryInfo memory;
  uint32_t groups = 0, submits = 0, command_buffers = 0, barriers = 0, barrier_calls = 0;
  uint32_t semaphore_waits = 0, culled = 0;
  uint32_t ownership_transfers = 0;  // release/acquire pairs recorded (exclusive resources across families)
  // Sharing::automatic, two families: transients used on both created EXCLUSIVE, and those created
  // CONCURRENT with the reason for each (Runtime::exclusive_blockers' text).
  uint32_t exclusive_transients = 0, concurrent_transients = 0;
  std::vector<std::string> concurrent_why;
  uint32_t queues_used = 0;          // distinct VkQueues the groups were submitted to
  double compile_ms = 0, record_ms = 0, submit_ms = 0;
  // The compiled frame (graph, schedule, aliasing, plan), for printers and tests.
  std::shared_ptr<const graph::Graph> graph;
  std::shared_ptr<const graph::GraphCompileResult> compiled;
};

// Measured GPU times of one list (one pass, or the barriers a group starts or ends with).
struct PassTime {
  std::string pass;  // the list's name (the pass's name for a pass list)
  Queue queue = Queue::direct;  // the logical queue of its group
  uint32_t group = 0;
  // Microseconds from the frame's earliest timestamp: begin = its command buffer started (after any
  // semaphore wait), end = everything submitted on its queue up to it had finished. The queues'
  // timestamps are compared on one time base (one device; docs/runtime.md).
  double begin_us = 0, end_us = 0;
};
struct FrameTimings {
  uint64_t ticket = 0;
  bool valid = false;           // false: timestamps off, or no timestamp bits on a queue family used
  double frame_us = 0;          // latest end - earliest begin
  std::vector<PassTime> lists;  // submission order; Timestamps::frame: only the timed lists, each with
                                // the one time it has (begin_us == end_us)
};

// ---------------------------------------------------------------------------------------------
// The lower-level entry: ONE compiled frame in, memory bound, command buffers recorded, submitted.
// Runtime::submit is built on it (it builds and compiles the frame graph, creates the transients,
// then calls place() and execute()), and so are the Vulkan executor and `baton run`, which bring
// their own objects, their own per-list recording and, for mutation and reference runs, their own
// barrier streams. One path: what the executor's tests run is what an engine's frame runs.

// Binding placed resources into shared memory at planned offsets (member_placement below gives
// them from a graph compiled with set_real_sizes). The runtime reads each object's real memory
// requirements, checks that its offset is aligned and fits, allocates (or reuses) the heap and binds.
struct PlaceRequest {
  const ResourceTable* table = nullptr;  // names for messages (optional)
  // Per member of the frame's table: an unbound object to place (VK_NULL_HANDLE: not placed here).
  std::vector<VkImage> images;
  std::vector<VkBuffer> buffers;
  std::vector<uint64_t> offset;  // per member: byte offset in the heap (MemberPlacement::offset)
  uint64_t heap_size = 0;
  // Buffers the host maps (the executor reads them back): their heap is HOST_VISIBLE | HOST_COHERENT.
  // Where no memory type allows that and the placed images too, images and buffers get one heap each
  // at the same offsets, aliasing only among themselves (split_by_kind).
  bool host_visible_buffers = false;
};
struct Placement {
  MemoryInfo memory;  // heaps, heap_bytes, aliased_bytes (per heap), alignment 0 (the caller's)
  VkDeviceMemory image_heap = VK_NULL_HANDLE, buffer_heap = VK_NULL_HANDLE;  // equal for one heap
  bool split_by_kind = false;
  uint32_t placed = 0;  // objects bound
};

// What a list's record callback gets: its command buffer (begun; ended by the runtime) and the
// frame's barriers at each point of the list.
struct ListContext {
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  uint32_t group = 0, list = 0;
  uint32_t ops = 0;  // operations of the list
  uint32_t job = 0;  // the job recording it (0 .. threads - 1)
  uint32_t queue_family = 0;
  // Records the frame's barriers at operation `op`, before or after it: the plan's (or
  // Execution::barriers'), handles filled, split halves as vkCmdSetEvent2 / vkCmdWaitEvents2.
  // execute() fails naming the group, list and op when a callback records a point twice or leaves
  // one of its list's points unrecorded.
  void barriers(uint32_t op, Where where) const;
  void* state = nullptr;  // internal
};

struct Execution {
  // The compiled frame (CompiledFrame's rec.resources, rec.groups and compiled; a graph's
  // Transitions): the members, the groups in submission order with their lists, their barriers.
  const ResourceTable* table = nullptr;
  const GroupList* groups = nullptr;
  const std::vector<CompiledGroup>* compiled = nullptr;
  // Barriers to record instead of lower_vulkan(*table, *compiled): the same groups and lists, other
  // points (a mutated plan, a reference stream, or none). Null: the plan's.
  const VulkanPlan* barriers = nullptr;
  // Per group: the earlier groups it waits for. A wait across logical queues becomes a semaphore
  // wait (timeline + binary); within one logical queue, submission order already orders it.
  std::vector<std::vector<uint32_t>> waits;
  // Per member: its native handle (placed ones bound by place() first).
  std::vector<VkImage> images;
  std::vector<VkBuffer> buffers;
  // Queue-family ownership (optional, per member): exclusive and used on two families, imported
  // (contents kept across a transfer), and the layout an imported image starts the frame in.
  std::vector<uint8_t> exclusive, imported;
  std::vector<VkImageLayout> initial_layout;
  // Records one list: called once per list, on the job system's threads (lists split into
  // contiguous chunks, one chunk per job, in submission order within a chunk).
  std::function<void(ListContext&)> record;
};

class Runtime {
 public:
  static Result<std::unique_ptr<Runtime>> create(const DeviceDesc& device, RuntimeOptions options = {});
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  // Starts building a frame (waits for the frame `frames_in_flight` back and retires finished ones).
  Frame& begin_frame();
  // Compiles, places memory, records and submits the frame begun last.
  Result<FrameInfo> submit();
  // The completion watermark: the highest ticket whose frame the GPU has finished.
  uint64_t completed();
  // The CPU waits until the frame of `ticket` is finished.
  Status wait(uint64_t ticket);
  // The CPU waits until the GPU is idle on every queue the runtime uses, and retires every frame.
  Status sync();
  // Frames submitted and not yet retired.
  size_t frames_pending() const;

  // The lower-level entry (see Execution). place() binds objects into heaps that belong to the frame
  // the next execute() submits (they are reused once the GPU has finished it). execute() records
  // every list through the job system, submits one vkQueueSubmit2 per group with the waits as
  // semaphores, and returns the frame's ticket, counts and the memory place() bound.
  Result<Placement> place(const PlaceRequest& request);
  Result<FrameInfo> execute(const Execution& frame);
  // The VkQueue and family a group of logical queue `q` is submitted to.
  const QueueDesc& queue(Queue q) const;
  // Per member of `frame`, why it cannot be VK_SHARING_MODE_EXCLUSIVE between this runtime's
  // families (empty where release/acquire pairs can hand it over): two families use it with no
  // order between them (concurrent readers), or it is imported and last used off the graphics
  // family, or first used there with its contents kept. `frame.exclusive` is ignored; imported and
  // initial_layout count. For choosing each object's sharing mode before creating it (the executor's
  // automatic sharing, docs/runtime.md); handles and the record callback are not needed.
  Result<std::vector<std::string>> exclusive_blockers(const Execution& frame) const;
  // The GPU times of the frame of `ticket` (RuntimeOptions::timestamps): waits for that frame. Kept
  // for the last 16 frames retired; an older ticket is an error.
  Result<FrameTimings> timings(uint64_t ticket);

  struct Impl;

 private:
  explicit Runtime(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// One frame's declarations. Built on the engine's thread, consumed by Runtime::submit.
class Frame {
 public:
  // An image the engine owns, in the layout of `rest` at the start of the frame; Baton leaves it
  // there at the end. `rest` empty: the resting access Baton derives from the usage
  // (docs/concepts.md: sampled -> shader_resource, depth -> depth_write, ...).
  // `undefined`: the image's contents are undefined at the start of this frame (its first frame):
  // Baton's first barrier on it starts from VK_IMAGE_LAYOUT_UNDEFINED instead of its resting layout,
  // so the engine needs no transition of its own before the first frame.
  Res import_image(std::string name, VkImage image, const VkImageCreateInfo& info,
                   std::optional<Access> rest = std::nullopt, bool undefined = false);
  Res import_buffer(std::string name, VkBuffer buffer, const VkBufferCreateInfo& info);
  // Transients: created by the runtime for this frame, bound into the frame's shared memory.
  Res create_image(std::string name, const VkImageCreateInfo& info);
  Res create_buffer(std::string name, const VkBufferCreateInfo& info);
  void add_pass(PassDesc pass);
  // The frame must produce this resource (its writers are not culled).
  void output(Res r);

  struct Resource {
    std::string name;
    bool image = true, transient = false;
    VkImage vk_image = VK_NULL_HANDLE;
    VkBuffer vk_buffer = VK_NULL_HANDLE;
    VkImageCreateInfo image_info{};
    VkBufferCreateInfo buffer_info{};
    std::optional<Access> rest;
    bool undefined = false;
  };
  const std::vector<Resource>& resources() const { return resources_; }
  const std::vector<PassDesc>& passes() const { return passes_; }

 private:
  friend struct Runtime::Impl;
  friend class Runtime;
  std::vector<Resource> resources_;
  std::vector<PassDesc> passes_;
  std::vector<uint32_t> outputs_;
  std::vector<std::string> errors_;  // reported by submit
};

// ---------------------------------------------------------------------------------------------
// runtime_common.hpp's placement helpers with Vulkan's memory requirements (the executors call these).
MemoryRequirement requirement(const VkMemoryRequirements& r);
std::vector<MemoryRequirement> requirements(const std::vector<VkMemoryRequirements>& r);
inline void set_real_sizes(const graph::Graph& g, const std::vector<VkMemoryRequirements>& member_req,
                           uint64_t granularity, graph::AliasingOptions& o) {
  set_real_sizes(g, requirements(member_req), granularity, o);
}
inline MemberPlacement member_placement(const graph::Graph& g, const graph::GraphCompileResult& r,
                                        const std::vector<VkMemoryRequirements>& member_req,
                                        const graph::AliasingOptions& o) {
  return member_placement(g, r, requirements(member_req), o);
}

// Resource descriptions for the frame graph from Vulkan create infos (exposed for tests and tools).
ResourceDesc describe_image(std::string name, const VkImageCreateInfo& info);
ResourceDesc describe_buffer(std::string name, const VkBufferCreateInfo& info);

}  // namespace baton::runtime
