// Baton runtime (D3D12): what an engine calls every frame, on its own ID3D12Device and queues.
//
//   auto rt = d3d12::Runtime::create({device, direct_queue, compute_queue});
//   d3d12::Frame& f = rt.value()->begin_frame();
//   Res hdr  = f.create_resource("hdr", hdr_desc);                       // transient: placed in a heap
//   Res back = f.import_resource("backbuffer", res, desc, D3D12_RESOURCE_STATE_COPY_SOURCE);
//   f.add_pass({"lighting", Queue::direct, false, false, {{hdr, Access::render_target}},
//               [&](d3d12::PassContext& c) { c.cmd->ClearRenderTargetView(...); }});
//   Result<d3d12::FrameInfo> r = rt.value()->submit();  // compile -> memory -> record -> submit
//
// Per frame, `submit` builds a frame graph from the declarations (runtime_common.hpp), asks the
// device for every transient's real size and alignment (GetResourceAllocationInfo), lets the
// graph's aliasing phase place them with those, creates them with CreatePlacedResource in one
// ID3D12Heap at the planned offsets (memory really shared), lowers the plan to legacy resource
// states (vkd3d has no enhanced barriers) and records one command list per pass through the
// engine's job system, Baton's ResourceBarrier calls around each pass's callback (aliasing barriers
// where a transient takes over memory), then one ExecuteCommandLists per group, with the
// schedule's cross-queue waits as ID3D12Fence Signal / Wait. A fence of the runtime's own is the
// completion watermark: a frame's heap, resources and allocators are recycled when it has passed.
//
// Errors are values: no call below throws; the text names the pass, resource and subresource.
// Where it runs here: vkd3d 1.2 on lavapipe (docs/runtime.md, "D3D12"; docs/d3d12.md says what vkd3d
// cannot do). Off Windows this header includes vkd3d's D3D12 declarations (WIDL_EXPLICIT_AGGREGATE_RETURNS
// is defined by the target: without it, struct-returning methods crash inside vkd3d).
#pragma once

#ifdef _WIN32
#include <d3d12.h>
#else
#include <vkd3d_windows.h>
// clang-format off
#include <vkd3d_d3d12.h>
// clang-format on
#endif

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "baton/runtime_common.hpp"

namespace baton::runtime::d3d12 {

// The engine's device and queues (the runtime takes a reference on each and releases it when it is
// destroyed). Without a compute (copy) queue, async compute (copy) passes are planned and run on the
// direct queue, as ordinary passes.
struct DeviceDesc {
  ID3D12Device* device = nullptr;
  ID3D12CommandQueue* direct = nullptr;
  ID3D12CommandQueue* compute = nullptr;  // optional
  ID3D12CommandQueue* copy = nullptr;     // optional
};

struct RuntimeOptions {
  JobSystem jobs;                 // empty: the runtime's own thread pool
  uint32_t threads = 0;           // own pool size and record job count; 0 = hardware concurrency (at most 8)
  uint32_t frames_in_flight = 2;  // begin_frame waits for the frame this many frames back
  bool aliasing = true;           // transients share memory (false: each at its own offset)
  graph::ScheduleOptions schedule;
  bool checks = true;             // the frame graph's checks (coverage, resting, aliasing, serial order)
  // FrameInfo::trace: the frame as recorded, in the trace format (docs/trace-format.md) for
  // `baton validate --api d3d12-legacy`: heaps and placements, every ResourceBarrier call and
  // DiscardResource issued, each pass's declared uses with the legacy state they need, and one
  // submission per ExecuteCommandLists with its fence waits and signals.
  bool record_trace = false;
  // Mutations, for tests that prove a check is live (never for rendering): leave out the
  // drop_barrier-th barrier the frame records (counted over the frame's lists in submission order,
  // from 0), or the drop_wait-th cross-queue fence wait (the GPU may then race).
  std::optional<uint32_t> drop_barrier, drop_wait;
};

struct PassContext {
  ID3D12GraphicsCommandList* cmd = nullptr;
  std::string_view pass;
  // The resource of a declared Res (nullptr for one the pass did not declare).
  ID3D12Resource* resource(Res r) const;
  // The legacy state Baton's barriers put one subresource of a declared resource in for this pass
  // (D3D12_RESOURCE_STATE_COMMON for what the pass did not declare, and where implicit promotion
  // out of COMMON does the rest). Subresource index = mip + layer * mips + plane * mips * layers.
  D3D12_RESOURCE_STATES state(Res r, uint32_t subresource = 0) const;
  const void* frame = nullptr;  // internal
  const void* list = nullptr;   // internal
};

struct PassDesc {
  std::string name;
  Queue queue = Queue::direct;  // capability: direct, compute, copy
  bool async = false;           // on its own queue (async compute / copy)
  bool side_effect = false;     // never culled
  std::vector<Use> uses;
  std::function<void(PassContext&)> execute;  // records the pass's commands; may be empty
};

struct MemoryInfo {
  uint32_t heaps = 0;            // ID3D12Heaps holding the frame's transients
  uint64_t heap_bytes = 0;       // their size
  uint64_t aliased_bytes = 0;    // bytes placed under more than one resource
  uint64_t unaliased_bytes = 0;  // what one allocation per transient would have needed
  uint64_t alignment = 0;        // the placement alignment used
};

struct FrameInfo {
  uint64_t ticket = 0;  // completed() >= ticket: the GPU has finished the frame
  MemoryInfo memory;
  uint32_t groups = 0, command_lists = 0, barriers = 0, barrier_calls = 0, aliasing_barriers = 0;
  uint32_t fence_waits = 0, discards = 0, culled = 0;
  double compile_ms = 0, record_ms = 0, submit_ms = 0;
  // Per frame resource (Res::index), per subresource: the legacy state the frame leaves it in
  // (imported resources: their state for the next frame's import).
  std::vector<std::vector<uint32_t>> final_states;
  std::string trace;  // RuntimeOptions::record_trace
  std::shared_ptr<const graph::Graph> graph;
  std::shared_ptr<const graph::GraphCompileResult> compiled;
};

class Frame;

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
  // The CPU waits until every queue the runtime uses is idle, and retires every frame.
  Status sync();
  size_t frames_pending() const;

  struct Impl;

 private:
  explicit Runtime(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// One frame's declarations. Built on the engine's thread, consumed by Runtime::submit.
class Frame {
 public:
  // A resource the engine owns, in `state` (every subresource) at the start of the frame. The frame
  // leaves it in its resting state (`rest`, or the one Baton derives from the desc's flags;
  // FrameInfo::final_states), which is what the engine imports it in next frame.
  Res import_resource(std::string name, ID3D12Resource* resource, const D3D12_RESOURCE_DESC& desc,
                      D3D12_RESOURCE_STATES state, std::optional<Access> rest = std::nullopt);
  // A transient: created by the runtime for this frame, placed in the frame's heap.
  Res create_resource(std::string name, const D3D12_RESOURCE_DESC& desc);
  void add_pass(PassDesc pass);
  // The frame must produce this resource (its writers are not culled).
  void output(Res r);

  struct Resource {
    std::string name;
    bool transient = false;
    ID3D12Resource* resource = nullptr;  // imported
    D3D12_RESOURCE_DESC desc{};
    D3D12_RESOURCE_STATES state = D3D12_RESOURCE_STATE_COMMON;
    std::optional<Access> rest;
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

// The frame-graph description of a D3D12 resource (exposed for tests and tools): its flags decide
// which accesses a pass may declare (copies always; ALLOW_RENDER_TARGET, ALLOW_DEPTH_STENCIL,
// ALLOW_UNORDERED_ACCESS; shader reads unless DENY_SHADER_RESOURCE). Throws Error for a dimension
// Baton does not model (3D textures).
ResourceDesc describe_resource(std::string name, const D3D12_RESOURCE_DESC& desc);

}  // namespace baton::runtime::d3d12
