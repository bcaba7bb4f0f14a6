// A replay of the barrier stream, per subresource, in submission order. The checks use it instead
// of anything the planner computed: it only applies each barrier's after-state. The state of each
// member is kept as runs of equal states over its subresource index (baton/runs.hpp), so a member
// costs what its barriers split it into, not its subresource count.
#pragma once

#include <vector>

#include "baton/graph.hpp"
#include "baton/runs.hpp"

namespace baton::graph::detail {

struct Replay {
  std::vector<Runs<State>> state;  // per member
};

// The subresource-index intervals of a box of member d.
inline std::vector<std::pair<uint32_t, uint32_t>> intervals(const ResourceDesc& d, const Box& b) {
  return box_intervals(d.mips, d.layers, b.m0, b.m1, b.l0, b.l1, b.p0, b.p1);
}
// The index space of a member's state: a texture's subresources; a buffer's bytes (buffer_extent), so
// that the checks see byte ranges as the planner does (a buffer used whole is one run all the same).
inline uint32_t cells(const ResourceDesc& d) {
  return d.type == ResourceType::buffer ? buffer_extent(d).m1 : d.mips * d.layers * d.planes;
}
// The intervals of that space a barrier covers.
inline std::vector<std::pair<uint32_t, uint32_t>> barrier_intervals(const ResourceDesc& d, const Barrier& b) {
  if (d.type != ResourceType::buffer) return intervals(d, b.box);
  const uint32_t end = buffer_extent(d).m1;
  if (b.whole_bytes()) return {{0, end}};
  const uint64_t hi = b.byte_offset + b.byte_size;
  return {{static_cast<uint32_t>(b.byte_offset), hi >= end ? end : static_cast<uint32_t>(hi)}};
}
// The intervals of that space a use covers.
inline std::vector<std::pair<uint32_t, uint32_t>> use_intervals(const ResourceDesc& d, const SubresourceRange& r) {
  if (d.type == ResourceType::buffer) {
    const Box e = is_whole(r) ? buffer_extent(d) : use_extent(d, r);
    return {{e.m0, e.m1}};
  }
  return intervals(d, is_whole(r) ? full_box(d) : resolve(d, r));
}
// (mip, layer, plane) of a subresource index of d.
struct Sub3 {
  uint32_t mip, layer, plane;
};
inline Sub3 sub3(const ResourceDesc& d, uint32_t i) {
  return {i % d.mips, i / d.mips % d.layers, i / (d.mips * d.layers)};
}

// Every member's subresources at the start of the frame (touched members at rest, the others
// untouched).
Replay replay_start(const Transitions& t);

// Walks every group, list and barrier point in order. `on_barrier(group, list, barrier, current, first,
// count)` is called per run of subresources [first, first + count) of the barrier's member in one state
// before the barrier applies; `on_use(group, list, replay)` between the list's before and after points
// (the list's one operation). A template rather than std::function: both callbacks inline here.
template <class OnBarrier, class OnUse>
Replay replay(const Transitions& t, OnBarrier&& on_barrier, OnUse&& on_use) {
  Replay rp = replay_start(t);
  auto apply = [&](uint32_t gi, uint32_t li, const Barrier& b) {
    if (b.resource == kGlobalResource) return;
    Runs<State>& runs = rp.state[b.resource];
    for (const auto& [lo, hi] : barrier_intervals(t.table[b.resource], b)) {
      runs.update(lo, hi, [&](uint32_t first, uint32_t n, State& s) {
        on_barrier(gi, li, b, s, first, n);
        s = b.after;
      });
      runs.coalesce(lo, hi);
    }
  };
  for (uint32_t gi = 0; gi < t.compiled.size(); ++gi) {
    const CompiledGroup& cg = t.compiled[gi];
    for (uint32_t li = 0; li < cg.lists.size(); ++li) {
      const CompiledList& cl = cg.lists[li];
      size_t k = 0;
      for (; k < cl.points.size() && cl.points[k].where == Where::before; ++k)
        for (const Barrier& b : cl.barriers_at(cl.points[k])) apply(gi, li, b);
      on_use(gi, li, rp);
      for (; k < cl.points.size(); ++k)
        for (const Barrier& b : cl.barriers_at(cl.points[k])) apply(gi, li, b);
    }
  }
  return rp;
}

}  // namespace baton::graph::detail
