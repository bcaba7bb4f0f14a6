// Mutation of compiled plans for the heap-model tests: take the takeover ordering of one aliased
// resource out of the plan, as Baton planned it before issue 12 (a texture's first barrier from
// nothing, a buffer with no first barrier at all). Shared by tests/validate and tests/exec.
#pragma once

#include <algorithm>
#include <set>
#include <vector>

#include "baton/plan.hpp"

namespace baton::test {

// The resources whose plan has a takeover barrier (Reason::takeover), in resource order.
inline std::vector<ResourceId> taking_over(const std::vector<CompiledGroup>& groups) {
  std::set<ResourceId> out;
  for (const CompiledGroup& g : groups)
    for (const CompiledList& l : g.lists)
      for (const Barrier& b : l.barriers)
        if (b.reason == Reason::takeover) out.insert(b.resource);
  return {out.begin(), out.end()};
}

// Every takeover barrier of `r` becomes a first touch (textures) or is removed (buffers).
inline std::vector<CompiledGroup> drop_takeover(std::vector<CompiledGroup> groups, ResourceId r,
                                                bool buffer) {
  for (CompiledGroup& g : groups)
    for (size_t li = 0; li < g.lists.size(); ++li) {
      std::vector<Barrier> barriers(g.lists[li].barriers.begin(), g.lists[li].barriers.end());
      std::vector<BarrierPoint> points(g.lists[li].points.begin(), g.lists[li].points.end());
      for (size_t i = barriers.size(); i-- > 0;) {
        Barrier& b = barriers[i];
        if (b.resource != r || b.reason != Reason::takeover) continue;
        if (!buffer) {
          b.before = kFirstTouch;
          b.reason = b.discard ? Reason::discard : Reason::first_touch;
          b.previous = kGlobalResource;
          continue;
        }
        barriers.erase(barriers.begin() + static_cast<std::ptrdiff_t>(i));
        for (BarrierPoint& p : points) {
          if (i >= p.first && i < p.first + p.count)
            --p.count;
          else if (p.first > i)
            --p.first;
        }
      }
      std::erase_if(points, [](const BarrierPoint& p) { return p.count == 0; });
      g.set_list(li, std::move(barriers), std::move(points));
    }
  return groups;
}

}  // namespace baton::test
