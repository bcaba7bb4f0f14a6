// Neutral plan -> D3D12 enhanced barriers. The neutral state is modelled on enhanced barriers, so
// this is mostly a table lookup; the API-specific rules live here: queue-specific layouts, the
// DISCARD flag, SyncBefore NONE only on the first-ever touch, and no barrier for CPU accesses.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <optional>

#include "backends.hpp"
#include "common.hpp"

namespace baton {
namespace {

using lower_detail::Site;

static_assert([] {
  for (size_t i = 0; i < kD3D12EnhancedTable.size(); ++i)
    if (kD3D12EnhancedTable[i].access != static_cast<Access>(i)) return false;
  return true;
}(), "kD3D12EnhancedTable must have one row per Access, in enum order");

// Layouts a compute list may name (REFERENCE.md, "Queues").
constexpr std::array<D3D12_BARRIER_LAYOUT, 13> kComputeLayouts = {
    D3D12_BARRIER_LAYOUT_UNDEFINED,
    D3D12_BARRIER_LAYOUT_COMMON,
    D3D12_BARRIER_LAYOUT_GENERIC_READ,
    D3D12_BARRIER_LAYOUT_UNORDERED_ACCESS,
    D3D12_BARRIER_LAYOUT_SHADER_RESOURCE,
    D3D12_BARRIER_LAYOUT_COPY_SOURCE,
    D3D12_BARRIER_LAYOUT_COPY_DEST,
    D3D12_BARRIER_LAYOUT_COMPUTE_QUEUE_COMMON,
    D3D12_BARRIER_LAYOUT_COMPUTE_QUEUE_GENERIC_READ,
    D3D12_BARRIER_LAYOUT_COMPUTE_QUEUE_UNORDERED_ACCESS,
    D3D12_BARRIER_LAYOUT_COMPUTE_QUEUE_SHADER_RESOURCE,
    D3D12_BARRIER_LAYOUT_COMPUTE_QUEUE_COPY_SOURCE,
    D3D12_BARRIER_LAYOUT_COMPUTE_QUEUE_COPY_DEST,
};

const D3D12EnhancedRow& row(Access a) { return kD3D12EnhancedTable[static_cast<size_t>(a)]; }

// D3D12_BARRIER_LAYOUT_DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE (newer than Debian's headers).
constexpr uint32_t kDirectQueueGenericReadComputeQueueAccessible = 31;

// The access whose single-access layout is `l` (layouts other than none/undefined/common/generic_read
// are the namesake of exactly one access).
std::optional<Access> namesake(Layout l) {
  for (int i = 0; i < kAccessCount; ++i) {
    const auto a = static_cast<Access>(i);
    if (!(bit(a) & kBufferOnlyAccesses) && layout_of(a) == l) return a;
  }
  return std::nullopt;
}

// A same-state barrier between two render-target writes, or two depth-stencil writes, of one texture
// (`write order`, `hand-off` between lists, `from rest`). D3D12 orders these writes itself: legacy
// ResourceBarrier cannot express the barrier (StateBefore == StateAfter is #525
// RESOURCE_BARRIER_MATCHING_STATES) and enhanced barriers keep the legacy model's guarantees, so the
// output merger's order of successive draws and clears on a queue is the API's, not the barrier's.
// (Vulkan is different: rasterization order holds only within a subpass, so lower_vulkan keeps them.)
// Returns the reason for the plan, or nullptr when the barrier is needed.
const char* ordered_by_the_queue(const D3D12EnhancedSide& before, const D3D12EnhancedSide& after, bool texture) {
  if (!texture || before.sync != after.sync || before.access != after.access || before.layout != after.layout)
    return nullptr;
  if (before.access == D3D12_BARRIER_ACCESS_RENDER_TARGET && before.layout == D3D12_BARRIER_LAYOUT_RENDER_TARGET)
    return "render-target writes of successive commands are ordered by the queue (no legacy equivalent either)";
  if (before.access == D3D12_BARRIER_ACCESS_DEPTH_STENCIL_WRITE &&
      before.layout == D3D12_BARRIER_LAYOUT_DEPTH_STENCIL_WRITE)
    return "depth-stencil writes of successive commands are ordered by the queue (no legacy equivalent either)";
  return nullptr;
}

// Neutral layout -> enhanced layout on a list of queue q; nullopt when q cannot hold it.
std::optional<D3D12_BARRIER_LAYOUT> layout_on(Layout l, Queue q) {
  if (l == Layout::none || l == Layout::undefined) return D3D12_BARRIER_LAYOUT_UNDEFINED;
  if (l == Layout::common) return D3D12_BARRIER_LAYOUT_COMMON;
  // Read on the direct and compute queues at once: usable on both lists, transitioned on direct ones only.
  if (l == Layout::shared_read)
    return q == Queue::copy ? std::nullopt
                            : std::optional(static_cast<D3D12_BARRIER_LAYOUT>(
                                  kDirectQueueGenericReadComputeQueueAccessible));
  if (l == Layout::generic_read) {
    // Merged reads never outlive their group (entry states are single accesses), so the
    // queue-specific layout cannot be met by another queue. DIRECT_QUEUE_GENERIC_READ also admits
    // depth reads and resolve sources.
    switch (q) {
      case Queue::direct: return D3D12_BARRIER_LAYOUT_DIRECT_QUEUE_GENERIC_READ;
      case Queue::compute: return D3D12_BARRIER_LAYOUT_COMPUTE_QUEUE_GENERIC_READ;
      case Queue::copy: return std::nullopt;
    }
  }
  const std::optional<Access> a = namesake(l);
  if (!a) return std::nullopt;
  const D3D12_BARRIER_LAYOUT layout = row(*a).layout;
  switch (q) {
    case Queue::direct: return layout;
    case Queue::compute:
      if (std::find(kComputeLayouts.begin(), kComputeLayouts.end(), layout) == kComputeLayouts.end())
        return std::nullopt;
      return layout;
    case Queue::copy:
      // Copy lists work on textures in COMMON only (present is COMMON too).
      if (*a == Access::copy_source || *a == Access::copy_dest || *a == Access::present)
        return D3D12_BARRIER_LAYOUT_COMMON;
      return std::nullopt;
  }
  return std::nullopt;
}

D3D12_BARRIER_SYNC lower_sync(SyncMask s) {
  uint32_t out = 0;
  for (const D3D12SyncRow& r : kD3D12SyncBits)
    if (s & r.neutral) out |= static_cast<uint32_t>(r.sync);
  if (out & D3D12_BARRIER_SYNC_ALL) return D3D12_BARRIER_SYNC_ALL;
  constexpr uint32_t kShading =
      D3D12_BARRIER_SYNC_VERTEX_SHADING | D3D12_BARRIER_SYNC_PIXEL_SHADING | D3D12_BARRIER_SYNC_COMPUTE_SHADING;
  if ((out & kShading) == kShading) out = (out & ~kShading) | D3D12_BARRIER_SYNC_ALL_SHADING;
  return static_cast<D3D12_BARRIER_SYNC>(out);
}

std::string side_text(const D3D12EnhancedSide& s, bool texture) {
  std::string out = fmt::format("{} {}", d3d12_sync_name(s.sync), d3d12_access_name(s.access));
  if (texture) out += fmt::format(" {}", d3d12_layout_name(s.layout));
  return out;
}

D3D12_BARRIER_SUBRESOURCE_RANGE subresources(const Box& b, const ResourceDesc& d) {
  // IndexOrFirstMipLevel = 0xffffffff with NumMipLevels = 0 selects every subresource.
  if (b == full_box(d)) return {0xffffffffu, 0, 0, 0, 0, 0};
  return {b.m0, b.m1 - b.m0, b.l0, b.l1 - b.l0, b.p0, b.p1 - b.p0};
}

}  // namespace

D3D12EnhancedSide lower_d3d12_enhanced_state(const State& s, Queue queue, bool texture) {
  if (lower_detail::is_first_touch(s)) return {};  // SYNC_NONE, NO_ACCESS, LAYOUT_UNDEFINED
  D3D12EnhancedSide out;
  out.sync = lower_sync(s.sync);
  uint32_t access = 0;
  bool any_gpu = false, any_host = false;
  if (s.access & kAnyAccess) {
    any_gpu = true;  // ACCESS_COMMON: whatever the layout (or, for buffers, anything) allows
  } else {
    for (int i = 0; i < kAccessCount; ++i) {
      const auto a = static_cast<Access>(i);
      if (!(s.access & bit(a))) continue;
      if (row(a).host_only) {
        any_host = true;
      } else {
        any_gpu = true;
        access |= static_cast<uint32_t>(row(a).bits);
      }
    }
  }
  out.access = static_cast<D3D12_BARRIER_ACCESS>(access);
  out.host_only = any_host && !any_gpu;
  if (out.sync == D3D12_BARRIER_SYNC_NONE && !out.host_only) out.sync = D3D12_BARRIER_SYNC_ALL;
  if (texture) {
    const std::optional<D3D12_BARRIER_LAYOUT> l = layout_on(s.layout, queue);
    if (!l) throw Error(fmt::format("layout {} is not allowed on a {} list", to_string(s.layout), to_string(queue)));
    out.layout = *l;
  }
  return out;
}

std::vector<D3D12_BARRIER_GROUP> D3D12EnhancedPoint::barrier_groups() const {
  std::vector<D3D12_BARRIER_GROUP> out;
  if (!globals.empty()) {
    D3D12_BARRIER_GROUP g{};
    g.Type = D3D12_BARRIER_TYPE_GLOBAL;
    g.NumBarriers = static_cast<UINT32>(globals.size());
    g.pGlobalBarriers = globals.data();
    out.push_back(g);
  }
  if (!textures.empty()) {
    D3D12_BARRIER_GROUP g{};
    g.Type = D3D12_BARRIER_TYPE_TEXTURE;
    g.NumBarriers = static_cast<UINT32>(textures.size());
    g.pTextureBarriers = textures.data();
    out.push_back(g);
  }
  if (!buffers.empty()) {
    D3D12_BARRIER_GROUP g{};
    g.Type = D3D12_BARRIER_TYPE_BUFFER;
    g.NumBarriers = static_cast<UINT32>(buffers.size());
    g.pBufferBarriers = buffers.data();
    out.push_back(g);
  }
  return out;
}

namespace lower_detail {
namespace {

// Lowers one neutral barrier into `point` and returns its view.
LoweredBarrier lower_one(const Site& site, const Barrier& b, D3D12EnhancedPoint& point) {
  const SidePair sides = check_queue(site, b);
  const Queue q = site.list.queue;
  const bool texture = is_texture(site.resources, b.resource);
  LoweredBarrier v;
  v.resource = b.resource;
  v.range = range_text(site.resources, b);
  v.reason = b.reason;

  auto lower_side = [&](const State& s, const char* which) {
    try {
      return lower_d3d12_enhanced_state(s, q, texture);
    } catch (const Error& e) {
      fail(site, b.resource, fmt::format("{} ({} side of a {} barrier)", e.what(), which, to_string(b.reason)));
    }
  };
  D3D12EnhancedSide before = lower_side(sides.before, "before");
  const D3D12EnhancedSide after = lower_side(sides.after, "after");
  if (texture && q != Queue::direct && sides.before.layout != sides.after.layout &&
      (sides.before.layout == Layout::shared_read || sides.after.layout == Layout::shared_read))
    fail(site, b.resource,
         fmt::format("only a direct list may transition into or out of layout shared_read ({} barrier)",
                     to_string(b.reason)));

  if (b.resource == kGlobalResource) {
    point.globals.push_back(D3D12_GLOBAL_BARRIER{before.sync, after.sync, before.access, after.access});
    v.before = side_text(before, false);
    v.after = side_text(after, false);
    return v;
  }
  if (b.reason == Reason::takeover) {
    // Aliasing has no barrier type of its own: SyncBefore waits for the previous occupants, whose
    // accesses end here (NO_ACCESS), from LAYOUT_UNDEFINED.
    before.access = D3D12_BARRIER_ACCESS_NO_ACCESS;
    before.layout = D3D12_BARRIER_LAYOUT_UNDEFINED;
    before.host_only = false;
    if (before.sync == D3D12_BARRIER_SYNC_NONE) before.sync = D3D12_BARRIER_SYNC_ALL;
    v.note = "takeover of aliased memory";
  }
  if (b.discard) {
    if (!texture) fail(site, b.resource, "carries an initializing discard but is a buffer");
    // DISCARD is legal only with LayoutBefore UNDEFINED (#1436), and an UNDEFINED side has NO_ACCESS.
    before.layout = D3D12_BARRIER_LAYOUT_UNDEFINED;
    before.access = D3D12_BARRIER_ACCESS_NO_ACCESS;
    v.note = "FLAG_DISCARD";
  }
  v.before = side_text(before, texture);
  v.after = side_text(after, texture);
  if (before.host_only || after.host_only) {
    v.omitted = true;
    v.omitted_why = "CPU access: ExecuteCommandLists and fences order it, D3D12 has no host barrier";
    return v;
  }
  if (const char* why = ordered_by_the_queue(before, after, texture)) {
    v.omitted = true;
    v.omitted_why = why;
    return v;
  }
  if (texture) {
    const ResourceDesc& d = site.resources[b.resource];
    D3D12_TEXTURE_BARRIER t{};
    t.SyncBefore = before.sync;
    t.SyncAfter = after.sync;
    t.AccessBefore = before.access;
    t.AccessAfter = after.access;
    t.LayoutBefore = before.layout;
    t.LayoutAfter = after.layout;
    t.pResource = nullptr;
    t.Subresources = subresources(b.box, d);
    t.Flags = b.discard ? D3D12_TEXTURE_BARRIER_FLAG_DISCARD : D3D12_TEXTURE_BARRIER_FLAG_NONE;
    point.textures.push_back(t);
    point.texture_resources.push_back(b.resource);
  } else {
    D3D12_BUFFER_BARRIER buf{};
    buf.SyncBefore = before.sync;
    buf.SyncAfter = after.sync;
    buf.AccessBefore = before.access;
    buf.AccessAfter = after.access;
    buf.pResource = nullptr;
    buf.Offset = 0;
    buf.Size = UINT64_MAX;  // the whole buffer
    // D3D12 buffer barriers cover the whole buffer (Offset 0, Size UINT64_MAX): a byte range widens, and
    // the barrier of other bytes of the buffer with the same scopes in this call already is this one.
    if (!b.whole_bytes()) {
      v.note = "whole buffer (D3D12 buffer barriers have no byte range)";
      for (size_t i = 0; i < point.buffers.size(); ++i) {
        const D3D12_BUFFER_BARRIER& o = point.buffers[i];
        if (point.buffer_resources[i] == b.resource && o.SyncBefore == buf.SyncBefore &&
            o.SyncAfter == buf.SyncAfter && o.AccessBefore == buf.AccessBefore && o.AccessAfter == buf.AccessAfter) {
          v.omitted = true;
          v.omitted_why = "the same whole-buffer barrier is already in this call (D3D12 buffer barriers have no byte range)";
          v.api_barriers = 0;
          return v;
        }
      }
    }
    point.buffers.push_back(buf);
    point.buffer_resources.push_back(b.resource);
  }
  return v;
}

}  // namespace

D3D12EnhancedPlan lower_d3d12_enhanced(const ResourceTable& resources, std::span<const CompiledGroup> groups,
                                       std::vector<LoweredGroup>* view) {
  return walk_groups<D3D12EnhancedPlan, D3D12EnhancedGroup, D3D12EnhancedList, D3D12EnhancedPoint>(
      resources, groups, view,
      [](const Site& site, const Barrier& b, D3D12EnhancedPoint& np) { return lower_one(site, b, np); },
      [](D3D12EnhancedList&, uint32_t, D3D12EnhancedPoint&& lowered) {
        // Enhanced Barriers spec, "Split Barriers": the first half's SyncAfter and the second half's
        // SyncBefore are SPLIT; accesses and layouts are the same in both halves.
        D3D12EnhancedPoint begin = lowered;
        for (D3D12_TEXTURE_BARRIER& t : begin.textures) t.SyncAfter = D3D12_BARRIER_SYNC_SPLIT;
        for (D3D12_BUFFER_BARRIER& b : begin.buffers) b.SyncAfter = D3D12_BARRIER_SYNC_SPLIT;
        for (D3D12_TEXTURE_BARRIER& t : lowered.textures) t.SyncBefore = D3D12_BARRIER_SYNC_SPLIT;
        for (D3D12_BUFFER_BARRIER& b : lowered.buffers) b.SyncBefore = D3D12_BARRIER_SYNC_SPLIT;
        return std::pair<D3D12EnhancedPoint, D3D12EnhancedPoint>{std::move(begin), std::move(lowered)};
      });
}

}  // namespace lower_detail

D3D12EnhancedPlan lower_d3d12_enhanced(const ResourceTable& resources, std::span<const CompiledGroup> groups) {
  return lower_detail::lower_d3d12_enhanced(resources, groups, nullptr);
}

}  // namespace baton
