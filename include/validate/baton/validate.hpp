// Baton's validator: replays an API-level trace (D3D12 legacy resource states, D3D12 enhanced
// barriers, Vulkan synchronization2) against per-subresource shadow state and reports what the
// D3D12 debug layer / the Khronos validation layer would report, as messages from one catalog
// (validate_catalog.hpp). The trace format is docs/trace-format.md (schema: docs/trace.schema.json).
//
// Independence (DESIGN.md): nothing here uses the planner or the lowering tables; names and rules
// are written from the API documentation. State, sync, access and layout values are the APIs' own
// numeric enumerator values (D3D12_RESOURCE_STATES, D3D12_BARRIER_SYNC/ACCESS/LAYOUT,
// VkPipelineStageFlags2, VkAccessFlags2, VkImageLayout).
#pragma once

#include <baton/validate_catalog.hpp>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace baton::validate {

enum class Api : uint8_t { d3d12, vulkan };
enum class QueueType : uint8_t { direct, compute, copy };
enum class Heap : uint8_t { default_heap, upload, readback };

// Resource creation flags (bit set).
namespace flag {
inline constexpr uint32_t simultaneous_access = 1u << 0;
inline constexpr uint32_t render_target = 1u << 1;
inline constexpr uint32_t depth_stencil = 1u << 2;
inline constexpr uint32_t unordered_access = 1u << 3;
inline constexpr uint32_t placed = 1u << 4;
inline constexpr uint32_t swapchain = 1u << 5;
inline constexpr uint32_t concurrent = 1u << 6;  // Vulkan VK_SHARING_MODE_CONCURRENT
}  // namespace flag

// Memory placement (aliasing): resources placed in one heap at byte offsets may share memory. The
// validator tracks which resource occupies each byte range (docs/trace-format.md, "Heaps").
struct TraceHeap {
  std::string name;
  uint64_t bytes = 0;
};
inline constexpr int kNotPlaced = -1;
struct TracePlacement {
  int heap = kNotPlaced;  // index into Trace::heaps; kNotPlaced: memory of its own
  uint64_t offset = 0, bytes = 0;
};

inline constexpr int kNoSwapchain = -1;
struct TraceResource {
  std::string name;
  bool buffer = false;
  uint32_t mips = 1, layers = 1, planes = 1;
  uint32_t flags = 0;
  Heap heap = Heap::default_heap;
  // D3D12: legacy initial state ("initial"), or an enhanced initial layout ("initial_layout").
  // Vulkan: the initial image layout ("initial", default UNDEFINED).
  uint32_t initial = 0;
  bool initial_is_layout = false;
  TracePlacement placement;
  // Vulkan: a swapchain image ("swapchain": "name"): index into Trace::swapchains (kNoSwapchain: none)
  // and its index among that swapchain's images (the order of the resources naming it). Its memory is
  // the presentation engine's: acquire and present steps hand it over (docs/trace-format.md, "Swapchains").
  int swapchain = kNoSwapchain;
  uint32_t image_index = 0;
  uint32_t subresource_count() const { return mips * layers * planes; }
};

inline constexpr int64_t kAllSubresources = -1;
inline constexpr int kNoResource = -1;  // NULL resource (UAV/aliasing barriers, global barriers)

// A box over mip x layer x plane; `all` covers the whole resource.
struct TraceRange {
  bool all = true;
  uint32_t mip0 = 0, mips = 0, layer0 = 0, layers = 0, plane0 = 0, planes = 0;
  friend bool operator==(const TraceRange&, const TraceRange&) = default;
};

// Bytes of a buffer: [offset, offset + size); size kWholeSize = to the end (VK_WHOLE_SIZE).
inline constexpr uint64_t kWholeSize = ~uint64_t{0};
struct ByteRange {
  uint64_t offset = 0, size = kWholeSize;
  bool whole() const { return offset == 0 && size == kWholeSize; }
  uint64_t end() const { return size == kWholeSize ? kWholeSize : offset + size; }
  friend bool operator==(const ByteRange&, const ByteRange&) = default;
};

// Which subresources a use, clear or discard touches: one index (mip + layer * mips + plane *
// mips * layers), a range, or all; for a buffer also which bytes ("offset", "size").
struct Subresources {
  int64_t index = kAllSubresources;
  TraceRange range;  // used when index == kAllSubresources
  ByteRange bytes;   // buffers
};

enum class Split : uint8_t { none, begin_only, end_only };

struct LegacyTransition {
  int resource = kNoResource;
  int64_t subresource = kAllSubresources;
  uint32_t before = 0, after = 0;
  Split split = Split::none;
  friend bool operator==(const LegacyTransition&, const LegacyTransition&) = default;
};
struct LegacyUav {
  int resource = kNoResource;
  Split split = Split::none;
};
struct LegacyAliasing {
  int before = kNoResource, after = kNoResource;
  Split split = Split::none;
};
enum class EnhancedKind : uint8_t { texture, buffer, global };
struct EnhancedBarrier {
  EnhancedKind kind = EnhancedKind::texture;
  int resource = kNoResource;
  TraceRange range;
  uint32_t sync_before = 0, sync_after = 0;
  uint32_t access_before = 0, access_after = 0;
  uint32_t layout_before = 0, layout_after = 0;
  bool discard = false;
  friend bool operator==(const EnhancedBarrier&, const EnhancedBarrier&) = default;
};
enum class VkBarrierKind : uint8_t { image, buffer, memory };
inline constexpr uint32_t kVkQueueFamilyIgnored = 0xffffffffu;
struct VkBarrier {
  VkBarrierKind kind = VkBarrierKind::memory;
  int resource = kNoResource;
  TraceRange range;
  uint64_t src_stage = 0, src_access = 0, dst_stage = 0, dst_access = 0;
  uint32_t old_layout = 0, new_layout = 0;
  uint32_t src_family = kVkQueueFamilyIgnored, dst_family = kVkQueueFamilyIgnored;
  ByteRange bytes;  // buffer barriers: offset / size
  friend bool operator==(const VkBarrier&, const VkBarrier&) = default;
};
using Barrier = std::variant<LegacyTransition, LegacyUav, LegacyAliasing, EnhancedBarrier, VkBarrier>;

// What a use needs. D3D12: a legacy state (for subresources under enhanced barriers it is read as
// the matching access). Vulkan: stage, access and (images) layout.
struct UseState {
  uint32_t d3d12_state = 0;
  uint64_t vk_stage = 0, vk_access = 0;
  uint32_t vk_layout = 0;
};

struct BarrierCmd {
  std::vector<Barrier> barriers;  // one ResourceBarrier / Barrier / vkCmdPipelineBarrier2 call
  // Vulkan: VkDependencyInfo::dependencyFlags has VK_DEPENDENCY_BY_REGION_BIT (framebuffer-local).
  bool by_region = false;
};
struct UseCmd {
  int resource = kNoResource;
  Subresources subresources;
  UseState as;
};
struct DiscardCmd {
  int resource = kNoResource;
  Subresources subresources;
};
struct ClearCmd {  // ClearRenderTargetView / ClearDepthStencilView / ClearUnorderedAccessView*
  int resource = kNoResource;
  Subresources subresources;
  UseState as;
};
// Vulkan events (split barriers): vkCmdSetEvent2(event, dependency) and vkCmdWaitEvents2 over one or
// more events, each with its dependency. `event` indexes Trace::events.
struct SetEventCmd {
  int event = 0;
  std::vector<Barrier> barriers;  // the VkDependencyInfo (VkBarrier only)
};
struct WaitEventsCmd {
  struct Wait {
    int event = 0;
    std::vector<Barrier> barriers;
  };
  std::vector<Wait> waits;
};
// Vulkan dynamic rendering: vkCmdBeginRendering with its attachments (one subresource each, the whole
// render area), and vkCmdEndRendering. The load operation accesses each attachment at the begin, the
// store operation at the end (docs/trace-format.md, "Dynamic rendering"); the loader pairs them in a list.
enum class LoadOp : uint8_t { load, clear, dont_care, none };
enum class StoreOp : uint8_t { store, dont_care, none };
struct RenderingAttachment {
  int resource = kNoResource;
  uint32_t subresource = 0;
  uint32_t layout = 0;  // VkRenderingAttachmentInfo::imageLayout
  LoadOp load = LoadOp::load;
  StoreOp store = StoreOp::store;
  bool depth = false;  // pDepthAttachment (else an element of pColorAttachments)
  friend bool operator==(const RenderingAttachment&, const RenderingAttachment&) = default;
};
struct BeginRenderingCmd {
  std::vector<RenderingAttachment> attachments;
};
struct EndRenderingCmd {};

// Vulkan secondary command buffers: vkCmdExecuteCommands in a primary list, executing the secondary
// lists named (indexes into Trace::lists), in order, as if their commands were recorded there.
struct ExecuteCmd {
  std::vector<int> lists;
};
using Command = std::variant<BarrierCmd, UseCmd, DiscardCmd, ClearCmd, SetEventCmd, WaitEventsCmd, ExecuteCmd,
                             BeginRenderingCmd, EndRenderingCmd>;

struct TraceList {
  std::string name;
  QueueType type = QueueType::direct;
  std::vector<Command> commands;
  // Vulkan: VK_COMMAND_BUFFER_LEVEL_SECONDARY ("level": "secondary"): only executed by an ExecuteCmd of a
  // primary list, never named by a submission.
  bool secondary = false;
};

// VkPipelineStageFlags2 of a semaphore wait written as a plain name (VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT).
inline constexpr uint64_t kVkAllCommands = 0x10000;
// A host wait performed before a submission is made (Vulkan): vkWaitForFences (then vkResetFences) on a
// fence, vkWaitSemaphores on a timeline value, vkQueueWaitIdle, vkDeviceWaitIdle.
struct HostWait {
  enum class Kind { fence, semaphore, queue, device } kind = Kind::device;
  std::string name;  // the fence, semaphore or queue
  uint64_t value = 0;
  friend bool operator==(const HostWait&, const HostWait&) = default;
};
// A host signal (vkSignalSemaphore) of a timeline semaphore to a value, made before a submission.
struct HostSignal {
  std::string semaphore;
  uint64_t value = 0;
  friend bool operator==(const HostSignal&, const HostSignal&) = default;
};
// An entry of "submissions": a vkQueueSubmit2 / ExecuteCommandLists, or a swapchain step (Vulkan):
// `acquire` is vkAcquireNextImageKHR of `image` (host-side, signalling the binary semaphore in `signal`
// and/or the fence in `fence`); `present` is vkQueuePresentKHR of `image` on `queue`, waiting the binary
// semaphores in `wait`. A step has no lists.
enum class Step : uint8_t { submit, acquire, present };
struct TraceSubmission {
  Step step = Step::submit;
  int image = -1;  // acquire / present: the swapchain image (a resource index)
  std::string queue;
  QueueType type = QueueType::direct;
  uint32_t family = 0;  // Vulkan queue family (default: direct 0, compute 1, copy 2)
  std::vector<int> lists;
  std::vector<std::string> wait, signal;
  // Vulkan, per entry of `wait` (when shorter: ALL_COMMANDS): the VkSemaphoreSubmitInfo::stageMask.
  std::vector<uint64_t> wait_stage;
  // Vulkan timeline semaphores, per entry of `wait` / `signal` (when shorter, or nullopt: binary).
  std::vector<std::optional<uint64_t>> wait_value, signal_value;
  // Vulkan, per entry of `signal` (when shorter: ALL_COMMANDS): the VkSemaphoreSubmitInfo::stageMask,
  // which limits the signal's first synchronization scope to those stages and the logically earlier ones.
  std::vector<uint64_t> signal_stage;
  // Vulkan: vkSignalSemaphore calls made on the host before this submission (after its host waits):
  // timeline semaphores only, each raising the value.
  std::vector<HostSignal> host_signal;
  std::string fence;                // Vulkan: the fence this vkQueueSubmit2 signals ("" none)
  std::vector<HostWait> host_wait;  // Vulkan: host waits made before this submission
  std::vector<int> present;         // resources presented after the lists ran

  uint64_t wait_stage_of(size_t i) const { return i < wait_stage.size() ? wait_stage[i] : kVkAllCommands; }
  std::optional<uint64_t> wait_value_of(size_t i) const {
    return i < wait_value.size() ? wait_value[i] : std::nullopt;
  }
  uint64_t signal_stage_of(size_t i) const {
    return i < signal_stage.size() ? signal_stage[i] : kVkAllCommands;
  }
  std::optional<uint64_t> signal_value_of(size_t i) const {
    return i < signal_value.size() ? signal_value[i] : std::nullopt;
  }
};

struct Trace {
  std::string source;  // file name (for error lines)
  Api api = Api::d3d12;
  std::vector<TraceHeap> heaps;
  std::vector<TraceResource> resources;
  std::vector<TraceList> lists;
  std::vector<TraceSubmission> submissions;
  std::vector<std::string> events;  // Vulkan: names of the VkEvents set and waited on, in first-use order
  std::vector<std::string> swapchains;  // Vulkan: names of the swapchains, in first-use order
};

// Parses a trace. Throws baton::Error with one line (naming `source` and the JSON path) on
// malformed JSON, unknown names, unknown resources or lists, and out-of-range subresources in
// uses, clears and discards, and placements outside their heap. Out-of-range subresources in *barriers* are
// not input errors: they are what the debug layer reports (521, 1355), so they become messages.
Trace load_trace(std::string_view json, std::string_view source = "trace");
// Reads and parses a file; throws baton::Error when it cannot be read.
Trace load_trace_file(const std::string& path);

struct Message {
  MessageId id{};
  std::string list;          // empty for submission-level messages
  int command = -1;          // index of the command in its list; -1 if none
  std::string resource;      // empty if none
  int64_t subresource = -1;  // first offending subresource; -1 if none / whole resource
  std::string text;          // full one-line text, location included
};

struct ValidationResult {
  std::vector<Message> messages;        // in replay order
  std::map<uint32_t, uint32_t> counts;  // numeric id -> number of messages
  uint32_t errors = 0, warnings = 0;
  // Coverage, for --compare: resources in the trace and distinct subresources any command touched.
  uint32_t resources_tracked = 0;
  uint64_t subresources_visited = 0;
  bool clean() const { return messages.empty(); }
  uint32_t count(MessageId id) const;
};

// The replay's hard limits (docs/trace-format.md, "Cost and limits"): shadow state is kept as runs of
// equal values over each resource's subresource index; at most kMaxReplayRuns runs may be alive at
// once and the replay may visit at most kMaxReplayVisits runs in all. Past either, validate() throws
// Error naming the trace and the JSON pointer of the command (or submission) that crossed it.
inline constexpr uint64_t kMaxReplayRuns = uint64_t{1} << 22;
inline constexpr uint64_t kMaxReplayVisits = uint64_t{1} << 28;

// Switches for differential testing against an older Khronos layer; the defaults are the spec.
struct ValidateOptions {
  uint64_t max_runs = kMaxReplayRuns, max_visits = kMaxReplayVisits;  // (lowered by tests)
  // Vulkan: a buffer or image barrier is also an execution dependency for all earlier work in its
  // source stages, on every resource (the spec). false: only on its own resource, as the Khronos
  // layer did for synchronization2 barriers until Vulkan-ValidationLayers PR #10524 (2025; the
  // Debian layer here is 1.3.239), which then reports write-after-read hazards the spec does not.
  bool vk_barrier_orders_all_resources = true;
  // Vulkan: apply those execution dependencies to every resource at every barrier call (the
  // reference the lazy per-queue log is tested against: same verdicts, cost O(calls x resources)).
  bool vk_eager_execution_dependencies = false;
};

ValidationResult validate(const Trace& trace, const ValidateOptions& options = {});

// Reports: text (one message a line, then counts and the summary) and JSON
// ({"messages":[...],"counts":{id:n},"summary":{"errors":N,"warnings":M}}).
std::string to_text(const ValidationResult& r);
std::string to_json(const ValidationResult& r);

// Before/after comparison (`baton validate --compare BEFORE AFTER`): counts by id on both sides,
// and `suppressed` when errors dropped while the tracked resources or the visited subresources
// shrank: a problem hidden by tracking less, not fixed.
struct Comparison {
  ValidationResult before, after;
  bool suppressed = false;
};
Comparison compare(const Trace& before, const Trace& after);
std::string to_text(const Comparison& c);
std::string to_json(const Comparison& c);

}  // namespace baton::validate
