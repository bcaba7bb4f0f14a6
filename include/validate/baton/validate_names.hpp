// The trace format's API names (enumerator names without prefix, flags joined with '|'), for tools
// that write traces (baton emit-trace) from native API values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace baton::validate {

enum class NameKind : uint8_t {
  d3d12_state,   // D3D12_RESOURCE_STATES (flags)
  d3d12_sync,    // D3D12_BARRIER_SYNC (flags)
  d3d12_access,  // D3D12_BARRIER_ACCESS (flags)
  d3d12_layout,  // D3D12_BARRIER_LAYOUT
  vk_stage,      // VkPipelineStageFlags2 (flags)
  vk_access,     // VkAccessFlags2 (flags)
  vk_layout,     // VkImageLayout
};

// Value -> trace text ("PIXEL_SHADER_RESOURCE|NON_PIXEL_SHADER_RESOURCE", "COMMON" for 0).
std::string format_name(NameKind kind, uint64_t value);
// Trace text -> value; nullopt for an unknown name.
std::optional<uint64_t> parse_name(NameKind kind, std::string_view text);

}  // namespace baton::validate
