// Frame-graph descriptions from D3D12 resource descriptions: what the resource was created for
// decides which accesses Baton lets a pass declare on it (the planner's legality checks) and, for
// textures, the resting state.
#include <fmt/format.h>

#include "baton/runtime_d3d12.hpp"

namespace baton::runtime::d3d12 {
namespace {

struct FlagRow {
  D3D12_RESOURCE_FLAGS flag;
  AccessMask access;
};
constexpr FlagRow kFlagAccess[] = {
    {D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, bit(Access::render_target)},
    {D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL, bit(Access::depth_write) | bit(Access::depth_read)},
    {D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS, bit(Access::unordered_access)},
};
// Every resource may be copied from and to; buffers may be bound as any buffer kind.
constexpr AccessMask kAlways = bit(Access::copy_source) | bit(Access::copy_dest);
constexpr AccessMask kBufferBindings = bit(Access::vertex_buffer) | bit(Access::index_buffer) |
                                       bit(Access::constant_buffer) | bit(Access::indirect_argument);

FormatClass format_class(DXGI_FORMAT f) {
  switch (f) {
    case DXGI_FORMAT_D16_UNORM:
    case DXGI_FORMAT_D32_FLOAT:
      return FormatClass::depth;
    case DXGI_FORMAT_D24_UNORM_S8_UINT:
    case DXGI_FORMAT_D32_FLOAT_S8X24_UINT:
      return FormatClass::depth_stencil;
    default:
      return FormatClass::color;
  }
}

}  // namespace

ResourceDesc describe_resource(std::string name, const D3D12_RESOURCE_DESC& desc) {
  ResourceDesc d;
  d.name = std::move(name);
  switch (desc.Dimension) {
    case D3D12_RESOURCE_DIMENSION_BUFFER:
      d.type = ResourceType::buffer;
      d.size = desc.Width;
      d.usage = kAlways | kBufferBindings;
      break;
    case D3D12_RESOURCE_DIMENSION_TEXTURE1D:
    case D3D12_RESOURCE_DIMENSION_TEXTURE2D:
      d.type = ResourceType::texture;
      d.width = static_cast<uint32_t>(desc.Width);
      d.height = desc.Height;
      d.mips = desc.MipLevels;
      d.layers = desc.DepthOrArraySize;
      d.format = format_class(desc.Format);
      d.planes = d.format == FormatClass::depth_stencil ? 2 : 1;
      d.usage = kAlways;
      break;
    default:
      throw Error(fmt::format("resource '{}': D3D12_RESOURCE_DIMENSION {} is not supported (buffers, 1D and 2D textures)",
                              d.name, static_cast<int>(desc.Dimension)));
  }
  if (d.mips == 0) throw Error(fmt::format("resource '{}': MipLevels 0 (all mips) is not supported; give the count", d.name));
  for (const FlagRow& r : kFlagAccess)
    if (desc.Flags & r.flag) d.usage |= r.access;
  if (!(desc.Flags & D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE)) d.usage |= bit(Access::shader_resource);
  d.simultaneous_access = (desc.Flags & D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS) != 0;
  return d;
}

}  // namespace baton::runtime::d3d12
