// External renderer hand-off on Vulkan (issue 5, item 3): Baton exports a texture to a renderer
// that issues its own barriers, the renderer leaves it in GENERAL, Baton imports it and reads what
// the renderer wrote. Zero validation messages both ways; exact barrier values pinned; the oracle
// sees a wrong seed and a forgotten import. Across queue families (release/acquire pairs) only
// where the device has a compute-only family (the H200; lavapipe has one family).
#include "baton/exec_vulkan_handoff.hpp"
#include "exec_fixture.hpp"

#include <fmt/format.h>

namespace baton::exec::test {
namespace {

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new LavapipeEnvironment);

std::string describe_all(const VulkanHandoffResult& r) {
  std::string s = fmt::format("{} of {} texels wrong (first {:#x}, expected {:#x})\n", r.texels_wrong,
                              r.texels_checked, r.first_got, r.expected);
  for (const auto& [id, n] : r.validation.counts) s += fmt::format("{} x{}\n", id, n);
  for (const auto& [id, text] : r.validation.texts) s += id + ": " + text.substr(0, 400) + "\n";
  return s;
}

TEST(VulkanHandoff, OneFamilyBothWaysIsCleanAndReadsTheRenderersContents) {
  const VulkanHandoffResult r = run_vulkan_handoff(lavapipe());
  EXPECT_TRUE(r.clean()) << describe_all(r);
  EXPECT_EQ(r.texels_checked, 64u * 64u);
  // Within one family: one barrier each way, no release half, no ownership transfer.
  EXPECT_FALSE(r.exported.release.has_value());
  EXPECT_FALSE(r.imported.release.has_value());
  EXPECT_FALSE(r.exported.before_release.has_value());
  EXPECT_EQ(baton::describe(r.exported.acquire),
            "SHADER_READ_ONLY_OPTIMAL -> GENERAL, family - -> -, src VERTEX_SHADER|FRAGMENT_SHADER|COMPUTE_SHADER "
            "SHADER_SAMPLED_READ -> dst CLEAR TRANSFER_WRITE");
  EXPECT_EQ(baton::describe(r.imported.acquire),
            "GENERAL -> SHADER_READ_ONLY_OPTIMAL, family - -> -, src CLEAR TRANSFER_WRITE -> dst "
            "VERTEX_SHADER|FRAGMENT_SHADER|COMPUTE_SHADER SHADER_SAMPLED_READ");
  // The renderer's own barriers, from the layout it was seeded with.
  ASSERT_EQ(r.renderer_barriers.size(), 2u);
  EXPECT_EQ(r.renderer_barriers[0].oldLayout, VK_IMAGE_LAYOUT_GENERAL);
  EXPECT_EQ(r.renderer_barriers[0].newLayout, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
  EXPECT_EQ(r.renderer_barriers[1].newLayout, VK_IMAGE_LAYOUT_GENERAL);
}

// The renderer believes the texture arrives in TRANSFER_SRC_OPTIMAL (as if it had left it there
// itself): the layer reports the layout mismatch.
TEST(VulkanHandoff, RendererSeededWithTheWrongLayoutIsReported) {
  VulkanHandoffOptions o;
  o.renderer_seed = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  const VulkanHandoffResult r = run_vulkan_handoff(lavapipe(), o);
  EXPECT_FALSE(r.validation.empty()) << describe_all(r);
  std::cout << describe_all(r);
}

// Baton forgets its import: its plan's first barrier assumes the resting layout, the texture is in
// GENERAL, and the layer says so.
TEST(VulkanHandoff, ForgottenImportIsReported) {
  VulkanHandoffOptions o;
  o.skip_import = true;
  const VulkanHandoffResult r = run_vulkan_handoff(lavapipe(), o);
  EXPECT_FALSE(r.validation.empty()) << describe_all(r);
  std::cout << describe_all(r);
}

TEST(VulkanHandoff, DeclarationsThatCannotBeHandedOverAreErrors) {
  ResourceDesc buffer;
  buffer.name = "vertices";
  buffer.type = ResourceType::buffer;
  buffer.size = 64;
  const VulkanExternal general{VK_IMAGE_LAYOUT_GENERAL, 0, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                               VK_ACCESS_2_TRANSFER_WRITE_BIT};
  EXPECT_THROW(vulkan_import(buffer, general, resting_state(buffer), 0), Error);
  ResourceDesc tex;
  tex.name = "overlay";
  tex.type = ResourceType::texture;
  tex.width = tex.height = 4;
  tex.usage = bit(Access::shader_resource);
  VulkanExternal undefined = general;
  undefined.layout = VK_IMAGE_LAYOUT_UNDEFINED;
  try {
    vulkan_import(tex, undefined, resting_state(tex), 0);
    ADD_FAILURE() << "UNDEFINED arrival accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("'overlay'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("UNDEFINED"), std::string::npos) << e.what();
  }
  VulkanExternal no_family = general;
  no_family.queue_family = VK_QUEUE_FAMILY_IGNORED;
  EXPECT_THROW(vulkan_export(tex, resting_state(tex), 0, no_family), Error);
}

// Across families: the renderer on the compute-only family, EXCLUSIVE sharing, release on the
// giving queue and acquire on the taking one, with the same layouts and families in both.
TEST(VulkanHandoff, AcrossQueueFamiliesReleaseAndAcquireAreCleanAndCorrect) {
  if (VulkanContext::compute_only_families(lavapipe().physical_device()).empty() &&
      test_device() == DeviceKind::lavapipe)
    GTEST_SKIP() << lavapipe().device_name() << " has no compute-only queue family";
  VulkanContext ctx(ContextOptions{test_device(), true, /*async_compute=*/true});
  if (!ctx.compute_family()) GTEST_SKIP() << ctx.device_name() << " has no compute-only queue family";
  VulkanHandoffOptions o;
  o.cross_family = true;
  const VulkanHandoffResult r = run_vulkan_handoff(ctx, o);
  EXPECT_TRUE(r.clean()) << describe_all(r);
  EXPECT_NE(r.renderer_family, r.baton_family);
  ASSERT_TRUE(r.exported.release.has_value());
  ASSERT_TRUE(r.imported.release.has_value());
  for (const VulkanHandoff* h : {&r.exported, &r.imported}) {
    EXPECT_EQ(h->release->oldLayout, h->acquire.oldLayout);
    EXPECT_EQ(h->release->newLayout, h->acquire.newLayout);
    EXPECT_EQ(h->release->srcQueueFamilyIndex, h->acquire.srcQueueFamilyIndex);
    EXPECT_EQ(h->release->dstQueueFamilyIndex, h->acquire.dstQueueFamilyIndex);
  }
  // The layout changes before ownership moves: SHADER_READ_ONLY -> GENERAL on Baton's queue (export);
  // the renderer leaves GENERAL and Baton rests in SHADER_READ_ONLY (import: change on its queue).
  ASSERT_TRUE(r.exported.before_release.has_value());
  EXPECT_EQ(r.exported.before_release->oldLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  EXPECT_EQ(r.exported.before_release->newLayout, VK_IMAGE_LAYOUT_GENERAL);
  EXPECT_EQ(r.exported.release->oldLayout, VK_IMAGE_LAYOUT_GENERAL);
  EXPECT_EQ(r.exported.release->newLayout, VK_IMAGE_LAYOUT_GENERAL);
  EXPECT_EQ(r.exported.release->srcQueueFamilyIndex, r.baton_family);
  EXPECT_EQ(r.exported.release->dstQueueFamilyIndex, r.renderer_family);
  EXPECT_EQ(r.imported.release->srcQueueFamilyIndex, r.renderer_family);
  EXPECT_EQ(r.imported.release->dstQueueFamilyIndex, r.baton_family);
  std::cout << "hand-off across families " << r.baton_family << " <-> " << r.renderer_family << " on "
            << ctx.device_name() << ": " << r.texels_checked << " texels checked, " << r.validation.total()
            << " validation messages\n";
}

}  // namespace
}  // namespace baton::exec::test
