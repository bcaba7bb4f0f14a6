// One test per row class of each lowering table. The expectations come from REFERENCE.md through
// small tables written here, independently of src/lower.
#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <set>

#include "baton/lower_d3d12.hpp"
#include "baton/lower_vulkan.hpp"
#include "helpers.hpp"

namespace baton {
namespace {

std::vector<Access> all_accesses() {
  std::vector<Access> out;
  for (int i = 0; i < kAccessCount; ++i) out.push_back(static_cast<Access>(i));
  return out;
}

bool is_host(Access a) { return a == Access::host_read || a == Access::host_write; }

TEST(LowerTables, EveryAccessHasExactlyOneRowInEveryTable) {
  for (Access a : all_accesses()) {
    const auto i = static_cast<size_t>(a);
    EXPECT_EQ(kD3D12EnhancedTable[i].access, a) << to_string(a);
    EXPECT_EQ(kD3D12LegacyTable[i].access, a) << to_string(a);
    EXPECT_EQ(kVulkanTable[i].access, a) << to_string(a);
  }
  EXPECT_EQ(kD3D12EnhancedTable.size(), static_cast<size_t>(kAccessCount));
  EXPECT_EQ(kD3D12LegacyTable.size(), static_cast<size_t>(kAccessCount));
  EXPECT_EQ(kVulkanTable.size(), static_cast<size_t>(kAccessCount));
}

TEST(LowerTables, EveryNeutralSyncBitHasARow) {
  std::set<SyncMask> d3d, vk;
  for (const D3D12SyncRow& r : kD3D12SyncBits) d3d.insert(r.neutral);
  for (const VulkanStageRow& r : kVulkanStageBits) vk.insert(r.neutral);
  for (unsigned b = 0; b <= 11; ++b) {
    EXPECT_TRUE(d3d.count(SyncMask{1} << b)) << b;
    EXPECT_TRUE(vk.count(SyncMask{1} << b)) << b;
  }
}

// ---- D3D12 legacy ------------------------------------------------------------------------------
constexpr uint32_t kWriteStates = 0x4 /*RT*/ | 0x8 /*UAV*/ | 0x10 /*DEPTH_WRITE*/ | 0x100 /*STREAM_OUT*/ |
                                  0x400 /*COPY_DEST*/ | 0x1000 /*RESOLVE_DEST*/;

TEST(LowerTables, LegacyWriteAccessesMapToExactlyOneWriteBitAndNoReadBit) {
  for (Access a : all_accesses()) {
    if (!is_write(a) || is_host(a)) continue;
    const D3D12LegacyRow& r = kD3D12LegacyTable[static_cast<size_t>(a)];
    for (uint32_t s : {static_cast<uint32_t>(r.pixel), static_cast<uint32_t>(r.non_pixel)}) {
      EXPECT_EQ(std::popcount(s & kWriteStates), 1) << to_string(a);
      EXPECT_EQ(s & ~kWriteStates, 0u) << to_string(a) << ": a write state never carries a read bit";
    }
  }
}

TEST(LowerTables, LegacyReadAccessesMapToReadBitsOnly) {
  for (Access a : all_accesses()) {
    if (is_write(a)) continue;
    const D3D12LegacyRow& r = kD3D12LegacyTable[static_cast<size_t>(a)];
    EXPECT_EQ(static_cast<uint32_t>(r.pixel) & kWriteStates, 0u) << to_string(a);
    EXPECT_EQ(static_cast<uint32_t>(r.non_pixel) & kWriteStates, 0u) << to_string(a);
  }
}

TEST(LowerTables, LegacyHostAndPresentAreCommon) {
  for (Access a : {Access::present, Access::host_read, Access::host_write}) {
    EXPECT_EQ(kD3D12LegacyTable[static_cast<size_t>(a)].non_pixel, D3D12_RESOURCE_STATE_COMMON) << to_string(a);
  }
}

TEST(LowerTables, LegacyShaderReadsSplitByPixelStage) {
  const ResourceDesc t = test::texture("t", bit(Access::shader_resource));
  EXPECT_EQ(lower_d3d12_legacy_state(test::use(t, Access::shader_resource, stages(Stage::pixel))),
            D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
  EXPECT_EQ(lower_d3d12_legacy_state(test::use(t, Access::shader_resource, stages(Stage::compute))),
            D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
  EXPECT_EQ(lower_d3d12_legacy_state(test::use(t, Access::shader_resource, kAllShading)),
            D3D12_RESOURCE_STATE_ALL_SHADER_RESOURCE);
  EXPECT_EQ(d3d12_state_name(lower_d3d12_legacy_state(test::use(t, Access::shader_resource, kAllShading))),
            "PIXEL_SHADER_RESOURCE|NON_PIXEL_SHADER_RESOURCE");
}

TEST(LowerTables, LegacyMergedReadsCombineReadBits) {
  const State merged{sync::depth_stencil | sync::pixel_shading,
                     bit(Access::depth_read) | bit(Access::shader_resource), Layout::generic_read};
  EXPECT_EQ(static_cast<uint32_t>(lower_d3d12_legacy_state(merged)),
            static_cast<uint32_t>(D3D12_RESOURCE_STATE_DEPTH_READ | D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE));
}

// Promotion per REFERENCE.md's table, written as the states each class may be promoted to.
TEST(LowerTables, LegacyPromotionColumnsFollowTheReferenceTable) {
  const std::set<Access> texture_promotes = {Access::shader_resource, Access::copy_source, Access::copy_dest};
  const std::set<Access> never = {Access::depth_write, Access::depth_read};
  for (Access a : all_accesses()) {
    const D3D12LegacyRow& r = kD3D12LegacyTable[static_cast<size_t>(a)];
    if (a == Access::present || is_host(a)) continue;  // COMMON itself: nothing to promote to
    EXPECT_EQ(r.promotes_texture, texture_promotes.count(a) == 1) << to_string(a);
    EXPECT_EQ(r.promotes_buffer, never.count(a) == 0) << to_string(a);
  }
}

// ---- D3D12 enhanced ----------------------------------------------------------------------------
// REFERENCE.md "Layout -> allowed access" (ACCESS_COMMON, 0, is allowed everywhere but UNDEFINED).
std::map<D3D12_BARRIER_LAYOUT, uint32_t> reference_layout_access() {
  const uint32_t srv = 0x80, cs = 0x800, cd = 0x400, uav = 0x10, dsr = 0x40, dsw = 0x20, rt = 0x8, rs = 0x2000,
                 rd = 0x1000, sr = 0x10000;
  return {
      {D3D12_BARRIER_LAYOUT_COMMON, srv | cs | cd},
      {D3D12_BARRIER_LAYOUT_DIRECT_QUEUE_COMMON, srv | cs | cd | uav},
      {D3D12_BARRIER_LAYOUT_COMPUTE_QUEUE_COMMON, srv | cs | cd | uav},
      {D3D12_BARRIER_LAYOUT_GENERIC_READ, srv | cs},
      {D3D12_BARRIER_LAYOUT_COMPUTE_QUEUE_GENERIC_READ, srv | cs},
      {D3D12_BARRIER_LAYOUT_DIRECT_QUEUE_GENERIC_READ, srv | cs | dsr | sr | rs},
      {D3D12_BARRIER_LAYOUT_DEPTH_STENCIL_WRITE, dsr | dsw},
      {D3D12_BARRIER_LAYOUT_DEPTH_STENCIL_READ, dsr},
      {D3D12_BARRIER_LAYOUT_RENDER_TARGET, rt},
      {D3D12_BARRIER_LAYOUT_UNORDERED_ACCESS, uav},
      {D3D12_BARRIER_LAYOUT_SHADER_RESOURCE, srv},
      {D3D12_BARRIER_LAYOUT_COPY_SOURCE, cs},
      {D3D12_BARRIER_LAYOUT_COPY_DEST, cd},
      {D3D12_BARRIER_LAYOUT_RESOLVE_SOURCE, rs},
      {D3D12_BARRIER_LAYOUT_RESOLVE_DEST, rd},
  };
}

// REFERENCE.md "Access -> compatible sync" (SYNC_ALL always fits).
std::map<uint32_t, uint32_t> reference_access_sync() {
  const uint32_t draw = 0x2, ia = 0x4, vs = 0x8, ps = 0x10, ds = 0x20, rts = 0x40, cs = 0x80, rtx = 0x100,
                 copy = 0x200, resolve = 0x400, ei = 0x800, all_sh = 0x1000, clear_uav = 0x8000;
  const uint32_t shaders = vs | ps | cs | 0x2000 /*NON_PIXEL_SHADING*/;
  return {
      {0x1 /*VERTEX_BUFFER*/, vs | draw | all_sh},
      {0x2 /*CONSTANT_BUFFER*/, vs | draw | all_sh | ps | cs},
      {0x4 /*INDEX_BUFFER*/, ia | draw},
      {0x8 /*RENDER_TARGET*/, draw | rts},
      {0x10 /*UNORDERED_ACCESS*/, shaders | draw | all_sh | clear_uav | rtx},
      {0x20 /*DEPTH_STENCIL_WRITE*/, draw | ds},
      {0x40 /*DEPTH_STENCIL_READ*/, draw | ds},
      {0x80 /*SHADER_RESOURCE*/, shaders | draw | all_sh | rtx},
      {0x200 /*INDIRECT_ARGUMENT*/, ei},
      {0x400 /*COPY_DEST*/, copy},
      {0x800 /*COPY_SOURCE*/, copy},
      {0x1000 /*RESOLVE_DEST*/, resolve},
      {0x2000 /*RESOLVE_SOURCE*/, resolve},
  };
}

void expect_compatible(const D3D12EnhancedSide& s, bool texture, const std::string& what) {
  const auto layouts = reference_layout_access();
  const auto syncs = reference_access_sync();
  const uint32_t access = static_cast<uint32_t>(s.access);
  const uint32_t sync = static_cast<uint32_t>(s.sync);
  ASSERT_NE(access & 0x80000000u, 0x80000000u) << what << ": a used state is never NO_ACCESS";
  if (texture) {
    auto it = layouts.find(s.layout);
    ASSERT_NE(it, layouts.end()) << what << ": unexpected layout " << d3d12_layout_name(s.layout);
    EXPECT_EQ(access & ~it->second, 0u) << what << ": " << d3d12_access_name(s.access) << " not allowed in "
                                         << d3d12_layout_name(s.layout);
  }
  for (uint32_t b = 1; b != 0 && b <= 0x2000; b <<= 1) {
    if (!(access & b)) continue;
    auto it = syncs.find(b);
    ASSERT_NE(it, syncs.end()) << what << ": access bit " << b;
    EXPECT_TRUE(sync == 0x1 || (sync & it->second) != 0)
        << what << ": " << d3d12_access_name(static_cast<D3D12_BARRIER_ACCESS>(b)) << " with "
        << d3d12_sync_name(s.sync);
  }
}

TEST(LowerTables, EnhancedRowsAreCompatibleWithThemselves) {
  // The row's own sync/access/layout triple must be legal as it stands.
  for (const D3D12EnhancedRow& r : kD3D12EnhancedTable) {
    if (r.host_only) continue;
    const bool texture = !(bit(r.access) & kBufferOnlyAccesses);
    expect_compatible(D3D12EnhancedSide{r.sync, r.bits, r.layout, false}, texture, std::string(to_string(r.access)));
  }
}

TEST(LowerTables, EnhancedLoweredStatesAreCompatibleOnEveryQueueAndStage) {
  for (Access a : all_accesses()) {
    if (is_host(a)) continue;
    for (Queue q : {Queue::direct, Queue::compute, Queue::copy}) {
      std::vector<Stages> stage_sets = {kNoStages};
      if (is_shader_access(a)) stage_sets = {1, 2, 3, 4, 5, 6, 7};
      for (Stages st : stage_sets) {
        if (!queue_allows(q, a, st)) continue;
        for (bool texture : {false, true}) {
          if (texture && (bit(a) & kBufferOnlyAccesses)) continue;
          if (!texture && (bit(a) & kTextureOnlyAccesses)) continue;
          const ResourceDesc d = texture ? test::texture("t", 0) : test::buffer("b");
          const std::string what = std::string(to_string(a)) + " stages " + std::to_string(st) + " on " +
                                   std::string(to_string(q)) + (texture ? " texture" : " buffer");
          expect_compatible(lower_d3d12_enhanced_state(test::use(d, a, st), q, texture), texture, what);
        }
      }
    }
  }
}

TEST(LowerTables, EnhancedMergedReadsUseQueueSpecificGenericRead) {
  const State depth_and_sampled{sync::depth_stencil | sync::pixel_shading,
                                bit(Access::depth_read) | bit(Access::shader_resource), Layout::generic_read};
  const D3D12EnhancedSide direct = lower_d3d12_enhanced_state(depth_and_sampled, Queue::direct, true);
  EXPECT_EQ(direct.layout, D3D12_BARRIER_LAYOUT_DIRECT_QUEUE_GENERIC_READ);
  expect_compatible(direct, true, "depth_read|shader_resource on direct");

  const State sampled_and_copied{sync::compute_shading | sync::copy,
                                 bit(Access::shader_resource) | bit(Access::copy_source), Layout::generic_read};
  const D3D12EnhancedSide compute = lower_d3d12_enhanced_state(sampled_and_copied, Queue::compute, true);
  EXPECT_EQ(compute.layout, D3D12_BARRIER_LAYOUT_COMPUTE_QUEUE_GENERIC_READ);
  expect_compatible(compute, true, "shader_resource|copy_source on compute");
}

// Copies use COMMON on every queue, so a texture moves between copy and direct groups in one layout.
TEST(LowerTables, EnhancedCopiesUseCommonLayoutOnEveryQueue) {
  const ResourceDesc t = test::texture("t", bit(Access::copy_dest));
  EXPECT_EQ(lower_d3d12_enhanced_state(test::use(t, Access::copy_dest), Queue::copy, true).layout,
            D3D12_BARRIER_LAYOUT_COMMON);
  EXPECT_EQ(lower_d3d12_enhanced_state(test::use(t, Access::copy_source), Queue::copy, true).layout,
            D3D12_BARRIER_LAYOUT_COMMON);
  EXPECT_EQ(lower_d3d12_enhanced_state(test::use(t, Access::copy_dest), Queue::direct, true).layout,
            D3D12_BARRIER_LAYOUT_COMMON);
  EXPECT_EQ(lower_d3d12_enhanced_state(test::use(t, Access::copy_source), Queue::compute, true).layout,
            D3D12_BARRIER_LAYOUT_COMMON);
  EXPECT_THROW(lower_d3d12_enhanced_state(test::use(t, Access::shader_resource, kAllShading), Queue::copy, true),
               Error);
}

TEST(LowerTables, EnhancedFirstTouchIsNoneNoAccessUndefined) {
  const D3D12EnhancedSide s = lower_d3d12_enhanced_state(kFirstTouch, Queue::direct, true);
  EXPECT_EQ(s.sync, D3D12_BARRIER_SYNC_NONE);
  EXPECT_EQ(s.access, D3D12_BARRIER_ACCESS_NO_ACCESS);
  EXPECT_EQ(s.layout, D3D12_BARRIER_LAYOUT_UNDEFINED);
}

TEST(LowerTables, EnhancedSyncBitsMapAsDocumented) {
  EXPECT_EQ(lower_d3d12_enhanced_state(State{sync::vertex_input, bit(Access::vertex_buffer), Layout::none},
                                       Queue::direct, false)
                .sync,
            D3D12_BARRIER_SYNC_VERTEX_SHADING);
  EXPECT_EQ(lower_d3d12_enhanced_state(State{sync::index_input, bit(Access::index_buffer), Layout::none},
                                       Queue::direct, false)
                .sync,
            static_cast<D3D12_BARRIER_SYNC>(0x4));  // INDEX_INPUT, named INPUT_ASSEMBLER in Debian's header
  const ResourceDesc t = test::texture("t", bit(Access::shader_resource));
  const D3D12EnhancedSide all = lower_d3d12_enhanced_state(test::use(t, Access::shader_resource, kAllShading),
                                                           Queue::direct, true);
  EXPECT_EQ(all.sync, D3D12_BARRIER_SYNC_ALL_SHADING);
}

// ---- Vulkan --------------------------------------------------------------------------------------
constexpr VkAccessFlags2 kVkWrites = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT |
                                     VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT |
                                     VK_ACCESS_2_HOST_WRITE_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;

TEST(LowerTables, VulkanWriteAccessesCarryAWriteBitAndReadsNone) {
  for (const VulkanRow& r : kVulkanTable) {
    const VkAccessFlags2 used = (bit(r.access) & kBufferOnlyAccesses) ? r.buffer_access : r.image_access;
    if (is_write(r.access))
      EXPECT_NE(used & kVkWrites, 0u) << to_string(r.access);
    else
      EXPECT_EQ(used & kVkWrites, 0u) << to_string(r.access);
  }
}

TEST(LowerTables, VulkanTextureLayoutsFollowTheAccess) {
  // Written from the Vulkan spec's layout descriptions, independently of the table.
  const std::map<Access, VkImageLayout> expected = {
      {Access::render_target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL},
      {Access::depth_write, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL},
      {Access::depth_read, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL},
      {Access::shader_resource, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
      {Access::unordered_access, VK_IMAGE_LAYOUT_GENERAL},
      {Access::copy_source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
      {Access::copy_dest, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL},
      {Access::resolve_source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
      {Access::resolve_dest, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL},
      {Access::present, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR},
  };
  for (const auto& [a, layout] : expected) {
    const ResourceDesc t = test::texture("t", 0);
    EXPECT_EQ(lower_vulkan_state(test::use(t, a, kAllShading), true, false).layout, layout) << to_string(a);
  }
}

TEST(LowerTables, VulkanMergedReadLayouts) {
  const State depth_and_sampled{sync::depth_stencil | sync::pixel_shading,
                                bit(Access::depth_read) | bit(Access::shader_resource), Layout::generic_read};
  EXPECT_EQ(lower_vulkan_state(depth_and_sampled, true, false).layout, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL);
  const State sampled_and_copied{sync::pixel_shading | sync::copy,
                                 bit(Access::shader_resource) | bit(Access::copy_source), Layout::generic_read};
  EXPECT_EQ(lower_vulkan_state(sampled_and_copied, true, false).layout, VK_IMAGE_LAYOUT_GENERAL);
  EXPECT_EQ(lower_vulkan_state(sampled_and_copied, true, false).access,
            VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_TRANSFER_READ_BIT);
}

TEST(LowerTables, VulkanStagesComeFromTheNeutralSyncBits) {
  const ResourceDesc t = test::texture("t", bit(Access::shader_resource));
  EXPECT_EQ(lower_vulkan_state(test::use(t, Access::shader_resource, stages(Stage::pixel)), true, false).stages,
            VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
  EXPECT_EQ(lower_vulkan_state(test::use(t, Access::depth_write), true, false).stages,
            VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT);
  const VulkanSide first = lower_vulkan_state(kFirstTouch, true, true);
  EXPECT_EQ(first.stages, VK_PIPELINE_STAGE_2_NONE);
  EXPECT_EQ(first.access, VK_ACCESS_2_NONE);
  EXPECT_EQ(first.layout, VK_IMAGE_LAYOUT_UNDEFINED);
  const VulkanSide any = lower_vulkan_state(State{sync::all, kAnyAccess, Layout::none}, false, true);
  EXPECT_EQ(any.stages, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
  EXPECT_EQ(any.access, VK_ACCESS_2_MEMORY_WRITE_BIT);
}

TEST(LowerTables, VulkanAspectsFromFormatAndPlanes) {
  ResourceDesc ds = test::texture("ds", 0, FormatClass::depth_stencil);
  ds.planes = 2;
  EXPECT_EQ(vulkan_aspects(ds, 0, 1), static_cast<VkImageAspectFlags>(VK_IMAGE_ASPECT_DEPTH_BIT));
  EXPECT_EQ(vulkan_aspects(ds, 1, 2), static_cast<VkImageAspectFlags>(VK_IMAGE_ASPECT_STENCIL_BIT));
  EXPECT_EQ(vulkan_aspects(ds, 0, 2),
            static_cast<VkImageAspectFlags>(VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT));
  EXPECT_EQ(vulkan_aspects(test::texture("d", 0, FormatClass::depth), 0, 1),
            static_cast<VkImageAspectFlags>(VK_IMAGE_ASPECT_DEPTH_BIT));
  EXPECT_EQ(vulkan_aspects(test::texture("c", 0), 0, 1), static_cast<VkImageAspectFlags>(VK_IMAGE_ASPECT_COLOR_BIT));
}

TEST(LowerTables, SubresourceIndexMath) {
  ResourceDesc d = test::texture("t", 0);
  d.mips = 3;
  d.layers = 2;
  d.planes = 2;
  EXPECT_EQ(d3d12_subresource_index(d, 0, 0, 0), 0u);
  EXPECT_EQ(d3d12_subresource_index(d, 2, 0, 0), 2u);
  EXPECT_EQ(d3d12_subresource_index(d, 0, 1, 0), 3u);
  EXPECT_EQ(d3d12_subresource_index(d, 1, 1, 1), 1u + 3u + 6u);
  EXPECT_EQ(d3d12_subresource_index(d, 2, 1, 1), 11u);  // the last of 12
}

}  // namespace
}  // namespace baton
