// Recording -> D3D12 work items, and the CPU model of their effect (d3d12_work.hpp).
#include "d3d12_work.hpp"

#include "work_common.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstring>

namespace baton::d3d12 {
namespace {

uint32_t mix(uint32_t h, uint32_t v) {
  h ^= v + 0x9e3779b9u + (h << 6) + (h >> 2);
  h *= 0x85ebca6bu;
  return h ^ (h >> 13);
}

// A clear value in 1..65536: exact as a float, and as a depth fraction value / 65536.
uint32_t clear_value(uint32_t seed, SubRef s) { return mix(mix(seed, s.res), s.sub) % 65536u + 1u; }

struct Where {
  const Recording& rec;
  uint32_t g, l, o;
  std::string text(ResourceId r) const {
    const CommandListGroup& group = *rec.groups[g];
    std::string s = exec_work::op_text(group, *group.lists()[l], o);
    if (r != kGlobalResource) s += fmt::format(" resource '{}'", rec.resources[r].name);
    return s;
  }
  [[noreturn]] void fail(ResourceId r, std::string_view why) const {
    throw Error(fmt::format("{}: {} (D3D12 executor)", text(r), why));
  }
};

std::vector<uint32_t> subs_of(const Recording& rec, const Use& u) {
  const ResourceDesc& d = rec.resources[u.resource];
  std::vector<uint32_t> out;
  exec_work::for_each_subresource(d, u, [&](uint32_t m, uint32_t l, uint32_t p) {
    out.push_back(m + l * d.mips + p * d.mips * d.layers);
  });
  return out;
}

void check_shape(const Recording& rec, ResourceId r) {
  const ResourceDesc& d = rec.resources[r];
  if (d.type == ResourceType::buffer) return;
  const uint32_t want = d.format == FormatClass::depth_stencil ? 2u : 1u;
  if (d.planes != want)
    throw Error(fmt::format("resource '{}': {} planes on a {} texture; the D3D12 executor maps colour and depth "
                            "formats to 1 plane and depth_stencil to 2 (D32_FLOAT_S8X24_UINT) (D3D12 executor)",
                            d.name, d.planes, to_string(d.format)));
  if (d.mips > 14)
    throw Error(fmt::format("resource '{}': {} mips is more than the executor's textures hold (D3D12 executor)",
                            d.name, d.mips));
}

void copy_items(const Where& w, const Recording& rec, const std::vector<Shape>& shapes, const Operation& op,
                uint32_t seed, std::vector<Item>& out) {
  std::vector<SubRef> src, dst;
  for (const Use& u : op.uses) {
    if (u.access != Access::copy_source && u.access != Access::copy_dest)
      w.fail(u.resource, fmt::format("access {} in a copy: only copy_source and copy_dest can run", to_string(u.access)));
    for (uint32_t s : subs_of(rec, u)) (u.access == Access::copy_source ? src : dst).push_back(SubRef{u.resource, s});
  }
  for (size_t i = 0; i < dst.size(); ++i) {
    CopyItem c;
    c.dst = dst[i];
    c.seed = mix(seed, static_cast<uint32_t>(i));
    const Shape& ds = shapes[c.dst.res];
    if (ds.depth()) w.fail(c.dst.res, "copies into depth textures are not supported by the D3D12 executor");
    if (!src.empty()) {
      c.src = src[i % src.size()];
      const Shape& ss = shapes[c.src->res];
      if (*c.src == c.dst) w.fail(c.dst.res, "copy source and destination are the same subresource");
      if (ss.depth() && !ds.buffer) w.fail(c.src->res, "a depth texture can only be copied into a buffer here");
      if (ss.depth() && ss.plane(c.src->sub) != 0) w.fail(c.src->res, "stencil-plane copies are not supported here");
    }
    out.push_back(c);
  }
}

void clear_items(const Where& w, const Recording& rec, const std::vector<Shape>& shapes, const Operation& op,
                 uint32_t seed, std::vector<Item>& out) {
  for (const Use& u : op.uses) {
    const Shape& s = shapes[u.resource];
    ClearItem::How how{};
    switch (u.access) {
      case Access::render_target:
        if (s.buffer || s.depth()) w.fail(u.resource, "render_target clear needs a colour texture");
        how = ClearItem::How::rtv;
        break;
      case Access::depth_write:
        if (!s.depth()) w.fail(u.resource, "depth_write clear needs a depth texture");
        how = ClearItem::How::dsv;
        break;
      case Access::unordered_access:
        if (s.depth()) w.fail(u.resource, "unordered_access clear of a depth texture");
        how = ClearItem::How::uav;
        break;
      case Access::copy_dest:
        if (s.depth()) w.fail(u.resource, "copy_dest clear of a depth texture (clear depth with depth_write)");
        how = ClearItem::How::upload;
        break;
      default:
        w.fail(u.resource, fmt::format("access {} in a clear: only render_target, depth_write, unordered_access and "
                                       "copy_dest clears can run",
                                       to_string(u.access)));
    }
    std::vector<uint32_t> subs = subs_of(rec, u);
    if (how == ClearItem::How::dsv) {
      // ClearDepthStencilView clears a mip/layer, both planes of depth_stencil at once.
      std::erase_if(subs, [&](uint32_t sub) { return s.plane(sub) != 0; });
    }
    for (uint32_t sub : subs) out.push_back(ClearItem{how, SubRef{u.resource, sub}, clear_value(seed, {u.resource, sub})});
  }
}

}  // namespace

std::vector<Shape> make_shapes(const Recording& rec) {
  std::vector<Shape> out;
  for (const ResourceDesc& d : rec.resources.all()) {
    Shape s;
    if (d.type == ResourceType::texture) {
      s.buffer = false;
      s.mips = d.mips;
      s.layers = d.layers;
      s.planes = d.planes;
      s.format = d.format;
      s.width = std::max(16u, 1u << (std::min(d.mips, 14u) - 1));
      s.height = 16;
    }
    out.push_back(s);
  }
  return out;
}

std::vector<Needs> resource_needs(const Recording& rec) {
  std::vector<Needs> out(rec.resources.size());
  auto note = [&](ResourceId r, Access a) {
    const ResourceDesc& d = rec.resources[r];
    if (d.type == ResourceType::texture && d.format != FormatClass::color) {
      out[r].dsv = true;  // depth textures are always created for depth-stencil use
      return;
    }
    if (a == Access::render_target) out[r].rtv = true;
    if (a == Access::unordered_access) out[r].uav = true;
  };
  for (size_t r = 0; r < rec.resources.size(); ++r) {
    const ResourceDesc& d = rec.resources[static_cast<ResourceId>(r)];
    for (int a = 0; a < kAccessCount; ++a)
      if (d.usage & bit(static_cast<Access>(a))) note(static_cast<ResourceId>(r), static_cast<Access>(a));
    if (d.type == ResourceType::texture && d.format != FormatClass::color) out[r].dsv = true;
  }
  rec.for_each_list([&](const CommandList& l) {
    for (const Operation& op : l.ops())
      for (const Use& u : op.uses) note(u.resource, u.access);
  });
  return out;
}

std::vector<OpItems> plan_items(const Recording& rec, const std::vector<Shape>& shapes) {
  for (size_t r = 0; r < rec.resources.size(); ++r) check_shape(rec, static_cast<ResourceId>(r));
  std::vector<OpItems> out;
  exec_work::for_each_op(rec, [&](const exec_work::OpAt& a) {
    const uint32_t g = a.group, l = a.list, o = a.op;
    const Where w{rec, g, l, o};
    const Operation& op = a.o;
    const ResourceId first = op.uses.empty() ? kGlobalResource : op.uses.front().resource;
    for (const Use& u : op.uses)
      if (u.access == Access::host_read || u.access == Access::host_write)
        w.fail(u.resource, "host accesses need upload/readback heaps; Baton's resources live in the default heap here");
    OpItems items{g, l, o, {}};
    const uint32_t seed = mix(mix(mix(0x5eedu, g), l), o);
    switch (op.kind) {
      case OpKind::draw:
      case OpKind::dispatch:
        w.fail(first, fmt::format("{}s need shaders, and vkd3d 1.2 here has no HLSL compiler (Baton ships no DXBC)",
                                  to_string(op.kind)));
      case OpKind::resolve:
        w.fail(first, "resolves need a multisampled source and ResourceDesc has no sample count");
      case OpKind::external: w.fail(first, "external operations are done by other renderers (ExternalRenderer)");
      case OpKind::transition: break;  // no work: only the barriers around it run
      case OpKind::present:
        for (const Use& u : op.uses)
          if (u.access != Access::present) w.fail(u.resource, "a present may only use present");
        break;  // headless: no swap chain; the barriers into PRESENT are what runs
      case OpKind::copy: copy_items(w, rec, shapes, op, seed, items.items); break;
      case OpKind::clear: clear_items(w, rec, shapes, op, seed, items.items); break;
    }
    out.push_back(std::move(items));
  });
  return out;
}

float depth_value(uint32_t value) { return static_cast<float>(value) / 65536.0f; }

uint32_t clear_bits(const Shape& s, uint32_t sub, uint32_t value) {
  if (s.buffer) return value;
  if (s.depth()) return s.plane(sub) == 0 ? std::bit_cast<uint32_t>(depth_value(value)) : (value & 0xffu);
  return std::bit_cast<uint32_t>(static_cast<float>(value));
}

uint32_t host_word(uint32_t seed, uint32_t j) { return mix(seed, j); }

Model::Model(const std::vector<Shape>& shapes) : shapes_(shapes) {
  for (const Shape& s : shapes) {
    auto& subs = data_.emplace_back();
    for (uint32_t i = 0; i < s.subresources(); ++i) subs.emplace_back(s.texels(i), int64_t{-1});
  }
}

void Model::apply(const Item& item) {
  if (const auto* c = std::get_if<ClearItem>(&item)) {
    const Shape& s = shapes_[c->dst.res];
    fill(c->dst.res, c->dst.sub, clear_bits(s, c->dst.sub, c->value));
    if (c->how == ClearItem::How::dsv && s.planes == 2) {
      // The stencil plane is cleared too, but the executor does not read stencil back: undefined.
      const uint32_t stencil = c->dst.sub + s.mips * s.layers;
      std::fill(ref(c->dst.res, stencil).begin(), ref(c->dst.res, stencil).end(), int64_t{-1});
    }
    return;
  }
  const auto& c = std::get<CopyItem>(item);
  const Shape& ds = shapes_[c.dst.res];
  std::vector<int64_t>& dst = ref(c.dst.res, c.dst.sub);
  const uint32_t dw = ds.w(c.dst.sub);
  const uint32_t sw = c.src ? shapes_[c.src->res].w(c.src->sub) : kBufferRow;
  const uint32_t sh = c.src ? shapes_[c.src->res].h(c.src->sub) : kBufferRows;
  const uint32_t rw = std::min(dw, sw), rh = std::min(ds.h(c.dst.sub), sh);
  const std::vector<int64_t> src = c.src ? at(c.src->res, c.src->sub) : std::vector<int64_t>{};
  for (uint32_t y = 0; y < rh; ++y)
    for (uint32_t x = 0; x < rw; ++x)
      dst[y * dw + x] = c.src ? src[y * sw + x] : int64_t{host_word(c.seed, y * kBufferRow + x)};
}

void Model::discard(ResourceId r) {
  for (auto& sub : data_.at(r)) std::fill(sub.begin(), sub.end(), int64_t{-1});
}

void Model::fill(ResourceId r, uint32_t sub, uint32_t bits) {
  auto& v = data_.at(r).at(sub);
  std::fill(v.begin(), v.end(), int64_t{bits});
}

}  // namespace baton::d3d12
