// Lowering to Vulkan synchronization2: one VkDependencyInfo per barrier point, holding
// VkImageMemoryBarrier2 / VkBufferMemoryBarrier2 / VkMemoryBarrier2. Handles stay VK_NULL_HANDLE and
// queue family indices VK_QUEUE_FAMILY_IGNORED; a parallel ResourceId array tells the executor which
// image or buffer to put in each barrier. The table is constexpr data, one row per baton::Access.
#pragma once

#include <vulkan/vulkan_core.h>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "baton/lower.hpp"

namespace baton {

// One row per access: the stage of the access when its shader stages are unknown (the lowering
// uses the neutral state's sync bits, see kVulkanStageBits), the access bits on an image and on a
// buffer, and the image layout of an image holding only this access.
struct VulkanRow {
  Access access;
  VkPipelineStageFlags2 stage;
  VkAccessFlags2 image_access;
  VkAccessFlags2 buffer_access;
  VkImageLayout layout;
};

inline constexpr VkPipelineStageFlags2 kVkShaderStages =
    VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT | VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT |
    VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
inline constexpr VkPipelineStageFlags2 kVkDepthStages =
    VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT;

inline constexpr std::array<VulkanRow, kAccessCount> kVulkanTable = {{
    // Blending reads the attachment, so a render target is read and written.
    {Access::render_target, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
     VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_2_NONE,
     VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
    {Access::depth_write, kVkDepthStages,
     VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT, VK_ACCESS_2_NONE,
     VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL},
    {Access::depth_read, kVkDepthStages, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT, VK_ACCESS_2_NONE,
     VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL},
    // A buffer shader resource is a read-only storage buffer or a uniform texel buffer.
    {Access::shader_resource, kVkShaderStages, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
     VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_SAMPLED_READ_BIT,
     VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
    {Access::unordered_access, kVkShaderStages,
     VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
     VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, VK_IMAGE_LAYOUT_GENERAL},
    {Access::copy_source, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT,
     VK_ACCESS_2_TRANSFER_READ_BIT, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
    {Access::copy_dest, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
     VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL},
    // vkCmdResolveImage: source TRANSFER_SRC_OPTIMAL, destination TRANSFER_DST_OPTIMAL.
    {Access::resolve_source, VK_PIPELINE_STAGE_2_RESOLVE_BIT, VK_ACCESS_2_TRANSFER_READ_BIT, VK_ACCESS_2_NONE,
     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
    {Access::resolve_dest, VK_PIPELINE_STAGE_2_RESOLVE_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_ACCESS_2_NONE,
     VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL},
    {Access::vertex_buffer, VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT, VK_ACCESS_2_NONE,
     VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED},
    {Access::index_buffer, VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT, VK_ACCESS_2_NONE, VK_ACCESS_2_INDEX_READ_BIT,
     VK_IMAGE_LAYOUT_UNDEFINED},
    {Access::constant_buffer, kVkShaderStages, VK_ACCESS_2_NONE, VK_ACCESS_2_UNIFORM_READ_BIT,
     VK_IMAGE_LAYOUT_UNDEFINED},
    {Access::indirect_argument, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT, VK_ACCESS_2_NONE,
     VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT, VK_IMAGE_LAYOUT_UNDEFINED},
    // Presentation is ordered by the semaphore given to vkQueuePresentKHR: no access, every stage
    // (srcStage NONE is reserved for the first-ever touch, invariant 2).
    {Access::present, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_NONE, VK_ACCESS_2_NONE,
     VK_IMAGE_LAYOUT_PRESENT_SRC_KHR},
    {Access::host_read, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT, VK_ACCESS_2_HOST_READ_BIT,
     VK_IMAGE_LAYOUT_GENERAL},
    {Access::host_write, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_WRITE_BIT, VK_ACCESS_2_HOST_WRITE_BIT,
     VK_IMAGE_LAYOUT_GENERAL},
}};

// Neutral sync bit -> Vulkan stages. Copies and clears are both transfer work: ALL_TRANSFER.
struct VulkanStageRow {
  SyncMask neutral;
  VkPipelineStageFlags2 stages;
};
inline constexpr std::array<VulkanStageRow, 12> kVulkanStageBits = {{
    {sync::vertex_input, VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT},
    {sync::index_input, VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT},
    {sync::vertex_shading, VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT},
    {sync::pixel_shading, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT},
    {sync::compute_shading, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT},
    {sync::depth_stencil, kVkDepthStages},
    {sync::render_target, VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT},
    {sync::copy, VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT},
    {sync::resolve, VK_PIPELINE_STAGE_2_RESOLVE_BIT},
    {sync::execute_indirect, VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT},
    {sync::host, VK_PIPELINE_STAGE_2_HOST_BIT},
    {sync::all, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT},
}};

// One side (src or dst) of a Vulkan barrier.
struct VulkanSide {
  VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_NONE;
  VkAccessFlags2 access = VK_ACCESS_2_NONE;
  VkImageLayout layout = VK_IMAGE_LAYOUT_UNDEFINED;  // images only
};
// Lowers one neutral state. Merged reads: depth_read|shader_resource -> DEPTH_STENCIL_READ_ONLY_OPTIMAL,
// other mixes -> GENERAL. kAnyAccess: ALL_COMMANDS with MEMORY_WRITE as a source, MEMORY_READ|WRITE
// as a destination.
VulkanSide lower_vulkan_state(const State& s, bool image, bool source);
// Aspect mask of the planes [p0, p1) of a texture: color; depth; depth_stencil plane 0 depth, 1 stencil.
VkImageAspectFlags vulkan_aspects(const ResourceDesc& d, uint32_t p0, uint32_t p1);
// Text: "FRAGMENT_SHADER SHADER_SAMPLED_READ SHADER_READ_ONLY_OPTIMAL" (no layout for buffers).
std::string vulkan_stage_name(VkPipelineStageFlags2 s);
std::string vulkan_access_name(VkAccessFlags2 a);
std::string_view vulkan_layout_name(VkImageLayout l);

// A point is one vkCmdPipelineBarrier2 call (half none) or one half of a split barrier: half begin is
// vkCmdSetEvent2(event, dependency_info()), half end is vkCmdWaitEvents2 on that event with the same
// dependency info (the spec requires them equal, VUID-vkCmdWaitEvents2-pEvents-03838). One event per
// (begin op, end point) pair, numbered from 0 in the list of its begin half (VulkanList::events, list
// `event_list` of the group: a split may begin on an earlier list of the group); each event is
// set once and waited once per execution of the list, so it must be unsignaled when the list starts:
// create it per recording, or reset it (vkResetEvent after the list's fence, or vkCmdResetEvent2 ahead
// of the list) before the list runs again (docs/cli.md, "Split barriers").
struct VulkanPoint {
  uint32_t op = 0;
  Where where = Where::before;
  SplitHalf half = SplitHalf::none;
  uint32_t event = 0;       // half begin/end: the event's index in list event_list
  uint32_t event_list = 0;  // half begin/end: the list (index in the group) of the begin half
  std::vector<VkImageMemoryBarrier2> images;
  std::vector<ResourceId> image_resources;  // parallel to images: what .image must become
  std::vector<VkBufferMemoryBarrier2> buffers;
  std::vector<ResourceId> buffer_resources;  // parallel to buffers: what .buffer must become
  std::vector<VkMemoryBarrier2> memory;
  // The VkDependencyInfo for one vkCmdPipelineBarrier2 call. It points into this object: keep the
  // point alive and unchanged (after filling the handles) while using it.
  VkDependencyInfo dependency_info() const;
  size_t size() const { return images.size() + buffers.size() + memory.size(); }
};
struct VulkanList {
  std::string name;
  Queue queue = Queue::direct;
  std::vector<VulkanPoint> points;  // points with at least one barrier
  uint32_t events = 0;              // VkEvents the list's split barriers use (VulkanPoint::event)
};
struct VulkanGroup {
  std::string name;
  Queue queue = Queue::direct;
  std::vector<VulkanList> lists;
};
struct VulkanPlan {
  std::vector<VulkanGroup> groups;
};
// Throws Error naming group, list, op and resource when a state cannot be expressed on the list's
// queue (a compute queue has no graphics stages; a transfer queue has only transfer work).
VulkanPlan lower_vulkan(const ResourceTable& resources, std::span<const CompiledGroup> groups);

}  // namespace baton
