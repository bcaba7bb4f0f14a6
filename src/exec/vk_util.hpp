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

// The layer reports synchronization hazards under these id prefixes.
inline constexpr std::string_view kHazardPrefix = "SYNC-HAZARD-";

}  // namespace baton::exec
