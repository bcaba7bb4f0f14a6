// The validator's subresource sets as index intervals (the run container itself is
// include/core/baton/runs.hpp, shared vocabulary). Shadow state is kept by run index (RunOrder:
// mip-major), so a range of some mips over many layers costs one interval per mip, not one per layer;
// the Reporter turns run indices back into subresource indices for messages.
#pragma once

#include <baton/runs.hpp>
#include <baton/validate.hpp>
#include <utility>
#include <vector>

namespace baton::validate {

using baton::IntervalSet;
using baton::Runs;

// The run order of a trace resource (a buffer: the identity).
inline RunOrder run_order(const TraceResource& r) { return r.buffer ? RunOrder{} : RunOrder{r.mips, r.layers}; }
// The run-index intervals of a box over mip x layer x plane given as first + count (ascending).
inline std::vector<std::pair<uint32_t, uint32_t>> intervals(const TraceResource& r, uint32_t mip0,
                                                            uint32_t mips, uint32_t layer0, uint32_t layers,
                                                            uint32_t plane0, uint32_t planes) {
  return run_order(r).box(mip0, mip0 + mips, layer0, layer0 + layers, plane0, plane0 + planes);
}
inline std::vector<std::pair<uint32_t, uint32_t>> intervals(const TraceResource& r, const Subresources& s) {
  if (s.index != kAllSubresources) {
    const uint32_t i = run_order(r).run(static_cast<uint32_t>(s.index));
    return {{i, i + 1}};
  }
  if (s.range.all) return {{0, r.subresource_count()}};
  return intervals(r, s.range.mip0, s.range.mips, s.range.layer0, s.range.layers, s.range.plane0,
                   s.range.planes);
}

}  // namespace baton::validate
