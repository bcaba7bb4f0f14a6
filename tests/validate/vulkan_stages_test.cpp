// Mesh and task shading, ray tracing and acceleration-structure builds (issue 14): the names are the
// vulkan_core.h values, and the logical stage order is the spec's ("Pipeline Stages": the graphics
// pipeline with mesh shading is DRAW_INDIRECT, TASK_SHADER_EXT, MESH_SHADER_EXT, then the fragment
// stages; the ray tracing pipeline DRAW_INDIRECT, RAY_TRACING_SHADER_KHR; an acceleration-structure
// build is ordered with nothing; PRE_RASTERIZATION_SHADERS and ALL_GRAPHICS include task and mesh).
#include <gtest/gtest.h>
#include <vulkan/vulkan_core.h>

#include "../../src/validate/names.hpp"
#include "../../src/validate/vulkan_replay.hpp"
#include "cases.hpp"

namespace baton::validate::testing {
namespace {

using M = MessageId;

TEST(VulkanStages, MeshAndRayTracingNamesAreTheHeadersValues) {
  EXPECT_EQ(names::parse_flags(names::vk_stages(), "TASK_SHADER_EXT"),
            std::optional<uint64_t>(VK_PIPELINE_STAGE_2_TASK_SHADER_BIT_EXT));
  EXPECT_EQ(names::parse_flags(names::vk_stages(), "MESH_SHADER_EXT"),
            std::optional<uint64_t>(VK_PIPELINE_STAGE_2_MESH_SHADER_BIT_EXT));
  EXPECT_EQ(names::parse_flags(names::vk_stages(), "RAY_TRACING_SHADER_KHR"),
            std::optional<uint64_t>(VK_PIPELINE_STAGE_2_RAY_TRACING_SHADER_BIT_KHR));
  EXPECT_EQ(names::parse_flags(names::vk_stages(), "ACCELERATION_STRUCTURE_BUILD_KHR"),
            std::optional<uint64_t>(VK_PIPELINE_STAGE_2_ACCELERATION_STRUCTURE_BUILD_BIT_KHR));
  EXPECT_EQ(names::parse_flags(names::vk_accesses(), "ACCELERATION_STRUCTURE_READ_KHR"),
            std::optional<uint64_t>(VK_ACCESS_2_ACCELERATION_STRUCTURE_READ_BIT_KHR));
  EXPECT_EQ(names::parse_flags(names::vk_accesses(), "ACCELERATION_STRUCTURE_WRITE_KHR"),
            std::optional<uint64_t>(VK_ACCESS_2_ACCELERATION_STRUCTURE_WRITE_BIT_KHR));
}

TEST(VulkanStages, LogicalOrderOfTheMeshAndRayTracingPipelines) {
  using namespace vulkan;
  constexpr uint64_t task = VK_PIPELINE_STAGE_2_TASK_SHADER_BIT_EXT,
                     mesh = VK_PIPELINE_STAGE_2_MESH_SHADER_BIT_EXT,
                     rt = VK_PIPELINE_STAGE_2_RAY_TRACING_SHADER_BIT_KHR,
                     build = VK_PIPELINE_STAGE_2_ACCELERATION_STRUCTURE_BUILD_BIT_KHR;
  EXPECT_NE(dst_exec_scope(task) & mesh, 0u);
  EXPECT_NE(dst_exec_scope(mesh) & VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, 0u);
  EXPECT_EQ(dst_exec_scope(mesh) & task, 0u);
  EXPECT_NE(src_exec_scope(VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT) & (task | mesh), 0u);
  EXPECT_EQ(src_exec_scope(VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT) & (task | mesh), 0u);  // another pipeline
  EXPECT_NE(dst_exec_scope(VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT) & rt, 0u);
  EXPECT_EQ(dst_exec_scope(rt), rt);
  EXPECT_EQ(dst_exec_scope(VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT) & rt, 0u);
  EXPECT_EQ(src_exec_scope(build), build);
  EXPECT_EQ(dst_exec_scope(build), build);
  EXPECT_EQ(expand_stages(VK_PIPELINE_STAGE_2_PRE_RASTERIZATION_SHADERS_BIT) & (task | mesh), task | mesh);
  EXPECT_EQ(expand_stages(VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT) & (task | mesh | rt), task | mesh);
  EXPECT_EQ(expand_stages(VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT) & (task | mesh | rt | build),
            task | mesh | rt | build);
  EXPECT_TRUE(has_write(VK_ACCESS_2_ACCELERATION_STRUCTURE_WRITE_BIT_KHR));
  EXPECT_TRUE(has_read(VK_ACCESS_2_ACCELERATION_STRUCTURE_READ_BIT_KHR));
  EXPECT_EQ(expand_accesses(VK_ACCESS_2_MEMORY_WRITE_BIT) & VK_ACCESS_2_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
            VK_ACCESS_2_ACCELERATION_STRUCTURE_WRITE_BIT_KHR);
}

// An acceleration structure built into a buffer, then read by a ray tracing shader: the build's write
// needs a barrier ACCELERATION_STRUCTURE_BUILD_KHR / ACCELERATION_STRUCTURE_WRITE_KHR ->
// RAY_TRACING_SHADER_KHR / ACCELERATION_STRUCTURE_READ_KHR (spec, "Acceleration Structures": a build
// writes at ACCELERATION_STRUCTURE_BUILD with ACCELERATION_STRUCTURE_WRITE, traversal reads with
// ACCELERATION_STRUCTURE_READ in the shader's stage); a destination of COMPUTE_SHADER orders nothing of it.
std::string build_then_trace(std::string_view barrier_dst) {
  const std::string build =
      R"({"use":{"resource":"as","as":{"stage":"ACCELERATION_STRUCTURE_BUILD_KHR","access":"ACCELERATION_STRUCTURE_WRITE_KHR"}}})";
  const std::string trace =
      R"({"use":{"resource":"as","as":{"stage":"RAY_TRACING_SHADER_KHR","access":"ACCELERATION_STRUCTURE_READ_KHR"}}})";
  const std::string barrier =
      barrier_dst.empty() ? ""
                          : fmt::format(R"({{"barrier":[{{"type":"buffer","resource":"as",)"
                                        R"("src_stage":"ACCELERATION_STRUCTURE_BUILD_KHR",)"
                                        R"("src_access":"ACCELERATION_STRUCTURE_WRITE_KHR","dst_stage":"{}",)"
                                        R"("dst_access":"ACCELERATION_STRUCTURE_READ_KHR"}}]}},)",
                                        barrier_dst);
  return one_list("vulkan", R"({"name":"as","type":"buffer"})", build + "," + barrier + trace);
}

TEST(VulkanStages, RayTracingReadOfABuiltAccelerationStructure) {
  EXPECT_EQ(validate(load_trace(build_then_trace(""), "t")).counts,
            ids({{M::vk_hazard_read_after_write, 1}}));
  EXPECT_TRUE(validate(load_trace(build_then_trace("RAY_TRACING_SHADER_KHR"), "t")).clean());
  EXPECT_EQ(validate(load_trace(build_then_trace("COMPUTE_SHADER"), "t")).counts,
            ids({{M::vk_hazard_read_after_write, 1}}));
  // DRAW_INDIRECT is logically earlier than RAY_TRACING_SHADER_KHR: as a destination its execution scope
  // reaches the ray tracing stage, but its access scope holds only DRAW_INDIRECT's accesses.
  EXPECT_EQ(validate(load_trace(build_then_trace("DRAW_INDIRECT"), "t")).counts,
            ids({{M::vk_hazard_read_after_write, 1}}));
}

// A mesh shader reading what a task shader wrote (storage buffer): TASK -> MESH orders it; MESH ->
// FRAGMENT does not (the fragment stage is after the mesh stage, not before it).
TEST(VulkanStages, MeshShaderReadOfATaskShaderWrite) {
  auto trace = [](std::string_view src, std::string_view dst) {
    return one_list(
        "vulkan", R"({"name":"b","type":"buffer"})",
        fmt::format(
            R"({{"use":{{"resource":"b","as":{{"stage":"TASK_SHADER_EXT","access":"SHADER_STORAGE_WRITE"}}}}}},)"
            R"({{"barrier":[{{"type":"buffer","resource":"b","src_stage":"{}","src_access":"SHADER_STORAGE_WRITE",)"
            R"("dst_stage":"{}","dst_access":"SHADER_STORAGE_READ"}}]}},)"
            R"({{"use":{{"resource":"b","as":{{"stage":"MESH_SHADER_EXT","access":"SHADER_STORAGE_READ"}}}}}})",
            src, dst));
  };
  EXPECT_TRUE(validate(load_trace(trace("TASK_SHADER_EXT", "MESH_SHADER_EXT"), "t")).clean());
  EXPECT_TRUE(
      validate(load_trace(trace("PRE_RASTERIZATION_SHADERS", "PRE_RASTERIZATION_SHADERS"), "t")).clean());
  EXPECT_EQ(validate(load_trace(trace("TASK_SHADER_EXT", "FRAGMENT_SHADER"), "t")).counts,
            ids({{M::vk_hazard_read_after_write, 1}}));
  EXPECT_EQ(validate(load_trace(trace("VERTEX_SHADER", "MESH_SHADER_EXT"), "t")).counts,
            ids({{M::vk_hazard_read_after_write, 1}}));
}

}  // namespace
}  // namespace baton::validate::testing
