// The image layouts a Vulkan plan leaves each subresource in, replayed barrier by barrier in
// submission order (the runtime's PassContext::layout and its ownership transfers both need the
// layout at a point of the frame).
#pragma once

#include <functional>
#include <vector>

#include "baton/lower_vulkan.hpp"

namespace baton::runtime {

class LayoutReplay {
 public:
  // `initial(member)`: the layout a member's subresources start the frame in.
  LayoutReplay(const ResourceTable& table, const std::function<VkImageLayout(ResourceId)>& initial);
  void apply(const VulkanPoint& point);
  // Subresource index: mip + layer * mips + plane * mips * layers.
  VkImageLayout at(ResourceId member, uint32_t sub) const { return cur_[member][sub]; }
  const std::vector<VkImageLayout>& of(ResourceId member) const { return cur_[member]; }

 private:
  const ResourceTable& table_;
  std::vector<std::vector<VkImageLayout>> cur_;  // per member (empty for buffers)
};

}  // namespace baton::runtime
