// The API-independent view: names of the APIs, counting, and the dispatch to the backends.
#include "baton/lower.hpp"

#include <algorithm>

#include "backends.hpp"

namespace baton {

std::string_view to_string(Api a) {
  switch (a) {
    case Api::d3d12: return "d3d12";
    case Api::d3d12_legacy: return "d3d12-legacy";
    case Api::vulkan: return "vulkan";
  }
  return "?";
}

std::optional<Api> parse_api(std::string_view s) {
  for (Api a : {Api::d3d12, Api::d3d12_legacy, Api::vulkan})
    if (to_string(a) == s) return a;
  return std::nullopt;
}

std::string_view to_string(SplitHalf h) {
  switch (h) {
    case SplitHalf::none: return "whole";
    case SplitHalf::begin: return "begin";
    case SplitHalf::end: return "end";
  }
  return "?";
}

bool LoweredPoint::needs_call() const {
  for (const LoweredBarrier& b : barriers)
    if (!b.omitted && b.api_barriers > 0) return true;
  return false;
}

size_t LoweredGroup::barrier_count() const {
  size_t n = 0;
  for (const LoweredList& l : lists)
    for (const LoweredPoint& p : l.points)
      for (const LoweredBarrier& b : p.barriers)
        if (!b.omitted) n += b.api_barriers;
  return n;
}

size_t LoweredGroup::call_count() const {
  // A point's ordinary barriers are one call; each group of split barriers beginning after the same
  // operation is two more (its begin half and its end half).
  size_t n = 0;
  for (const LoweredList& l : lists)
    for (const LoweredPoint& p : l.points) {
      bool whole = false;
      std::vector<uint32_t> begins;
      for (const LoweredBarrier& b : p.barriers) {
        if (b.omitted || b.api_barriers == 0) continue;
        if (b.split_after == kNoSplit)
          whole = true;
        else if (std::find(begins.begin(), begins.end(), b.split_after) == begins.end())
          begins.push_back(b.split_after);
      }
      n += (whole ? 1 : 0) + 2 * begins.size();
    }
  return n;
}

std::vector<LoweredGroup> lower(Api api, const ResourceTable& resources, std::span<const CompiledGroup> groups) {
  std::vector<LoweredGroup> view;
  switch (api) {
    case Api::d3d12: lower_detail::lower_d3d12_enhanced(resources, groups, &view); break;
    case Api::d3d12_legacy: lower_detail::lower_d3d12_legacy(resources, groups, nullptr, &view); break;
    case Api::vulkan: lower_detail::lower_vulkan(resources, groups, &view); break;
  }
  return view;
}

std::vector<LoweredGroup> lower(Api api, const ResourceTable& resources, std::span<const CompiledGroup> groups,
                                const History& history_in) {
  if (api != Api::d3d12_legacy) return lower(api, resources, groups);
  D3D12LegacyStates initial;
  initial.resources.resize(resources.size());
  bool any = false;
  for (ResourceId id = 0; id < resources.size() && id < history_in.size(); ++id) {
    const ResourceDesc& d = resources[id];
    if (!history_in[id].touched || d.type != ResourceType::texture) continue;  // buffers rest in COMMON
    initial.resources[id] = Runs<D3D12_RESOURCE_STATES>(d.mips * d.layers * d.planes, lower_d3d12_legacy_state(resting_state(d)));
    any = true;
  }
  if (!any) return lower(api, resources, groups);
  std::vector<LoweredGroup> view;
  lower_detail::lower_d3d12_legacy(resources, groups, &initial, &view);
  return view;
}

}  // namespace baton
