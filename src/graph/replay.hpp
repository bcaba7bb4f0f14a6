// A flat replay of the barrier stream, per subresource, in submission order. The checks use it
// instead of anything the planner computed: it only applies each barrier's after-state.
#pragma once

#include <vector>

#include "baton/graph.hpp"

namespace baton::graph::detail {

struct Replay {
  std::vector<uint32_t> first_sub;  // per member
  std::vector<State> state;         // per subresource
  // Per member: mips and mips * layers, copied out of the resource table once so that applying a
  // barrier does not reach into the (large, bounds-checked) descriptions for every subresource.
  struct Stride {
    uint32_t mips, mips_layers;
  };
  std::vector<Stride> stride;
  // Subresource index of (member, mip, layer, plane).
  uint32_t index(const ResourceDesc& d, ResourceId m, uint32_t mip, uint32_t layer, uint32_t plane) const {
    return first_sub[m] + mip + layer * d.mips + plane * d.mips * d.layers;
  }
  uint32_t index(ResourceId m, uint32_t mip, uint32_t layer, uint32_t plane) const {
    return first_sub[m] + mip + layer * stride[m].mips + plane * stride[m].mips_layers;
  }
};

// Every member's subresources at the start of the frame (touched members at rest, the others
// untouched).
Replay replay_start(const Transitions& t);

// Walks every group, list and barrier point in order. `on_barrier(group, list, barrier, current, sub)`
// is called per subresource (`sub`: its index in Replay::state) before the barrier applies; `on_use(group,
// list, replay)` between the list's before and after points (the list's one operation). A template rather
// than std::function: both callbacks run per subresource / per list and inline here.
template <class OnBarrier, class OnUse>
Replay replay(const Transitions& t, OnBarrier&& on_barrier, OnUse&& on_use) {
  Replay rp = replay_start(t);
  auto apply = [&](uint32_t gi, uint32_t li, const Barrier& b) {
    if (b.resource == kGlobalResource) return;
    for (uint32_t p = b.box.p0; p < b.box.p1; ++p)
      for (uint32_t l = b.box.l0; l < b.box.l1; ++l)
        for (uint32_t mip = b.box.m0; mip < b.box.m1; ++mip) {
          const uint32_t sub = rp.index(b.resource, mip, l, p);
          State& s = rp.state[sub];
          on_barrier(gi, li, b, s, sub);
          s = b.after;
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
