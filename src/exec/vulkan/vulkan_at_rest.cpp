// Set-up of resources that start at rest (src/exec/vulkan/vulkan_at_rest.hpp).
#include "vulkan_at_rest.hpp"

#include "baton/lower_vulkan.hpp"

namespace baton::exec {

std::vector<std::pair<ResourceId, VkImageLayout>> put_at_rest(VulkanContext::Impl& c, const GpuResources& res,
                                                              const std::vector<Geometry>& geo,
                                                              const ResourceTable& table,
                                                              const History& history, bool seeded) {
  std::vector<std::pair<ResourceId, VkImageLayout>> set;
  std::vector<VkImageMemoryBarrier2> to;
  for (ResourceId r = 0; r < geo.size() && r < history.size(); ++r) {
    if (!history[r].touched || geo[r].buffer) continue;
    const VkImageLayout layout = rest_layout(table[r]);
    VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    b.srcStageMask = seeded ? VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT : VK_PIPELINE_STAGE_2_NONE;
    b.srcAccessMask = seeded ? VK_ACCESS_2_TRANSFER_WRITE_BIT : VK_ACCESS_2_NONE;
    b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
    b.oldLayout = seeded ? VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
    b.newLayout = layout;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = res.image(r).image;
    VkImageAspectFlags aspects = 0;
    for (uint32_t p = 0; p < geo[r].planes; ++p) aspects |= aspect_of_plane(geo[r], p);
    b.subresourceRange = {aspects, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
    to.push_back(b);
    set.emplace_back(r, layout);
  }
  if (to.empty()) return set;
  VkCommandBuffer cb = c.begin_commands();
  VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  di.imageMemoryBarrierCount = static_cast<uint32_t>(to.size());
  di.pImageMemoryBarriers = to.data();
  vkCmdPipelineBarrier2(cb, &di);
  // Host wait plus queue idle (submit_and_wait): the layer orders the run after it, so this
  // set-up cannot look like it races with the plan's first barriers.
  c.submit_and_wait(cb);
  return set;
}

}  // namespace baton::exec
