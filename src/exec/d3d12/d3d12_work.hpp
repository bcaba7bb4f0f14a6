// How a recording's operations become D3D12 work on this path, and the CPU model of what every
// subresource then holds. Pure and API-free: the vkd3d recorder and the model read the same items,
// so they cannot disagree about what an operation does. What it shares with the Vulkan work model
// (work.hpp: the walk over operations, their names in errors, a use's subresources) is in work_common.hpp.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "baton/recording.hpp"

namespace baton::d3d12 {

// Buffers hold 1024 words (4096 bytes), seen by texture copies as a 64 x 16 footprint with a row
// pitch of 256 bytes (D3D12_TEXTURE_DATA_PITCH_ALIGNMENT).
inline constexpr uint32_t kBufferWords = 1024;
inline constexpr uint32_t kBufferRow = 64;
inline constexpr uint32_t kBufferRows = kBufferWords / kBufferRow;

// The executor's scaled-down shape of a resource. Textures keep their mip, layer and plane counts
// (barriers name subresource indices) but are at most 16 texels high and just wide enough for the
// mip count. Colour: R32_FLOAT; depth: D32_FLOAT; depth_stencil: D32_FLOAT_S8X24_UINT (2 planes).
struct Shape {
  bool buffer = true;
  uint32_t width = kBufferRow, height = kBufferRows, mips = 1, layers = 1, planes = 1;
  FormatClass format = FormatClass::color;
  uint32_t subresources() const { return mips * layers * planes; }
  uint32_t mip(uint32_t sub) const { return sub % mips; }
  uint32_t layer(uint32_t sub) const { return (sub / mips) % layers; }
  uint32_t plane(uint32_t sub) const { return sub / (mips * layers); }
  uint32_t w(uint32_t sub) const { return buffer ? kBufferRow : std::max(1u, width >> mip(sub)); }
  uint32_t h(uint32_t sub) const { return buffer ? kBufferRows : std::max(1u, height >> mip(sub)); }
  uint32_t texels(uint32_t sub) const { return w(sub) * h(sub); }
  bool depth() const { return !buffer && format != FormatClass::color; }
};
std::vector<Shape> make_shapes(const Recording& rec);

// What each resource must be created for (D3D12_RESOURCE_FLAGS), from its usage and its uses.
struct Needs {
  bool rtv = false, dsv = false, uav = false;
};
std::vector<Needs> resource_needs(const Recording& rec);

struct SubRef {
  ResourceId res = 0;
  uint32_t sub = 0;
  friend bool operator==(const SubRef&, const SubRef&) = default;
};

// A copy of the region both subresources share (buffers as 64 x 16), from another subresource or,
// with no source, from host data uploaded through an upload-heap buffer.
struct CopyItem {
  std::optional<SubRef> src;
  SubRef dst;
  uint32_t seed = 0;  // host data when there is no source
};
// A clear of a whole subresource to `value`: render-target view, depth-stencil view (depth
// value/65536, stencil value & 0xff), UAV clear (float for textures, uint for buffers), or a copy
// of an uploaded constant (a copy_dest clear of a buffer).
struct ClearItem {
  enum class How : uint8_t { rtv, dsv, uav, upload } how = How::rtv;
  SubRef dst;
  uint32_t value = 1;
};
using Item = std::variant<CopyItem, ClearItem>;

struct OpItems {
  uint32_t group = 0, list = 0, op = 0;
  std::vector<Item> items;  // empty for a present (headless: only its barriers run)
};
// Throws Error naming group, list, op and resource for what this path cannot run.
std::vector<OpItems> plan_items(const Recording& rec, const std::vector<Shape>& shapes);

// The bits a subresource holds for a clear value: R32_FLOAT of the value for colour, the depth
// value for depth planes, the value itself for buffers.
uint32_t clear_bits(const Shape& s, uint32_t sub, uint32_t value);
float depth_value(uint32_t value);
// Host data for uploads: word j of the data with this seed.
uint32_t host_word(uint32_t seed, uint32_t j);

// Per subresource, per texel: the expected bits, or -1 where the contents are undefined (never
// written, discarded, or copied from undefined texels); undefined texels are not compared.
class Model {
 public:
  explicit Model(const std::vector<Shape>& shapes);
  void apply(const Item& item);
  void discard(ResourceId r);                      // DiscardResource: contents undefined
  void fill(ResourceId r, uint32_t sub, uint32_t bits);  // a whole subresource written from outside
  const std::vector<int64_t>& at(ResourceId r, uint32_t sub) const { return data_.at(r).at(sub); }

 private:
  std::vector<int64_t>& ref(ResourceId r, uint32_t sub) { return data_.at(r).at(sub); }
  const std::vector<Shape>& shapes_;
  std::vector<std::vector<std::vector<int64_t>>> data_;  // resource, subresource, texel
};

}  // namespace baton::d3d12
