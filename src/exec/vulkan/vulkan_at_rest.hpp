// Resources that start a run at rest (a frame graph's persistent resources), not untouched.
#pragma once

#include <utility>
#include <vector>

#include "baton/lower_vulkan.hpp"
#include "baton/plan.hpp"
#include "gpu_resources.hpp"

namespace baton::exec {

// The layout a texture at rest is in: the one the plan's from_rest barriers use as oldLayout.
inline VkImageLayout rest_layout(const ResourceDesc& d) {
  return lower_vulkan_state(resting_state(d), true, true).layout;
}

// Puts every texture that `history` marks touched into its resting layout, in a set-up submission
// of the executor's own before the first group (as an engine's resource creation would), so that
// the plan's first barrier on it (from_rest) names the layout the image is really in. `seeded`:
// GpuResources left the textures in TRANSFER_DST_OPTIMAL with known contents, which are kept;
// otherwise the transition starts from UNDEFINED. Buffers need nothing: they hold the words the
// host wrote at creation. Returns the (texture, layout) pairs it set.
std::vector<std::pair<ResourceId, VkImageLayout>> put_at_rest(VulkanContext::Impl& c, const GpuResources& res,
                                                              const std::vector<Geometry>& geo,
                                                              const ResourceTable& table,
                                                              const History& history, bool seeded);

}  // namespace baton::exec
