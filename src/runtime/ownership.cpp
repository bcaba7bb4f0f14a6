// Queue-family ownership transfers (ownership.hpp).
#include "ownership.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>

#include "layout_replay.hpp"

namespace baton::runtime {
namespace {

constexpr uint32_t kNo = 0xffffffffu;

// Per group, per logical queue: 1 + the last group index of that queue known complete before the
// group starts (its own queue: everything submitted before it there; waits: what the waited group
// knew, plus that group).
std::vector<std::array<uint32_t, 3>> group_clocks(const OwnershipInput& in) {
  const size_t ng = in.group_queue.size();
  std::vector<std::array<uint32_t, 3>> clock(ng, {0, 0, 0});
  std::array<uint32_t, 3> last_on{kNo, kNo, kNo};
  for (uint32_t g = 0; g < ng; ++g) {
    const uint32_t q = in.group_queue[g];
    std::array<uint32_t, 3> c{0, 0, 0};
    auto join = [&](uint32_t h) {
      for (size_t k = 0; k < 3; ++k) c[k] = std::max(c[k], clock[h][k]);
      c[in.group_queue[h]] = std::max(c[in.group_queue[h]], h + 1);
    };
    if (last_on[q] != kNo) join(last_on[q]);
    for (uint32_t h : in.waits[g])
      if (h < g) join(h);
    clock[g] = c;
    last_on[q] = g;
  }
  return clock;
}

VkImageMemoryBarrier2 image_transfer(const ResourceDesc& d, uint32_t mip, uint32_t layer, uint32_t plane,
                                     VkImageLayout layout, uint32_t from, uint32_t to, bool release) {
  VkImageMemoryBarrier2 b{};
  b.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2;
  // The release's source scope and the acquire's destination scope cover everything: the pair
  // orders nothing by itself beyond what the planner's barriers and the semaphore already order.
  b.srcStageMask = release ? VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT : VK_PIPELINE_STAGE_2_NONE;
  b.srcAccessMask = release ? VK_ACCESS_2_MEMORY_WRITE_BIT : VK_ACCESS_2_NONE;
  b.dstStageMask = release ? VK_PIPELINE_STAGE_2_NONE : VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  b.dstAccessMask = release ? VK_ACCESS_2_NONE : VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
  b.oldLayout = b.newLayout = layout;
  b.srcQueueFamilyIndex = from;
  b.dstQueueFamilyIndex = to;
  b.subresourceRange = {vulkan_aspects(d, plane, plane + 1), mip, 1, layer, 1};
  return b;
}

VkBufferMemoryBarrier2 buffer_transfer(uint32_t from, uint32_t to, bool release) {
  VkBufferMemoryBarrier2 b{};
  b.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2;
  b.srcStageMask = release ? VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT : VK_PIPELINE_STAGE_2_NONE;
  b.srcAccessMask = release ? VK_ACCESS_2_MEMORY_WRITE_BIT : VK_ACCESS_2_NONE;
  b.dstStageMask = release ? VK_PIPELINE_STAGE_2_NONE : VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  b.dstAccessMask = release ? VK_ACCESS_2_NONE : VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
  b.srcQueueFamilyIndex = from;
  b.dstQueueFamilyIndex = to;
  b.offset = 0;
  b.size = VK_WHOLE_SIZE;
  return b;
}

// Whether the list's before-barriers discard the whole member (oldLayout UNDEFINED over every
// subresource): then its earlier contents need no ownership transfer.
bool discards_whole(const ResourceDesc& d, const VulkanList& l, ResourceId m) {
  if (d.type != ResourceType::texture) return false;
  std::vector<uint8_t> undefined(size_t{d.mips} * d.layers * d.planes, 0);
  for (const VulkanPoint& pt : l.points) {
    if (pt.where != Where::before) continue;
    for (size_t k = 0; k < pt.images.size(); ++k) {
      if (pt.image_resources[k] != m || pt.images[k].oldLayout != VK_IMAGE_LAYOUT_UNDEFINED) continue;
      const VkImageSubresourceRange& sr = pt.images[k].subresourceRange;
      for (uint32_t pl = 0; pl < d.planes; ++pl) {
        if (!(sr.aspectMask & vulkan_aspects(d, pl, pl + 1))) continue;
        for (uint32_t ly = sr.baseArrayLayer; ly < sr.baseArrayLayer + sr.layerCount && ly < d.layers; ++ly)
          for (uint32_t mp = sr.baseMipLevel; mp < sr.baseMipLevel + sr.levelCount && mp < d.mips; ++mp)
            undefined[mp + ly * d.mips + pl * d.mips * d.layers] = 1;
      }
    }
  }
  return std::all_of(undefined.begin(), undefined.end(), [](uint8_t u) { return u != 0; });
}

}  // namespace

namespace {

// plan_ownership and exclusive_blockers: with `blockers`, a member that cannot be handed over by
// pairs gets the reason and is treated as CONCURRENT from then on; without, the first reason throws.
OwnershipPlan analyze(const OwnershipInput& in, std::vector<std::string>* blockers) {
  const ResourceTable& table = *in.table;
  const VulkanPlan& plan = *in.plan;
  OwnershipPlan out;
  std::vector<uint8_t> exclusive = in.exclusive;
  exclusive.resize(table.size(), 0);
  auto refuse = [&](ResourceId m, std::string why) {
    if (!blockers) throw Error(why);
    if ((*blockers)[m].empty()) (*blockers)[m] = std::move(why);
    exclusive[m] = 0;
  };
  const auto clock = group_clocks(in);
  LayoutReplay replay(table, [&](ResourceId m) { return in.initial_layout[m]; });
  struct Last {
    uint32_t group = kNo, list = kNo;
  };
  std::vector<Last> last(table.size());
  std::map<std::pair<uint32_t, uint32_t>, TransferBarriers> releases, acquires;
  auto slot = [](std::map<std::pair<uint32_t, uint32_t>, TransferBarriers>& m, uint32_t g, uint32_t l, bool release)
      -> TransferBarriers& {
    TransferBarriers& t = m[{g, l}];
    t.group = g;
    t.list = l;
    t.release = release;
    return t;
  };
  auto transfer = [&](ResourceId m, uint32_t from_g, uint32_t from_l, uint32_t to_g, uint32_t to_l) {
    const ResourceDesc& d = table[m];
    const uint32_t from = in.group_family[from_g], to = in.group_family[to_g];
    TransferBarriers& rel = slot(releases, from_g, from_l, true);
    TransferBarriers& acq = slot(acquires, to_g, to_l, false);
    if (d.type == ResourceType::buffer) {
      rel.buffers.push_back(buffer_transfer(from, to, true));
      rel.buffer_resources.push_back(m);
      acq.buffers.push_back(buffer_transfer(from, to, false));
      acq.buffer_resources.push_back(m);
    } else {
      const std::vector<VkImageLayout>& cur = replay.of(m);
      for (uint32_t pl = 0; pl < d.planes; ++pl)
        for (uint32_t ly = 0; ly < d.layers; ++ly)
          for (uint32_t mp = 0; mp < d.mips; ++mp) {
            const VkImageLayout l = cur[mp + ly * d.mips + pl * d.mips * d.layers];
            if (l == VK_IMAGE_LAYOUT_UNDEFINED) continue;  // nothing to keep there
            rel.images.push_back(image_transfer(d, mp, ly, pl, l, from, to, true));
            rel.image_resources.push_back(m);
            acq.images.push_back(image_transfer(d, mp, ly, pl, l, from, to, false));
            acq.image_resources.push_back(m);
          }
    }
    ++out.pairs;
  };

  for (uint32_t g = 0; g < plan.groups.size(); ++g) {
    const VulkanGroup& vg = plan.groups[g];
    for (uint32_t li = 0; li < vg.lists.size(); ++li) {
      const VulkanList& vl = vg.lists[li];
      for (ResourceId m : in.touched[g][li]) {
        if (!exclusive[m]) continue;
        const Last prev = last[m];
        const bool first_in_group = prev.group != g;
        // An imported resource first used off its home family: no release was made for it, so it is
        // refused unless that first list discards all of it (its old contents need no transfer).
        if (first_in_group && prev.group == kNo && in.imported[m] && in.group_family[g] != in.home_family) {
          if (discards_whole(table[m], vl, m)) {
            ++out.skipped;
            continue;
          }
          refuse(m, fmt::format("resource '{}' is VK_SHARING_MODE_EXCLUSIVE, owned by queue family {} at the "
                                "start of the frame, and first used on family {} (list '{}') with its contents "
                                "kept: use it on the graphics queue first, or create it VK_SHARING_MODE_CONCURRENT",
                                table[m].name, in.home_family, in.group_family[g], vl.name));
          continue;
        }
        if (!first_in_group || prev.group == kNo || in.group_family[prev.group] == in.group_family[g]) continue;
        if (clock[g][in.group_queue[prev.group]] < prev.group + 1) {
          refuse(m, fmt::format("resource '{}' is VK_SHARING_MODE_EXCLUSIVE and used by '{}' and '{}' on queue "
                                "families {} and {} with no order between them: concurrent use needs "
                                "VK_SHARING_MODE_CONCURRENT",
                                table[m].name, plan.groups[prev.group].lists[prev.list].name, vl.name,
                                in.group_family[prev.group], in.group_family[g]));
          continue;
        }
        if (discards_whole(table[m], vl, m)) {
          ++out.skipped;
          continue;
        }
        transfer(m, prev.group, prev.list, g, li);
      }
      for (const VulkanPoint& pt : vl.points) replay.apply(pt);
      for (ResourceId m : in.touched[g][li]) last[m] = {g, li};
    }
  }
  for (ResourceId m = 0; m < table.size(); ++m)
    if (exclusive[m] && in.imported[m] && last[m].group != kNo && in.group_family[last[m].group] != in.home_family)
      refuse(m, fmt::format("resource '{}' is VK_SHARING_MODE_EXCLUSIVE and last used on queue family {} (list "
                              "'{}'), but must end the frame owned by family {}: use it on the graphics queue last, "
                              "or create it VK_SHARING_MODE_CONCURRENT",
                              table[m].name, in.group_family[last[m].group],
                              plan.groups[last[m].group].lists[last[m].list].name, in.home_family));
  if (blockers) return out;  // the pairs of members refused on the way may be incomplete
  for (auto& [key, t] : acquires) out.transfers.push_back(std::move(t));
  for (auto& [key, t] : releases) out.transfers.push_back(std::move(t));
  std::sort(out.transfers.begin(), out.transfers.end(), [](const TransferBarriers& a, const TransferBarriers& b) {
    return std::tie(a.group, a.list, a.release) < std::tie(b.group, b.list, b.release);
  });
  return out;
}

}  // namespace

OwnershipPlan plan_ownership(const OwnershipInput& in) {
  return analyze(in, nullptr);
}

std::vector<std::string> exclusive_blockers(const OwnershipInput& in) {
  std::vector<std::string> why(in.table->size());
  OwnershipInput all = in;
  all.exclusive.assign(in.table->size(), 1);
  (void)analyze(all, &why);
  return why;
}

}  // namespace baton::runtime
