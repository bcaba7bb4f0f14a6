// The external-renderer hand-off on real Vulkan (issue 5, item 3): Baton uploads into a texture
// (group "before"), exports it to a stand-in renderer that issues its own barriers from the layout
// it tracks, clears the texture and leaves it in GENERAL; Baton imports it and copies it out
// (group "after"). Baton's barriers come from its plan plus vulkan_export / vulkan_import
// (include/lower/baton/handoff.hpp); the renderer's are its own. Runs under the context's layer.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "baton/exec_vulkan.hpp"
#include "baton/handoff.hpp"

namespace baton::exec {

struct VulkanHandoffOptions {
  // The renderer on the context's compute-only family (ContextOptions::async_compute), with
  // release/acquire pairs and semaphores; otherwise on Baton's queue.
  bool cross_family = false;
  // What the renderer believes the layout is when it receives the texture; default: the layout
  // Baton's export declared (reconciled by seeding).
  std::optional<VkImageLayout> renderer_seed;
  // Mutation: Baton does not record its import barrier.
  bool skip_import = false;
};

struct VulkanHandoffResult {
  ValidationLog validation;
  uint32_t baton_family = 0, renderer_family = 0;
  VulkanHandoff exported, imported;
  std::vector<VkImageMemoryBarrier2> renderer_barriers;  // the renderer's own, in order
  uint32_t texels_checked = 0, texels_wrong = 0;
  uint32_t expected = 0, first_got = 0;
  bool clean() const { return validation.empty() && texels_checked > 0 && texels_wrong == 0; }
};

// The renderer declares: it wants the texture in GENERAL for its clear (export), and leaves it in
// GENERAL after its clear (import). Throws Error when cross_family is asked for without a
// compute-only family in the context.
VulkanHandoffResult run_vulkan_handoff(VulkanContext& ctx, const VulkanHandoffOptions& options = {});

}  // namespace baton::exec
