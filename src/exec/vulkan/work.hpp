// How operations become work: one pure function from a recording to per-operation work items
// (dispatches, draw passes, copies, clears). The GPU recorder and the CPU reference model both
// interpret these items, so they cannot disagree about what an operation does. What this Vulkan work
// model shares with the D3D12 one (d3d12_work.hpp) is in work_common.hpp.
#pragma once

#include <array>
#include <compare>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

#include "baton/recording.hpp"
#include "shader_interface.hpp"

namespace baton::exec {

// One subresource in the executor's data model (a buffer has one: mip 0, layer 0, plane 0).
struct Sub {
  ResourceId res = 0;
  uint32_t mip = 0, layer = 0, plane = 0;
  auto operator<=>(const Sub&) const = default;
};

// The executor's scaled-down shape of a resource: buffers hold 64..256 uint32 words, textures at
// most 16 texels a side (more only where the mip count needs it). Colour textures are R32_UINT,
// depth D32_SFLOAT, depth_stencil D32_SFLOAT_S8_UINT (plane 0 depth, plane 1 stencil).
struct Geometry {
  bool buffer = true;
  uint32_t words = 0;       // buffers
  bool structural = false;  // buffers read as indices or indirect arguments (kStruct)
  uint32_t width = 1, height = 1, mips = 1, layers = 1, planes = 1;
  FormatClass format = FormatClass::color;
  uint32_t w(uint32_t mip) const { return std::max(1u, width >> mip); }
  uint32_t h(uint32_t mip) const { return std::max(1u, height >> mip); }
  uint32_t texels(const Sub& s) const { return buffer ? words : w(s.mip) * h(s.mip); }
  bool depth() const { return !buffer && format != FormatClass::color; }
};
// Declared sizes scaled down to at most max_side texels per side and 64..max_words words.
std::vector<Geometry> make_geometry(const Recording& rec, uint32_t max_side = 16, uint32_t max_words = 256);
// The same from resource descriptions alone (`structural`: per resource, used as index or indirect
// arguments; empty = none): a frame graph's members before it is compiled (real memory sizes for
// its one compile).
std::vector<Geometry> make_geometry(const std::vector<ResourceDesc>& resources, const std::vector<bool>& structural,
                                    uint32_t max_side = 16, uint32_t max_words = 256);

// Every subresource of a resource, in (plane, layer, mip) order.
std::vector<Sub> all_subs(ResourceId r, const Geometry& g);

// Per stage: the subresources bound to each descriptor category, slot by slot.
struct StageSet {
  std::array<std::vector<Sub>, kCategories> slots;
  // Read-modify-write bits (kRmwBufBit + k, kRmwTexBit + k), set by Model::prepare: an output reads
  // its old value only where the model has defined data for it, so a first write is not undefined.
  uint32_t rmw = 0;
  uint32_t counts() const;  // packed 4 bits per category, as in the push constants
  bool empty() const;
};

struct ComputeWork {
  StageSet set;
  bool write_only = false;  // clears: never read the old value
  std::optional<ResourceId> indirect;
  uint32_t seed = 0;
};

struct Attachment {
  Sub sub;  // plane 0 (colour or depth)
  bool load = true;
};

struct DrawPass {
  StageSet vs, fs;
  std::vector<Attachment> colors;
  std::optional<Attachment> depth;
  bool depth_write = false;
  bool stencil = false;  // depth_stencil texture: the stencil plane is attached too (loaded, kept)
  std::optional<ResourceId> vertex, index, indirect;
  // Further argument buffers (a frame-graph pass drawing from two culling phases' arguments): the
  // same draw again from each, in the same rendering pass with storage writes off, so it writes
  // the same colour and depth values and the outputs do not change.
  std::vector<ResourceId> more_indirect;
  bool storage_writes = false;  // only the first pass of an operation writes storage
  uint32_t seed = 0;
  uint32_t area_w = 16, area_h = 16;
};

struct CopyWork {
  Sub src, dst;
};

// A clear writes `value` (colour / buffer words), depth = depth_of(value), stencil = value & 0xff.
struct ClearWork {
  enum class How : uint8_t { transfer, attachment } how = How::transfer;
  Sub dst;                   // plane 0 for attachment clears of depth_stencil (both planes)
  bool both_planes = false;  // attachment clear of a depth_stencil texture
  uint32_t value = 0;
  // Buffers: the words [first, first + count) a fill of a byte range writes (count 0: the whole buffer).
  uint32_t first = 0, count = 0;
};

using Work = std::variant<ComputeWork, DrawPass, CopyWork, ClearWork>;

struct OpWork {
  uint32_t group = 0, list = 0, op = 0;
  std::vector<Work> items;
};

// The executor's words [first, end) of a buffer's declared bytes [offset, offset + size) (size
// kWholeBytes: to the end): the scaled-down buffer keeps the proportions, so disjoint byte ranges stay
// disjoint words. end == first when the range is too small to keep a word.
std::pair<uint32_t, uint32_t> scaled_words(const Geometry& g, const ResourceDesc& d, uint64_t offset, uint64_t size);

// Throws Error naming group, list, op and resource for a use the executor cannot turn into work.
std::vector<OpWork> plan_work(const Recording& rec, const std::vector<Geometry>& geo);

uint32_t op_seed(uint32_t group, uint32_t list, uint32_t op);
// Depth written for a hash: 16 bits of it as an exact fraction in [0, 1).
float depth_of(uint32_t h);
// Copy extents between a linear run of `words` and a w x h image: whole rows when they fit.
struct Extent2 {
  uint32_t w = 0, h = 0;
};
Extent2 linear_extent(uint32_t words, uint32_t w, uint32_t h);

}  // namespace baton::exec
