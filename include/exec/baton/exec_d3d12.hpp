// D3D12 executor: runs Baton's legacy resource-state barriers through a real D3D12 API (vkd3d on
// Vulkan; Mesa's lavapipe in CI) with the Khronos validation layer injected under vkd3d as the
// oracle, and checks the data every operation produced against a CPU model. docs/d3d12.md has the
// details and the list of what vkd3d cannot run here.
//
// This header includes neither Debian's directx-headers nor vkd3d's headers: the two cannot share a
// translation unit, so the executor consumes the lowering as plain data (d3d12_legacy_plain.hpp, in
// the lowering's layer) and every vkd3d call lives in files that see only vkd3d's headers.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "baton/d3d12_legacy_plain.hpp"
#include "baton/plan.hpp"
#include "baton/recording.hpp"

namespace baton::d3d12 {

// ---------------------------------------------------------------------------------------------
// Device: vkd3d on lavapipe (pinned through VK_DRIVER_FILES unless the caller set it).
struct DeviceOptions {
  // The Khronos layer with synchronization validation and submit-time checks, injected into
  // vkd3d's own Vulkan instance through a hooked vkGetInstanceProcAddr. Off: D3D12CreateDevice
  // from vkd3d-utils, nothing underneath.
  bool validation = true;
};

// VALIDATION-type messages of the layer (warnings and errors), by message id.
struct ValidationLog {
  std::map<std::string, uint32_t> counts;
  std::vector<std::pair<std::string, std::string>> texts;  // (id, text), the first of each id
  uint32_t total() const;
  bool empty() const { return counts.empty(); }
  std::string summary() const;  // "id=n id=n" or "none"
};

class Device {
 public:
  explicit Device(const DeviceOptions& options = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  bool validation_enabled() const;
  std::string vulkan_device_name() const;
  // Messages received since the last take (set-up messages included in the first).
  ValidationLog take_messages();

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// The canary: a buffer copied out with the barrier after the copy into it left out. The oracle is
// live when the layer reports a SYNC-HAZARD-READ-AFTER-WRITE for it.
struct CanaryResult {
  bool live = false;
  ValidationLog log;
};
CanaryResult run_canary(Device& device);

// ---------------------------------------------------------------------------------------------
// Running recordings.

// Throws Error (one line naming group, list, op and resource) for anything this path cannot run:
// draws and dispatches (vkd3d 1.2 here has no HLSL compiler and Baton ships no DXBC), resolves
// (ResourceDesc has no sample count), external ops, host accesses, multi-plane colour textures.
void check_runnable(const Recording& rec);

struct ExecOptions {
  // Mutation: leave out the barrier with this index (counted over the plan in execution order).
  std::optional<size_t> skip_barrier;
  // vkd3d 1.2 does not implement implicit promotion and decay for textures: COMMON is
  // VK_IMAGE_LAYOUT_GENERAL to it, and every copy or clear uses its own fixed layout. With this on,
  // the executor performs what the D3D12 runtime would do implicitly as explicit barriers, derived
  // from its own per-subresource tracking and REFERENCE.md's promotion table (not from Baton's
  // lowering): COMMON -> the needed state before a texture's first promotable use, and back to
  // COMMON at the end of the ExecuteCommandLists for what decays. Off: the raw stream, on which
  // vkd3d reports layout mismatches wherever a texture relies on promotion.
  bool emulate_texture_promotion = true;
};

// One subresource whose contents differ from the CPU model.
struct Mismatch {
  ResourceId resource = 0;
  std::string resource_name;
  uint32_t subresource = 0;
  uint32_t wrong = 0, checked = 0;
  uint32_t first_texel = 0, expected = 0, got = 0;
};
std::string to_string(const Mismatch& m);

struct D3D12RunResult {
  bool canary_live = false;        // run_d3d12 only: the oracle proved itself first
  ValidationLog validation;        // messages of the recording's own work (canary excluded)
  std::vector<Mismatch> mismatches;
  uint32_t groups = 0, lists = 0, ops = 0, barriers = 0, barrier_calls = 0, discards = 0;
  uint32_t omitted_by_promotion = 0;  // neutral barriers the legacy lowering left to the API
  uint32_t emulated_promotions = 0, emulated_decays = 0;  // ExecOptions::emulate_texture_promotion
  uint32_t subresources_checked = 0, subresources_undefined = 0;
  double ms = 0;
  bool clean() const { return validation.empty() && mismatches.empty(); }
};

// The resources of one recording on one device, created committed in COMMON, with the CPU model
// of their contents. Groups execute one ExecuteCommandLists each, in the order called; other
// renderers may work on the same resources in between (ExternalRenderer).
class Session {
 public:
  Session(Device& device, const Recording& rec);  // check_runnable first
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // One ExecuteCommandLists of transitions from COMMON (where every resource is created) into
  // `initial`, as the frame before would have left them; waits for completion.
  void enter(const LegacyStates& initial);
  // Executes group `index` of the recording with its lowered barriers; waits for completion.
  void execute(size_t index, const PlainGroup& group, const ExecOptions& options = {});
  // Reads every subresource back, starting from the given real states (a plan's final_states,
  // after whatever other renderers did), and compares with the model. One more ECL.
  void finish(const LegacyStates& real_states, D3D12RunResult& out);

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// Executes every group of the plan in one session and checks the data (options.skip_barrier
// counts over the whole plan). Messages are those of this run only.
D3D12RunResult run(Device& device, const Recording& rec, const PlainPlan& plan, const ExecOptions& options = {});

// The whole path for the CLI: check_runnable, compile_all, legacy lowering, device with the layer,
// canary, run. Compiles the recording's lists (each list compiles once: call it once per Recording).
struct D3D12RunOptions {
  bool validation = true;
};
D3D12RunResult run_d3d12(const Recording& rec, const D3D12RunOptions& options = {});
// The same for a recording compiled already (the CLI's compiled frame: every resource untouched at
// the start, `compiled` its plan).
D3D12RunResult run_d3d12(const Recording& rec, std::span<const CompiledGroup> compiled,
                         const D3D12RunOptions& options = {});
// A compiled frame graph's plan (the CLI's compiled frame): `history_in` says which resources start
// at rest (resting_states). Every resource, transients included, is its own committed resource:
// this path places nothing in a shared heap (the aliasing barriers still run; vkd3d 1.2 ignores
// them), so a takeover of memory is not exercised here (docs/d3d12.md).
D3D12RunResult run_d3d12(const Recording& rec, std::span<const CompiledGroup> compiled, const History& history_in,
                         const D3D12RunOptions& options = {});

// ---------------------------------------------------------------------------------------------
// Completion watermark: an own ID3D12Fence. signal(frame_no) after the frame's submit; completed()
// is the fence's GetCompletedValue(), read without any lock of ours; poll() hands back, in order,
// every retired frame whose work the GPU has completed: exactly those <= one completed() reading.
class FenceWatermark {
 public:
  explicit FenceWatermark(Device& device);
  ~FenceWatermark();
  FenceWatermark(const FenceWatermark&) = delete;
  FenceWatermark& operator=(const FenceWatermark&) = delete;

  // queue->Signal(fence, frame_no) on the device's direct queue, after the frame's
  // ExecuteCommandLists. Frame numbers must increase strictly (Error otherwise).
  void signal(uint64_t frame_no);
  uint64_t completed() const;
  // The frames that may be recycled now, oldest first; they leave the pending set.
  std::vector<uint64_t> poll();
  size_t pending() const { return pending_.size(); }
  // Blocks until the fence reaches frame_no (SetEventOnCompletion + an infinite event wait).
  void wait(uint64_t frame_no);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  std::deque<uint64_t> pending_;
  uint64_t last_signalled_ = 0;
};

// Load test of the watermark on the device: `frames` frames over a ring of `ring` slots, each frame
// an upload -> default -> readback copy of its own payload on its own command allocator, recycled
// only when poll() hands the frame back. Checked on every poll: a handed-back frame's readback slot
// already holds its payload (never early) and every frame <= the completed value read just before
// the poll is handed back by it (never held past one poll after completion).
// A handed-back frame whose payload is not there yet is classified: `late_landings` counts those
// whose payload appeared afterwards without any further work of ours (the fence underneath reported
// completion before the copy's writes were visible: seen on vkd3d 1.2 over lavapipe under heavy
// load, see docs/d3d12.md); `early` counts those whose payload never appeared (lost or recycled
// too soon). `first_anomaly` describes the first of either.
struct WatermarkLoadResult {
  uint64_t frames = 0, polls = 0, early = 0, late_landings = 0, held = 0, max_in_flight = 0;
  std::string first_anomaly;
  ValidationLog validation;
  double ms = 0;
};
WatermarkLoadResult watermark_load_test(Device& device, uint32_t frames, uint32_t ring);

// ---------------------------------------------------------------------------------------------
// External renderer hand-off. A stand-in for a renderer Baton does not drive (a vector-graphics
// renderer, a video decoder, an SDK): it tracks the texture's state itself, seeded as PRESENT
// unless told otherwise, issues its own ResourceBarriers, clears the texture as its "rendering"
// (in its own ExecuteCommandLists on the direct queue), and leaves the texture in COMMON.
class ExternalRenderer {
 public:
  explicit ExternalRenderer(uint32_t seeded_state = state::present) : tracked_(seeded_state) {}
  // Renders `value` into every subresource of the texture (ClearRenderTargetView per mip/layer).
  // The texture needs render_target in its usage.
  void render(Session& session, ResourceId texture, uint32_t value);
  uint32_t tracked_state() const { return tracked_; }
  // The barriers it issued in its last render(), in order (for pinning exact states in tests).
  const std::vector<PlainBarrier>& issued() const { return issued_; }

 private:
  uint32_t tracked_;
  std::vector<PlainBarrier> issued_;
};

}  // namespace baton::d3d12
