// The catalog and the name tables: ids unique and findable, and every name table row equal to the
// value in the real API headers (Debian's directx-headers and vulkan_core.h).
// clang-format off
#include <wsl/winadapter.h>  // Linux: must come before the D3D12 headers
#include <directx/d3d12.h>
// clang-format on
#include <gtest/gtest.h>
#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <baton/validate.hpp>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "../../src/validate/names.hpp"

namespace baton::validate {
namespace {

TEST(Catalog, IdsAreUniqueAndFindable) {
  std::set<uint32_t> seen;
  for (const CatalogEntry& e : catalog()) {
    EXPECT_TRUE(seen.insert(number(e.id)).second) << e.name;
    EXPECT_EQ(&catalog_entry(e.id), &e);
    EXPECT_FALSE(e.name.empty());
    EXPECT_NE(e.text.find('{'), std::string_view::npos) << e.name << ": the text names expected/actual";
  }
}

TEST(Catalog, D3D12IdsMatchTheHeaders) {
  // Ids up to 1362 exist in Debian's headers; later ones are carried by the catalog itself.
  const std::pair<MessageId, D3D12_MESSAGE_ID> all[] = {
      {MessageId::barrier_invalid_subresource, D3D12_MESSAGE_ID_RESOURCE_BARRIER_INVALID_SUBRESOURCE},
      {MessageId::barrier_matching_states, D3D12_MESSAGE_ID_RESOURCE_BARRIER_MATCHING_STATES},
      {MessageId::barrier_invalid_combination, D3D12_MESSAGE_ID_RESOURCE_BARRIER_INVALID_COMBINATION},
      {MessageId::barrier_invalid_split_barrier, D3D12_MESSAGE_ID_RESOURCE_BARRIER_INVALID_SPLIT_BARRIER},
      {MessageId::barrier_unmatched_end, D3D12_MESSAGE_ID_RESOURCE_BARRIER_UNMATCHED_END},
      {MessageId::barrier_unmatched_begin, D3D12_MESSAGE_ID_RESOURCE_BARRIER_UNMATCHED_BEGIN},
      {MessageId::barrier_invalid_command_list_type,
       D3D12_MESSAGE_ID_RESOURCE_BARRIER_INVALID_COMMAND_LIST_TYPE},
      {MessageId::barrier_mismatching_begin_end, D3D12_MESSAGE_ID_RESOURCE_BARRIER_MISMATCHING_BEGIN_END},
      {MessageId::createresource_state_ignored, D3D12_MESSAGE_ID_CREATERESOURCE_STATE_IGNORED},
      {MessageId::incompatible_barrier_values, D3D12_MESSAGE_ID_INCOMPATIBLE_BARRIER_VALUES},
      {MessageId::incompatible_barrier_access, D3D12_MESSAGE_ID_INCOMPATIBLE_BARRIER_ACCESS},
      {MessageId::incompatible_barrier_sync, D3D12_MESSAGE_ID_INCOMPATIBLE_BARRIER_SYNC},
      {MessageId::incompatible_barrier_type, D3D12_MESSAGE_ID_INCOMPATIBLE_BARRIER_TYPE},
      {MessageId::unsupported_barrier_layout, D3D12_MESSAGE_ID_UNSUPPORTED_BARRIER_LAYOUT},
      {MessageId::barrier_interop_invalid_layout, D3D12_MESSAGE_ID_BARRIER_INTEROP_INVALID_LAYOUT},
  };
  for (const auto& [ours, theirs] : all)
    EXPECT_EQ(number(ours), static_cast<uint32_t>(theirs)) << catalog_entry(ours).name;
  EXPECT_EQ(number(MessageId::barrier_before_after_mismatch),
            static_cast<uint32_t>(D3D12_MESSAGE_ID_RESOURCE_BARRIER_BEFORE_AFTER_MISMATCH));
  EXPECT_EQ(number(MessageId::invalid_subresource_state),
            static_cast<uint32_t>(D3D12_MESSAGE_ID_INVALID_SUBRESOURCE_STATE));
  EXPECT_EQ(number(MessageId::barrier_invalid_heap),
            static_cast<uint32_t>(D3D12_MESSAGE_ID_RESOURCE_BARRIER_INVALID_HEAP));
  EXPECT_EQ(number(MessageId::barrier_duplicate_subresource_transitions),
            static_cast<uint32_t>(D3D12_MESSAGE_ID_RESOURCE_BARRIER_DUPLICATE_SUBRESOURCE_TRANSITIONS));
  EXPECT_EQ(number(MessageId::incompatible_barrier_layout),
            static_cast<uint32_t>(D3D12_MESSAGE_ID_INCOMPATIBLE_BARRIER_LAYOUT));
  EXPECT_EQ(number(MessageId::barrier_interop_invalid_state),
            static_cast<uint32_t>(D3D12_MESSAGE_ID_BARRIER_INTEROP_INVALID_STATE));
  EXPECT_EQ(number(MessageId::texture_barrier_subresources_out_of_bounds),
            static_cast<uint32_t>(D3D12_MESSAGE_ID_TEXTURE_BARRIER_SUBRESOURCES_OUT_OF_BOUNDS));
  EXPECT_EQ(number(MessageId::unused_cross_execute_split_barrier),
            static_cast<uint32_t>(D3D12_MESSAGE_ID_UNUSED_CROSS_EXECUTE_SPLIT_BARRIER));
}

// Every D3D12 id in the catalog (every D3D12 message Baton can emit), checked by *name* against
// the D3D12_MESSAGE_ID enumerators of the installed d3d12sdklayers.h: same name, same value.
// Debian's directx-headers (1.606) end at 1361; the newer ids are checked against the values of
// microsoft/DirectX-Headers v1.619.1 (include/directx/d3d12sdklayers.h), which must really be
// beyond the installed header (and agree with it once it has them).
std::map<std::string, uint32_t> installed_message_ids() {
  std::map<std::string, uint32_t> out;
#ifdef BATON_D3D12SDKLAYERS_H
  std::ifstream in(BATON_D3D12SDKLAYERS_H);
  // "NAME = 1334," or "NAME = ( OTHER + 1 )" (the header's two forms).
  const std::regex row(R"(^\s*D3D12_MESSAGE_ID_([A-Z0-9_]+)\s*=\s*([0-9]+)\s*,?\s*$)");
  const std::regex next(
      R"(^\s*D3D12_MESSAGE_ID_([A-Z0-9_]+)\s*=\s*\(\s*D3D12_MESSAGE_ID_([A-Z0-9_]+)\s*\+\s*1\s*\)\s*,?\s*$)");
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_match(line, m, row)) {
      out.emplace(m[1].str(), static_cast<uint32_t>(std::stoul(m[2].str())));
    } else if (std::regex_match(line, m, next)) {
      const auto prev = out.find(m[2].str());
      if (prev != out.end()) out.emplace(m[1].str(), prev->second + 1);
    }
  }
#endif
  return out;
}

TEST(Catalog, EveryD3D12IdMatchesTheHeaders) {
  const std::map<std::string, uint32_t> installed = installed_message_ids();
  ASSERT_GT(installed.size(), 900u) << "could not read D3D12_MESSAGE_ID from d3d12sdklayers.h";
  uint32_t installed_max = 0;
  for (const auto& [name, value] : installed) {
    if (name != "D3D12_MESSAGES_END") installed_max = std::max(installed_max, value);
  }
  // DirectX-Headers v1.619.1, D3D12_MESSAGE_ID (newer than the installed header).
  const std::map<std::string, uint32_t> newer = {
      {"INVALID_BARRIER_ACCESS", 1417},
      {"RENDER_TARGET_OR_DEPTH_STENCIL_RESOUCE_NOT_INITIALIZED", 1422},  // (sic)
      {"NON_COMMON_RESOURCE_IN_COPY_QUEUE", 1431},
      {"TEXTURE_BARRIER_INVALID_FLAGS", 1436},
  };
  int checked = 0;
  for (const CatalogEntry& e : catalog()) {
    if (number(e.id) >= 100000) continue;  // Vulkan rows
    const std::string name(e.name);
    const auto in_header = installed.find(name);
    const auto in_newer = newer.find(name);
    ASSERT_TRUE(in_header != installed.end() || in_newer != newer.end())
        << name << " (" << number(e.id) << ") is in neither the installed header nor the newer table";
    if (in_header != installed.end()) {
      EXPECT_EQ(number(e.id), in_header->second) << name;
    }
    if (in_newer != newer.end()) {
      EXPECT_EQ(number(e.id), in_newer->second) << name;
      if (in_header == installed.end()) {
        EXPECT_GT(in_newer->second, installed_max) << name;
      }
    }
    ++checked;
  }
  EXPECT_GE(checked, 27);  // every D3D12 row of the catalog went through the loop above
  for (const MessageId id :
       {MessageId::invalid_barrier_access, MessageId::render_target_or_depth_stencil_not_initialized,
        MessageId::non_common_resource_in_copy_queue, MessageId::texture_barrier_invalid_flags})
    EXPECT_EQ(newer.at(std::string(catalog_entry(id).name)), number(id));
}

// Vulkan rows carry what the Khronos layer prints, so a user can search the layer's docs for them:
// a VUID, a SYNC-HAZARD-* name, or an UNASSIGNED-* id; rows with no layer equivalent say BATON-VK-*.
TEST(Catalog, VulkanNamesAreSearchable) {
  const std::regex searchable(
      R"(^(VUID-[A-Za-z0-9]+-[A-Za-z0-9]+-[0-9]+|SYNC-HAZARD-[A-Z-]+|UNASSIGNED-[A-Za-z0-9-]+|BATON-VK-[A-Z-]+)$)");
  for (const CatalogEntry& e : catalog()) {
    if (number(e.id) < 100000 || number(e.id) >= 200000) continue;  // D3D12 rows; BATON-HEAP-* rows
    EXPECT_TRUE(std::regex_match(std::string(e.name), searchable)) << e.name;
  }
  EXPECT_EQ(catalog_entry(MessageId::vk_hazard_read_after_write).name, "SYNC-HAZARD-READ-AFTER-WRITE");
  EXPECT_EQ(catalog_entry(MessageId::vk_hazard_write_after_read).name, "SYNC-HAZARD-WRITE-AFTER-READ");
  EXPECT_EQ(catalog_entry(MessageId::vk_hazard_write_after_write).name, "SYNC-HAZARD-WRITE-AFTER-WRITE");
  EXPECT_EQ(catalog_entry(MessageId::vk_barrier_old_layout).name,
            "VUID-VkImageMemoryBarrier2-oldLayout-01197");
  EXPECT_EQ(catalog_entry(MessageId::vk_queue_family_unmatched_acquire).name,
            "UNASSIGNED-VkImageMemoryBarrier-image-00004");
}

// Rows 200000 and up are Baton's checks of memory shared by placed resources, for every API: no
// layer prints them (layer 1.3.239 misses some of these races), so each says BATON-HEAP-*.
TEST(Catalog, HeapRowsAreBatonsOwn) {
  const std::regex heap(R"(^BATON-HEAP-[A-Z-]+$)");
  int rows = 0;
  for (const CatalogEntry& e : catalog()) {
    if (number(e.id) < 200000) continue;
    EXPECT_TRUE(std::regex_match(std::string(e.name), heap)) << e.name;
    ++rows;
  }
  EXPECT_EQ(rows, 4);
  EXPECT_EQ(catalog_entry(MessageId::heap_unordered_takeover).name, "BATON-HEAP-UNORDERED-TAKEOVER");
}

struct Expect {
  std::span<const names::Name> (*table)();
  const char* name;
  uint64_t value;
};

TEST(Names, MatchTheApiHeaders) {
  const Expect rows[] = {
      {names::d3d12_states, "GENERIC_READ", D3D12_RESOURCE_STATE_GENERIC_READ},
      {names::d3d12_states, "PIXEL_SHADER_RESOURCE", D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE},
      {names::d3d12_states, "RESOLVE_SOURCE", D3D12_RESOURCE_STATE_RESOLVE_SOURCE},
      {names::d3d12_states, "SHADING_RATE_SOURCE", D3D12_RESOURCE_STATE_SHADING_RATE_SOURCE},
      {names::d3d12_states, "RAYTRACING_ACCELERATION_STRUCTURE",
       D3D12_RESOURCE_STATE_RAYTRACING_ACCELERATION_STRUCTURE},
      {names::d3d12_syncs, "INPUT_ASSEMBLER", D3D12_BARRIER_SYNC_INPUT_ASSEMBLER},
      {names::d3d12_syncs, "CLEAR_UNORDERED_ACCESS_VIEW", D3D12_BARRIER_SYNC_CLEAR_UNORDERED_ACCESS_VIEW},
      {names::d3d12_syncs, "SPLIT", D3D12_BARRIER_SYNC_SPLIT},
      {names::d3d12_accesses, "SHADING_RATE_SOURCE", D3D12_BARRIER_ACCESS_SHADING_RATE_SOURCE},
      {names::d3d12_accesses, "NO_ACCESS", D3D12_BARRIER_ACCESS_NO_ACCESS},
      {names::d3d12_layouts, "UNDEFINED", D3D12_BARRIER_LAYOUT_UNDEFINED},
      {names::d3d12_layouts, "DIRECT_QUEUE_COMMON", D3D12_BARRIER_LAYOUT_DIRECT_QUEUE_COMMON},
      {names::d3d12_layouts, "COMPUTE_QUEUE_COPY_DEST", D3D12_BARRIER_LAYOUT_COMPUTE_QUEUE_COPY_DEST},
      {names::d3d12_layouts, "VIDEO_QUEUE_COMMON", D3D12_BARRIER_LAYOUT_VIDEO_QUEUE_COMMON},
      // Newer than the installed header: DirectX-Headers v1.619.1 d3d12.h, D3D12_BARRIER_LAYOUT.
      {names::d3d12_layouts, "DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE", 31},
      {names::vk_stages, "FRAGMENT_SHADER", VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT},
      {names::vk_stages, "PRE_RASTERIZATION_SHADERS", VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT},
      {names::vk_stages, "CLEAR", VK_PIPELINE_STAGE_2_CLEAR_BIT},
      {names::vk_stages, "ALL_COMMANDS", VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT},
      {names::vk_accesses, "SHADER_SAMPLED_READ", VK_ACCESS_2_SHADER_SAMPLED_READ_BIT},
      {names::vk_accesses, "SHADER_STORAGE_WRITE", VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT},
      {names::vk_accesses, "MEMORY_WRITE", VK_ACCESS_2_MEMORY_WRITE_BIT},
      {names::vk_layouts, "SHADER_READ_ONLY_OPTIMAL", VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL},
      {names::vk_layouts, "ATTACHMENT_OPTIMAL", VK_IMAGE_LAYOUT_ATTACHMENT_OPTIMAL},
      {names::vk_layouts, "PRESENT_SRC_KHR", VK_IMAGE_LAYOUT_PRESENT_SRC_KHR},
      {names::vk_layouts, "DEPTH_READ_ONLY_OPTIMAL", VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL},
  };
  for (const Expect& e : rows)
    EXPECT_EQ(names::parse_enum(e.table(), e.name), std::optional<uint64_t>(e.value)) << e.name;
}

TEST(Names, FlagsRoundTrip) {
  const auto v = names::parse_flags(names::d3d12_states(), "PIXEL_SHADER_RESOURCE|NON_PIXEL_SHADER_RESOURCE");
  ASSERT_TRUE(v);
  EXPECT_EQ(*v, 0xc0u);
  EXPECT_EQ(names::format_flags(names::d3d12_states(), *v),
            "NON_PIXEL_SHADER_RESOURCE|PIXEL_SHADER_RESOURCE");
  EXPECT_EQ(names::format_flags(names::d3d12_states(), 0), "COMMON");
  EXPECT_FALSE(names::parse_flags(names::d3d12_states(), "PIXEL_SHADER_RESOURCE|"));
  EXPECT_FALSE(names::parse_flags(names::d3d12_states(), ""));
}

}  // namespace
}  // namespace baton::validate
