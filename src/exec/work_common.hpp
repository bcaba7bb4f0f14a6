// What the two executors' work models share (work.hpp: Vulkan; d3d12_work.hpp: D3D12 through vkd3d):
// the walk over a recording's operations with their group, list and operation indices, the text that
// names an operation in their errors, and the subresources a use covers. Each backend turns an
// operation into its own work items (its resources are scaled differently: Geometry vs Shape), but
// both read the recording the same way, from here.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>

#include "baton/recording.hpp"

namespace baton::exec_work {

// "group 'g' list 'l' op 3 (copy label)": how both executors name an operation in an error.
inline std::string op_text(const CommandListGroup& g, const CommandList& l, uint32_t op) {
  const Operation& o = l.ops()[op];
  return fmt::format("group '{}' list '{}' op {} ({}{}{})", g.name(), l.name(), op, to_string(o.kind),
                     o.label.empty() ? "" : " ", o.label);
}

// One operation of a recording, with its indices.
struct OpAt {
  uint32_t group = 0, list = 0, op = 0;
  const CommandListGroup& g;
  const CommandList& l;
  const Operation& o;
};

// Calls f(const OpAt&) for every operation, in submission order (groups, their lists, their operations).
template <class F>
void for_each_op(const Recording& rec, F&& f) {
  for (uint32_t gi = 0; gi < rec.groups.size(); ++gi) {
    const CommandListGroup& g = *rec.groups[gi];
    for (uint32_t li = 0; li < g.lists().size(); ++li) {
      const CommandList& l = *g.lists()[li];
      for (uint32_t oi = 0; oi < l.ops().size(); ++oi) f(OpAt{gi, li, oi, g, l, l.ops()[oi]});
    }
  }
}

// Calls f(mip, layer, plane) for every subresource of use u, in (plane, layer, mip) order: the order of
// the subresource index (D3D12CalcSubresource) and of both executors' data models.
template <class F>
void for_each_subresource(const ResourceDesc& d, const Use& u, F&& f) {
  const Box b = resolve(d, u.range);
  for (uint32_t p = b.p0; p < b.p1; ++p)
    for (uint32_t l = b.l0; l < b.l1; ++l)
      for (uint32_t m = b.m0; m < b.m1; ++m) f(m, l, p);
}

}  // namespace baton::exec_work
