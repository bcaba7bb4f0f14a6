// Vulkan enumerator names and values (VkPipelineStageFlagBits2, VkAccessFlagBits2, VkImageLayout),
// written from the specification; tests/validate/names_test.cpp checks them against vulkan_core.h.
#include <array>

#include "names.hpp"

namespace baton::validate::names {

namespace {
constexpr std::array kStages{
    Name{"NONE", 0x0},
    Name{"TOP_OF_PIPE", 0x1},
    Name{"DRAW_INDIRECT", 0x2},
    Name{"VERTEX_INPUT", 0x4},
    Name{"VERTEX_SHADER", 0x8},
    Name{"TESSELLATION_CONTROL_SHADER", 0x10},
    Name{"TESSELLATION_EVALUATION_SHADER", 0x20},
    Name{"GEOMETRY_SHADER", 0x40},
    Name{"FRAGMENT_SHADER", 0x80},
    Name{"EARLY_FRAGMENT_TESTS", 0x100},
    Name{"LATE_FRAGMENT_TESTS", 0x200},
    Name{"COLOR_ATTACHMENT_OUTPUT", 0x400},
    Name{"COMPUTE_SHADER", 0x800},
    Name{"ALL_TRANSFER", 0x1000},
    Name{"TRANSFER", 0x1000},
    Name{"BOTTOM_OF_PIPE", 0x2000},
    Name{"HOST", 0x4000},
    Name{"ALL_GRAPHICS", 0x8000},
    Name{"ALL_COMMANDS", 0x10000},
    Name{"COPY", 0x100000000},
    Name{"RESOLVE", 0x200000000},
    Name{"BLIT", 0x400000000},
    Name{"CLEAR", 0x800000000},
    Name{"INDEX_INPUT", 0x1000000000},
    Name{"VERTEX_ATTRIBUTE_INPUT", 0x2000000000},
    Name{"PRE_RASTERIZATION_SHADERS", 0x4000000000},
    Name{"TASK_SHADER_EXT", 0x80000},
    Name{"MESH_SHADER_EXT", 0x100000},
    Name{"RAY_TRACING_SHADER_KHR", 0x200000},
    Name{"ACCELERATION_STRUCTURE_BUILD_KHR", 0x2000000},
};

constexpr std::array kAccesses{
    Name{"NONE", 0x0},
    Name{"INDIRECT_COMMAND_READ", 0x1},
    Name{"INDEX_READ", 0x2},
    Name{"VERTEX_ATTRIBUTE_READ", 0x4},
    Name{"UNIFORM_READ", 0x8},
    Name{"INPUT_ATTACHMENT_READ", 0x10},
    Name{"SHADER_READ", 0x20},
    Name{"SHADER_WRITE", 0x40},
    Name{"COLOR_ATTACHMENT_READ", 0x80},
    Name{"COLOR_ATTACHMENT_WRITE", 0x100},
    Name{"DEPTH_STENCIL_ATTACHMENT_READ", 0x200},
    Name{"DEPTH_STENCIL_ATTACHMENT_WRITE", 0x400},
    Name{"TRANSFER_READ", 0x800},
    Name{"TRANSFER_WRITE", 0x1000},
    Name{"HOST_READ", 0x2000},
    Name{"HOST_WRITE", 0x4000},
    Name{"MEMORY_READ", 0x8000},
    Name{"MEMORY_WRITE", 0x10000},
    Name{"SHADER_SAMPLED_READ", 0x100000000},
    Name{"SHADER_STORAGE_READ", 0x200000000},
    Name{"SHADER_STORAGE_WRITE", 0x400000000},
    Name{"ACCELERATION_STRUCTURE_READ_KHR", 0x200000},
    Name{"ACCELERATION_STRUCTURE_WRITE_KHR", 0x400000},
};

constexpr std::array kLayouts{
    Name{"UNDEFINED", 0},
    Name{"GENERAL", 1},
    Name{"COLOR_ATTACHMENT_OPTIMAL", 2},
    Name{"DEPTH_STENCIL_ATTACHMENT_OPTIMAL", 3},
    Name{"DEPTH_STENCIL_READ_ONLY_OPTIMAL", 4},
    Name{"SHADER_READ_ONLY_OPTIMAL", 5},
    Name{"TRANSFER_SRC_OPTIMAL", 6},
    Name{"TRANSFER_DST_OPTIMAL", 7},
    Name{"PREINITIALIZED", 8},
    Name{"DEPTH_READ_ONLY_STENCIL_ATTACHMENT_OPTIMAL", 1000117000},
    Name{"DEPTH_ATTACHMENT_STENCIL_READ_ONLY_OPTIMAL", 1000117001},
    Name{"DEPTH_ATTACHMENT_OPTIMAL", 1000241000},
    Name{"DEPTH_READ_ONLY_OPTIMAL", 1000241001},
    Name{"STENCIL_ATTACHMENT_OPTIMAL", 1000241002},
    Name{"STENCIL_READ_ONLY_OPTIMAL", 1000241003},
    Name{"READ_ONLY_OPTIMAL", 1000314000},
    Name{"ATTACHMENT_OPTIMAL", 1000314001},
    Name{"PRESENT_SRC_KHR", 1000001002},
};
}  // namespace

std::span<const Name> vk_stages() {
  return kStages;
}
std::span<const Name> vk_accesses() {
  return kAccesses;
}
std::span<const Name> vk_layouts() {
  return kLayouts;
}

}  // namespace baton::validate::names
