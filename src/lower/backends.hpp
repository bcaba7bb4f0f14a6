// The three backends, each filling its native plan and, when asked, the API-independent view
// (lower.hpp) in the same pass, so the text can never disagree with the structures.
#pragma once

#include <vector>

#include "baton/lower_d3d12.hpp"
#include "baton/lower_vulkan.hpp"

namespace baton::lower_detail {

D3D12EnhancedPlan lower_d3d12_enhanced(const ResourceTable& resources, std::span<const CompiledGroup> groups,
                                       std::vector<LoweredGroup>* view);
// `initial` (may be null: everything COMMON) is the real state left by earlier submissions.
D3D12LegacyPlan lower_d3d12_legacy(const ResourceTable& resources, std::span<const CompiledGroup> groups,
                                   const D3D12LegacyStates* initial, std::vector<LoweredGroup>* view);
VulkanPlan lower_vulkan(const ResourceTable& resources, std::span<const CompiledGroup> groups,
                        std::vector<LoweredGroup>* view);

}  // namespace baton::lower_detail
