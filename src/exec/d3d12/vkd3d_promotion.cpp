// Emulated implicit promotion and decay for textures (ExecOptions::emulate_texture_promotion).
// vkd3d 1.2 keeps a texture in COMMON as VK_IMAGE_LAYOUT_GENERAL and records every copy or clear
// with a fixed layout, so a texture that D3D12 would promote implicitly reaches the command in the
// wrong layout. The rules here are REFERENCE.md's ("D3D12 legacy resource states"), written
// against the API, not taken from Baton's lowering: the lowering decides which barriers to omit,
// this file only replays what the runtime does when they are omitted.
#include "vkd3d_session.hpp"

namespace baton::d3d12 {
namespace {

constexpr uint32_t kStreamOut = 0x100;
constexpr uint32_t kWrites = state::render_target | state::unordered_access | state::depth_write |
                             state::copy_dest | state::resolve_dest | kStreamOut;
constexpr uint32_t kTexturePromotable = state::non_pixel_shader_resource | state::pixel_shader_resource |
                                        state::copy_source | state::copy_dest;
constexpr uint32_t kNeverPromotable = state::depth_write | state::depth_read;

bool read_only(uint32_t s) { return (s & kWrites) == 0; }

D3D12_RESOURCE_BARRIER transition(ID3D12Resource* r, uint32_t sub, uint32_t before, uint32_t after) {
  D3D12_RESOURCE_BARRIER b{};
  b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
  b.Transition.pResource = r;
  b.Transition.Subresource = sub;
  b.Transition.StateBefore = static_cast<D3D12_RESOURCE_STATES>(before);
  b.Transition.StateAfter = static_cast<D3D12_RESOURCE_STATES>(after);
  return b;
}

}  // namespace

std::vector<std::pair<SubRef, uint32_t>> needed_states(const Item& item, const std::vector<Shape>& shapes) {
  std::vector<std::pair<SubRef, uint32_t>> out;
  if (const auto* c = std::get_if<CopyItem>(&item)) {
    if (c->src) out.emplace_back(*c->src, state::copy_source);
    out.emplace_back(c->dst, state::copy_dest);
    return out;
  }
  const auto& c = std::get<ClearItem>(item);
  switch (c.how) {
    case ClearItem::How::rtv: out.emplace_back(c.dst, state::render_target); break;
    case ClearItem::How::uav: out.emplace_back(c.dst, state::unordered_access); break;
    case ClearItem::How::upload: out.emplace_back(c.dst, state::copy_dest); break;
    case ClearItem::How::dsv: {
      const Shape& s = shapes[c.dst.res];
      out.emplace_back(c.dst, state::depth_write);
      if (s.planes == 2) out.emplace_back(SubRef{c.dst.res, c.dst.sub + s.mips * s.layers}, state::depth_write);
      break;
    }
  }
  return out;
}

void Session::Impl::track(const PlainBarrier& b) {
  if (b.kind != BarrierKind::transition || b.resource == kGlobalResource || tracked[b.resource].empty()) return;
  auto& subs = tracked[b.resource];
  for (uint32_t i = 0; i < subs.size(); ++i)
    if (b.subresource == kAllSubresources || b.subresource == i) subs[i] = Tracked{b.after, false};
}

void Session::Impl::promote(SubRef s, uint32_t needed, std::vector<D3D12_RESOURCE_BARRIER>& out) {
  if (!emulate || tracked[s.res].empty()) return;
  Tracked& t = tracked[s.res][s.sub];
  const bool simultaneous = rec.resources[s.res].simultaneous_access;
  const bool promotable = (needed & kNeverPromotable) == 0 && (simultaneous || (needed & ~kTexturePromotable) == 0);
  if (!promotable || (t.state & needed) == needed) return;
  uint32_t after = needed;
  if (t.state == state::common) {
    // Promotion out of COMMON: to one write state or to a set of read states.
  } else if (t.promoted && read_only(t.state) && read_only(needed)) {
    after = t.state | needed;  // promoted read states accumulate
  } else {
    return;  // no promotion applies: a missing barrier, which the layer must see
  }
  out.push_back(transition(resources[s.res].get(), s.sub, t.state, after));
  t = Tracked{after, true};
  ++stats.emulated_promotions;
}

void Session::Impl::decay(Queue q, std::vector<D3D12_RESOURCE_BARRIER>& out) {
  if (!emulate) return;
  for (ResourceId r = 0; r < tracked.size(); ++r) {
    const bool all = q == Queue::copy || rec.resources[r].simultaneous_access;
    for (uint32_t sub = 0; sub < tracked[r].size(); ++sub) {
      Tracked& t = tracked[r][sub];
      if (t.state != state::common && (all || (t.promoted && read_only(t.state)))) {
        out.push_back(transition(resources[r].get(), sub, t.state, state::common));
        ++stats.emulated_decays;
        t.state = state::common;
      }
      t.promoted = false;
    }
  }
}

}  // namespace baton::d3d12
