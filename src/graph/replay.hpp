// A flat replay of the barrier stream, per subresource, in submission order. The checks use it
// instead of anything the planner computed: it only applies each barrier's after-state.
#pragma once

#include <functional>
#include <vector>

#include "baton/graph.hpp"

namespace baton::graph::detail {

struct Replay {
  std::vector<uint32_t> first_sub;  // per member
  std::vector<State> state;         // per subresource
  // Subresource index of (member, mip, layer, plane).
  uint32_t index(const ResourceDesc& d, ResourceId m, uint32_t mip, uint32_t layer, uint32_t plane) const {
    return first_sub[m] + mip + layer * d.mips + plane * d.mips * d.layers;
  }
};

// Walks every group, list and barrier point in order. `on_barrier(group, list, barrier, current)` is
// called per subresource before the barrier applies; `on_use(group, list)` between the list's
// before and after points (the list's one operation).
Replay replay(const Transitions& t,
              const std::function<void(uint32_t, uint32_t, const Barrier&, const State&)>& on_barrier,
              const std::function<void(uint32_t, uint32_t, Replay&)>& on_use);

}  // namespace baton::graph::detail
