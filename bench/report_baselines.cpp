// The minimum model and the naive tracker of report_baselines.hpp.
#include "report_baselines.hpp"

#include <algorithm>

namespace baton::bench {
namespace {

bool is_texture(const ResourceDesc& d) { return d.type == ResourceType::texture; }

Layout rest_layout(const ResourceDesc& d) {
  const std::optional<Access> a = resting_access(d);
  return a ? layout_of(*a) : Layout::none;
}

// One operation's accesses to one subresource.
struct Event {
  uint64_t sub = 0;    // flat subresource index
  uint64_t seq = 0;    // operation number inside the group
  AccessMask reads = 0;
  bool writes = false;
  Access write{};
};

struct SubState {
  Layout layout = Layout::undefined;  // textures; buffers stay Layout::none
  bool pending_write = false, pending_reads = false, touched = false;
};

}  // namespace

MinimumCount minimum_transitions(const ResourceTable& rt, std::span<const CommandListGroup* const> groups) {
  // Flat subresource numbering: base[r] + mip + layer * mips + plane * mips * layers.
  std::vector<uint64_t> base(rt.size() + 1, 0);
  for (ResourceId r = 0; r < rt.size(); ++r) base[r + 1] = base[r] + full_box(rt[r]).volume();
  std::vector<SubState> state(base.back());
  std::vector<ResourceId> owner(base.back());
  for (ResourceId r = 0; r < rt.size(); ++r) {
    std::fill(owner.begin() + static_cast<std::ptrdiff_t>(base[r]), owner.begin() + static_cast<std::ptrdiff_t>(base[r + 1]), r);
    if (!is_texture(rt[r]))
      for (uint64_t s = base[r]; s < base[r + 1]; ++s) state[s].layout = Layout::none;
  }

  MinimumCount out;
  for (const CommandListGroup* g : groups) {
    std::vector<Event> ev;
    uint64_t seq = 0;
    for (const CommandList* l : g->lists())
      for (const Operation& op : l->ops()) {
        for (const Use& u : op.uses) {
          const ResourceDesc& d = rt[u.resource];
          const Box b = resolve(d, u.range);
          for (uint32_t p = b.p0; p < b.p1; ++p)
            for (uint32_t la = b.l0; la < b.l1; ++la)
              for (uint32_t m = b.m0; m < b.m1; ++m) {
                Event e;
                e.sub = base[u.resource] + m + uint64_t{la} * d.mips + uint64_t{p} * d.mips * d.layers;
                e.seq = seq;
                if (is_write(u.access)) {
                  e.writes = true;
                  e.write = u.access;
                } else {
                  e.reads = bit(u.access);
                }
                ev.push_back(e);
              }
        }
        ++seq;
      }
    std::stable_sort(ev.begin(), ev.end(), [](const Event& a, const Event& b) {
      return a.sub != b.sub ? a.sub < b.sub : a.seq < b.seq;
    });
    // Merge the uses of one operation on one subresource.
    std::vector<Event> merged;
    for (const Event& e : ev) {
      if (!merged.empty() && merged.back().sub == e.sub && merged.back().seq == e.seq) {
        merged.back().reads |= e.reads;
        if (e.writes) {
          merged.back().writes = true;
          merged.back().write = e.write;
        }
      } else {
        merged.push_back(e);
      }
    }
    for (size_t i = 0; i < merged.size();) {
      const uint64_t sub = merged[i].sub;
      SubState& s = state[sub];
      const bool tex = is_texture(rt[owner[sub]]);
      s.touched = true;
      while (i < merged.size() && merged[i].sub == sub) {
        const Event& e = merged[i];
        if (e.writes) {
          const Layout want = tex ? layout_of(e.write) : Layout::none;
          out.transitions += (s.pending_write || s.pending_reads || want != s.layout) ? 1 : 0;
          s.layout = want;
          s.pending_write = true;
          s.pending_reads = false;
          ++i;
          continue;
        }
        // A run of read-only operations: one merged layout, one barrier at most.
        AccessMask run = 0;
        size_t j = i;
        for (; j < merged.size() && merged[j].sub == sub && !merged[j].writes; ++j) run |= merged[j].reads;
        const Layout want = tex ? read_layout_of(run) : Layout::none;
        out.transitions += (s.pending_write || want != s.layout) ? 1 : 0;
        s.layout = want;
        s.pending_reads = true;
        s.pending_write = false;
        i = j;
      }
    }
    // End of the group: touched textures go back to rest.
    for (uint64_t sub = 0; sub < state.size(); ++sub) {
      SubState& s = state[sub];
      const ResourceDesc& d = rt[owner[sub]];
      if (!is_texture(d) || !s.touched || s.layout == rest_layout(d)) continue;
      ++out.transitions;
      ++out.restores;
      s.layout = rest_layout(d);
      s.pending_write = s.pending_reads = false;
    }
  }
  return out;
}

NaiveCount naive_tracker(const ResourceTable& rt, std::span<const CommandListGroup* const> groups) {
  NaiveCount out;
  std::vector<Layout> layout(rt.size());
  std::vector<uint8_t> used(rt.size(), 0);
  for (const CommandListGroup* g : groups)
    for (const CommandList* l : g->lists()) {
      // Every list starts with every resource at rest.
      for (ResourceId r = 0; r < rt.size(); ++r) layout[r] = rest_layout(rt[r]);
      std::fill(used.begin(), used.end(), uint8_t{0});
      for (const Operation& op : l->ops()) {
        uint64_t before = 0, after = 0;
        for (const Use& u : op.uses) {
          used[u.resource] = 1;
          if (is_texture(rt[u.resource]) && layout[u.resource] != layout_of(u.access)) {
            ++before;
            layout[u.resource] = layout_of(u.access);
          }
          if (is_write(u.access)) ++after;
        }
        out.barriers += before + after;
        out.calls += uint64_t{before > 0} + uint64_t{after > 0};
      }
      uint64_t restores = 0;
      for (ResourceId r = 0; r < rt.size(); ++r)
        if (used[r] && is_texture(rt[r]) && layout[r] != rest_layout(rt[r])) ++restores;
      out.barriers += restores;
      out.calls += uint64_t{restores > 0};
    }
  return out;
}

}  // namespace baton::bench
