// The API-independent view: names of the APIs, counting, and the dispatch to the backends.
#include "baton/lower.hpp"

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
  size_t n = 0;
  for (const LoweredList& l : lists)
    for (const LoweredPoint& p : l.points)
      if (p.needs_call()) ++n;
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

}  // namespace baton
