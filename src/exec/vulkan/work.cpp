#include "work.hpp"

#include "work_common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>

namespace baton::exec {
namespace {

constexpr uint32_t kMinWords = 64;
constexpr uint32_t kMaxColors = 4;
constexpr uint32_t kDefaultArea = 16;

constexpr AccessMask kStructuralAccesses = bit(Access::index_buffer) | bit(Access::indirect_argument);

uint32_t scaled_side(uint32_t side, uint32_t max_side) {
  return std::min(side, std::max(1u, max_side));
}

// Where an operation is, for error messages.
struct OpWhere {
  const Recording& rec;
  const CommandListGroup& group;
  const CommandList& list;
  uint32_t op;
  [[noreturn]] void fail(const Use* u, std::string_view why) const {
    std::string what = exec_work::op_text(group, list, op);
    if (u) {
      const std::string_view name =
          u->resource < rec.resources.size() ? std::string_view(rec.resources[u->resource].name) : "?";
      what += fmt::format(" resource '{}' {}", name, to_string(u->access));
      if (is_shader_access(u->access) && u->stages != kNoStages) what += "@" + stages_to_string(u->stages);
    }
    throw Error(fmt::format("executor: {}: {}", what, why));
  }
};

std::vector<Sub> subs_of(const Use& u, const ResourceDesc& d) {
  std::vector<Sub> out;
  exec_work::for_each_subresource(d, u, [&](uint32_t m, uint32_t l, uint32_t p) { out.push_back(Sub{u.resource, m, l, p}); });
  return out;
}

// Subresources of (mip, layer) pairs, plane 0 only, for attachments.
std::vector<Sub> planes0(const std::vector<Sub>& subs) {
  std::vector<Sub> out;
  for (const Sub& s : subs)
    if (s.plane == 0) out.push_back(s);
  return out;
}

Stages effective_stages(const Use& u) {
  return u.stages == kNoStages ? kAllShading : u.stages;
}
bool has(Stages s, Stage st) {
  return (s & static_cast<Stages>(st)) != 0;
}

bool is_storage(Category c) {
  return c == uav_buf || c == uav_tex;
}

// How many bindings of one kind a stage set may collect before they are spread (see spread()):
// dispatches spread every kind, draws only reads; the rest is an error.
enum class Spread : uint8_t { nothing, reads, everything };

void add_slot(const OpWhere& at, const Use& u, StageSet& set, Category c, const Sub& s, Spread spread) {
  const bool unbounded = spread == Spread::everything || (spread == Spread::reads && !is_storage(c));
  if (!unbounded && set.slots[c].size() >= kSlots)
    at.fail(&u, fmt::format("more than {} bindings of one kind in one shader stage", kSlots));
  set.slots[c].push_back(s);
}

// Slice i of a stage set that collected more than kSlots bindings of a kind (a frame graph's UAV
// over 10 mips, a read of 64 layers): storage slots that overflow are cut into consecutive,
// disjoint slices; storage slots that fit stay in every slice (each slice mixes its reads into
// them, so every read stays observable), and the executor orders the slices' writes with a
// barrier of its own on that storage (Runner::order_slices); read slots wrap around, so that with
// enough slices every subresource is read by one of them.
StageSet slice(const StageSet& all, size_t i) {
  StageSet out = all;
  for (uint32_t c = 0; c < kCategories; ++c) {
    const std::vector<Sub>& v = all.slots[c];
    if (v.size() <= kSlots) continue;
    std::vector<Sub>& o = out.slots[c];
    o.clear();
    for (size_t k = 0; k < kSlots; ++k) {
      const size_t j = i * kSlots + k;
      if (is_storage(static_cast<Category>(c)) && j >= v.size()) break;
      o.push_back(v[j % v.size()]);
    }
  }
  return out;
}
// How many slices cover every binding of a stage set.
size_t slices(const StageSet& all, bool storage_too) {
  size_t n = 1;
  for (uint32_t c = 0; c < kCategories; ++c)
    if (storage_too || !is_storage(static_cast<Category>(c)))
      n = std::max(n, (all.slots[c].size() + kSlots - 1) / kSlots);
  return n;
}

// Binds a shader access (shader_resource, unordered_access, constant_buffer) into a stage set.
// `write` says whether this stage performs the storage writes of an unordered access.
void bind_shader_use(const OpWhere& at, const Use& u, const Geometry& g, StageSet& set, bool write,
                     Spread spread = Spread::nothing) {
  const ResourceDesc& d = at.rec.resources[u.resource];
  for (const Sub& s : subs_of(u, d)) {
    switch (u.access) {
      case Access::shader_resource:
        if (g.buffer)
          add_slot(at, u, set, srv_buf, s, spread);
        else if (g.depth()) {
          // The stencil plane of a depth_stencil texture is not sampled (the view has the depth
          // aspect only), so a missing barrier on that plane alone cannot be seen here.
          if (s.plane == 0) add_slot(at, u, set, srv_depth, s, spread);
        } else
          add_slot(at, u, set, srv_tex, s, spread);
        break;
      case Access::constant_buffer:
        add_slot(at, u, set, cbuf, s, spread);
        break;
      case Access::unordered_access:
        if (g.depth()) at.fail(&u, "unordered access to a depth format is not possible in Vulkan");
        if (write) add_slot(at, u, set, g.buffer ? uav_buf : uav_tex, s, spread);
        break;
      default:
        at.fail(&u, "not a shader access");
    }
  }
}

// Merged commands repeat identical uses (same resource, access and range): one use, stages joined.
Operation dedupe(const Operation& in) {
  Operation op = in;
  std::vector<Use> uses;
  for (const Use& u : in.uses) {
    auto same = std::find_if(uses.begin(), uses.end(), [&](const Use& v) {
      return v.resource == u.resource && v.access == u.access && v.range == u.range;
    });
    if (same == uses.end())
      uses.push_back(u);
    else
      same->stages = static_cast<Stages>(same->stages | u.stages);
  }
  op.uses = std::move(uses);
  return op;
}

void check_no_write_overlap(const OpWhere& at, const Operation& op) {
  for (size_t i = 0; i < op.uses.size(); ++i)
    for (size_t j = 0; j < op.uses.size(); ++j) {
      const Use& a = op.uses[i];
      const Use& b = op.uses[j];
      if (i == j || a.resource != b.resource || !is_write(a.access)) continue;
      const ResourceDesc& d = at.rec.resources[a.resource];
      if (overlaps(use_extent(d, a.range), use_extent(d, b.range)))
        at.fail(&a, "a write overlaps another use of the same subresource in one operation");
    }
}

void plan_dispatch(const OpWhere& at, const Operation& op, const std::vector<Geometry>& geo, OpWork& out,
                   uint32_t seed) {
  ComputeWork w;
  w.seed = seed;
  for (const Use& u : op.uses) {
    if (u.access == Access::indirect_argument) {
      if (w.indirect) at.fail(&u, "more than one indirect argument buffer");
      w.indirect = u.resource;
      continue;
    }
    if (!is_shader_access(u.access))
      at.fail(&u, "a dispatch performs only shader accesses and indirect reads");
    if (!has(effective_stages(u), Stage::compute)) at.fail(&u, "a dispatch runs only the compute stage");
    bind_shader_use(at, u, geo[u.resource], w.set, true, Spread::everything);
  }
  // More than kSlots bindings of a kind: several dispatches, one per slice (work items of one
  // operation, no barrier between them: their writes are disjoint, their reads unchanged).
  const size_t n = slices(w.set, true);
  for (size_t i = 0; i < n; ++i) {
    ComputeWork part = w;
    part.set = slice(w.set, i);
    part.seed = i == 0 ? seed : bmix(seed, static_cast<uint32_t>(0x300u + i));
    out.items.emplace_back(std::move(part));
  }
}

void plan_draw(const OpWhere& at, const Operation& op, const std::vector<Geometry>& geo, OpWork& out,
               uint32_t seed) {
  DrawPass base;
  std::vector<std::vector<Sub>> colors;
  std::vector<Sub> depth;
  const Use* depth_use = nullptr;
  for (const Use& u : op.uses) {
    const Geometry& g = geo[u.resource];
    const ResourceDesc& d = at.rec.resources[u.resource];
    switch (u.access) {
      case Access::render_target:
        if (g.depth() || g.buffer) at.fail(&u, "a render target must be a colour texture");
        colors.push_back(subs_of(u, d));
        break;
      case Access::depth_write:
      case Access::depth_read: {
        if (!g.depth()) at.fail(&u, "a depth access needs a depth texture");
        if (depth_use) at.fail(&u, "more than one depth use in one draw");
        depth_use = &u;
        const Box b = resolve(d, u.range);
        if (g.planes == 2 && !(b.p0 == 0 && b.p1 == 2))
          at.fail(&u, "a depth attachment of a depth_stencil texture must cover both planes");
        depth = planes0(subs_of(u, d));
        base.depth_write = u.access == Access::depth_write;
        base.stencil = g.planes == 2;
        break;
      }
      case Access::vertex_buffer:
        if (base.vertex) at.fail(&u, "more than one vertex buffer");
        base.vertex = u.resource;
        break;
      case Access::index_buffer:
        if (base.index) at.fail(&u, "more than one index buffer");
        base.index = u.resource;
        break;
      case Access::indirect_argument:
        if (base.indirect)
          base.more_indirect.push_back(u.resource);
        else
          base.indirect = u.resource;
        break;
      case Access::shader_resource:
      case Access::constant_buffer:
      case Access::unordered_access: {
        const Stages s = effective_stages(u);
        if (!has(s, Stage::vertex) && !has(s, Stage::pixel))
          at.fail(&u, "a draw runs only vertex and pixel stages");
        // Unordered access is written in the last stage that declares it, read-only elsewhere.
        if (has(s, Stage::vertex)) bind_shader_use(at, u, g, base.vs, !has(s, Stage::pixel), Spread::reads);
        if (has(s, Stage::pixel)) bind_shader_use(at, u, g, base.fs, true, Spread::reads);
        break;
      }
      default:
        at.fail(&u, "a draw cannot perform this access");
    }
  }
  size_t passes = std::max<size_t>(1, depth.size());
  for (const auto& c : colors) passes = std::max(passes, c.size());
  // Reads beyond kSlots of a kind are spread over the passes (one per attachment subresource);
  // with fewer passes than slices, the rest is not bound (docs/executor.md). Extra passes would
  // render into the same attachments twice without a barrier.
  for (size_t p = 0; p < passes; ++p) {
    DrawPass pass = base;
    pass.vs = slice(base.vs, p);
    pass.fs = slice(base.fs, p);
    pass.seed = bmix(seed, static_cast<uint32_t>(p));
    pass.storage_writes = p == 0;
    pass.area_w = pass.area_h = UINT32_MAX;
    auto fit = [&](const Sub& s) {
      pass.area_w = std::min(pass.area_w, geo[s.res].w(s.mip));
      pass.area_h = std::min(pass.area_h, geo[s.res].h(s.mip));
    };
    for (const auto& c : colors)
      if (p < c.size()) {
        pass.colors.push_back(Attachment{c[p], true});
        fit(c[p]);
      }
    if (p < depth.size()) {
      pass.depth = Attachment{depth[p], true};
      fit(depth[p]);
    } else {
      pass.depth.reset();
    }
    if (pass.colors.size() > kMaxColors)
      at.fail(nullptr, fmt::format("more than {} render targets in one pass", kMaxColors));
    if (pass.colors.empty() && !pass.depth) pass.area_w = pass.area_h = kDefaultArea;
    // An attachment is loaded only when some of its texels may keep their old value: the render
    // area is smaller than it, or the depth test can fail (depth_read).
    const bool test_can_fail = pass.depth && !pass.depth_write;
    auto covers = [&](const Sub& s) {
      return geo[s.res].w(s.mip) == pass.area_w && geo[s.res].h(s.mip) == pass.area_h;
    };
    for (Attachment& a : pass.colors) a.load = test_can_fail || !covers(a.sub);
    if (pass.depth) pass.depth->load = !pass.depth_write || !covers(pass.depth->sub);
    if (!pass.depth) pass.stencil = false;
    out.items.emplace_back(std::move(pass));
  }
}

bool copy_compatible(const Geometry& src, const Sub& s, const Geometry& dst, const Sub& d) {
  if (src.depth() && s.plane != 0) return false;  // stencil copies are not modelled
  if (dst.depth() && d.plane != 0) return false;
  if (dst.depth()) return src.depth() && src.format == dst.format;  // arbitrary bits are not depth values
  if (src.depth()) return dst.buffer;
  return true;
}

// A fill of a buffer's byte range (a clear or a copy without a source): the words it writes. Other uses
// of byte ranges are not modelled (a shader or copy would touch the whole scaled buffer).
ClearWork fill_of(const OpWhere& at, const Use& u, const Geometry& g, const Sub& dst, uint32_t value) {
  ClearWork w{ClearWork::How::transfer, dst, false, value};
  if (!g.buffer || !has_bytes(u.range)) return w;
  if (g.structural) at.fail(&u, "byte ranges of index or indirect-argument buffers are not modelled");
  const auto [first, end] = scaled_words(g, at.rec.resources[u.resource], u.range.byte_offset, u.range.byte_size);
  if (end == first) at.fail(&u, "the byte range is smaller than a word of the executor's scaled-down buffer");
  w.first = first;
  w.count = end - first;
  return w;
}

// Byte ranges on a use the executor performs on the whole buffer.
void whole_only(const OpWhere& at, const Use& u) {
  if (has_bytes(u.range))
    at.fail(&u, "byte ranges are modelled only on fills (a clear or a copy without a source): other work reads or writes the whole scaled-down buffer");
}

void plan_copy(const OpWhere& at, const Operation& op, const std::vector<Geometry>& geo, OpWork& out,
               uint32_t seed) {
  std::vector<Sub> sources;
  std::vector<std::pair<const Use*, Sub>> dests;
  for (const Use& u : op.uses) {
    const ResourceDesc& d = at.rec.resources[u.resource];
    if (u.access == Access::copy_source) {
      whole_only(at, u);
      for (const Sub& s : subs_of(u, d)) sources.push_back(s);
    } else if (u.access == Access::copy_dest) {
      for (const Sub& s : subs_of(u, d)) dests.emplace_back(&u, s);
    } else {
      at.fail(&u, "a copy performs only copy_source and copy_dest");
    }
  }
  uint32_t k = 0;
  for (const auto& [u, dst] : dests) {
    if (sources.empty()) {  // a copy with no source fills its destination
      if (geo[dst.res].depth() && dst.plane != 0) at.fail(u, "fills of a stencil plane are not modelled");
      out.items.emplace_back(fill_of(at, *u, geo[dst.res], dst, bmix(seed, 0x200u + k++)));
      continue;
    }
    whole_only(at, *u);
    const Sub src = sources[k++ % sources.size()];
    if (!copy_compatible(geo[src.res], src, geo[dst.res], dst))
      at.fail(u, fmt::format("cannot copy from '{}' (formats or planes do not match)",
                             at.rec.resources[src.res].name));
    out.items.emplace_back(CopyWork{src, dst});
  }
}

void plan_clear(const OpWhere& at, const Operation& op, const std::vector<Geometry>& geo, OpWork& out,
                uint32_t seed) {
  uint32_t k = 0;
  for (const Use& u : op.uses) {
    const ResourceDesc& d = at.rec.resources[u.resource];
    const Geometry& g = geo[u.resource];
    switch (u.access) {
      case Access::render_target:
        if (g.buffer || g.depth()) at.fail(&u, "a render target must be a colour texture");
        for (const Sub& s : subs_of(u, d))
          out.items.emplace_back(ClearWork{ClearWork::How::attachment, s, false, bmix(seed, 0x200u + k++)});
        break;
      case Access::depth_write: {
        if (!g.depth()) at.fail(&u, "a depth clear needs a depth texture");
        const Box b = resolve(d, u.range);
        if (g.planes == 2 && !(b.p0 == 0 && b.p1 == 2))
          at.fail(&u, "a depth clear of a depth_stencil texture must cover both planes");
        for (const Sub& s : planes0(subs_of(u, d)))
          out.items.emplace_back(
              ClearWork{ClearWork::How::attachment, s, g.planes == 2, bmix(seed, 0x200u + k++)});
        break;
      }
      case Access::copy_dest:
        for (const Sub& s : subs_of(u, d)) {
          if (g.depth() && s.plane != 0) at.fail(&u, "clears of a stencil plane alone are not modelled");
          out.items.emplace_back(fill_of(at, u, g, s, bmix(seed, 0x200u + k++)));
        }
        break;
      case Access::unordered_access: {
        if (!has(effective_stages(u), Stage::compute))
          at.fail(&u,
                  "an unordered-access clear is performed by a compute dispatch: declare the compute stage");
        whole_only(at, u);
        ComputeWork w;
        w.seed = bmix(seed, 0x200u + k++);
        w.write_only = true;
        bind_shader_use(at, u, g, w.set, true);
        out.items.emplace_back(std::move(w));
        break;
      }
      default:
        at.fail(&u, "a clear writes render_target, depth_write, copy_dest or unordered_access");
    }
  }
}

}  // namespace

uint32_t op_seed(uint32_t group, uint32_t list, uint32_t op) {
  return bmix(bmix(bmix(0xBA70u, group), list), op);
}

float depth_of(uint32_t h) {
  return static_cast<float>(h >> 16) / 65536.0f;
}

Extent2 linear_extent(uint32_t words, uint32_t w, uint32_t h) {
  if (words >= w) return Extent2{w, std::min(h, words / w)};
  return Extent2{words, 1};
}

uint32_t StageSet::counts() const {
  uint32_t c = 0;
  for (uint32_t i = 0; i < kCategories; ++i) c |= static_cast<uint32_t>(slots[i].size()) << (4 * i);
  return c;
}

bool StageSet::empty() const {
  return std::all_of(slots.begin(), slots.end(), [](const auto& s) { return s.empty(); });
}

std::pair<uint32_t, uint32_t> scaled_words(const Geometry& g, const ResourceDesc& d, uint64_t offset, uint64_t size) {
  const uint64_t n = std::max<uint64_t>(d.size, 1);
  const uint64_t end = size == kWholeBytes ? n : std::min(n, offset + size);
  return {static_cast<uint32_t>(std::min(offset, n) * g.words / n), static_cast<uint32_t>(end * g.words / n)};
}

std::vector<Geometry> make_geometry(const Recording& rec, uint32_t max_side, uint32_t max_words) {
  std::vector<bool> structural(rec.resources.size(), false);
  rec.for_each_list([&](const CommandList& list) {
    for (const Operation& op : list.ops())
      for (const Use& u : op.uses)
        if (u.resource < structural.size() && (bit(u.access) & kStructuralAccesses))
          structural[u.resource] = true;
  });
  return make_geometry(rec.resources.all(), structural, max_side, max_words);
}

std::vector<Geometry> make_geometry(const std::vector<ResourceDesc>& resources, const std::vector<bool>& structural,
                                    uint32_t max_side, uint32_t max_words) {
  std::vector<Geometry> out;
  for (size_t i = 0; i < resources.size(); ++i) {
    const ResourceDesc& d = resources[i];
    Geometry g;
    if (d.type == ResourceType::buffer) {
      g.buffer = true;
      g.words = static_cast<uint32_t>(std::clamp<uint64_t>(d.size / 4, kMinWords, std::max(kMinWords, max_words)));
      g.structural = (i < structural.size() && structural[i]) || (d.usage & kStructuralAccesses) != 0;
    } else {
      g.buffer = false;
      g.format = d.format;
      g.mips = d.mips;
      g.layers = d.layers;
      g.planes = d.planes;
      g.width = scaled_side(d.width, max_side);
      g.height = scaled_side(d.height, max_side);
      // Vulkan needs max(w, h) >= 2^(mips-1): grow a side back towards its declared size.
      const uint64_t need = uint64_t{1} << std::min<uint32_t>(d.mips - 1, 31);
      if (std::max(g.width, g.height) < need)
        g.width = static_cast<uint32_t>(std::min<uint64_t>(d.width, need));
      if (std::max(g.width, g.height) < need)
        g.height = static_cast<uint32_t>(std::min<uint64_t>(d.height, need));
      if (std::max(g.width, g.height) < need)
        throw Error(fmt::format("executor: resource '{}': {} mips do not fit {}x{}", d.name, d.mips, d.width,
                                d.height));
      const uint32_t want_planes = d.format == FormatClass::depth_stencil ? 2u : 1u;
      if (d.planes != want_planes)
        throw Error(fmt::format("executor: resource '{}': {} planes on a {} texture are not supported",
                                d.name, d.planes, to_string(d.format)));
    }
    out.push_back(g);
  }
  return out;
}

std::vector<Sub> all_subs(ResourceId r, const Geometry& g) {
  std::vector<Sub> out;
  if (g.buffer) return {Sub{r, 0, 0, 0}};
  for (uint32_t p = 0; p < g.planes; ++p)
    for (uint32_t l = 0; l < g.layers; ++l)
      for (uint32_t m = 0; m < g.mips; ++m) out.push_back(Sub{r, m, l, p});
  return out;
}

std::vector<OpWork> plan_work(const Recording& rec, const std::vector<Geometry>& geo) {
  std::vector<OpWork> out;
  exec_work::for_each_op(rec, [&](const exec_work::OpAt& a) {
    const Operation op = dedupe(a.o);
    const OpWhere at{rec, a.g, a.l, a.op};
    for (const Use& u : op.uses) {
      if (u.resource >= rec.resources.size())
        at.fail(nullptr, fmt::format("unknown resource id {}", u.resource));
      if (u.access == Access::host_read || u.access == Access::host_write)
        at.fail(&u, "host accesses inside a group are not executed");
      if (u.access == Access::resolve_source || u.access == Access::resolve_dest)
        at.fail(&u, "resolves need multisampled textures, which ResourceDesc cannot describe");
    }
    check_no_write_overlap(at, op);
    if (op.kind != OpKind::clear && op.kind != OpKind::copy)
      for (const Use& u : op.uses) whole_only(at, u);
    OpWork w{a.group, a.list, a.op, {}};
    const uint32_t seed = op_seed(a.group, a.list, a.op);
    switch (op.kind) {
      case OpKind::dispatch:
        plan_dispatch(at, op, geo, w, seed);
        break;
      case OpKind::draw:
        plan_draw(at, op, geo, w, seed);
        break;
      case OpKind::copy:
        plan_copy(at, op, geo, w, seed);
        break;
      case OpKind::clear:
        plan_clear(at, op, geo, w, seed);
        break;
      case OpKind::present:
        for (const Use& u : op.uses)
          if (u.access != Access::present) at.fail(&u, "a present operation only presents");
        break;  // no GPU work: the image just rests in PRESENT_SRC (no swapchain here)
      case OpKind::resolve:
        at.fail(nullptr, "resolves need multisampled textures, which ResourceDesc cannot describe");
      case OpKind::external:
        at.fail(nullptr, "external work is done by another renderer and cannot be executed here");
      case OpKind::transition:
        break;  // no GPU work: only the barriers around it run
    }
    out.push_back(std::move(w));
  });
  return out;
}

}  // namespace baton::exec
