// The legacy lowering copied into plain data. This is the only file of the D3D12 executor that
// sees Debian's directx-headers (through lower_d3d12.hpp); vkd3d's headers, which declare the same
// types with other calling conventions, stay in the vkd3d_*.cpp files.
#include <fmt/format.h>

#include "baton/exec_d3d12.hpp"
#include "baton/lower_d3d12.hpp"

namespace baton::d3d12 {
namespace {

// The pinned constants of the public header must be the real enum values.
static_assert(state::common == D3D12_RESOURCE_STATE_COMMON && state::present == D3D12_RESOURCE_STATE_PRESENT);
static_assert(state::vertex_and_constant_buffer == D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER);
static_assert(state::index_buffer == D3D12_RESOURCE_STATE_INDEX_BUFFER);
static_assert(state::render_target == D3D12_RESOURCE_STATE_RENDER_TARGET);
static_assert(state::unordered_access == D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
static_assert(state::depth_write == D3D12_RESOURCE_STATE_DEPTH_WRITE);
static_assert(state::depth_read == D3D12_RESOURCE_STATE_DEPTH_READ);
static_assert(state::non_pixel_shader_resource == D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
static_assert(state::pixel_shader_resource == D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
static_assert(state::indirect_argument == D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
static_assert(state::copy_dest == D3D12_RESOURCE_STATE_COPY_DEST);
static_assert(state::copy_source == D3D12_RESOURCE_STATE_COPY_SOURCE);
static_assert(state::resolve_dest == D3D12_RESOURCE_STATE_RESOLVE_DEST);
static_assert(state::resolve_source == D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
static_assert(state::generic_read == D3D12_RESOURCE_STATE_GENERIC_READ);
static_assert(kAllSubresources == D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES);

PlainBarrier plain(const D3D12_RESOURCE_BARRIER& b, ResourceId r) {
  PlainBarrier p;
  p.resource = r;
  switch (b.Type) {
    case D3D12_RESOURCE_BARRIER_TYPE_TRANSITION:
      p.kind = BarrierKind::transition;
      p.subresource = b.Transition.Subresource;
      p.before = static_cast<uint32_t>(b.Transition.StateBefore);
      p.after = static_cast<uint32_t>(b.Transition.StateAfter);
      break;
    case D3D12_RESOURCE_BARRIER_TYPE_UAV: p.kind = BarrierKind::uav; break;
    case D3D12_RESOURCE_BARRIER_TYPE_ALIASING: p.kind = BarrierKind::aliasing; break;
    default: throw Error(fmt::format("legacy plan: unknown barrier type {}", static_cast<int>(b.Type)));
  }
  // Split barriers are never produced by the legacy lowering; refuse rather than drop the flag.
  if (b.Flags != D3D12_RESOURCE_BARRIER_FLAG_NONE)
    throw Error(fmt::format("legacy plan: barrier flags {:#x} are not supported by the D3D12 executor",
                            static_cast<unsigned>(b.Flags)));
  return p;
}

}  // namespace

size_t PlainPlan::barrier_count() const {
  size_t n = 0;
  for (const PlainGroup& g : groups)
    for (const PlainList& l : g.lists)
      for (const PlainPoint& p : l.points) n += p.barriers.size();
  return n;
}

PlainPlan legacy_plan(const ResourceTable& resources, std::span<const CompiledGroup> groups,
                      const LegacyStates* initial) {
  D3D12LegacyPlan lowered;
  if (initial) {
    D3D12LegacyStates in;
    for (const auto& r : *initial) {
      Runs<D3D12_RESOURCE_STATES>& runs = in.resources.emplace_back();
      if (r.empty()) continue;
      runs = Runs<D3D12_RESOURCE_STATES>(static_cast<uint32_t>(r.size()), D3D12_RESOURCE_STATE_COMMON);
      for (uint32_t i = 0; i < r.size(); ++i)
        runs.update(i, i + 1, [&](uint32_t, uint32_t, D3D12_RESOURCE_STATES& x) {
          x = static_cast<D3D12_RESOURCE_STATES>(r[i]);
        });
      runs.coalesce();
    }
    lowered = lower_d3d12_legacy(resources, groups, in);
  } else {
    lowered = lower_d3d12_legacy(resources, groups);
  }
  PlainPlan out;
  if (initial) out.initial_states = *initial;
  for (const D3D12LegacyGroup& g : lowered.groups) {
    PlainGroup& pg = out.groups.emplace_back();
    pg.name = g.name;
    pg.queue = g.queue;
    for (const D3D12LegacyList& l : g.lists) {
      PlainList& pl = pg.lists.emplace_back();
      pl.name = l.name;
      pl.queue = l.queue;
      for (const D3D12LegacyPoint& p : l.points) {
        PlainPoint& pp = pl.points.emplace_back();
        pp.op = p.op;
        pp.where = p.where;
        pp.discards = p.discards;
        for (size_t i = 0; i < p.barriers.size(); ++i) pp.barriers.push_back(plain(p.barriers[i], p.resources.at(i)));
        for (const auto& [i, prev] : p.aliasing_before) pp.barriers.at(i).previous = prev;
      }
    }
  }
  // The printable view names what was left out and why (only when starting from creation: the
  // view has no overload taking initial states).
  if (!initial) {
    for (const LoweredGroup& g : lower(Api::d3d12_legacy, resources, groups))
      for (const LoweredList& l : g.lists)
        for (const LoweredPoint& p : l.points)
          for (const LoweredBarrier& b : p.barriers)
            if (b.omitted)
              out.omitted.push_back(fmt::format("{}/{}/op {} {}: {} {} {} -> {} ({})", g.name, l.name, p.op,
                                                to_string(p.where),
                                                b.resource == kGlobalResource ? std::string("(global)") : resources[b.resource].name, b.range, b.before,
                                                b.after, b.omitted_why));
  }
  // The executor's resources are real: one state per subresource.
  for (ResourceId r = 0; r < lowered.final_states.resources.size(); ++r) {
    out.final_states.emplace_back();
    for (D3D12_RESOURCE_STATES s : lowered.final_states.expanded(r))
      out.final_states.back().push_back(static_cast<uint32_t>(s));
  }
  return out;
}

LegacyStates resting_states(const ResourceTable& resources, const History& history_in) {
  LegacyStates out(resources.size());
  for (ResourceId r = 0; r < resources.size() && r < history_in.size(); ++r) {
    const ResourceDesc& d = resources[r];
    // As lower()'s history form and the trace writer: textures at rest; buffers rest in COMMON.
    if (!history_in[r].touched || d.type != ResourceType::texture) continue;
    const uint32_t st = static_cast<uint32_t>(lower_d3d12_legacy_state(resting_state(d)));
    if (st != state::common) out[r].assign(size_t{d.mips} * d.layers * d.planes, st);
  }
  return out;
}

uint32_t state_at(const LegacyStates& s, ResourceId r, uint32_t subresource) {
  if (r >= s.size() || s[r].empty()) return state::common;
  return s[r].at(subresource);
}

std::string state_name(uint32_t s) { return d3d12_state_name(static_cast<D3D12_RESOURCE_STATES>(s)); }

}  // namespace baton::d3d12
