// ExecPlan: the lowering's VulkanPlan flattened into execution order, and barrier references for
// mutation tests.
#include <fmt/format.h>

#include <stdexcept>

#include "baton/exec_vulkan.hpp"
#include "baton/lower_vulkan.hpp"

namespace baton::exec {

size_t ExecPlan::barrier_count() const {
  size_t n = 0;
  for (const ExecBarrierPoint& p : points) n += p.size();
  return n;
}

ExecPlan to_exec_plan(const VulkanPlan& plan) {
  ExecPlan out;
  for (uint32_t g = 0; g < plan.groups.size(); ++g)
    for (uint32_t l = 0; l < plan.groups[g].lists.size(); ++l)
      for (const VulkanPoint& p : plan.groups[g].lists[l].points) {
        ExecBarrierPoint e;
        e.group = g;
        e.list = l;
        e.op = p.op;
        e.where = p.where;
        e.half = p.half;
        e.event = p.event;
        e.event_list = p.event_list;
        e.memory = p.memory;
        e.buffers = p.buffers;
        e.buffer_resources = p.buffer_resources;
        e.images = p.images;
        e.image_resources = p.image_resources;
        out.points.push_back(std::move(e));
      }
  return out;
}

std::vector<BarrierRef> enumerate_barriers(const ExecPlan& plan) {
  std::vector<BarrierRef> out;
  for (size_t p = 0; p < plan.points.size(); ++p) {
    const ExecBarrierPoint& pt = plan.points[p];
    for (size_t i = 0; i < pt.memory.size(); ++i) out.push_back({p, BarrierRef::Kind::memory, i});
    for (size_t i = 0; i < pt.buffers.size(); ++i) out.push_back({p, BarrierRef::Kind::buffer, i});
    for (size_t i = 0; i < pt.images.size(); ++i) out.push_back({p, BarrierRef::Kind::image, i});
  }
  return out;
}

std::string describe(const ExecPlan& plan, const BarrierRef& ref, const Recording& rec) {
  const ExecBarrierPoint& p = plan.points.at(ref.point);
  const CommandListGroup& g = *rec.groups.at(p.group);
  if (p.list >= g.lists().size()) throw std::out_of_range("describe: no such list in the group");
  const CommandList& l = *g.lists()[p.list];
  std::string where =
      fmt::format("group '{}' list '{}' op {} {}", g.name(), l.name(), p.op, to_string(p.where));
  auto name = [&](ResourceId r) {
    return r < rec.resources.size() ? rec.resources[r].name : std::string("?");
  };
  switch (ref.kind) {
    case BarrierRef::Kind::memory: {
      const VkMemoryBarrier2& b = p.memory.at(ref.index);
      return fmt::format("{}: memory {} {} -> {} {}", where, vulkan_stage_name(b.srcStageMask),
                         vulkan_access_name(b.srcAccessMask), vulkan_stage_name(b.dstStageMask),
                         vulkan_access_name(b.dstAccessMask));
    }
    case BarrierRef::Kind::buffer: {
      const VkBufferMemoryBarrier2& b = p.buffers.at(ref.index);
      return fmt::format("{}: buffer '{}' {} {} -> {} {}", where, name(p.buffer_resources.at(ref.index)),
                         vulkan_stage_name(b.srcStageMask), vulkan_access_name(b.srcAccessMask),
                         vulkan_stage_name(b.dstStageMask), vulkan_access_name(b.dstAccessMask));
    }
    case BarrierRef::Kind::image: {
      const VkImageMemoryBarrier2& b = p.images.at(ref.index);
      const auto& r = b.subresourceRange;
      return fmt::format("{}: image '{}' mips {}+{} layers {}+{} aspect {:#x} {} {} {} -> {} {} {}", where,
                         name(p.image_resources.at(ref.index)), r.baseMipLevel, r.levelCount,
                         r.baseArrayLayer, r.layerCount, r.aspectMask, vulkan_stage_name(b.srcStageMask),
                         vulkan_access_name(b.srcAccessMask), vulkan_layout_name(b.oldLayout),
                         vulkan_stage_name(b.dstStageMask), vulkan_access_name(b.dstAccessMask),
                         vulkan_layout_name(b.newLayout));
    }
  }
  return where;
}

}  // namespace baton::exec
