// Neutral plan -> Vulkan synchronization2. Stages come from the neutral sync bits, access bits and
// layouts from the per-access table; merged reads pick the one layout every reader accepts.
#include <fmt/format.h>

#include <bit>

#include "backends.hpp"
#include "common.hpp"

namespace baton {
namespace {

using lower_detail::Site;

static_assert([] {
  for (size_t i = 0; i < kVulkanTable.size(); ++i)
    if (kVulkanTable[i].access != static_cast<Access>(i)) return false;
  return true;
}(), "kVulkanTable must have one row per Access, in enum order");

const VulkanRow& row(Access a) { return kVulkanTable[static_cast<size_t>(a)]; }

VkImageLayout image_layout(Layout l, AccessMask access) {
  switch (l) {
    case Layout::none:
    case Layout::undefined: return VK_IMAGE_LAYOUT_UNDEFINED;
    case Layout::common: return VK_IMAGE_LAYOUT_GENERAL;
    case Layout::generic_read:
    case Layout::shared_read:
      // Depth reads and sampling share DEPTH_STENCIL_READ_ONLY_OPTIMAL; any other mix (e.g. sampled
      // and copy source) only meets in GENERAL.
      if ((access & ~(bit(Access::depth_read) | bit(Access::shader_resource))) == 0)
        return VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
      return VK_IMAGE_LAYOUT_GENERAL;
    default: break;
  }
  for (int i = 0; i < kAccessCount; ++i) {
    const auto a = static_cast<Access>(i);
    if (!(bit(a) & kBufferOnlyAccesses) && layout_of(a) == l) return row(a).layout;
  }
  return VK_IMAGE_LAYOUT_GENERAL;
}

std::string side_text(const VulkanSide& s, bool image) {
  std::string out = fmt::format("{} {}", vulkan_stage_name(s.stages), vulkan_access_name(s.access));
  if (image) out += fmt::format(" {}", vulkan_layout_name(s.layout));
  return out;
}

}  // namespace

VulkanSide lower_vulkan_state(const State& s, bool image, bool source) {
  if (lower_detail::is_first_touch(s)) return {};  // NONE, NONE, UNDEFINED
  VulkanSide out;
  for (const VulkanStageRow& r : kVulkanStageBits)
    if (s.sync & r.neutral) out.stages |= r.stages;
  if (out.stages & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT) out.stages = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  // srcStage NONE is reserved for the first-ever touch (invariant 2).
  if (out.stages == VK_PIPELINE_STAGE_2_NONE) out.stages = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  if (s.access & kAnyAccess) {
    // Whatever the previous group did: make every write available (source), or make memory
    // visible to any later access (destination).
    out.access = source ? VK_ACCESS_2_MEMORY_WRITE_BIT : (VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT);
  } else {
    for (int i = 0; i < kAccessCount; ++i) {
      const auto a = static_cast<Access>(i);
      if (s.access & bit(a)) out.access |= image ? row(a).image_access : row(a).buffer_access;
    }
  }
  if (image) out.layout = image_layout(s.layout, s.access);
  return out;
}

VkImageAspectFlags vulkan_aspects(const ResourceDesc& d, uint32_t p0, uint32_t p1) {
  switch (d.format) {
    case FormatClass::color:
      if (d.planes == 1) return VK_IMAGE_ASPECT_COLOR_BIT;
      {
        // Multi-planar colour formats address each plane on its own.
        constexpr VkImageAspectFlags kPlanes[3] = {VK_IMAGE_ASPECT_PLANE_0_BIT, VK_IMAGE_ASPECT_PLANE_1_BIT,
                                                   VK_IMAGE_ASPECT_PLANE_2_BIT};
        VkImageAspectFlags out = 0;
        for (uint32_t p = p0; p < p1 && p < 3; ++p) out |= kPlanes[p];
        return out;
      }
    case FormatClass::depth: return VK_IMAGE_ASPECT_DEPTH_BIT;
    case FormatClass::depth_stencil: {
      if (d.planes == 1) return VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
      VkImageAspectFlags out = 0;
      if (p0 == 0) out |= VK_IMAGE_ASPECT_DEPTH_BIT;  // plane 0: depth
      if (p1 > 1) out |= VK_IMAGE_ASPECT_STENCIL_BIT;  // plane 1: stencil
      return out;
    }
  }
  return VK_IMAGE_ASPECT_COLOR_BIT;
}

VkDependencyInfo VulkanPoint::dependency_info() const {
  VkDependencyInfo info{};
  info.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO;
  info.memoryBarrierCount = static_cast<uint32_t>(memory.size());
  info.pMemoryBarriers = memory.empty() ? nullptr : memory.data();
  info.bufferMemoryBarrierCount = static_cast<uint32_t>(buffers.size());
  info.pBufferMemoryBarriers = buffers.empty() ? nullptr : buffers.data();
  info.imageMemoryBarrierCount = static_cast<uint32_t>(images.size());
  info.pImageMemoryBarriers = images.empty() ? nullptr : images.data();
  return info;
}

namespace lower_detail {
namespace {

LoweredBarrier lower_one(const Site& site, const Barrier& b, VulkanPoint& point) {
  const SidePair sides = check_queue(site, b);
  const bool image = is_texture(site.resources, b.resource);
  VulkanSide src = lower_vulkan_state(sides.before, image, true);
  if (b.reason == Reason::takeover && !(sides.before.access & kAnyAccess)) {
    // The previous occupants' accesses, whatever kind of resource they were (a buffer may take over an
    // image's memory and the other way round): the memory's writes must be available before it is reused.
    for (int i = 0; i < kAccessCount; ++i)
      if (sides.before.access & bit(static_cast<Access>(i)))
        src.access |= row(static_cast<Access>(i)).image_access | row(static_cast<Access>(i)).buffer_access;
    src.layout = VK_IMAGE_LAYOUT_UNDEFINED;
  }
  const VulkanSide dst = lower_vulkan_state(sides.after, image, false);
  LoweredBarrier v;
  v.resource = b.resource;
  v.range = range_text(site.resources, b);
  v.reason = b.reason;

  if (b.resource == kGlobalResource) {
    VkMemoryBarrier2 m{};
    m.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2;
    m.srcStageMask = src.stages;
    m.srcAccessMask = src.access;
    m.dstStageMask = dst.stages;
    m.dstAccessMask = dst.access;
    point.memory.push_back(m);
    v.before = side_text(src, false);
    v.after = side_text(dst, false);
    return v;
  }
  if (b.discard) {
    if (!image) fail(site, b.resource, "carries an initializing discard but is a buffer");
    // The contents are discarded: oldLayout UNDEFINED, still ordered after the earlier accesses.
    src.layout = VK_IMAGE_LAYOUT_UNDEFINED;
    v.note = "discard (oldLayout UNDEFINED)";
  }
  v.before = side_text(src, image);
  v.after = side_text(dst, image);
  if (image) {
    const ResourceDesc& d = site.resources[b.resource];
    VkImageMemoryBarrier2 ib{};
    ib.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2;
    ib.srcStageMask = src.stages;
    ib.srcAccessMask = src.access;
    ib.dstStageMask = dst.stages;
    ib.dstAccessMask = dst.access;
    ib.oldLayout = src.layout;
    ib.newLayout = dst.layout;
    ib.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    ib.image = VK_NULL_HANDLE;
    ib.subresourceRange.aspectMask = vulkan_aspects(d, b.box.p0, b.box.p1);
    ib.subresourceRange.baseMipLevel = b.box.m0;
    ib.subresourceRange.levelCount = b.box.m1 - b.box.m0;
    ib.subresourceRange.baseArrayLayer = b.box.l0;
    ib.subresourceRange.layerCount = b.box.l1 - b.box.l0;
    point.images.push_back(ib);
    point.image_resources.push_back(b.resource);
  } else {
    VkBufferMemoryBarrier2 bb{};
    bb.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2;
    bb.srcStageMask = src.stages;
    bb.srcAccessMask = src.access;
    bb.dstStageMask = dst.stages;
    bb.dstAccessMask = dst.access;
    bb.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    bb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    bb.buffer = VK_NULL_HANDLE;
    // A byte range orders only those bytes (VkBufferMemoryBarrier2::offset/size).
    bb.offset = b.byte_offset;
    bb.size = b.whole_bytes() ? VK_WHOLE_SIZE : b.byte_size;
    point.buffers.push_back(bb);
    point.buffer_resources.push_back(b.resource);
  }
  return v;
}

}  // namespace

VulkanPlan lower_vulkan(const ResourceTable& resources, std::span<const CompiledGroup> groups,
                        std::vector<LoweredGroup>* view) {
  return walk_groups<VulkanPlan, VulkanGroup, VulkanList, VulkanPoint>(
      resources, groups, view,
      [](const Site& site, const Barrier& b, VulkanPoint& np) { return lower_one(site, b, np); },
      [](VulkanList& begin_list, uint32_t begin_index, VulkanPoint&& lowered) {
        // Set and wait carry the same VkDependencyInfo (VUID-vkCmdWaitEvents2-pEvents-03838).
        lowered.event = begin_list.events++;
        lowered.event_list = begin_index;
        VulkanPoint begin = lowered;
        return std::pair<VulkanPoint, VulkanPoint>{std::move(begin), std::move(lowered)};
      });
}

}  // namespace lower_detail

VulkanPlan lower_vulkan(const ResourceTable& resources, std::span<const CompiledGroup> groups) {
  return lower_detail::lower_vulkan(resources, groups, nullptr);
}

}  // namespace baton
