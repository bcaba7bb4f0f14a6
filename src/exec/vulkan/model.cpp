#include "model.hpp"

#include <algorithm>
#include <bit>

namespace baton::exec {
namespace {

// mix() on values that may be undefined: undefined in, undefined out.
uint64_t mixu(uint64_t h, uint64_t v) {
  const uint64_t undef = (h | v) & kUndefined;
  return bmix(static_cast<uint32_t>(h), static_cast<uint32_t>(v)) | undef;
}

uint32_t depth_bits(uint32_t h) {
  return std::bit_cast<uint32_t>(depth_of(h));
}

}  // namespace

uint32_t initial_word(ResourceId r, uint32_t j, bool structural) {
  if (structural && j < kStructWords) return kStruct[j];
  return bmix(0xC0FFEEu ^ r, j);
}

uint32_t initial_texel(const Sub& s) {
  return bmix(bmix(bmix(0x5EEDu ^ s.res, s.mip), s.layer), s.plane);
}

Model::Model(const std::vector<Geometry>& geo, bool seeded_textures, const std::vector<uint8_t>& placed) : geo_(geo) {
  for (ResourceId r = 0; r < geo.size(); ++r) {
    for (const Sub& s : all_subs(r, geo[r])) {
      std::vector<uint64_t> v(geo[r].texels(s), kUndefined);
      if (r < placed.size() && placed[r]) {
        // starts undefined
      } else if (geo[r].buffer)
        for (uint32_t j = 0; j < v.size(); ++j) v[j] = initial_word(r, j, geo[r].structural);
      else if (seeded_textures)
        std::fill(v.begin(), v.end(),
                  !geo[r].depth() ? initial_texel(s)
                  : s.plane == 0  ? depth_bits(initial_texel(s))
                                  : 0u);
      data_.emplace(s, std::move(v));
    }
  }
}

uint64_t Model::digest(uint64_t h, uint32_t j, const StageSet& set) const {
  // Same order as digest() in op_common.glsl: categories srv_buf, srv_tex, srv_depth, cbuf.
  for (Category c : {srv_buf, srv_tex, srv_depth})
    for (const Sub& s : set.slots[c]) {
      const auto& v = at(s);
      h = mixu(h, v[j % v.size()]);
    }
  for (const Sub& s : set.slots[cbuf]) h = mixu(h, at(s)[j % kUniformWords]);
  return h;
}

uint32_t Model::rmw_bits(const StageSet& set) const {
  auto defined = [&](const Sub& s) {
    const auto& v = at(s);
    return std::any_of(v.begin(), v.end(), [](uint64_t x) { return !(x & kUndefined); });
  };
  uint32_t m = 0;
  for (uint32_t k = 0; k < set.slots[uav_buf].size(); ++k)
    if (defined(set.slots[uav_buf][k])) m |= 1u << (kRmwBufBit + k);
  for (uint32_t k = 0; k < set.slots[uav_tex].size(); ++k)
    if (defined(set.slots[uav_tex][k])) m |= 1u << (kRmwTexBit + k);
  return m;
}

void Model::prepare(Work& w) const {
  if (auto* c = std::get_if<ComputeWork>(&w)) c->set.rmw = c->write_only ? 0 : rmw_bits(c->set);
  if (auto* d = std::get_if<DrawPass>(&w)) {
    d->vs.rmw = 0;  // vertex invocations may repeat: write-only
    d->fs.rmw = rmw_bits(d->fs);
  }
}

void Model::storage_writes(uint64_t base, const StageSet& set, uint32_t seed) {
  for (uint32_t k = 0; k < set.slots[uav_buf].size(); ++k) {
    const Sub& s = set.slots[uav_buf][k];
    auto& v = ref(s);
    const uint32_t so = out_seed(seed, k);
    for (uint32_t j = 0; j < v.size(); ++j) {
      if (geo_[s.res].structural && j < kStructWords) {
        v[j] = kStruct[j];
        continue;
      }
      uint64_t x = mixu(digest(base, j, set), so);
      if (set.rmw & (1u << (kRmwBufBit + k))) x = mixu(x, v[j]);
      v[j] = x;
    }
  }
  for (uint32_t k = 0; k < set.slots[uav_tex].size(); ++k) {
    const Sub& s = set.slots[uav_tex][k];
    auto& v = ref(s);
    const uint32_t so = out_seed(seed, 8 + k);
    for (uint32_t j = 0; j < v.size(); ++j) {
      uint64_t x = mixu(digest(base, j, set), so);
      if (set.rmw & (1u << (kRmwTexBit + k))) x = mixu(x, v[j]);
      v[j] = x;
    }
  }
}

void Model::apply(const Work& w) {
  std::visit([&](const auto& item) { apply(item); }, w);
}

void Model::apply(const ComputeWork& w) {
  uint64_t base = w.seed;
  if (w.indirect) base = bmix(bmix(bmix(w.seed, kStruct[9]), kStruct[10]), kStruct[11]);
  storage_writes(base, w.set, w.seed);
}

void Model::apply(const DrawPass& w) {
  uint64_t vs_base = bmix(w.seed, 0x55u);
  if (w.vertex) vs_base = mixu(vs_base, at(Sub{*w.vertex, 0, 0, 0})[0]);
  const uint64_t vd = digest(vs_base, 0, w.vs);
  if (w.storage_writes) storage_writes(vs_base, w.vs, w.seed);
  for (uint32_t y = 0; y < w.area_h; ++y)
    for (uint32_t x = 0; x < w.area_w; ++x) {
      const uint64_t dg = digest(vd, y * w.area_w + x, w.fs);
      bool pass = true;
      uint64_t undef = dg & kUndefined;
      if (w.depth) {
        const Sub& ds = w.depth->sub;
        uint64_t& stored = ref(ds)[y * geo_[ds.res].w(ds.mip) + x];
        const uint32_t fd = depth_bits(bmix(static_cast<uint32_t>(dg), out_seed(w.seed, kSlotDepth)));
        if (w.depth_write) {
          stored = fd | undef;
        } else {
          undef |= stored & kUndefined;
          pass = std::bit_cast<float>(fd) <= std::bit_cast<float>(static_cast<uint32_t>(stored));
        }
      }
      for (uint32_t c = 0; c < w.colors.size(); ++c) {
        const Sub& cs = w.colors[c].sub;
        uint64_t& t = ref(cs)[y * geo_[cs.res].w(cs.mip) + x];
        if (undef)
          t = kUndefined;
        else if (pass)
          t = bmix(static_cast<uint32_t>(dg), out_seed(w.seed, kSlotColor0 + c));
      }
    }
  if (w.storage_writes) storage_writes(vd, w.fs, w.seed);
}

void Model::apply(const CopyWork& w) {
  const Geometry& gs = geo_[w.src.res];
  const Geometry& gd = geo_[w.dst.res];
  const std::vector<uint64_t> src = at(w.src);
  auto& dst = ref(w.dst);
  if (gs.buffer && gd.buffer) {
    const uint32_t base = gd.structural ? kStructWords : 0;
    const uint32_t m = std::min(gs.words, gd.words);
    for (uint32_t j = base; j < m; ++j) dst[j] = src[j];
  } else if (gs.buffer) {
    const uint32_t wd = gd.w(w.dst.mip);
    const Extent2 e = linear_extent(gs.words, wd, gd.h(w.dst.mip));
    for (uint32_t y = 0; y < e.h; ++y)
      for (uint32_t x = 0; x < e.w; ++x) dst[y * wd + x] = src[y * e.w + x];
  } else if (gd.buffer) {
    const uint32_t base = gd.structural ? kStructWords : 0;
    const uint32_t ws = gs.w(w.src.mip);
    const Extent2 e = linear_extent(gd.words - base, ws, gs.h(w.src.mip));
    for (uint32_t y = 0; y < e.h; ++y)
      for (uint32_t x = 0; x < e.w; ++x) dst[base + y * e.w + x] = src[y * ws + x];
  } else {
    const uint32_t ws = gs.w(w.src.mip), wd = gd.w(w.dst.mip);
    const uint32_t ew = std::min(ws, wd), eh = std::min(gs.h(w.src.mip), gd.h(w.dst.mip));
    for (uint32_t y = 0; y < eh; ++y)
      for (uint32_t x = 0; x < ew; ++x) dst[y * wd + x] = src[y * ws + x];
  }
}

void Model::apply(const ClearWork& w) {
  const Geometry& g = geo_[w.dst.res];
  auto& dst = ref(w.dst);
  const uint32_t base = (g.buffer && g.structural) ? kStructWords : 0;
  const uint32_t value = g.depth() ? depth_bits(w.value) : w.value;
  if (w.count != 0) {  // a byte range of a buffer
    for (uint32_t j = w.first; j < w.first + w.count; ++j) dst[j] = value;
    return;
  }
  for (uint32_t j = base; j < dst.size(); ++j) dst[j] = value;
  if (w.both_planes) {
    auto& stencil = ref(Sub{w.dst.res, w.dst.mip, w.dst.layer, 1});
    std::fill(stencil.begin(), stencil.end(), w.value & 0xffu);
  }
}

}  // namespace baton::exec
