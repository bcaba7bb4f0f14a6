// Baton vocabulary: semantic accesses, the neutral barrier state, resource descriptions and
// subresource ranges. Every other layer speaks these types; nothing here knows an API.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace baton {

// Any error Baton reports about user input or API misuse. The message names the pass or list,
// operation, resource and subresource involved, so it can be printed as one line.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------------------------------------
// Queues and operation kinds (the vocabulary the access table and the rules catalog speak).
enum class Queue : uint8_t { direct, compute, copy };
std::string_view to_string(Queue q);
// transition: no work at all; its uses only name states the list moves resources into (the frame
// graph's graphics-queue transitions on behalf of an async compute or copy queue).
enum class OpKind : uint8_t { draw, dispatch, copy, clear, resolve, present, external, transition };
inline constexpr int kOpKindCount = 8;
std::string_view to_string(OpKind k);

// ---------------------------------------------------------------------------------------------
// Accesses: what an operation does with a subresource.
//
// The one table of facts about each access; every mask, name and predicate below derives from it.
// X(name, facts, sync scope, texture layout, op kinds that may perform it)
//   facts: write (read-write included), shader (performed by shaders: needs stages), buffer_only /
//   texture_only, depth_format / color_format (textures: the format it needs), on_compute / on_copy
//   (the D3D12 queue classes besides direct that may perform it; shader accesses on compute only in
//   the compute stage), no_usage (needs no creation "usage" entry: swap-chain images are created
//   for presentation). Sync of shader accesses: by stages (none here). Op kinds: besides these,
//   external and transition ops may perform any access.
#define BATON_ACCESSES(X)                                                                                    \
  X(render_target, F::write | F::texture_only | F::color_format, sync::render_target, Layout::render_target, \
    K::draw | K::clear)                                                                                      \
  X(depth_write, F::write | F::texture_only | F::depth_format, sync::depth_stencil, Layout::depth_write,     \
    K::draw | K::clear)                                                                                      \
  X(depth_read, F::texture_only | F::depth_format, sync::depth_stencil, Layout::depth_read, K::draw)         \
  X(shader_resource, F::shader | F::on_compute, sync::none, Layout::shader_resource, K::draw | K::dispatch)  \
  X(unordered_access, F::write | F::shader | F::on_compute, sync::none, Layout::unordered_access,            \
    K::draw | K::dispatch | K::clear)                                                                        \
  X(copy_source, F::on_compute | F::on_copy, sync::copy, Layout::copy_source, K::copy)                       \
  X(copy_dest, F::write | F::on_compute | F::on_copy, sync::copy, Layout::copy_dest, K::copy | K::clear)     \
  X(resolve_source, F::texture_only, sync::resolve, Layout::resolve_source, K::resolve)                      \
  X(resolve_dest, F::write | F::texture_only, sync::resolve, Layout::resolve_dest, K::resolve)               \
  X(vertex_buffer, F::buffer_only, sync::vertex_input, Layout::common, K::draw)                              \
  X(index_buffer, F::buffer_only, sync::index_input, Layout::common, K::draw)                                \
  X(constant_buffer, F::shader | F::buffer_only | F::on_compute, sync::none, Layout::common,                 \
    K::draw | K::dispatch)                                                                                   \
  X(indirect_argument, F::buffer_only | F::on_compute, sync::execute_indirect, Layout::common,               \
    K::draw | K::dispatch)                                                                                   \
  X(present, F::texture_only | F::no_usage, sync::all, Layout::present, K::present)                          \
  X(host_read, F::buffer_only | F::on_compute, sync::host, Layout::common, K::none)                          \
  X(host_write, F::write | F::buffer_only | F::on_compute, sync::host, Layout::common, K::none)

enum class Access : uint8_t {
#define BATON_X(name, facts, sync, layout, kinds) name,
  BATON_ACCESSES(BATON_X)
#undef BATON_X
};
inline constexpr int kAccessCount = 0
#define BATON_X(name, facts, sync, layout, kinds) +1
    BATON_ACCESSES(BATON_X)
#undef BATON_X
    ;

// A set of accesses (bit i = Access i).
using AccessMask = uint32_t;
constexpr AccessMask bit(Access a) { return AccessMask{1} << static_cast<unsigned>(a); }

// The facts column of the access table.
namespace access_facts {
enum : uint32_t {
  write = 1u << 0,
  shader = 1u << 1,
  buffer_only = 1u << 2,
  texture_only = 1u << 3,
  depth_format = 1u << 4,
  color_format = 1u << 5,
  on_compute = 1u << 6,
  on_copy = 1u << 7,
  no_usage = 1u << 8,
};
}  // namespace access_facts
// The op-kinds column: bit k = OpKind k.
using OpKindMask = uint8_t;
namespace op_kinds {
enum : OpKindMask {
  none = 0,
  draw = 1u << static_cast<unsigned>(OpKind::draw),
  dispatch = 1u << static_cast<unsigned>(OpKind::dispatch),
  copy = 1u << static_cast<unsigned>(OpKind::copy),
  clear = 1u << static_cast<unsigned>(OpKind::clear),
  resolve = 1u << static_cast<unsigned>(OpKind::resolve),
  present = 1u << static_cast<unsigned>(OpKind::present),
};
}  // namespace op_kinds

namespace core_detail {
namespace F = ::baton::access_facts;
namespace K = ::baton::op_kinds;
inline constexpr std::array<uint32_t, kAccessCount> kAccessFacts = {
#define BATON_X(name, facts, sync, layout, kinds) uint32_t{facts},
    BATON_ACCESSES(BATON_X)
#undef BATON_X
};
inline constexpr std::array<OpKindMask, kAccessCount> kAccessOpKinds = {
#define BATON_X(name, facts, sync, layout, kinds) OpKindMask{kinds},
    BATON_ACCESSES(BATON_X)
#undef BATON_X
};
// The accesses that have the fact.
constexpr AccessMask accesses_with(uint32_t fact) {
  AccessMask m = 0;
  for (int i = 0; i < kAccessCount; ++i)
    if (kAccessFacts[static_cast<size_t>(i)] & fact) m |= AccessMask{1} << static_cast<unsigned>(i);
  return m;
}
}  // namespace core_detail

// Whether the access has the fact (access_facts::write, ...).
constexpr bool has_fact(Access a, uint32_t fact) {
  return (core_detail::kAccessFacts[static_cast<size_t>(a)] & fact) != 0;
}

// Writes (including read-write accesses such as UAV and depth write).
inline constexpr AccessMask kWriteAccesses = core_detail::accesses_with(access_facts::write);
// Accesses that only make sense on buffers / only on textures.
inline constexpr AccessMask kBufferOnlyAccesses = core_detail::accesses_with(access_facts::buffer_only);
inline constexpr AccessMask kTextureOnlyAccesses = core_detail::accesses_with(access_facts::texture_only);
// Accesses performed by shaders (they need stages).
inline constexpr AccessMask kShaderAccesses = core_detail::accesses_with(access_facts::shader);

constexpr bool is_write(Access a) { return (kWriteAccesses & bit(a)) != 0; }

// The accesses an operation kind can perform (what the API commands behind it can touch): from the
// table's op-kinds column; external (work Baton does not see) and transition (no work, only states
// to be in) ops any access.
namespace core_detail {
constexpr AccessMask walk_op_kind_accesses(OpKind k) {
  if (k == OpKind::external || k == OpKind::transition) return ~AccessMask{0};
  AccessMask m = 0;
  for (int i = 0; i < kAccessCount; ++i)
    if (kAccessOpKinds[static_cast<size_t>(i)] & (1u << static_cast<unsigned>(k)))
      m |= AccessMask{1} << static_cast<unsigned>(i);
  return m;
}
// Per kind, walked once at compile time: the planner asks for every operation (issue 16).
inline constexpr std::array<AccessMask, kOpKindCount> kOpKindAccesses = [] {
  std::array<AccessMask, kOpKindCount> a{};
  for (int k = 0; k < kOpKindCount; ++k) a[static_cast<size_t>(k)] = walk_op_kind_accesses(static_cast<OpKind>(k));
  return a;
}();
}  // namespace core_detail
constexpr AccessMask op_kind_accesses(OpKind k) { return core_detail::kOpKindAccesses[static_cast<size_t>(k)]; }

std::string_view to_string(Access a);
std::optional<Access> parse_access(std::string_view s);

// Shader stages in which a shader access happens.
enum class Stage : uint8_t { vertex = 1, pixel = 2, compute = 4 };
using Stages = uint8_t;
inline constexpr Stages kNoStages = 0;
inline constexpr Stages kAllShading = 7;
constexpr Stages operator|(Stage a, Stage b) { return static_cast<Stages>(static_cast<uint8_t>(a) | static_cast<uint8_t>(b)); }
constexpr Stages stages(Stage s) { return static_cast<Stages>(s); }
std::optional<Stages> parse_stage(std::string_view s);  // "vertex", "pixel", "compute", "all_shading"
std::string stages_to_string(Stages s);
// Whether the access is performed by shaders and therefore needs stages.
constexpr bool is_shader_access(Access a) { return (kShaderAccesses & bit(a)) != 0; }
// Whether a list on this queue may perform the access in these stages (D3D12 queue classes:
// compute lists have no graphics accesses or vertex/pixel stages; copy lists only copy). From the
// table's on_compute / on_copy facts. Inline: the planner asks it for every use.
constexpr bool queue_allows(Queue q, Access a, Stages s) {
  switch (q) {
    case Queue::direct: return true;
    case Queue::copy: return has_fact(a, access_facts::on_copy);
    case Queue::compute:
      return has_fact(a, access_facts::on_compute) &&
             (!is_shader_access(a) || (s & static_cast<Stages>(Stage::vertex | Stage::pixel)) == 0);
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Neutral state, modelled on D3D12 enhanced barriers: sync scope, access set, layout.
namespace sync {
enum Bits : uint32_t {
  none = 0,
  vertex_input = 1u << 0,  // vertex buffer fetch
  index_input = 1u << 1,
  vertex_shading = 1u << 2,
  pixel_shading = 1u << 3,
  compute_shading = 1u << 4,
  depth_stencil = 1u << 5,
  render_target = 1u << 6,
  copy = 1u << 7,
  resolve = 1u << 8,
  execute_indirect = 1u << 9,
  host = 1u << 10,
  all = 1u << 11,  // every stage of every command (also used for present and "unknown earlier work")
};
}  // namespace sync
using SyncMask = uint32_t;
std::string sync_to_string(SyncMask s);

enum class Layout : uint8_t {
  none,  // buffers: no layout at all
  undefined,
  common,
  present,
  render_target,
  depth_write,
  depth_read,
  shader_resource,
  unordered_access,
  copy_source,
  copy_dest,
  resolve_source,
  resolve_dest,
  generic_read,  // several read accesses at once
  // Several read accesses held on the direct and compute queues at once (depth test on one, sampling on
  // the other); only the direct queue transitions into or out of it (D3D12 enhanced:
  // DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE). Never derived from accesses: a frame graph
  // declares it (EntryState::shared) for a read run spread over both queues.
  shared_read,
};
std::string_view to_string(Layout l);

// Special access bit for "whatever the previous group did" on buffers (their resting state).
inline constexpr AccessMask kAnyAccess = AccessMask{1} << 31;

struct State {
  SyncMask sync = sync::none;
  AccessMask access = 0;
  Layout layout = Layout::undefined;
  friend bool operator==(const State&, const State&) = default;
};
std::string to_string(const State& s);

// The sync scope of the given shader stages.
constexpr SyncMask shading_sync(Stages s) {
  SyncMask m = 0;
  if (s & static_cast<Stages>(Stage::vertex)) m |= sync::vertex_shading;
  if (s & static_cast<Stages>(Stage::pixel)) m |= sync::pixel_shading;
  if (s & static_cast<Stages>(Stage::compute)) m |= sync::compute_shading;
  return m;
}
namespace core_detail {
// The rows behind sync_of() and layout_of(): the compiler asks them several times per use, and a table
// lookup is cheaper than a switch. Indexed by Access.
inline constexpr std::array<SyncMask, kAccessCount> kSyncOfAccess = {
#define BATON_X(name, facts, sync, layout, kinds) SyncMask{sync},
    BATON_ACCESSES(BATON_X)
#undef BATON_X
};
inline constexpr std::array<SyncMask, 8> kShadingSync = {shading_sync(0), shading_sync(1), shading_sync(2),
                                                          shading_sync(3), shading_sync(4), shading_sync(5),
                                                          shading_sync(6), shading_sync(7)};
// Buffer-only accesses are never asked for on textures: common.
inline constexpr std::array<Layout, kAccessCount> kLayoutOfAccess = {
#define BATON_X(name, facts, sync, layout, kinds) layout,
    BATON_ACCESSES(BATON_X)
#undef BATON_X
};
}  // namespace core_detail

// The sync scope of one access performed in the given shader stages (no stages: every shading stage).
constexpr SyncMask sync_of(Access a, Stages st) {
  const auto i = static_cast<unsigned>(a);
  if (i >= kAccessCount) return sync::all;
  if (is_shader_access(a)) return core_detail::kShadingSync[(st == kNoStages ? kAllShading : st) & 7u];
  return core_detail::kSyncOfAccess[i];
}

// The single-access layout of an access on a texture (never asked for buffer-only accesses).
constexpr Layout layout_of(Access a) {
  const auto i = static_cast<unsigned>(a);
  return i < kAccessCount ? core_detail::kLayoutOfAccess[i] : Layout::common;
}

// The layout for a set of read accesses on a texture; present only ever stands alone.
constexpr Layout read_layout_of(AccessMask reads) {
  if (reads != 0 && (reads & (reads - 1)) == 0) return layout_of(static_cast<Access>(std::countr_zero(reads)));
  return Layout::generic_read;
}


// ---------------------------------------------------------------------------------------------
// Resources.
enum class ResourceType : uint8_t { buffer, texture };
enum class FormatClass : uint8_t { color, depth, depth_stencil };
std::string_view to_string(FormatClass f);

struct ResourceDesc {
  std::string name;
  ResourceType type = ResourceType::texture;
  uint64_t size = 0;  // buffers
  uint32_t width = 1, height = 1, mips = 1, layers = 1, planes = 1;
  FormatClass format = FormatClass::color;
  AccessMask usage = 0;  // creation usage (accesses the resource is created for)
  bool placed = false;   // placed or aliased: render-target/depth contents need an initializing discard
  bool simultaneous_access = false;
  bool swapchain = false;
  std::optional<Access> resting;  // override of the derived resting access
  // Every field: what decides whether a frame graph's member table can be reused (graph::transitions).
  friend bool operator==(const ResourceDesc&, const ResourceDesc&) = default;
};

// Resting access: the state a resource returns to at the end of every group that does not hand it
// on. Textures: swapchain -> present; depth formats -> depth_write; render target only ->
// render_target; UAV only -> unordered_access; sampled -> shader_resource; the per-resource override
// wins. Buffers have no resting layout (std::nullopt).
inline std::optional<Access> resting_access(const ResourceDesc& d) {
  if (d.type == ResourceType::buffer) return std::nullopt;
  if (d.resting) return d.resting;
  if (d.swapchain) return Access::present;
  if (d.format != FormatClass::color) return Access::depth_write;
  const AccessMask u = d.usage;
  if (u & bit(Access::shader_resource)) return Access::shader_resource;
  if (u & bit(Access::unordered_access)) return Access::unordered_access;
  if (u & bit(Access::render_target)) return Access::render_target;
  if (u & bit(Access::copy_dest)) return Access::copy_dest;
  if (u & bit(Access::copy_source)) return Access::copy_source;
  return Access::shader_resource;
}

// The neutral resting state (buffers: "any previous access" with every sync). Inline: the compiler
// asks it for every resource a group touches.
inline State resting_state(const ResourceDesc& d) {
  const std::optional<Access> a = resting_access(d);
  if (!a) return State{sync::all, kAnyAccess, Layout::none};
  return State{sync_of(*a, kAllShading), bit(*a), layout_of(*a)};
}

// State before the first-ever touch since creation or aliasing activation.
inline constexpr State kFirstTouch{sync::none, 0, Layout::undefined};
inline constexpr State kFirstTouchBuffer{sync::none, 0, Layout::none};

using ResourceId = uint32_t;
inline constexpr ResourceId kGlobalResource = 0xffffffffu;  // global (memory) barriers

// Resource descriptions by id, with an index of their names. A copy shares the descriptions and the
// index with the table it was copied from until either adds or reserves (copy on write): a frame graph's
// member table, built once per graph and thread and handed to every compile's result, is not copied per
// compile (graph::transitions). Reading is the same for a shared table and an own one.
class ResourceTable {
 public:
  ResourceTable() = default;
  ResourceTable(const ResourceTable& o) : rep_(o.rep_), all_(o.all_) {}
  ResourceTable(ResourceTable&& o) noexcept : rep_(std::move(o.rep_)), all_(o.all_) { o.all_ = &kNoResources; }
  ResourceTable& operator=(const ResourceTable& o) {
    rep_ = o.rep_;
    all_ = o.all_;
    return *this;
  }
  ResourceTable& operator=(ResourceTable&& o) noexcept {
    if (this != &o) {
      rep_ = std::move(o.rep_);
      all_ = o.all_;
      o.all_ = &kNoResources;
    }
    return *this;
  }

  // Adds a resource; throws Error on a duplicate name or an invalid description.
  ResourceId add(ResourceDesc d);
  const ResourceDesc& operator[](ResourceId id) const { return all_->at(id); }
  std::optional<ResourceId> find(std::string_view name) const;
  size_t size() const { return all_->size(); }
  const std::vector<ResourceDesc>& all() const { return *all_; }
  // Room for n resources, so that a table built in one go (a frame graph's) never rehashes.
  void reserve(size_t n);
  // Whether the two share their descriptions (one was copied from the other and neither changed since).
  bool shares_with(const ResourceTable& o) const { return rep_ != nullptr && rep_ == o.rep_; }

 private:
  // The names' index: open addressing over the ids, each slot keeping 32 bits of its name's hash,
  // so that neither adding nor finding allocates per name or copies it (the names live once, in
  // the descriptions), and growing the index never hashes a name again.
  struct IndexSlot {
    uint32_t hash = 0;
    uint32_t id = kEmptySlot;
  };
  static constexpr uint32_t kEmptySlot = 0xffffffffu;
  struct Rep {
    std::vector<ResourceDesc> resources;
    std::vector<IndexSlot> index;  // a power of two in size, at most half full
  };
  static uint32_t name_hash(std::string_view s);
  static const std::vector<ResourceDesc> kNoResources;
  std::optional<ResourceId> find_hashed(std::string_view name, uint32_t hash) const;
  void grow_index(Rep& r, size_t slots);
  Rep& own();  // this table's Rep, made or copied first when there is none or it is shared
  std::shared_ptr<Rep> rep_;  // null: empty
  // rep_'s descriptions, or kNoResources: reading costs one load more than a vector member, not a branch.
  const std::vector<ResourceDesc>* all_ = &kNoResources;
};

// ---------------------------------------------------------------------------------------------
// Subresource ranges: a box over mip x layer x plane. Count kAll means "to the end".
// A buffer use may also name bytes [byte_offset, byte_offset + byte_size) (byte_size kWholeBytes: the
// whole buffer, the default); bytes on a texture are an error (resolve).
inline constexpr uint32_t kAll = 0xffffffffu;
inline constexpr uint64_t kWholeBytes = ~uint64_t{0};
// Byte ranges are tracked on the mip axis of a buffer's box (see use_extent), so they end below 2^32.
inline constexpr uint64_t kMaxRangedBufferSize = 0xffffffffu;
struct SubresourceRange {
  uint32_t mip_first = 0, mip_count = kAll;
  uint32_t layer_first = 0, layer_count = kAll;
  uint32_t plane_first = 0, plane_count = kAll;
  uint64_t byte_offset = 0, byte_size = kWholeBytes;
  friend bool operator==(const SubresourceRange&, const SubresourceRange&) = default;
};

// Whether the range names bytes (a part of a buffer, or all of it spelled out).
constexpr bool has_bytes(const SubresourceRange& r) { return r.byte_size != kWholeBytes || r.byte_offset != 0; }

// Whether the range is the default one, "the whole resource" (the common case); cheaper than
// comparing with SubresourceRange{} field by field.
constexpr bool is_whole(const SubresourceRange& r) {
  return (r.mip_first | r.layer_first | r.plane_first | r.byte_offset) == 0 &&
         (r.mip_count & r.layer_count & r.plane_count) == kAll && r.byte_size == kWholeBytes;
}

// A resolved, non-empty box [begin, end) on each axis.
struct Box {
  uint32_t m0 = 0, m1 = 1, l0 = 0, l1 = 1, p0 = 0, p1 = 1;
  friend bool operator==(const Box&, const Box&) = default;
  bool empty() const { return m0 >= m1 || l0 >= l1 || p0 >= p1; }
  uint64_t volume() const { return uint64_t{m1 - m0} * (l1 - l0) * (p1 - p0); }
};
inline Box full_box(const ResourceDesc& d) { return Box{0, d.mips, 0, d.layers, 0, d.planes}; }
inline bool overlaps(const Box& a, const Box& b) {
  return a.m0 < b.m1 && b.m0 < a.m1 && a.l0 < b.l1 && b.l0 < a.l1 && a.p0 < b.p1 && b.p0 < a.p1;
}
inline Box intersect(const Box& a, const Box& b) {
  return Box{a.m0 > b.m0 ? a.m0 : b.m0, a.m1 < b.m1 ? a.m1 : b.m1, a.l0 > b.l0 ? a.l0 : b.l0,
             a.l1 < b.l1 ? a.l1 : b.l1, a.p0 > b.p0 ? a.p0 : b.p0, a.p1 < b.p1 ? a.p1 : b.p1};
}
inline bool contains(const Box& o, const Box& i) {
  return o.m0 <= i.m0 && i.m1 <= o.m1 && o.l0 <= i.l0 && i.l1 <= o.l1 && o.p0 <= i.p0 && i.p1 <= o.p1;
}
// Resolves a range against a resource; throws Error naming the resource when out of bounds (bytes
// too: past the buffer's size, size 0, or on a texture). A buffer has one subresource: its box is
// full_box(d) whatever bytes the range names.
Box resolve(const ResourceDesc& d, const SubresourceRange& r);
// The extent of a use for overlap: resolve(d, r) for a texture; for a buffer a box whose mip axis is
// its bytes (the whole buffer: [0, size), clamped to kMaxRangedBufferSize), so that disjoint byte
// ranges do not overlap and the whole buffer overlaps every range. Checks like resolve.
Box use_extent(const ResourceDesc& d, const SubresourceRange& r);
// The whole buffer as use_extent gives it.
inline Box buffer_extent(const ResourceDesc& d) {
  const uint64_t n = d.size == 0 ? 1 : d.size < kMaxRangedBufferSize ? d.size : kMaxRangedBufferSize;
  return Box{0, static_cast<uint32_t>(n), 0, 1, 0, 1};
}
// use_extent(d, r) without the call or its error plumbing, for a valid range: true and the extent in `out`;
// false when use_extent would throw (out of bounds, empty, bytes of a texture), and then use_extent names the
// problem. use_extent itself takes this path first: the one rule of what a range may name.
inline bool valid_extent(const ResourceDesc& d, const SubresourceRange& r, Box& out) {
  const auto axis = [](uint32_t first, uint32_t count, uint32_t total, uint32_t& b, uint32_t& e) {
    b = first;
    if (count == kAll) {
      e = total;
      return first < total;
    }
    e = first + count;
    return count != 0 && first < total && count <= total - first;
  };
  Box b;
  if (!axis(r.mip_first, r.mip_count, d.mips, b.m0, b.m1) || !axis(r.layer_first, r.layer_count, d.layers, b.l0, b.l1) ||
      !axis(r.plane_first, r.plane_count, d.planes, b.p0, b.p1))
    return false;
  if (d.type != ResourceType::buffer) {
    out = b;
    return !has_bytes(r);
  }
  if (!has_bytes(r)) {
    out = buffer_extent(d);
    return true;
  }
  if (r.byte_size == 0 || r.byte_offset >= d.size) return false;
  const uint64_t size = r.byte_size == kWholeBytes ? d.size - r.byte_offset : r.byte_size;
  if (size > d.size - r.byte_offset || r.byte_offset + size > kMaxRangedBufferSize) return false;
  out = Box{static_cast<uint32_t>(r.byte_offset), static_cast<uint32_t>(r.byte_offset + size), 0, 1, 0, 1};
  return true;
}
SubresourceRange to_range(const Box& b);
// "mips 0..3 layers 0 planes 0" style text; "all" for the whole resource.
std::string to_string(const Box& b, const ResourceDesc& d);
// A box from use_extent as text: a buffer's bytes ("bytes 512..767", "all"), else to_string.
std::string extent_text(const Box& b, const ResourceDesc& d);

}  // namespace baton
