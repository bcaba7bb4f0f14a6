#include "triage_names.hpp"

#include <array>

namespace baton::triage_detail {
namespace {

struct Row {
  NameFamily family;
  std::string_view name;
  Access access;
  Stages stages;
};

constexpr Stages kPixel = static_cast<Stages>(Stage::pixel);
constexpr Stages kCompute = static_cast<Stages>(Stage::compute);

// Writes first: a combined name is read as its write (the declaration that matters).
constexpr std::array kRows = {
    // D3D12 legacy resource states.
    Row{NameFamily::d3d12_state, "RENDER_TARGET", Access::render_target, kNoStages},
    Row{NameFamily::d3d12_state, "UNORDERED_ACCESS", Access::unordered_access, kNoStages},
    Row{NameFamily::d3d12_state, "DEPTH_WRITE", Access::depth_write, kNoStages},
    Row{NameFamily::d3d12_state, "COPY_DEST", Access::copy_dest, kNoStages},
    Row{NameFamily::d3d12_state, "RESOLVE_DEST", Access::resolve_dest, kNoStages},
    Row{NameFamily::d3d12_state, "DEPTH_READ", Access::depth_read, kNoStages},
    Row{NameFamily::d3d12_state, "PIXEL_SHADER_RESOURCE", Access::shader_resource, kPixel},
    Row{NameFamily::d3d12_state, "NON_PIXEL_SHADER_RESOURCE", Access::shader_resource, kCompute},
    Row{NameFamily::d3d12_state, "COPY_SOURCE", Access::copy_source, kNoStages},
    Row{NameFamily::d3d12_state, "RESOLVE_SOURCE", Access::resolve_source, kNoStages},
    Row{NameFamily::d3d12_state, "INDIRECT_ARGUMENT", Access::indirect_argument, kNoStages},
    Row{NameFamily::d3d12_state, "INDEX_BUFFER", Access::index_buffer, kNoStages},
    Row{NameFamily::d3d12_state, "VERTEX_AND_CONSTANT_BUFFER", Access::constant_buffer, kNoStages},
    Row{NameFamily::d3d12_state, "PRESENT", Access::present, kNoStages},
    // D3D12 enhanced layouts (queue-specific prefixes are stripped before the lookup).
    Row{NameFamily::d3d12_layout, "RENDER_TARGET", Access::render_target, kNoStages},
    Row{NameFamily::d3d12_layout, "UNORDERED_ACCESS", Access::unordered_access, kNoStages},
    Row{NameFamily::d3d12_layout, "DEPTH_STENCIL_WRITE", Access::depth_write, kNoStages},
    Row{NameFamily::d3d12_layout, "COPY_DEST", Access::copy_dest, kNoStages},
    Row{NameFamily::d3d12_layout, "RESOLVE_DEST", Access::resolve_dest, kNoStages},
    Row{NameFamily::d3d12_layout, "DEPTH_STENCIL_READ", Access::depth_read, kNoStages},
    Row{NameFamily::d3d12_layout, "SHADER_RESOURCE", Access::shader_resource, kNoStages},
    Row{NameFamily::d3d12_layout, "GENERIC_READ", Access::shader_resource, kNoStages},
    Row{NameFamily::d3d12_layout, "COPY_SOURCE", Access::copy_source, kNoStages},
    Row{NameFamily::d3d12_layout, "RESOLVE_SOURCE", Access::resolve_source, kNoStages},
    Row{NameFamily::d3d12_layout, "PRESENT", Access::present, kNoStages},
    // D3D12 enhanced accesses (buffers).
    Row{NameFamily::d3d12_access, "RENDER_TARGET", Access::render_target, kNoStages},
    Row{NameFamily::d3d12_access, "UNORDERED_ACCESS", Access::unordered_access, kNoStages},
    Row{NameFamily::d3d12_access, "DEPTH_STENCIL_WRITE", Access::depth_write, kNoStages},
    Row{NameFamily::d3d12_access, "COPY_DEST", Access::copy_dest, kNoStages},
    Row{NameFamily::d3d12_access, "RESOLVE_DEST", Access::resolve_dest, kNoStages},
    Row{NameFamily::d3d12_access, "DEPTH_STENCIL_READ", Access::depth_read, kNoStages},
    Row{NameFamily::d3d12_access, "SHADER_RESOURCE", Access::shader_resource, kNoStages},
    Row{NameFamily::d3d12_access, "COPY_SOURCE", Access::copy_source, kNoStages},
    Row{NameFamily::d3d12_access, "RESOLVE_SOURCE", Access::resolve_source, kNoStages},
    Row{NameFamily::d3d12_access, "INDIRECT_ARGUMENT", Access::indirect_argument, kNoStages},
    Row{NameFamily::d3d12_access, "INDEX_BUFFER", Access::index_buffer, kNoStages},
    Row{NameFamily::d3d12_access, "VERTEX_BUFFER", Access::vertex_buffer, kNoStages},
    Row{NameFamily::d3d12_access, "CONSTANT_BUFFER", Access::constant_buffer, kNoStages},
    // Vulkan image layouts.
    Row{NameFamily::vk_layout, "COLOR_ATTACHMENT_OPTIMAL", Access::render_target, kNoStages},
    Row{NameFamily::vk_layout, "DEPTH_STENCIL_ATTACHMENT_OPTIMAL", Access::depth_write, kNoStages},
    Row{NameFamily::vk_layout, "DEPTH_ATTACHMENT_OPTIMAL", Access::depth_write, kNoStages},
    Row{NameFamily::vk_layout, "TRANSFER_DST_OPTIMAL", Access::copy_dest, kNoStages},
    Row{NameFamily::vk_layout, "GENERAL", Access::unordered_access, kNoStages},
    Row{NameFamily::vk_layout, "DEPTH_STENCIL_READ_ONLY_OPTIMAL", Access::depth_read, kNoStages},
    Row{NameFamily::vk_layout, "DEPTH_READ_ONLY_OPTIMAL", Access::depth_read, kNoStages},
    Row{NameFamily::vk_layout, "SHADER_READ_ONLY_OPTIMAL", Access::shader_resource, kNoStages},
    Row{NameFamily::vk_layout, "TRANSFER_SRC_OPTIMAL", Access::copy_source, kNoStages},
    Row{NameFamily::vk_layout, "PRESENT_SRC_KHR", Access::present, kNoStages},
    // Vulkan accesses.
    Row{NameFamily::vk_access, "COLOR_ATTACHMENT_WRITE", Access::render_target, kNoStages},
    Row{NameFamily::vk_access, "DEPTH_STENCIL_ATTACHMENT_WRITE", Access::depth_write, kNoStages},
    Row{NameFamily::vk_access, "SHADER_STORAGE_WRITE", Access::unordered_access, kNoStages},
    Row{NameFamily::vk_access, "SHADER_WRITE", Access::unordered_access, kNoStages},
    Row{NameFamily::vk_access, "TRANSFER_WRITE", Access::copy_dest, kNoStages},
    Row{NameFamily::vk_access, "HOST_WRITE", Access::host_write, kNoStages},
    Row{NameFamily::vk_access, "DEPTH_STENCIL_ATTACHMENT_READ", Access::depth_read, kNoStages},
    Row{NameFamily::vk_access, "SHADER_SAMPLED_READ", Access::shader_resource, kNoStages},
    Row{NameFamily::vk_access, "SHADER_STORAGE_READ", Access::shader_resource, kNoStages},
    Row{NameFamily::vk_access, "SHADER_READ", Access::shader_resource, kNoStages},
    Row{NameFamily::vk_access, "TRANSFER_READ", Access::copy_source, kNoStages},
    Row{NameFamily::vk_access, "UNIFORM_READ", Access::constant_buffer, kNoStages},
    Row{NameFamily::vk_access, "VERTEX_ATTRIBUTE_READ", Access::vertex_buffer, kNoStages},
    Row{NameFamily::vk_access, "INDEX_READ", Access::index_buffer, kNoStages},
    Row{NameFamily::vk_access, "INDIRECT_COMMAND_READ", Access::indirect_argument, kNoStages},
    Row{NameFamily::vk_access, "HOST_READ", Access::host_read, kNoStages},
};

// Whether `flag` is one of the '|'-separated flags of `name`.
bool has_flag(std::string_view name, std::string_view flag) {
  size_t start = 0;
  while (start <= name.size()) {
    size_t end = name.find('|', start);
    if (end == std::string_view::npos) end = name.size();
    if (name.substr(start, end - start) == flag) return true;
    start = end + 1;
  }
  return false;
}

std::string_view strip_queue(std::string_view n) {
  for (std::string_view p : {"DIRECT_QUEUE_", "COMPUTE_QUEUE_"})
    if (n.substr(0, p.size()) == p) return n.substr(p.size());
  return n;
}

}  // namespace

std::optional<AccessGuess> access_of(NameFamily family, std::string_view name) {
  if (family == NameFamily::d3d12_layout) name = strip_queue(name);
  // Both shader-resource states together: a read in every shading stage.
  if (family == NameFamily::d3d12_state && has_flag(name, "PIXEL_SHADER_RESOURCE") &&
      has_flag(name, "NON_PIXEL_SHADER_RESOURCE") && !name_writes(family, name))
    return AccessGuess{Access::shader_resource, kAllShading};
  if (family == NameFamily::d3d12_state && has_flag(name, "GENERIC_READ"))
    return AccessGuess{Access::shader_resource, kAllShading};
  for (const Row& r : kRows)
    if (r.family == family && has_flag(name, r.name)) return AccessGuess{r.access, r.stages};
  return std::nullopt;
}

bool name_writes(NameFamily family, std::string_view name) {
  if (family == NameFamily::d3d12_layout) name = strip_queue(name);
  for (const Row& r : kRows)
    if (r.family == family && is_write(r.access) && has_flag(name, r.name)) return true;
  return false;
}

Stages stages_of_vk(std::string_view n) {
  Stages s = kNoStages;
  if (has_flag(n, "FRAGMENT_SHADER")) s |= static_cast<Stages>(Stage::pixel);
  if (has_flag(n, "VERTEX_SHADER")) s |= static_cast<Stages>(Stage::vertex);
  if (has_flag(n, "COMPUTE_SHADER")) s |= static_cast<Stages>(Stage::compute);
  if (has_flag(n, "ALL_GRAPHICS") || has_flag(n, "ALL_COMMANDS")) s = kAllShading;
  return s;
}

}  // namespace baton::triage_detail
