#include "access_rules.hpp"

#include <fmt/format.h>

namespace baton::io {

std::optional<std::string> access_problem(const ResourceDesc& d, Access a) {
  const AccessMask b = bit(a);
  if (d.type == ResourceType::buffer && (b & kTextureOnlyAccesses))
    return fmt::format("access {} is for textures, but the resource is a buffer", to_string(a));
  if (d.type == ResourceType::texture && (b & kBufferOnlyAccesses))
    return fmt::format("access {} is for buffers, but the resource is a texture", to_string(a));
  if (d.type == ResourceType::texture) {
    const bool depth = d.format != FormatClass::color;
    if ((a == Access::depth_write || a == Access::depth_read) && !depth)
      return fmt::format("access {} needs a depth format, but the texture's format is color", to_string(a));
    if (a == Access::render_target && depth)
      return fmt::format("access render_target needs a color format, but the texture's format is {}",
                         to_string(d.format));
  }
  if (a == Access::present) {
    if (!d.swapchain) return std::string("access present needs a swapchain texture (\"swapchain\": true)");
    return std::nullopt;  // swap-chain images are created for presentation; no usage entry needed
  }
  // Both APIs need the creation flags/usage bits for every use (Vulkan usage, D3D12 ALLOW_* flags).
  if (d.usage != 0 && !(d.usage & b))
    return fmt::format("access {} is not in the resource's \"usage\"", to_string(a));
  return std::nullopt;
}

}  // namespace baton::io
