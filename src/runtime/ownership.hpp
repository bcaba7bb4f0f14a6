// Queue-family ownership transfers for VK_SHARING_MODE_EXCLUSIVE resources (issue 12, item 4): a
// resource handed from a group on one queue family to a group on another gets a release barrier at
// the end of the last list of the first group that touches it and a matching acquire at the start
// of the first list of the second group that touches it (after the semaphore wait the schedule put
// between them). Both name the same layouts (the layout the plan left each subresource in: the
// pair transfers ownership and leaves the planner's own transitions to do the rest) and the two
// family indices. Skipped where the contents need not be kept (the receiving list's first barrier
// on the whole resource starts from UNDEFINED). A pure function of the lowered plan.
#pragma once

#include <string>
#include <vector>

#include "baton/lower_vulkan.hpp"

namespace baton::runtime {

struct TransferBarriers {
  uint32_t group = 0, list = 0;
  bool release = false;  // release: after the list's last barriers; acquire: before its first
  std::vector<VkImageMemoryBarrier2> images;
  std::vector<ResourceId> image_resources;
  std::vector<VkBufferMemoryBarrier2> buffers;
  std::vector<ResourceId> buffer_resources;
};

struct OwnershipInput {
  const ResourceTable* table = nullptr;
  const VulkanPlan* plan = nullptr;
  // Per group, per list: the members its operation uses.
  std::vector<std::vector<std::vector<ResourceId>>> touched;
  std::vector<uint32_t> group_family;        // per group: its VkQueue's family index
  std::vector<uint32_t> group_queue;         // per group: its logical queue (ordering on one queue)
  std::vector<std::vector<uint32_t>> waits;  // per group: earlier groups it waits for (semaphores)
  std::vector<uint8_t> exclusive;            // per member: VK_SHARING_MODE_EXCLUSIVE
  std::vector<uint8_t> imported;             // per member: owned by `home_family` at frame start and end
  std::vector<VkImageLayout> initial_layout;  // per member: at frame start
  uint32_t home_family = 0;
};

struct OwnershipPlan {
  std::vector<TransferBarriers> transfers;  // in (group, list, acquire before release) order
  size_t pairs = 0, skipped = 0;             // transfers planned; hand-offs without contents to keep
};

// Throws Error naming the resource when an exclusive resource cannot be handed over by a pair: two
// families touch it with no order between them (concurrent readers need VK_SHARING_MODE_CONCURRENT),
// or an imported one is last touched off its home family, or first touched there with its contents
// kept (a first list that discards the whole image needs no transfer: counted in `skipped`).
OwnershipPlan plan_ownership(const OwnershipInput& in);

// Per member, why it could not be VK_SHARING_MODE_EXCLUSIVE in this frame (the text plan_ownership
// would throw), or empty where pairs can hand it over; `in.exclusive` is ignored (every member is
// tried). RuntimeOptions::Sharing::automatic and the executor's automatic sharing make the members
// with a reason CONCURRENT.
std::vector<std::string> exclusive_blockers(const OwnershipInput& in);

}  // namespace baton::runtime
