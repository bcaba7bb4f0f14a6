// The executor's side of shaders/op_common.glsl: descriptor categories, slots, push constants,
// flags and the mixing function. The CPU reference model (model.cpp) and the shaders must agree
// bit for bit.
#pragma once

#include <vulkan/vulkan.h>

#include <array>
#include <cstdint>

namespace baton::exec {

inline constexpr uint32_t kSlots = 6;  // MAXB in op_common.glsl
enum Category : uint32_t { srv_buf, srv_tex, srv_depth, cbuf, uav_buf, uav_tex };
inline constexpr uint32_t kCategories = 6;
inline constexpr std::array<VkDescriptorType, kCategories> kCategoryTypes = {
    VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,   VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
    VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,         VK_DESCRIPTOR_TYPE_STORAGE_IMAGE};

inline constexpr VkFormat kColorFormat = VK_FORMAT_R32_UINT;
inline constexpr uint32_t kUniformWords = 64;  // CB { uvec4 v[16]; }

struct PushConstants {
  uint32_t seed = 0;
  uint32_t flags = 0;
  uint32_t counts[2] = {0, 0};
  uint32_t masks[2] = {0, 0};  // structural bits 0..5, read-modify-write bits 8..13 / 16..21
  uint32_t area_w = 0, area_h = 0;
  uint32_t spin = 0;  // RunOptions::spin: extra ALU rounds per compute/fragment invocation
};

inline constexpr VkShaderStageFlags kPushStages =
    VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT | VK_SHADER_STAGE_COMPUTE_BIT;

inline constexpr uint32_t kFlagStorageWrites = 2, kFlagVertexAttr = 4, kFlagIndirect = 8, kFlagDepth = 16;

// Buffers read as draw/dispatch arguments or indices keep these first 16 words fixed (every
// writer writes them with these values): indices (0,1,2) at word 0, draw args (3,1,0,0,0) at word 4
// for vkCmdDraw[Indexed]Indirect, dispatch args (1,1,1) at word 9. The indices sit at offset 0
// because lavapipe (Mesa 22.3) ignores the index-buffer offset in vkCmdDrawIndexedIndirect.
inline constexpr uint32_t kStructWords = 16;
inline constexpr std::array<uint32_t, kStructWords> kStruct = {0, 1, 2, 0, 3, 1, 0, 0,
                                                               0, 1, 1, 1, 0, 0, 0, 0};
inline constexpr uint32_t kIndexOffset = 0, kDrawArgsOffset = 4 * 4, kDispatchArgsOffset = 9 * 4;

constexpr uint32_t bmix(uint32_t h, uint32_t v) {
  h ^= v;
  h *= 0x9E3779B1u;
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  return h;
}
constexpr uint32_t kRmwBufBit = 8, kRmwTexBit = 16;
constexpr uint32_t out_seed(uint32_t seed, uint32_t slot) {
  return bmix(seed, 0x100u + slot);
}
inline constexpr uint32_t kSlotColor0 = 16, kSlotDepth = 24;

}  // namespace baton::exec
