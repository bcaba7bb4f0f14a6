#include "layout_replay.hpp"

namespace baton::runtime {

LayoutReplay::LayoutReplay(const ResourceTable& table, const std::function<VkImageLayout(ResourceId)>& initial)
    : table_(table), cur_(table.size()) {
  for (ResourceId m = 0; m < table.size(); ++m) {
    const ResourceDesc& d = table[m];
    if (d.type == ResourceType::texture) cur_[m].assign(size_t{d.mips} * d.layers * d.planes, initial(m));
  }
}

void LayoutReplay::apply(const VulkanPoint& pt) {
  if (pt.half == SplitHalf::begin) return;  // a split barrier's layout transition happens at its wait
  for (size_t k = 0; k < pt.images.size(); ++k) {
    const ResourceId m = pt.image_resources[k];
    if (m >= cur_.size() || cur_[m].empty()) continue;
    const ResourceDesc& d = table_[m];
    const VkImageSubresourceRange& sr = pt.images[k].subresourceRange;
    for (uint32_t pl = 0; pl < d.planes; ++pl) {
      if (!(sr.aspectMask & vulkan_aspects(d, pl, pl + 1))) continue;
      for (uint32_t l = sr.baseArrayLayer; l < sr.baseArrayLayer + sr.layerCount && l < d.layers; ++l)
        for (uint32_t mip = sr.baseMipLevel; mip < sr.baseMipLevel + sr.levelCount && mip < d.mips; ++mip)
          cur_[m][mip + l * d.mips + pl * d.mips * d.layers] = pt.images[k].newLayout;
    }
  }
}

}  // namespace baton::runtime
