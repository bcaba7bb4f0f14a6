#include "baton/core.hpp"

#include "baton/rules.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

namespace baton {
namespace {

constexpr std::array<std::string_view, kAccessCount> kAccessNames = {
#define BATON_X(name, facts, sync, layout, kinds) #name,
    BATON_ACCESSES(BATON_X)
#undef BATON_X
};

struct SyncName {
  SyncMask bit;
  std::string_view name;
};
constexpr std::array<SyncName, 12> kSyncNames = {{{sync::vertex_input, "vertex_input"},
                                                   {sync::index_input, "index_input"},
                                                   {sync::vertex_shading, "vertex_shading"},
                                                   {sync::pixel_shading, "pixel_shading"},
                                                   {sync::compute_shading, "compute_shading"},
                                                   {sync::depth_stencil, "depth_stencil"},
                                                   {sync::render_target, "render_target"},
                                                   {sync::copy, "copy"},
                                                   {sync::resolve, "resolve"},
                                                   {sync::execute_indirect, "execute_indirect"},
                                                   {sync::host, "host"},
                                                   {sync::all, "all"}}};

constexpr std::array<std::string_view, 15> kLayoutNames = {
    "none",        "undefined",      "common",          "present",          "render_target",
    "depth_write", "depth_read",     "shader_resource", "unordered_access", "copy_source",
    "copy_dest",   "resolve_source", "resolve_dest",    "generic_read",     "shared_read"};

}  // namespace

std::string_view to_string(Queue q) {
  switch (q) {
    case Queue::direct: return "direct";
    case Queue::compute: return "compute";
    case Queue::copy: return "copy";
  }
  return "?";
}

std::string_view to_string(OpKind k) {
  switch (k) {
    case OpKind::draw: return "draw";
    case OpKind::dispatch: return "dispatch";
    case OpKind::copy: return "copy";
    case OpKind::clear: return "clear";
    case OpKind::resolve: return "resolve";
    case OpKind::present: return "present";
    case OpKind::external: return "external";
    case OpKind::transition: return "transition";
  }
  return "?";
}

std::string_view to_string(Access a) { return kAccessNames[static_cast<size_t>(a)]; }

std::optional<Access> parse_access(std::string_view s) {
  for (size_t i = 0; i < kAccessNames.size(); ++i)
    if (kAccessNames[i] == s) return static_cast<Access>(i);
  return std::nullopt;
}

std::optional<Stages> parse_stage(std::string_view s) {
  if (s == "vertex") return stages(Stage::vertex);
  if (s == "pixel") return stages(Stage::pixel);
  if (s == "compute") return stages(Stage::compute);
  if (s == "all_shading") return kAllShading;
  return std::nullopt;
}

std::string stages_to_string(Stages s) {
  if (s == kAllShading) return "all_shading";
  std::string out;
  auto add = [&](Stage st, std::string_view n) {
    if (s & static_cast<Stages>(st)) {
      if (!out.empty()) out += ',';
      out += n;
    }
  };
  add(Stage::vertex, "vertex");
  add(Stage::pixel, "pixel");
  add(Stage::compute, "compute");
  return out;
}

std::string sync_to_string(SyncMask s) {
  if (s == sync::none) return "none";
  std::string out;
  for (const SyncName& n : kSyncNames) {
    if (s & n.bit) {
      if (!out.empty()) out += '|';
      out += n.name;
    }
  }
  return out;
}

std::string_view to_string(Layout l) { return kLayoutNames[static_cast<size_t>(l)]; }

std::string to_string(const State& s) {
  if (s == kFirstTouch || s == kFirstTouchBuffer) return "untouched";
  std::string acc;
  if (s.access & kAnyAccess) {
    acc = "any";
  } else if (s.access == 0) {
    acc = "no_access";
  } else {
    for (int i = 0; i < kAccessCount; ++i) {
      if (s.access & bit(static_cast<Access>(i))) {
        if (!acc.empty()) acc += '|';
        acc += to_string(static_cast<Access>(i));
      }
    }
  }
  std::string out = acc;
  // The layout is shown only when it is not the namesake of the single access.
  const bool namesake = s.layout == Layout::none ||
                        (std::has_single_bit(s.access) && !(s.access & kAnyAccess) &&
                         to_string(s.layout) == acc);
  if (!namesake) out = fmt::format("{}:{}", to_string(s.layout), acc);
  return fmt::format("{}@{}", out, sync_to_string(s.sync));
}




std::string_view to_string(FormatClass f) {
  switch (f) {
    case FormatClass::color: return "color";
    case FormatClass::depth: return "depth";
    case FormatClass::depth_stencil: return "depth_stencil";
  }
  return "?";
}

ResourceId ResourceTable::add(ResourceDesc d) {
  if (d.name.empty()) throw Error("resource with an empty name");
  const uint32_t h = name_hash(d.name);
  if (find_hashed(d.name, h)) throw Error(fmt::format("resource '{}' declared twice", d.name));
  // The declaration rules of the catalog (baton/rules.hpp), for programmatic tables as for loaded ones.
  if (const std::optional<Violation> v = check_resource(d, false))
    throw Error(fmt::format("resource '{}': {}", d.name, v->message));
  if (size() >= kGlobalResource - 1) throw Error("too many resources");
  Rep& r = own();
  const auto id = static_cast<ResourceId>(r.resources.size());
  if ((r.resources.size() + 1) * 2 > r.index.size()) grow_index(r, std::max<size_t>(16, r.index.size() * 2));
  const size_t mask = r.index.size() - 1;
  size_t i = h & mask;
  while (r.index[i].id != kEmptySlot) i = (i + 1) & mask;
  r.index[i] = {h, id};
  r.resources.push_back(std::move(d));
  return id;
}

std::optional<ResourceId> ResourceTable::find(std::string_view name) const { return find_hashed(name, name_hash(name)); }

std::optional<ResourceId> ResourceTable::find_hashed(std::string_view name, uint32_t h) const {
  if (!rep_ || rep_->index.empty()) return std::nullopt;
  const std::vector<IndexSlot>& index = rep_->index;
  const size_t mask = index.size() - 1;
  for (size_t i = h & mask; index[i].id != kEmptySlot; i = (i + 1) & mask)
    if (index[i].hash == h && rep_->resources[index[i].id].name == name) return index[i].id;
  return std::nullopt;
}

void ResourceTable::reserve(size_t n) {
  Rep& r = own();
  r.resources.reserve(n);
  size_t slots = 16;
  while (slots < n * 2) slots *= 2;
  if (slots > r.index.size()) grow_index(r, slots);
}

ResourceTable::Rep& ResourceTable::own() {
  if (!rep_)
    rep_ = std::make_shared<Rep>();
  else if (rep_.use_count() > 1)  // shared with a copy: this table's change must not show in the other
    rep_ = std::make_shared<Rep>(*rep_);
  all_ = &rep_->resources;
  return *rep_;
}

const std::vector<ResourceDesc> ResourceTable::kNoResources;

uint32_t ResourceTable::name_hash(std::string_view s) {
  return static_cast<uint32_t>(std::hash<std::string_view>{}(s));
}

void ResourceTable::grow_index(Rep& r, size_t slots) {
  std::vector<IndexSlot> old = std::move(r.index);
  r.index.assign(slots, IndexSlot{});
  const size_t mask = slots - 1;
  for (const IndexSlot& e : old) {
    if (e.id == kEmptySlot) continue;
    size_t i = e.hash & mask;
    while (r.index[i].id != kEmptySlot) i = (i + 1) & mask;
    r.index[i] = e;
  }
}

namespace {
void resolve_axis(const ResourceDesc& d, std::string_view axis, uint32_t first, uint32_t count, uint32_t total,
                  uint32_t& b, uint32_t& e) {
  if (count == kAll) {
    if (first >= total)
      throw Error(fmt::format("resource '{}': {} range starts at {} but it has {} [{}]", d.name, axis, first, total,
                              rule_info(Rule::range_out_of_bounds).id));
    b = first;
    e = total;
    return;
  }
  if (count == 0)
    throw Error(fmt::format("resource '{}': empty {} range [{}]", d.name, axis, rule_info(Rule::range_out_of_bounds).id));
  if (first >= total || count > total - first)
    throw Error(fmt::format("resource '{}': {} range [{}, {}) is out of bounds (it has {}) [{}]", d.name, axis, first,
                            uint64_t{first} + count, total, rule_info(Rule::range_out_of_bounds).id));
  b = first;
  e = first + count;
}
}  // namespace

namespace {
// The bytes a range names, checked against the buffer; [0, 0) when it names none.
std::pair<uint64_t, uint64_t> resolve_bytes(const ResourceDesc& d, const SubresourceRange& r) {
  if (!has_bytes(r)) return {0, 0};
  if (d.type != ResourceType::buffer)
    throw Error(fmt::format("resource '{}': bytes apply only to buffers (it is a texture)", d.name));
  if (r.byte_size == 0) throw Error(fmt::format("resource '{}': empty byte range (size 0)", d.name));
  const uint64_t size = r.byte_size == kWholeBytes ? d.size - std::min(d.size, r.byte_offset) : r.byte_size;
  if (r.byte_offset >= d.size || size > d.size - r.byte_offset)
    throw Error(fmt::format("resource '{}': bytes [{}, {}) are out of bounds (it has {} bytes)", d.name,
                            r.byte_offset, r.byte_size == kWholeBytes ? d.size : r.byte_offset + r.byte_size,
                            d.size));
  if (r.byte_offset + size > kMaxRangedBufferSize)
    throw Error(fmt::format("resource '{}': bytes [{}, {}) end past {}, the largest offset a byte range may use",
                            d.name, r.byte_offset, r.byte_offset + size, kMaxRangedBufferSize));
  return {r.byte_offset, r.byte_offset + size};
}
}  // namespace

Box use_extent(const ResourceDesc& d, const SubresourceRange& r) {
  if (Box b; valid_extent(d, r, b)) return b;
  // Invalid (or a resource without subresources, which resolve() takes whole): the checks below throw the
  // error naming the problem.
  if (d.type != ResourceType::buffer) return resolve(d, r);
  if (!has_bytes(r)) {
    (void)resolve(d, r);
    return buffer_extent(d);
  }
  (void)resolve(d, r);
  const auto [b, e] = resolve_bytes(d, r);
  return Box{static_cast<uint32_t>(b), static_cast<uint32_t>(e), 0, 1, 0, 1};
}

Box resolve(const ResourceDesc& d, const SubresourceRange& r) {
  if (is_whole(r)) return full_box(d);  // the common case: the whole resource
  (void)resolve_bytes(d, r);
  Box b;
  resolve_axis(d, "mip", r.mip_first, r.mip_count, d.mips, b.m0, b.m1);
  resolve_axis(d, "layer", r.layer_first, r.layer_count, d.layers, b.l0, b.l1);
  resolve_axis(d, "plane", r.plane_first, r.plane_count, d.planes, b.p0, b.p1);
  return b;
}

SubresourceRange to_range(const Box& b) {
  return SubresourceRange{b.m0, b.m1 - b.m0, b.l0, b.l1 - b.l0, b.p0, b.p1 - b.p0};
}

std::string to_string(const Box& b, const ResourceDesc& d) {
  if (b == full_box(d)) return "all";
  std::string out;
  auto axis = [&](std::string_view n, uint32_t x0, uint32_t x1, uint32_t total) {
    if (x0 == 0 && x1 == total) return;
    if (!out.empty()) out += ' ';
    if (x1 == x0 + 1)
      out += fmt::format("{} {}", n, x0);
    else
      out += fmt::format("{} {}..{}", n, x0, x1 - 1);
  };
  axis("mip", b.m0, b.m1, d.mips);
  axis("layer", b.l0, b.l1, d.layers);
  axis("plane", b.p0, b.p1, d.planes);
  return out;
}

std::string extent_text(const Box& b, const ResourceDesc& d) {
  if (d.type != ResourceType::buffer) return to_string(b, d);
  return b == buffer_extent(d) ? std::string("all") : fmt::format("bytes {}..{}", b.m0, b.m1 - 1);
}

}  // namespace baton
