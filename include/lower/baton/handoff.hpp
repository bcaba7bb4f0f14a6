// Hand-off of a resource between Baton and a renderer Baton does not drive (a vector-graphics
// renderer, a video decoder, an SDK) on Vulkan. The other side declares what it leaves (import)
// or wants (export): image layout, queue family, and the stages and accesses of its last (first)
// use. Baton computes the barrier(s) between that declaration and the neutral state its own plan
// assumes at the boundary (for a group that starts from history: the resting state).
//
// Within one queue family the hand-off is one barrier, recorded by the side that runs second.
// Across families it is a queue family ownership transfer: a release recorded on the giving queue
// and an acquire recorded on the taking queue, with the same layouts and families in both, and a
// semaphore between the two submissions (the caller's). docs/handoff.md has the rules.
#pragma once

#include <vulkan/vulkan.h>

#include <optional>
#include <string>

#include "baton/core.hpp"

namespace baton {

struct VulkanExternal {
  VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;
  uint32_t queue_family = VK_QUEUE_FAMILY_IGNORED;
  VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_NONE;  // last use (import) / first use (export)
  VkAccessFlags2 access = VK_ACCESS_2_NONE;                // writes to make available / accesses to make visible
};

struct VulkanHandoff {
  // Across families, for the giving queue (Baton's on export, the other renderer's on import), in
  // this order: the layout change as an ordinary barrier, then the release half without a layout
  // change. (The transition could ride in the release/acquire pair; synchronization validation of
  // layer 1.3.239 then reports the taker's next barrier as WRITE_AFTER_WRITE against it, seen on
  // the H200, so the change happens before ownership moves.) Both empty within one family.
  std::optional<VkImageMemoryBarrier2> before_release;
  std::optional<VkImageMemoryBarrier2> release;
  // The acquire half across families; within one family the whole barrier. Recorded by the taking
  // side (the other renderer on export, Baton on import).
  VkImageMemoryBarrier2 acquire{};
};

// Import: the image arrives as `arrived` and Baton's plan assumes it is in `entry` on `baton_family`.
// `image` is left VK_NULL_HANDLE for the caller to fill. Throws Error (naming the resource) for a
// buffer, an UNDEFINED arrival layout (contents would be lost: declare a discard instead), or a
// missing queue family.
VulkanHandoff vulkan_import(const ResourceDesc& d, const VulkanExternal& arrived, const State& entry,
                            uint32_t baton_family);
// Export: Baton leaves the image in `exit` on `baton_family`; the other side wants `leave`.
VulkanHandoff vulkan_export(const ResourceDesc& d, const State& exit, uint32_t baton_family,
                            const VulkanExternal& leave);

// One line: "old -> new LAYOUT, family a -> b, src STAGES ACCESS -> dst STAGES ACCESS".
std::string describe(const VkImageMemoryBarrier2& b);

}  // namespace baton
