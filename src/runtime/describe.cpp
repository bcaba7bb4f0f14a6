// Frame-graph descriptions and memory requirements from Vulkan's structures: what the image or buffer was created for
// decides which accesses Baton lets a pass declare on it (the planner's legality checks) and, for
// images, the resting layout.
#include <algorithm>
#include <map>

#include "baton/runtime.hpp"

namespace baton::runtime {
namespace {

struct UsageRow {
  VkFlags usage;
  AccessMask access;
};

constexpr UsageRow kImageUsage[] = {
    {VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, bit(Access::render_target)},
    {VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, bit(Access::depth_write) | bit(Access::depth_read)},
    {VK_IMAGE_USAGE_SAMPLED_BIT, bit(Access::shader_resource)},
    {VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT, bit(Access::shader_resource)},
    {VK_IMAGE_USAGE_STORAGE_BIT, bit(Access::unordered_access)},
    {VK_IMAGE_USAGE_TRANSFER_SRC_BIT, bit(Access::copy_source) | bit(Access::resolve_source)},
    {VK_IMAGE_USAGE_TRANSFER_DST_BIT, bit(Access::copy_dest) | bit(Access::resolve_dest)},
};

constexpr UsageRow kBufferUsage[] = {
    {VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, bit(Access::vertex_buffer)},
    {VK_BUFFER_USAGE_INDEX_BUFFER_BIT, bit(Access::index_buffer)},
    {VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, bit(Access::constant_buffer)},
    {VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, bit(Access::shader_resource)},
    {VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, bit(Access::unordered_access) | bit(Access::shader_resource)},
    {VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, bit(Access::unordered_access) | bit(Access::shader_resource)},
    {VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, bit(Access::indirect_argument)},
    {VK_BUFFER_USAGE_TRANSFER_SRC_BIT, bit(Access::copy_source)},
    {VK_BUFFER_USAGE_TRANSFER_DST_BIT, bit(Access::copy_dest)},
};

FormatClass format_class(VkFormat f) {
  switch (f) {
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D32_SFLOAT:
      return FormatClass::depth;
    case VK_FORMAT_D16_UNORM_S8_UINT:
    case VK_FORMAT_D24_UNORM_S8_UINT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT:
    case VK_FORMAT_S8_UINT:
      return FormatClass::depth_stencil;
    default:
      return FormatClass::color;
  }
}

}  // namespace

ResourceDesc describe_image(std::string name, const VkImageCreateInfo& info) {
  ResourceDesc d;
  d.name = std::move(name);
  d.type = ResourceType::texture;
  d.width = info.extent.width;
  d.height = info.extent.height;
  d.mips = info.mipLevels;
  d.layers = info.arrayLayers;
  d.format = format_class(info.format);
  d.planes = d.format == FormatClass::depth_stencil ? 2 : 1;
  for (const UsageRow& r : kImageUsage)
    if (info.usage & r.usage) d.usage |= r.access;
  return d;
}

ResourceDesc describe_buffer(std::string name, const VkBufferCreateInfo& info) {
  ResourceDesc d;
  d.name = std::move(name);
  d.type = ResourceType::buffer;
  d.size = info.size;
  for (const UsageRow& r : kBufferUsage)
    if (info.usage & r.usage) d.usage |= r.access;
  return d;
}

MemoryRequirement requirement(const VkMemoryRequirements& r) { return {r.size, r.alignment, r.memoryTypeBits}; }

std::vector<MemoryRequirement> requirements(const std::vector<VkMemoryRequirements>& r) {
  std::vector<MemoryRequirement> out;
  out.reserve(r.size());
  for (const VkMemoryRequirements& x : r) out.push_back(requirement(x));
  return out;
}

}  // namespace baton::runtime
