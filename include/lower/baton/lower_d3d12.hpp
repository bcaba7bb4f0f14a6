// Lowering to Direct3D 12: enhanced barriers (D3D12_BARRIER_GROUP per point) and legacy resource
// states (D3D12_RESOURCE_BARRIER per point). The native structures are real <directx/d3d12.h> types;
// pResource stays nullptr and a parallel ResourceId array tells the executor which resource to put
// there. The tables are constexpr data, one row per baton::Access, so a reader can check them
// against the documentation line by line (see ../shared/REFERENCE.md).
#pragma once

// Linux: the WSL adapter must come before the D3D12 header (Debian's directx-headers-dev). Windows:
// the DirectX-Headers package's <directx/d3d12.h> where it is installed, else the SDK's <d3d12.h>.
#ifndef _WIN32
#include <wsl/winadapter.h>
#endif
// clang-format off
#if defined(_WIN32) && !__has_include(<directx/d3d12.h>)
#include <d3d12.h>
#else
#include <directx/d3d12.h>
#endif
// clang-format on

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "baton/lower.hpp"
#include "baton/runs.hpp"

namespace baton {

// ---------------------------------------------------------------------------------------------
// Enhanced barriers: one row per access. `sync` is the access's own scope when its stages are not
// known (the lowering uses the neutral state's sync bits, see kD3D12SyncBits); `layout` is the
// queue-independent layout of a texture holding only this access (buffers have none).
struct D3D12EnhancedRow {
  Access access;
  D3D12_BARRIER_SYNC sync;
  D3D12_BARRIER_ACCESS bits;  // ACCESS_COMMON (0) for present: "whatever COMMON allows"
  D3D12_BARRIER_LAYOUT layout;
  bool host_only;  // host accesses have no D3D12 barrier: ExecuteCommandLists and fences order them
};

inline constexpr std::array<D3D12EnhancedRow, kAccessCount> kD3D12EnhancedTable = {{
    {Access::render_target, D3D12_BARRIER_SYNC_RENDER_TARGET, D3D12_BARRIER_ACCESS_RENDER_TARGET,
     D3D12_BARRIER_LAYOUT_RENDER_TARGET, false},
    {Access::depth_write, D3D12_BARRIER_SYNC_DEPTH_STENCIL, D3D12_BARRIER_ACCESS_DEPTH_STENCIL_WRITE,
     D3D12_BARRIER_LAYOUT_DEPTH_STENCIL_WRITE, false},
    {Access::depth_read, D3D12_BARRIER_SYNC_DEPTH_STENCIL, D3D12_BARRIER_ACCESS_DEPTH_STENCIL_READ,
     D3D12_BARRIER_LAYOUT_DEPTH_STENCIL_READ, false},
    {Access::shader_resource, D3D12_BARRIER_SYNC_ALL_SHADING, D3D12_BARRIER_ACCESS_SHADER_RESOURCE,
     D3D12_BARRIER_LAYOUT_SHADER_RESOURCE, false},
    {Access::unordered_access, D3D12_BARRIER_SYNC_ALL_SHADING, D3D12_BARRIER_ACCESS_UNORDERED_ACCESS,
     D3D12_BARRIER_LAYOUT_UNORDERED_ACCESS, false},
    // Copies use LAYOUT_COMMON on every queue: copy queues can only hold textures in COMMON, and one
    // layout for copies everywhere lets a texture move between a copy group and a direct group without a
    // layout the other queue cannot name (found by the validator round trip on examples/upload.json).
    {Access::copy_source, D3D12_BARRIER_SYNC_COPY, D3D12_BARRIER_ACCESS_COPY_SOURCE, D3D12_BARRIER_LAYOUT_COMMON, false},
    {Access::copy_dest, D3D12_BARRIER_SYNC_COPY, D3D12_BARRIER_ACCESS_COPY_DEST, D3D12_BARRIER_LAYOUT_COMMON, false},
    {Access::resolve_source, D3D12_BARRIER_SYNC_RESOLVE, D3D12_BARRIER_ACCESS_RESOLVE_SOURCE,
     D3D12_BARRIER_LAYOUT_RESOLVE_SOURCE, false},
    {Access::resolve_dest, D3D12_BARRIER_SYNC_RESOLVE, D3D12_BARRIER_ACCESS_RESOLVE_DEST,
     D3D12_BARRIER_LAYOUT_RESOLVE_DEST, false},
    {Access::vertex_buffer, D3D12_BARRIER_SYNC_VERTEX_SHADING, D3D12_BARRIER_ACCESS_VERTEX_BUFFER,
     D3D12_BARRIER_LAYOUT_UNDEFINED, false},
    // Bit 0x4 is INDEX_INPUT in newer headers; Debian's 1.606.4 calls it INPUT_ASSEMBLER.
    {Access::index_buffer, D3D12_BARRIER_SYNC_INPUT_ASSEMBLER, D3D12_BARRIER_ACCESS_INDEX_BUFFER,
     D3D12_BARRIER_LAYOUT_UNDEFINED, false},
    {Access::constant_buffer, D3D12_BARRIER_SYNC_ALL_SHADING, D3D12_BARRIER_ACCESS_CONSTANT_BUFFER,
     D3D12_BARRIER_LAYOUT_UNDEFINED, false},
    {Access::indirect_argument, D3D12_BARRIER_SYNC_EXECUTE_INDIRECT, D3D12_BARRIER_ACCESS_INDIRECT_ARGUMENT,
     D3D12_BARRIER_LAYOUT_UNDEFINED, false},
    // Present: LAYOUT_PRESENT (== COMMON); SYNC_ALL rather than NONE, because SyncBefore NONE is
    // reserved for the first-ever touch (invariant 2).
    {Access::present, D3D12_BARRIER_SYNC_ALL, D3D12_BARRIER_ACCESS_COMMON, D3D12_BARRIER_LAYOUT_PRESENT, false},
    {Access::host_read, D3D12_BARRIER_SYNC_NONE, D3D12_BARRIER_ACCESS_COMMON, D3D12_BARRIER_LAYOUT_UNDEFINED, true},
    {Access::host_write, D3D12_BARRIER_SYNC_NONE, D3D12_BARRIER_ACCESS_COMMON, D3D12_BARRIER_LAYOUT_UNDEFINED, true},
}};

// Neutral sync bit -> D3D12 sync bit. Vertex fetch has no stage of its own in D3D12: VERTEX_SHADING.
struct D3D12SyncRow {
  SyncMask neutral;
  D3D12_BARRIER_SYNC sync;
};
inline constexpr std::array<D3D12SyncRow, 12> kD3D12SyncBits = {{
    {sync::vertex_input, D3D12_BARRIER_SYNC_VERTEX_SHADING},
    {sync::index_input, D3D12_BARRIER_SYNC_INPUT_ASSEMBLER},
    {sync::vertex_shading, D3D12_BARRIER_SYNC_VERTEX_SHADING},
    {sync::pixel_shading, D3D12_BARRIER_SYNC_PIXEL_SHADING},
    {sync::compute_shading, D3D12_BARRIER_SYNC_COMPUTE_SHADING},
    {sync::depth_stencil, D3D12_BARRIER_SYNC_DEPTH_STENCIL},
    {sync::render_target, D3D12_BARRIER_SYNC_RENDER_TARGET},
    {sync::copy, D3D12_BARRIER_SYNC_COPY},
    {sync::resolve, D3D12_BARRIER_SYNC_RESOLVE},
    {sync::execute_indirect, D3D12_BARRIER_SYNC_EXECUTE_INDIRECT},
    {sync::host, D3D12_BARRIER_SYNC_NONE},  // the CPU is ordered by fences, not barriers
    {sync::all, D3D12_BARRIER_SYNC_ALL},
}};

// One side (before or after) of an enhanced barrier.
struct D3D12EnhancedSide {
  D3D12_BARRIER_SYNC sync = D3D12_BARRIER_SYNC_NONE;
  D3D12_BARRIER_ACCESS access = D3D12_BARRIER_ACCESS_NO_ACCESS;
  D3D12_BARRIER_LAYOUT layout = D3D12_BARRIER_LAYOUT_UNDEFINED;  // textures only
  bool host_only = false;  // the side is CPU access only: no D3D12 barrier exists for it
};
// Lowers one neutral state for a list on `queue`. Layouts are queue-specific only for merged reads
// (DIRECT_QUEUE_GENERIC_READ / COMPUTE_QUEUE_GENERIC_READ, which cannot cross queues anyway); copy
// lists use COMMON. Throws Error (without context) when the queue cannot express the state.
D3D12EnhancedSide lower_d3d12_enhanced_state(const State& s, Queue queue, bool texture);
// Text: "SYNC_PIXEL_SHADING ACCESS_SHADER_RESOURCE LAYOUT_SHADER_RESOURCE" (no layout for buffers).
std::string d3d12_sync_name(D3D12_BARRIER_SYNC s);
std::string d3d12_access_name(D3D12_BARRIER_ACCESS a);
std::string_view d3d12_layout_name(D3D12_BARRIER_LAYOUT l);

// One ID3D12GraphicsCommandList7::Barrier call. Half begin: the first halves of split barriers
// (SyncAfter D3D12_BARRIER_SYNC_SPLIT); half end: their second halves (SyncBefore SYNC_SPLIT), with
// the same accesses and layouts (Enhanced Barriers spec, "Split Barriers").
struct D3D12EnhancedPoint {
  uint32_t op = 0;
  Where where = Where::before;
  SplitHalf half = SplitHalf::none;
  std::vector<D3D12_TEXTURE_BARRIER> textures;
  std::vector<ResourceId> texture_resources;  // parallel to textures: what pResource must become
  std::vector<D3D12_BUFFER_BARRIER> buffers;
  std::vector<ResourceId> buffer_resources;  // parallel to buffers
  std::vector<D3D12_GLOBAL_BARRIER> globals;
  // The D3D12_BARRIER_GROUP array for one ID3D12GraphicsCommandList7::Barrier call (only the
  // non-empty kinds). The groups point into this object: keep it alive and unchanged while using them.
  std::vector<D3D12_BARRIER_GROUP> barrier_groups() const;
  size_t size() const { return textures.size() + buffers.size() + globals.size(); }
};

struct D3D12EnhancedList {
  std::string name;
  Queue queue = Queue::direct;
  std::vector<D3D12EnhancedPoint> points;  // points with at least one issued barrier
};
struct D3D12EnhancedGroup {
  std::string name;
  Queue queue = Queue::direct;
  std::vector<D3D12EnhancedList> lists;
};
struct D3D12EnhancedPlan {
  std::vector<D3D12EnhancedGroup> groups;
};
D3D12EnhancedPlan lower_d3d12_enhanced(const ResourceTable& resources, std::span<const CompiledGroup> groups);

// ---------------------------------------------------------------------------------------------
// Legacy resource states: one row per access. Shader reads split by stage (pixel vs the others).
// Promotion columns follow REFERENCE.md's table: which targets implicit promotion out of COMMON
// reaches for buffers and simultaneous-access textures, and for other textures.
struct D3D12LegacyRow {
  Access access;
  D3D12_RESOURCE_STATES non_pixel;  // the state when no pixel-shader stage is involved
  D3D12_RESOURCE_STATES pixel;      // the state for the pixel stage
  bool promotes_buffer;             // buffers and simultaneous-access textures
  bool promotes_texture;            // other textures
};

inline constexpr std::array<D3D12LegacyRow, kAccessCount> kD3D12LegacyTable = {{
    {Access::render_target, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET, true, false},
    {Access::depth_write, D3D12_RESOURCE_STATE_DEPTH_WRITE, D3D12_RESOURCE_STATE_DEPTH_WRITE, false, false},
    {Access::depth_read, D3D12_RESOURCE_STATE_DEPTH_READ, D3D12_RESOURCE_STATE_DEPTH_READ, false, false},
    {Access::shader_resource, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE,
     D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE, true, true},
    {Access::unordered_access, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, true,
     false},
    {Access::copy_source, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COPY_SOURCE, true, true},
    {Access::copy_dest, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_DEST, true, true},
    {Access::resolve_source, D3D12_RESOURCE_STATE_RESOLVE_SOURCE, D3D12_RESOURCE_STATE_RESOLVE_SOURCE, true, false},
    {Access::resolve_dest, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_RESOLVE_DEST, true, false},
    {Access::vertex_buffer, D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER,
     D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER, true, false},
    {Access::index_buffer, D3D12_RESOURCE_STATE_INDEX_BUFFER, D3D12_RESOURCE_STATE_INDEX_BUFFER, true, false},
    {Access::constant_buffer, D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER,
     D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER, true, false},
    {Access::indirect_argument, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT, true,
     false},
    // PRESENT == COMMON: nothing to promote to.
    {Access::present, D3D12_RESOURCE_STATE_PRESENT, D3D12_RESOURCE_STATE_PRESENT, true, true},
    // CPU access: the GPU-side state is COMMON (fences order the CPU, not barriers).
    {Access::host_read, D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COMMON, true, true},
    {Access::host_write, D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COMMON, true, true},
}};

// The legacy state bits of a neutral state (shader reads split by the pixel sync bit; sync::all
// counts as every stage). kAnyAccess lowers to COMMON.
D3D12_RESOURCE_STATES lower_d3d12_legacy_state(const State& s);
// "PIXEL_SHADER_RESOURCE|NON_PIXEL_SHADER_RESOURCE", "COMMON" for 0.
std::string d3d12_state_name(D3D12_RESOURCE_STATES s);
// Subresource index = mip + layer * Mips + plane * Mips * Layers (D3D12CalcSubresource).
constexpr uint32_t d3d12_subresource_index(const ResourceDesc& d, uint32_t mip, uint32_t layer, uint32_t plane) {
  return mip + layer * d.mips + plane * d.mips * d.layers;
}

// One ResourceBarrier call. Half begin: transitions flagged D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY;
// half end: the same transitions flagged END_ONLY, plus (whole) any UAV barrier of a split barrier,
// which legacy barriers cannot split.
struct D3D12LegacyPoint {
  uint32_t op = 0;
  Where where = Where::before;
  SplitHalf half = SplitHalf::none;
  // Transitions (one per subresource, or ALL_SUBRESOURCES), UAV and aliasing barriers, in order.
  std::vector<D3D12_RESOURCE_BARRIER> barriers;
  // Parallel to barriers: the resource of a transition or UAV barrier, the activated resource
  // (pResourceAfter) of an aliasing barrier; kGlobalResource for a UAV barrier on NULL (any UAV).
  std::vector<ResourceId> resources;
  // Aliasing barriers that name pResourceBefore (the one previous occupant of the memory): (index into
  // barriers, resource). An aliasing barrier not listed here has pResourceBefore NULL.
  std::vector<std::pair<size_t, ResourceId>> aliasing_before;
  // Resources the executor must DiscardResource right after this point's barriers (initializing
  // discard of a placed render-target or depth texture, whole resource).
  std::vector<ResourceId> discards;
};
struct D3D12LegacyList {
  std::string name;
  Queue queue = Queue::direct;
  std::vector<D3D12LegacyPoint> points;  // points with at least one issued barrier or discard
};
struct D3D12LegacyGroup {
  std::string name;
  Queue queue = Queue::direct;
  std::vector<D3D12LegacyList> lists;
};
// The real legacy state of every subresource between ExecuteCommandLists calls, per resource, by
// subresource index, as runs of equal states (baton/runs.hpp: a resource costs what its barriers
// split it into, not its subresource count); an empty Runs (size 0) means every subresource is COMMON.
struct D3D12LegacyStates {
  std::vector<Runs<D3D12_RESOURCE_STATES>> resources;
  // The state of one subresource (COMMON for a resource with no runs).
  D3D12_RESOURCE_STATES at(ResourceId r, uint32_t subresource) const {
    if (r >= resources.size() || resources[r].size() == 0) return D3D12_RESOURCE_STATE_COMMON;
    return resources[r].at(subresource);
  }
  // One state per subresource of resource r (empty for a resource with no runs).
  std::vector<D3D12_RESOURCE_STATES> expanded(ResourceId r) const {
    std::vector<D3D12_RESOURCE_STATES> out;
    if (r >= resources.size()) return out;
    resources[r].for_each(0, resources[r].size(), [&](uint32_t, uint32_t n, D3D12_RESOURCE_STATES s) {
      out.insert(out.end(), n, s);
    });
    return out;
  }
};
struct D3D12LegacyPlan {
  std::vector<D3D12LegacyGroup> groups;
  // After the last group (decay applied). Feed it to the next frame's lowering: an explicitly held
  // state does not decay, so frame N+1 starts where frame N really left each subresource.
  D3D12LegacyStates final_states;
};
// A hard limit of one lowering (a frame): the API has no subresource ranges, so a transition of part of a
// resource is one barrier per subresource. A frame whose plan would need more transition barriers than
// this is refused with an Error naming the group, list, operation and resource where it went past
// (resource sets make a few input lines into millions of subresources: 4,096 members of 34,816 each).
inline constexpr uint64_t kMaxLegacyApiBarriers = uint64_t{1} << 20;
// Tracks the real legacy state of every subresource across the groups in order: resources are
// created in COMMON, implicit promotion on first use, decay at the end of each group (one
// ExecuteCommandLists call per group).
D3D12LegacyPlan lower_d3d12_legacy(const ResourceTable& resources, std::span<const CompiledGroup> groups);
// The same, starting from the states an earlier lowering left (D3D12LegacyPlan::final_states).
D3D12LegacyPlan lower_d3d12_legacy(const ResourceTable& resources, std::span<const CompiledGroup> groups,
                                   const D3D12LegacyStates& initial);

}  // namespace baton
