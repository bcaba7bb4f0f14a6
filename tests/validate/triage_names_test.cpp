// Triage's reverse names derive from the lowering (src/triage/triage_names.cpp): every API value the
// lowering gives an access maps back to an access that lowers to that same value, the value that
// several accesses share goes to the first of the documented precedence, and values that stand for no
// state (COMMON, UNDEFINED) name none.
#include <gtest/gtest.h>

#include <algorithm>
#include <baton/validate_names.hpp>

#include "../../src/triage/triage_names.hpp"
#include "baton/lower_d3d12.hpp"
#include "baton/lower_vulkan.hpp"

namespace baton::triage_detail {
namespace {

using validate::NameKind;

// The position of an access in the precedence.
size_t rank(Access a) {
  const auto& p = reverse_precedence();
  return static_cast<size_t>(std::find(p.begin(), p.end(), a) - p.begin());
}

// Checks that `name`, which the lowering gives access `a`, maps back to `a` or to an access earlier in
// the precedence that the lowering also gives `name` (given by `same`).
template <class Same>
void expect_maps_back(NameFamily f, const std::string& name, Access a, Same&& same) {
  const std::optional<AccessGuess> g = access_of(f, name);
  ASSERT_TRUE(g.has_value()) << name << " (" << to_string(a) << ")";
  if (g->access == a) return;
  EXPECT_LT(rank(g->access), rank(a)) << name;
  EXPECT_TRUE(same(g->access)) << name << " maps to " << to_string(g->access) << ", which lowers otherwise";
}

TEST(TriageNames, EveryLoweredNameMapsBackToAnAccessThatLowersToIt) {
  EXPECT_EQ(reverse_precedence().size(), static_cast<size_t>(kAccessCount));
  for (int i = 0; i < kAccessCount; ++i) EXPECT_LT(rank(static_cast<Access>(i)), static_cast<size_t>(kAccessCount));
  size_t checked = 0;
  for (int i = 0; i < kAccessCount; ++i) {
    const auto a = static_cast<Access>(i);
    const D3D12LegacyRow& l = kD3D12LegacyTable[static_cast<size_t>(i)];
    for (D3D12_RESOURCE_STATES s : {l.pixel, l.non_pixel}) {
      if (s == D3D12_RESOURCE_STATE_COMMON) continue;
      ++checked;
      expect_maps_back(NameFamily::d3d12_state, validate::format_name(NameKind::d3d12_state, static_cast<uint32_t>(s)),
                       a, [&](Access b) {
                         const D3D12LegacyRow& o = kD3D12LegacyTable[static_cast<size_t>(b)];
                         return (static_cast<uint32_t>(s) & (static_cast<uint32_t>(o.pixel) | static_cast<uint32_t>(o.non_pixel))) != 0u;
                       });
    }
    const D3D12EnhancedRow& e = kD3D12EnhancedTable[static_cast<size_t>(i)];
    if (e.bits != D3D12_BARRIER_ACCESS_COMMON) {
      ++checked;
      expect_maps_back(NameFamily::d3d12_access, validate::format_name(NameKind::d3d12_access, static_cast<uint32_t>(e.bits)),
                       a, [&](Access b) { return kD3D12EnhancedTable[static_cast<size_t>(b)].bits == e.bits; });
    }
    for (Queue q : {Queue::direct, Queue::compute}) {
      D3D12_BARRIER_LAYOUT layout{};
      try {
        layout = lower_d3d12_enhanced_state(State{sync_of(a, kNoStages), bit(a), layout_of(a)}, q, true).layout;
      } catch (const Error&) {
        continue;  // not held on this queue
      }
      if (layout == D3D12_BARRIER_LAYOUT_COMMON || layout == D3D12_BARRIER_LAYOUT_UNDEFINED) {
        EXPECT_FALSE(access_of(NameFamily::d3d12_layout,
                               validate::format_name(NameKind::d3d12_layout, static_cast<uint32_t>(layout))));
        continue;
      }
      ++checked;
      expect_maps_back(NameFamily::d3d12_layout, validate::format_name(NameKind::d3d12_layout, static_cast<uint32_t>(layout)),
                       a, [&](Access b) { return kD3D12EnhancedTable[static_cast<size_t>(b)].layout == layout; });
    }
    const VulkanRow& v = kVulkanTable[static_cast<size_t>(i)];
    for (VkAccessFlags2 bits : {v.image_access, v.buffer_access}) {
      if (bits == VK_ACCESS_2_NONE) continue;
      ++checked;
      expect_maps_back(NameFamily::vk_access, validate::format_name(NameKind::vk_access, bits), a, [&](Access b) {
        const VulkanRow& o = kVulkanTable[static_cast<size_t>(b)];
        return (bits & o.image_access) == o.image_access || (bits & o.buffer_access) == o.buffer_access;
      });
    }
    if (v.layout != VK_IMAGE_LAYOUT_UNDEFINED) {
      ++checked;
      expect_maps_back(NameFamily::vk_layout, validate::format_name(NameKind::vk_layout, v.layout), a,
                       [&](Access b) { return kVulkanTable[static_cast<size_t>(b)].layout == v.layout; });
    }
  }
  EXPECT_GE(checked, 50u);
}

// Merged reads lower to layouts no single access has; they stand for shader_resource.
TEST(TriageNames, MergedReadLayoutsStandForShaderReads) {
  for (Queue q : {Queue::direct, Queue::compute}) {
    const D3D12_BARRIER_LAYOUT l = lower_d3d12_enhanced_state(
        State{sync::all, bit(Access::shader_resource) | bit(Access::copy_source), Layout::generic_read}, q, true).layout;
    const std::optional<AccessGuess> g =
        access_of(NameFamily::d3d12_layout, validate::format_name(NameKind::d3d12_layout, static_cast<uint32_t>(l)));
    ASSERT_TRUE(g);
    EXPECT_EQ(g->access, Access::shader_resource);
  }
}

// The precedence decides shared values: writes before reads, constant before vertex buffers, UAVs
// before host access; both shader-resource states together are a read in every shading stage.
TEST(TriageNames, SharedValuesGoToTheFirstOfThePrecedence) {
  EXPECT_EQ(access_of(NameFamily::d3d12_state, "VERTEX_AND_CONSTANT_BUFFER")->access, Access::constant_buffer);
  EXPECT_EQ(access_of(NameFamily::vk_layout, "GENERAL")->access, Access::unordered_access);
  EXPECT_EQ(access_of(NameFamily::vk_layout, "TRANSFER_DST_OPTIMAL")->access, Access::copy_dest);
  EXPECT_EQ(access_of(NameFamily::d3d12_state, "DEPTH_READ|NON_PIXEL_SHADER_RESOURCE")->access, Access::depth_read);
  const std::optional<AccessGuess> both =
      access_of(NameFamily::d3d12_state, "NON_PIXEL_SHADER_RESOURCE|PIXEL_SHADER_RESOURCE");
  ASSERT_TRUE(both);
  EXPECT_EQ(both->access, Access::shader_resource);
  EXPECT_EQ(both->stages, kAllShading);
  EXPECT_EQ(access_of(NameFamily::d3d12_state, "PIXEL_SHADER_RESOURCE")->stages, static_cast<Stages>(Stage::pixel));
  EXPECT_TRUE(name_writes(NameFamily::d3d12_state, "UNORDERED_ACCESS"));
  EXPECT_FALSE(name_writes(NameFamily::vk_access, "SHADER_SAMPLED_READ"));
  EXPECT_FALSE(access_of(NameFamily::d3d12_state, "COMMON"));
  EXPECT_FALSE(access_of(NameFamily::vk_layout, "UNDEFINED"));
  EXPECT_FALSE(access_of(NameFamily::d3d12_layout, "COMMON"));
}

}  // namespace
}  // namespace baton::triage_detail
