// Neutral plan -> D3D12 legacy resource states. Unlike the other targets this one keeps the real
// state of every subresource across the groups (one ExecuteCommandLists call each), because the
// API changes states on its own: implicit promotion out of COMMON on first use and decay back to
// COMMON when the call completes (REFERENCE.md). A barrier the API makes unnecessary is kept in the
// view with omitted = true and the rule that made it so (invariant 7); later barriers name the
// tracked real state as StateBefore.
#include <fmt/format.h>

#include <map>

#include "backends.hpp"
#include "common.hpp"

namespace baton {
namespace {

using lower_detail::Site;

static_assert([] {
  for (size_t i = 0; i < kD3D12LegacyTable.size(); ++i)
    if (kD3D12LegacyTable[i].access != static_cast<Access>(i)) return false;
  return true;
}(), "kD3D12LegacyTable must have one row per Access, in enum order");

constexpr uint32_t kLegacyWrites = D3D12_RESOURCE_STATE_RENDER_TARGET | D3D12_RESOURCE_STATE_UNORDERED_ACCESS |
                                   D3D12_RESOURCE_STATE_DEPTH_WRITE | D3D12_RESOURCE_STATE_STREAM_OUT |
                                   D3D12_RESOURCE_STATE_COPY_DEST | D3D12_RESOURCE_STATE_RESOLVE_DEST;
// States a compute / copy list may name (REFERENCE.md, "Queue classes").
constexpr uint32_t kComputeStates = D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER |
                                    D3D12_RESOURCE_STATE_UNORDERED_ACCESS |
                                    D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE |
                                    D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT | D3D12_RESOURCE_STATE_COPY_DEST |
                                    D3D12_RESOURCE_STATE_COPY_SOURCE;
constexpr uint32_t kCopyStates = D3D12_RESOURCE_STATE_COPY_DEST | D3D12_RESOURCE_STATE_COPY_SOURCE;

uint32_t queue_states(Queue q) {
  switch (q) {
    case Queue::direct: return ~uint32_t{0};
    case Queue::compute: return kComputeStates;
    case Queue::copy: return kCopyStates;
  }
  return 0;
}

const D3D12LegacyRow& row(Access a) { return kD3D12LegacyTable[static_cast<size_t>(a)]; }

bool read_only(uint32_t s) { return (s & kLegacyWrites) == 0; }

// Buffers and simultaneous-access textures promote to (and decay from) nearly everything.
bool buffer_like(const ResourceDesc& d) { return d.type == ResourceType::buffer || d.simultaneous_access; }

// Whether implicit promotion out of COMMON reaches the state of every access in the mask.
bool promotable(AccessMask m, const ResourceDesc& d) {
  if (m & kAnyAccess) return false;
  for (int i = 0; i < kAccessCount; ++i) {
    const auto a = static_cast<Access>(i);
    if (!(m & bit(a))) continue;
    if (!(buffer_like(d) ? row(a).promotes_buffer : row(a).promotes_texture)) return false;
  }
  return true;
}

struct Sub {
  uint32_t state = D3D12_RESOURCE_STATE_COMMON;  // resources are created in COMMON
  bool promoted = false;                         // reached its state by implicit promotion in this ECL
  friend bool operator==(const Sub&, const Sub&) = default;
};

// What happens to one subresource.
struct Decision {
  bool transition = false;  // otherwise omitted
  uint32_t before = 0, after = 0;
  std::string why;
  friend bool operator==(const Decision&, const Decision&) = default;
};

Decision decide(Sub& sub, const State& neutral_before, uint32_t target, AccessMask target_access,
                const ResourceDesc& d, Reason reason, bool before_used, bool decays_at_end) {
  // The neutral plan has no barrier where a first use needs none (a buffer's first touch), so the real
  // state can have left COMMON by implicit promotion at a use this pass never saw. When the barrier's
  // before-state was produced by a use inside this group, it says which one; so does a declared entry
  // state that uses in this group already served with no barrier (Barrier::before_used: a buffer handed
  // on in a read state decays to COMMON, and the next group's first reads promote it back).
  const bool before_from_this_group = (reason == Reason::entry_state && before_used) ||
                                      (reason != Reason::first_touch && reason != Reason::entry_state &&
                                       reason != Reason::from_rest && reason != Reason::discard &&
                                       reason != Reason::takeover && reason != Reason::full_barrier);
  if (before_from_this_group && sub.state == D3D12_RESOURCE_STATE_COMMON && neutral_before.access != 0 &&
      !(neutral_before.access & kAnyAccess) && promotable(neutral_before.access, d)) {
    const uint32_t used = lower_d3d12_legacy_state(neutral_before);
    if (used != D3D12_RESOURCE_STATE_COMMON) {
      sub.state = used;
      sub.promoted = true;
    }
  }
  const uint32_t c = sub.state;
  Decision dec{false, c, target, {}};
  if (c == target) {
    dec.why = reason == Reason::write_order ? "same-state write_order barrier has no legacy equivalent"
                                            : fmt::format("already in {}", d3d12_state_name(static_cast<D3D12_RESOURCE_STATES>(c)));
    return dec;
  }
  if (target == D3D12_RESOURCE_STATE_COMMON && (target_access & kAnyAccess) && decays_at_end) {
    dec.why = "decays to COMMON when ExecuteCommandLists completes";
    return dec;
  }
  if (c == D3D12_RESOURCE_STATE_COMMON && target != D3D12_RESOURCE_STATE_COMMON && promotable(target_access, d)) {
    dec.why = "implicit promotion from COMMON";
    sub.state = target;
    sub.promoted = true;
    return dec;
  }
  if (sub.promoted && read_only(c) && read_only(target) && target != D3D12_RESOURCE_STATE_COMMON &&
      promotable(target_access, d)) {
    dec.why = "implicit promotion: read states accumulate";
    sub.state = c | target;
    return dec;
  }
  // A read state that includes the wanted reads serves them as it is, except where the group hands
  // the resource on: the resting contract (invariant 4) needs the exact state there.
  const bool hands_on = reason == Reason::restore || reason == Reason::hand_on;
  if (!hands_on && read_only(c) && read_only(target) && target != D3D12_RESOURCE_STATE_COMMON &&
      (target & ~c) == 0) {
    dec.why = fmt::format("already in {}", d3d12_state_name(static_cast<D3D12_RESOURCE_STATES>(c)));
    return dec;
  }
  dec.transition = true;
  sub.state = target;
  sub.promoted = false;
  return dec;
}

D3D12_RESOURCE_BARRIER transition(uint32_t subresource, uint32_t before, uint32_t after) {
  D3D12_RESOURCE_BARRIER rb{};
  rb.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
  rb.Flags = D3D12_RESOURCE_BARRIER_FLAG_NONE;
  rb.Transition.pResource = nullptr;
  rb.Transition.Subresource = subresource;
  rb.Transition.StateBefore = static_cast<D3D12_RESOURCE_STATES>(before);
  rb.Transition.StateAfter = static_cast<D3D12_RESOURCE_STATES>(after);
  return rb;
}

D3D12_RESOURCE_BARRIER uav_barrier() {
  D3D12_RESOURCE_BARRIER rb{};
  rb.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
  rb.Flags = D3D12_RESOURCE_BARRIER_FLAG_NONE;
  rb.UAV.pResource = nullptr;
  return rb;
}

D3D12_RESOURCE_BARRIER aliasing_barrier() {
  D3D12_RESOURCE_BARRIER rb{};
  rb.Type = D3D12_RESOURCE_BARRIER_TYPE_ALIASING;
  rb.Flags = D3D12_RESOURCE_BARRIER_FLAG_NONE;
  rb.Aliasing.pResourceBefore = nullptr;  // NULL: any resource that shared the memory
  rb.Aliasing.pResourceAfter = nullptr;
  return rb;
}

std::string state_text(uint32_t s) { return d3d12_state_name(static_cast<D3D12_RESOURCE_STATES>(s)); }

class LegacyLowering {
 public:
  LegacyLowering(const ResourceTable& t, const D3D12LegacyStates* initial)
      : resources_(t),
        real_(t.size()),
        activated_(t.size(), false),
        in_group_(t.size(), false) {
    if (!initial) return;
    for (size_t r = 0; r < real_.size() && r < initial->resources.size(); ++r) {
      const Runs<D3D12_RESOURCE_STATES>& in = initial->resources[r];
      if (in.size() == 0) continue;
      const auto id = static_cast<ResourceId>(r);
      if (in.size() != full_box(t[id]).volume())
        throw Error(fmt::format("resource '{}': initial legacy states name {} subresources, it has {}",
                                t[id].name, in.size(), full_box(t[id]).volume()));
      real_[r] = Runs<Sub>(in.size(), Sub{});
      in.for_each(0, in.size(), [&](uint32_t first, uint32_t n, D3D12_RESOURCE_STATES st) {
        real_[r].update(first, first + n,
                        [&](uint32_t, uint32_t, Sub& s) { s.state = static_cast<uint32_t>(st); });
      });
      real_[r].coalesce();
      // Not touched: a group's end decays only what that ExecuteCommandLists call accessed, so a
      // resource starts in its initial state until a group uses it (a copy group first must not
      // decay a texture resting in a read state that it never touches).
    }
  }

  D3D12LegacyStates states() const {
    D3D12LegacyStates out;
    out.resources.resize(real_.size());
    for (size_t r = 0; r < real_.size(); ++r) {
      const Runs<Sub>& subs = real_[r];
      if (subs.size() == 0) continue;
      Runs<D3D12_RESOURCE_STATES>& o = out.resources[r];
      o = Runs<D3D12_RESOURCE_STATES>(subs.size(), D3D12_RESOURCE_STATE_COMMON);
      subs.for_each(0, subs.size(), [&](uint32_t first, uint32_t n, const Sub& s) {
        o.update(first, first + n, [&](uint32_t, uint32_t, D3D12_RESOURCE_STATES& x) {
          x = static_cast<D3D12_RESOURCE_STATES>(s.state);
        });
      });
      o.coalesce();
    }
    return out;
  }

  // Split barriers (Barrier::split_after) go into `splits`, one point per begin op; they are lowered
  // here, at their end, which is the same as at their begin: nothing touches them in between.
  void lower_point(const Site& site, size_t list, D3D12LegacyPoint& point,
                   std::vector<std::pair<std::pair<uint32_t, uint32_t>, D3D12LegacyPoint>>& splits,
                   LoweredPoint* view) {
    for (const Barrier& b : site.list.barriers_at(site.point)) {
      if (!lower_detail::lowers_split(b, list, site.point)) {
        lower_barrier(site, b, point, view);
        continue;
      }
      const std::pair<uint32_t, uint32_t> key{b.split_list, b.split_after};
      auto it = std::find_if(splits.begin(), splits.end(), [&](const auto& s) { return s.first == key; });
      if (it == splits.end()) {
        splits.emplace_back(key, D3D12LegacyPoint{});
        it = splits.end() - 1;
      }
      const size_t first = view ? view->barriers.size() : 0;
      lower_barrier(site, b, it->second, view);
      if (view)
        for (size_t i = first; i < view->barriers.size(); ++i) {
          view->barriers[i].split_after = b.split_after;
          view->barriers[i].split = split_reason(site.group, static_cast<uint32_t>(list), b, site.point.op);
        }
    }
  }

  // End of the ExecuteCommandLists call of one group: decay (REFERENCE.md). Implicit decay happens
  // only for resources that call accessed, so only what this group touched can change: on a copy
  // queue all of it, elsewhere buffers, simultaneous-access textures and implicit read promotions.
  // (It once decayed, at a copy group's end, everything touched since the last copy group: a
  // direct group's explicit transitions were then lost, and an async upload gave #527/#538.)
  void end_group(Queue q) {
    for (const ResourceId r : in_group_list_) {
      const bool all_decay = q == Queue::copy || buffer_like(resources_[r]);
      real_[r].for_all([&](uint32_t, uint32_t, Sub& s) {
        if (all_decay || (s.promoted && read_only(s.state))) s.state = D3D12_RESOURCE_STATE_COMMON;
        s.promoted = false;
      });
      real_[r].coalesce();
      in_group_[r] = false;
    }
    in_group_list_.clear();
  }

 private:
  void touch(ResourceId id) {
    if (!in_group_[id]) {
      in_group_[id] = true;
      in_group_list_.push_back(id);
    }
  }
  Runs<Sub>& subs(ResourceId id) {
    Runs<Sub>& v = real_[id];
    if (v.size() == 0) v = Runs<Sub>(static_cast<uint32_t>(full_box(resources_[id]).volume()), Sub{});
    touch(id);
    return v;
  }

  void lower_barrier(const Site& site, const Barrier& b, D3D12LegacyPoint& point, LoweredPoint* view) {
    // Neutral queue rules first (the legacy states are checked below, on the real states).
    lower_detail::check_queue(site, b);
    LoweredBarrier v;
    v.resource = b.resource;
    v.range = lower_detail::range_text(resources_, b);
    v.reason = b.reason;
    auto emit = [&](LoweredBarrier lb) {
      if (view) view->barriers.push_back(std::move(lb));
    };

    if (b.resource == kGlobalResource) {
      // Legacy barriers have no global form; a UAV barrier on NULL orders every UAV access, and
      // state changes are never pending across it.
      point.barriers.push_back(uav_barrier());
      point.resources.push_back(kGlobalResource);
      v.before = v.after = "UAV(NULL)";
      v.note = "UAV barrier on NULL: the closest legacy form of a full barrier";
      emit(std::move(v));
      return;
    }
    const ResourceDesc& d = resources_[b.resource];
    const Queue q = site.list.queue;
    const uint32_t target = lower_d3d12_legacy_state(b.after);

    if (lower_detail::is_first_touch(b.before) && d.placed) {
      // Activating a placed (aliased) resource: the aliasing barrier orders it after whatever used
      // the memory before.
      point.barriers.push_back(aliasing_barrier());
      point.resources.push_back(b.resource);
      LoweredBarrier a = v;
      a.before = "ALIASING(NULL)";
      a.after = "ALIASING";
      a.note = "aliasing barrier (NULL -> resource)";
      emit(std::move(a));
    }
    if (b.reason == Reason::takeover && !activated_[b.resource]) {
      // Taking over memory that earlier resources used: one aliasing barrier per activation, naming the
      // previous occupant when there is exactly one (NULL: any resource that used the memory).
      activated_[b.resource] = true;
      D3D12_RESOURCE_BARRIER ab = aliasing_barrier();
      if (b.previous != kGlobalResource) point.aliasing_before.push_back({point.barriers.size(), b.previous});
      point.barriers.push_back(ab);
      point.resources.push_back(b.resource);
      LoweredBarrier a = v;
      a.before = b.previous == kGlobalResource ? "ALIASING(NULL)"
                                               : fmt::format("ALIASING({})", resources_[b.previous].name);
      a.after = "ALIASING";
      a.note = b.previous == kGlobalResource
                   ? "aliasing barrier (NULL -> resource): takeover of aliased memory"
                   : "aliasing barrier (previous occupant -> resource)";
      emit(std::move(a));
    }
    if (b.reason == Reason::uav_order) {
      point.barriers.push_back(uav_barrier());
      point.resources.push_back(b.resource);
      v.before = v.after = "UNORDERED_ACCESS";
      v.note = "UAV barrier";
      emit(std::move(v));
      return;
    }
    if (b.discard) point.discards.push_back(b.resource);

    const bool decays = q == Queue::copy || buffer_like(d);
    // A texture this lowering has not seen yet, reached through a declared entry state: nothing before
    // it says otherwise, so it is in the declared state (the trace of the plan starts it there too).
    if (real_[b.resource].size() == 0 && b.reason == Reason::entry_state && d.type == ResourceType::texture)
      real_[b.resource] = Runs<Sub>(static_cast<uint32_t>(full_box(d).volume()),
                                    Sub{lower_d3d12_legacy_state(b.before), false});
    Runs<Sub>& all = subs(b.resource);
    // Decide per run of subresources in one state, then group equal decisions (in first-seen order);
    // each class keeps its subresources as index intervals, ascending.
    std::vector<Decision> classes;
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> members;
    std::vector<uint32_t> member_count;
    for (const auto& [lo, hi] :
         box_intervals(d.mips, d.layers, b.box.m0, b.box.m1, b.box.l0, b.box.l1, b.box.p0, b.box.p1)) {
      all.update(lo, hi, [&](uint32_t index, uint32_t n, Sub& sub) {
        const Decision dec = decide(sub, b.before, target, b.after.access, d, b.reason, b.before_used, decays);
        if (dec.transition) {
          const uint32_t allowed = queue_states(q);
          auto check = [&](uint32_t s, const char* side) {
            if (s & ~allowed)
              lower_detail::fail(
                  site, b.resource,
                  fmt::format("subresource {}: state {} is not allowed on a {} list (D3D12 legacy, "
                              "{} side of a {} barrier)",
                              index, state_text(s & ~allowed), to_string(q), side, to_string(b.reason)));
          };
          check(dec.before, "before");
          check(dec.after, "after");
        }
        size_t c = 0;
        while (c < classes.size() && !(classes[c] == dec)) ++c;
        if (c == classes.size()) {
          classes.push_back(dec);
          members.emplace_back();
          member_count.push_back(0);
        }
        auto& m = members[c];
        if (!m.empty() && m.back().second == index)
          m.back().second += n;
        else
          m.emplace_back(index, index + n);
        member_count[c] += n;
      });
      all.coalesce(lo, hi);
    }

    // One decision for the whole resource: one transition of all its subresources.
    const bool all_at_once = b.box == full_box(d) && classes.size() == 1;
    // The hard limit (kMaxLegacyApiBarriers), before any of this barrier's transitions is made.
    uint64_t api = 0;
    for (size_t c = 0; c < classes.size(); ++c)
      if (classes[c].transition && !all_at_once) api += member_count[c];
    if (api_barriers_ + api > kMaxLegacyApiBarriers)
      lower_detail::fail(site, b.resource,
                         fmt::format("needs {} more transition barriers, one per subresource, past the {} the "
                                     "D3D12 legacy plan of a frame may hold (the API has no subresource ranges)",
                                     api, kMaxLegacyApiBarriers));
    api_barriers_ += api;
    for (size_t c = 0; c < classes.size(); ++c) {
      const Decision& dec = classes[c];
      LoweredBarrier lb = v;
      lb.before = state_text(dec.before);
      lb.after = state_text(dec.after);
      if (classes.size() > 1) {  // its subresources, as runs ("0..3,7": first..last), not one by one
        std::string list;
        for (const auto& [first, end] : members[c]) {
          if (!list.empty()) list += ',';
          list += end - first == 1 ? fmt::format("{}", first) : fmt::format("{}..{}", first, end - 1);
        }
        lb.range += fmt::format(" [subresources {}]", list);
      }
      if (b.discard) lb.note = "DiscardResource after the barrier";
      if (!dec.transition) {
        lb.omitted = true;
        lb.omitted_why = dec.why;
        lb.api_barriers = 0;
      } else if (all_at_once) {
        point.barriers.push_back(transition(D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, dec.before, dec.after));
        point.resources.push_back(b.resource);
        lb.api_barriers = 1;
      } else {
        for (const auto& [first, end] : members[c])
          for (uint32_t i = first; i < end; ++i) {
            point.barriers.push_back(transition(i, dec.before, dec.after));
            point.resources.push_back(b.resource);
          }
        lb.api_barriers = member_count[c];
      }
      emit(std::move(lb));
    }
  }

  const ResourceTable& resources_;
  std::vector<Runs<Sub>>
      real_;  // per resource, runs over the subresource index; size 0 = untouched, all COMMON
  std::vector<bool> activated_;  // per resource: its takeover's aliasing barrier is issued
  // Resources touched in the current group (end_group decays only those).
  std::vector<bool> in_group_;
  std::vector<ResourceId> in_group_list_;
  uint64_t api_barriers_ = 0;  // transition barriers of one subresource made so far (kMaxLegacyApiBarriers)
};
}  // namespace

D3D12_RESOURCE_STATES lower_d3d12_legacy_state(const State& s) {
  if (s.access & kAnyAccess) return D3D12_RESOURCE_STATE_COMMON;
  // Shader reads split by stage; a state without stage information (no shading bit) names both.
  constexpr SyncMask kShading = sync::vertex_shading | sync::pixel_shading | sync::compute_shading | sync::all;
  const bool unknown = (s.sync & kShading) == 0;
  const bool pixel = unknown || (s.sync & (sync::pixel_shading | sync::all)) != 0;
  const bool non_pixel = unknown || (s.sync & (sync::vertex_shading | sync::compute_shading | sync::all)) != 0;
  uint32_t out = 0;
  for (int i = 0; i < kAccessCount; ++i) {
    const auto a = static_cast<Access>(i);
    if (!(s.access & bit(a))) continue;
    if (pixel) out |= static_cast<uint32_t>(row(a).pixel);
    if (non_pixel) out |= static_cast<uint32_t>(row(a).non_pixel);
  }
  return static_cast<D3D12_RESOURCE_STATES>(out);
}

namespace lower_detail {

D3D12LegacyPlan lower_d3d12_legacy(const ResourceTable& resources, std::span<const CompiledGroup> groups,
                                   const D3D12LegacyStates* initial, std::vector<LoweredGroup>* view) {
  D3D12LegacyPlan plan;
  if (view) *view = view_skeleton(groups);
  LegacyLowering lowering(resources, initial);
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const CompiledGroup& g = groups[gi];
    D3D12LegacyGroup& ng = plan.groups.emplace_back(D3D12LegacyGroup{g.name, g.queue, {}});
    ng.lists.reserve(g.lists.size());
    bool any_split = false;
    for (size_t li = 0; li < g.lists.size(); ++li) {
      const CompiledList& l = g.lists[li];
      ng.lists.emplace_back(D3D12LegacyList{l.name, l.queue, {}});
      for (size_t pi = 0; pi < l.points.size(); ++pi) {
        const BarrierPoint& p = l.points[pi];
        D3D12LegacyPoint np;
        np.op = p.op;
        np.where = p.where;
        std::vector<std::pair<std::pair<uint32_t, uint32_t>, D3D12LegacyPoint>> splits;
        lowering.lower_point(Site{resources, g, l, p}, li, np, splits,
                             view ? &(*view)[gi].lists[li].points[pi] : nullptr);
        if (!np.barriers.empty() || !np.discards.empty()) ng.lists[li].points.push_back(std::move(np));
        for (auto& [key, sp] : splits) {
          // BEGIN_ONLY / END_ONLY with identical transitions; a UAV barrier cannot be split (the
          // flags are for transitions only, #533) and stays whole in the end half.
          D3D12LegacyPoint begin, end;
          begin.op = key.second;
          begin.where = Where::after;
          begin.half = SplitHalf::begin;
          end.op = p.op;
          end.where = p.where;
          end.half = SplitHalf::end;
          for (size_t i = 0; i < sp.barriers.size(); ++i) {
            D3D12_RESOURCE_BARRIER rb = sp.barriers[i];
            if (rb.Type == D3D12_RESOURCE_BARRIER_TYPE_TRANSITION) {
              rb.Flags = D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY;
              begin.barriers.push_back(rb);
              begin.resources.push_back(sp.resources[i]);
              rb.Flags = D3D12_RESOURCE_BARRIER_FLAG_END_ONLY;
            }
            end.barriers.push_back(rb);
            end.resources.push_back(sp.resources[i]);
          }
          if (!begin.barriers.empty()) ng.lists[key.first].points.push_back(std::move(begin));
          if (!end.barriers.empty()) ng.lists[li].points.push_back(std::move(end));
          any_split = true;
        }
      }
    }
    if (any_split)
      for (D3D12LegacyList& nl : ng.lists)
        std::stable_sort(nl.points.begin(), nl.points.end(), point_order<D3D12LegacyPoint>);
    lowering.end_group(g.queue);
  }
  plan.final_states = lowering.states();
  return plan;
}

}  // namespace lower_detail

D3D12LegacyPlan lower_d3d12_legacy(const ResourceTable& resources, std::span<const CompiledGroup> groups) {
  return lower_detail::lower_d3d12_legacy(resources, groups, nullptr, nullptr);
}

D3D12LegacyPlan lower_d3d12_legacy(const ResourceTable& resources, std::span<const CompiledGroup> groups,
                                   const D3D12LegacyStates& initial) {
  return lower_detail::lower_d3d12_legacy(resources, groups, &initial, nullptr);
}

}  // namespace baton
