// Small helpers shared by the Vulkan executor's files (not a public header).
#pragma once

#include <fmt/format.h>
#include <vulkan/vulkan.h>

#include "baton/core.hpp"

namespace baton::exec {

// Every failing Vulkan call becomes a baton::Error naming the call: the executor never continues
// on a device it cannot trust.
inline void vk_check(VkResult r, const char* what) {
  if (r != VK_SUCCESS)
    throw Error(fmt::format("Vulkan: {} failed with VkResult {}", what, static_cast<int>(r)));
}
#define BATON_VK(call) ::baton::exec::vk_check((call), #call)

// Copies into a host-visible buffer made visible to the host's reads after the submission's wait.
inline void copy_to_host_barrier(VkCommandBuffer cb) {
  VkMemoryBarrier2 host{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2, nullptr, VK_PIPELINE_STAGE_2_COPY_BIT,
                        VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT};
  VkDependencyInfo di{};
  di.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO;
  di.memoryBarrierCount = 1;
  di.pMemoryBarriers = &host;
  vkCmdPipelineBarrier2(cb, &di);
}

// The layer reports synchronization hazards under these id prefixes.
inline constexpr std::string_view kHazardPrefix = "SYNC-HAZARD-";

}  // namespace baton::exec
