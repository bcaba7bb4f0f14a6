// Hand-off barriers between Baton and another renderer on Vulkan (include/lower/baton/handoff.hpp).
#include "baton/handoff.hpp"

#include <fmt/format.h>

#include "baton/lower_vulkan.hpp"

namespace baton {
namespace {

struct Side {
  VkPipelineStageFlags2 stages;
  VkAccessFlags2 access;
  VkImageLayout layout;
  uint32_t family;
};

void check(const ResourceDesc& d, const VulkanExternal& x, const char* what) {
  if (d.type != ResourceType::texture)
    throw Error(fmt::format("hand-off {} of '{}': only textures have a layout and an owner to hand over", what,
                            d.name));
  if (x.queue_family == VK_QUEUE_FAMILY_IGNORED)
    throw Error(fmt::format("hand-off {} of '{}': the other side's queue family is not declared", what, d.name));
  if (x.layout == VK_IMAGE_LAYOUT_UNDEFINED)
    throw Error(fmt::format("hand-off {} of '{}': layout UNDEFINED would discard the contents being handed over",
                            what, d.name));
}

VkImageMemoryBarrier2 base(const ResourceDesc& d, const Side& from, const Side& to) {
  VkImageMemoryBarrier2 b{};
  b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2;
  b.oldLayout = from.layout;
  b.newLayout = to.layout;
  b.subresourceRange = {vulkan_aspects(d, 0, d.planes), 0, d.mips, 0, d.layers};
  if (from.family == to.family) {
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  } else {
    b.srcQueueFamilyIndex = from.family;
    b.dstQueueFamilyIndex = to.family;
  }
  return b;
}

// Release (giving queue): the giver's last use is the source; no destination scope (the semaphore
// carries it). Acquire (taking queue): no source scope; the taker's first use is the destination.
VulkanHandoff make(const ResourceDesc& d, const Side& from, const Side& to) {
  VulkanHandoff h;
  VkImageMemoryBarrier2 b = base(d, from, to);
  if (from.family == to.family) {
    b.srcStageMask = from.stages;
    b.srcAccessMask = from.access;
    b.dstStageMask = to.stages;
    b.dstAccessMask = to.access;
    h.acquire = b;
    return h;
  }
  if (from.layout != to.layout) {
    VkImageMemoryBarrier2 change = base(d, from, Side{to.stages, to.access, to.layout, from.family});
    change.srcStageMask = from.stages;
    change.srcAccessMask = from.access;
    change.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;  // chained by the release's source scope
    change.dstAccessMask = VK_ACCESS_2_NONE;
    h.before_release = change;
    b.oldLayout = to.layout;
  }
  VkImageMemoryBarrier2 release = b;
  release.srcStageMask = h.before_release ? VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT : from.stages;
  release.srcAccessMask = h.before_release ? VK_ACCESS_2_NONE : from.access;
  h.release = release;
  b.dstStageMask = to.stages;
  b.dstAccessMask = to.access;
  h.acquire = b;
  return h;
}

}  // namespace

VulkanHandoff vulkan_import(const ResourceDesc& d, const VulkanExternal& arrived, const State& entry,
                            uint32_t baton_family) {
  check(d, arrived, "import");
  const VulkanSide in = lower_vulkan_state(entry, true, false);
  return make(d, Side{arrived.stages, arrived.access, arrived.layout, arrived.queue_family},
              Side{in.stages, in.access, in.layout, baton_family});
}

VulkanHandoff vulkan_export(const ResourceDesc& d, const State& exit, uint32_t baton_family,
                            const VulkanExternal& leave) {
  check(d, leave, "export");
  const VulkanSide out = lower_vulkan_state(exit, true, true);
  return make(d, Side{out.stages, out.access, out.layout, baton_family},
              Side{leave.stages, leave.access, leave.layout, leave.queue_family});
}

std::string describe(const VkImageMemoryBarrier2& b) {
  auto family = [](uint32_t f) { return f == VK_QUEUE_FAMILY_IGNORED ? std::string("-") : std::to_string(f); };
  return fmt::format("{} -> {}, family {} -> {}, src {} {} -> dst {} {}", vulkan_layout_name(b.oldLayout),
                     vulkan_layout_name(b.newLayout), family(b.srcQueueFamilyIndex), family(b.dstQueueFamilyIndex),
                     vulkan_stage_name(b.srcStageMask), vulkan_access_name(b.srcAccessMask),
                     vulkan_stage_name(b.dstStageMask), vulkan_access_name(b.dstAccessMask));
}

}  // namespace baton
