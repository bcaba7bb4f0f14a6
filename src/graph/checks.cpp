// Phase 8: checks. Each rebuilds what it needs from the declarations and the barrier stream, and
// shares nothing with the phase it checks but the vocabulary:
//  - coverage: replaying the barriers, every declared use finds its subresources in a state that
//    holds its access, in a layout for it, with the consuming stage in the sync scope;
//  - resting: after the frame every touched resource is back in its resting state, but transients,
//    which die after their last use;
//  - takeover: a transient that takes over memory opens with a barrier whose before side covers the
//    previous occupants' last accesses (rebuilt from the declarations in serial order), layout undefined;
//  - aliasing: resources that share memory are never live together under any order the schedule
//    allows (all users of one happen before all users of the other, through queue order and waits);
//  - serial order: the serial order is a topological order of the live passes and every
//    cross-queue dependency is implied by queue order and the signal/wait pairs.
#include <fmt/format.h>

#include <algorithm>

#include "baton/graph.hpp"
#include "replay.hpp"

namespace baton::graph {
namespace {

bool covers(const State& st, Access a, Stages stages, bool buffer) {
  if (!(st.access & bit(a))) return false;
  if (is_write(a) && st.access != bit(a)) return false;
  if (!is_write(a) && (st.access & kWriteAccesses)) return false;
  const SyncMask need = sync_of(a, stages);
  if (!(st.sync & sync::all) && (st.sync & need) != need) return false;
  if (buffer) return st.layout == Layout::none;
  if (a == Access::present) return st.layout == Layout::present;
  return st.layout == (is_write(a) ? layout_of(a) : read_layout_of(st.access));
}

bool at_rest(const State& st, const State& rest, bool buffer) {
  if (buffer) return true;  // buffers have no layout; their rest is "any access"
  if (st == kFirstTouch) return true;
  return st.layout == rest.layout && (st.access & ~rest.access) == 0 &&
         ((rest.sync & sync::all) || (st.sync & ~rest.sync) == 0);
}

}  // namespace

std::vector<std::string> check_coverage(const Graph& g, const Schedule&, const Transitions& t) {
  std::vector<std::string> out;
  auto on_barrier = [&](uint32_t gi, uint32_t li, const Barrier& b, const State& cur) {
    // A barrier must start from the layout the subresource is really in (a discard may start anywhere).
    if (b.discard || b.before.layout == cur.layout || cur == kFirstTouch || out.size() > 20) return;
    const uint32_t p = t.info[gi].passes[li];
    out.push_back(fmt::format("pass '{}', resource '{}': barrier starts from layout {} but the resource is in {}",
                              p == kNone ? std::string(transition_list_name(t.info[gi].role)) : g.passes[p].name,
                              t.table[b.resource].name,
                              to_string(b.before.layout), to_string(cur.layout)));
  };
  auto on_use = [&](uint32_t gi, uint32_t li, detail::Replay& rp) {
    const uint32_t p = t.info[gi].passes[li];
    if (p == kNone) {  // a frame_start / frame_end transition list: its own uses, already per member
      for (const Use& u : t.groups[gi]->lists()[li]->ops().front().uses) {
        const ResourceDesc& d = t.table[u.resource];
        const Box box = full_box(d);
        for (uint32_t pl = box.p0; pl < box.p1; ++pl)
          for (uint32_t l = box.l0; l < box.l1; ++l)
            for (uint32_t mip = box.m0; mip < box.m1; ++mip) {
              const State& st = rp.state[rp.index(u.resource, mip, l, pl)];
              if (!covers(st, u.access, u.stages, false) && out.size() < 20)
                out.push_back(fmt::format("{}, resource '{}' mip {} layer {} plane {}: state {} does not hold {}",
                                          transition_list_name(t.info[gi].role), d.name, mip, l, pl, to_string(st),
                                          to_string(u.access)));
            }
      }
      return;
    }
    const Pass& pass = g.passes[p];
    for (const PassUse& u : pass.uses) {
      const Resource& res = g.resources[u.resource];
      // Whole-resource uses (nearly all) skip the out-of-line resolve; same box either way.
      const Box box = is_whole(u.range) ? full_box(res.desc) : resolve(res.desc, u.range);
      const bool buffer = res.desc.type == ResourceType::buffer;
      for (uint32_t m = 0; m < res.count; ++m) {
        const ResourceId id = t.first_member[u.resource] + m;
        for (uint32_t pl = box.p0; pl < box.p1; ++pl)
          for (uint32_t l = box.l0; l < box.l1; ++l)
            for (uint32_t mip = box.m0; mip < box.m1; ++mip) {
              State& st = rp.state[rp.index(id, mip, l, pl)];
              // A buffer nobody touched yet needs nothing before its first write.
              if (buffer && st == kFirstTouchBuffer && is_write(u.access)) {
                st = state_of_use(res.desc, u.access, u.stages);
                continue;
              }
              if (covers(st, u.access, u.stages, buffer)) continue;
              if (out.size() < 20)
                out.push_back(fmt::format("pass '{}', resource '{}' mip {} layer {} plane {}: use {} in {} not covered "
                                          "(state {})",
                                          pass.name, t.table[id].name, mip, l, pl, to_string(u.access),
                                          u.stages ? stages_to_string(u.stages) : std::string("-"), to_string(st)));
            }
      }
    }
  };
  detail::replay(t, on_barrier, on_use);
  return out;
}

std::vector<std::string> check_resting(const Transitions& t, const FinalStates& f) {
  std::vector<std::string> out;
  for (ResourceId m = 0; m < t.table.size(); ++m) {
    if (t.history_in[m].dies) continue;  // a transient: its memory goes elsewhere after its last use
    const ResourceDesc& d = t.table[m];
    const State rest = resting_state(d);
    for (uint32_t i = f.first_sub[m]; i < f.first_sub[m + 1]; ++i)
      if (!at_rest(f.final_state[i], rest, d.type == ResourceType::buffer)) {
        out.push_back(fmt::format("resource '{}' subresource {}: ends the frame in {}, not at rest ({})", d.name,
                                  i - f.first_sub[m], to_string(f.final_state[i]), to_string(rest)));
        break;
      }
  }
  return out;
}

std::vector<std::string> check_takeover(const Graph& g, const Schedule& s, const Aliasing& a,
                                        const Transitions& t) {
  std::vector<std::string> out;
  if (a.barriers.empty()) return out;
  const size_t nr = g.resources.size();
  // Per resource, the accesses no barrier of its own orders after the others: its last user's, and
  // every read of the run of reads that ends the frame for it (walking the serial order backward).
  std::vector<AccessMask> need_access(nr, 0);
  std::vector<SyncMask> need_sync(nr, 0);
  std::vector<uint8_t> phase(nr, 0);            // 0: not met, 1: reads met, 2: done
  std::vector<std::pair<uint32_t, bool>> here;  // (resource, writes) of one pass
  for (size_t i = s.serial.size(); i-- > 0;) {
    const Pass& pass = g.passes[s.serial[i]];
    here.clear();
    for (const PassUse& u : pass.uses) {
      const bool w = is_write(u.access) || u.access == Access::present;
      auto it = std::find_if(here.begin(), here.end(), [&](const auto& x) { return x.first == u.resource; });
      if (it == here.end())
        here.push_back({u.resource, w});
      else
        it->second = it->second || w;
    }
    for (const auto& [r, w] : here) {
      if (phase[r] == 2 || (phase[r] == 1 && w)) {
        phase[r] = 2;
        continue;
      }
      for (const PassUse& u : pass.uses)
        if (u.resource == r) {
          need_access[r] |= bit(u.access);
          need_sync[r] |= sync_of(u.access, u.stages);
        }
      phase[r] = w ? 2 : 1;
    }
  }
  // Per member taking over memory, the first barrier or use in submission order must be a barrier.
  std::vector<uint32_t> takes_over(t.table.size(), kNone);  // the alias barrier's index
  for (uint32_t k = 0; k < a.barriers.size(); ++k)
    for (uint32_t m = 0; m < g.resources[a.barriers[k].resource].count; ++m)
      takes_over[t.first_member[a.barriers[k].resource] + m] = k;
  std::vector<uint8_t> done(t.table.size(), 0);
  auto name_of = [&](uint32_t gi, uint32_t li) {
    const uint32_t p = t.info[gi].passes[li];
    return p == kNone ? std::string(transition_list_name(t.info[gi].role)) : g.passes[p].name;
  };
  auto previous_names = [&](const AliasBarrier& ab) {
    std::string n;
    for (uint32_t p : ab.previous) n += (n.empty() ? "'" : ", '") + g.resources[p].desc.name + "'";
    return n;
  };
  for (uint32_t gi = 0; gi < t.compiled.size(); ++gi)
    for (uint32_t li = 0; li < t.compiled[gi].lists.size(); ++li) {
      const CompiledList& cl = t.compiled[gi].lists[li];
      for (const BarrierPoint& pt : cl.points) {
        if (pt.where != Where::before) continue;
        for (const Barrier& b : cl.barriers_at(pt)) {
          if (b.resource == kGlobalResource || takes_over[b.resource] == kNone || done[b.resource]) continue;
          done[b.resource] = 1;
          const AliasBarrier& ab = a.barriers[takes_over[b.resource]];
          AccessMask acc = 0;
          SyncMask sy = 0;
          for (uint32_t p : ab.previous) {
            acc |= need_access[p];
            sy |= need_sync[p];
          }
          const bool sync_ok = (b.before.sync & sync::all) || (sy & ~b.before.sync) == 0;
          const bool access_ok = (b.before.access & kAnyAccess) || (acc & ~b.before.access) == 0;
          const bool layout_ok =
              t.table[b.resource].type == ResourceType::buffer || b.before.layout == Layout::undefined;
          if ((!sync_ok || !access_ok || !layout_ok) && out.size() < 20)
            out.push_back(fmt::format(
                "pass '{}', resource '{}': takes over the memory of {} but its first barrier "
                "starts from {}, which does not cover their last accesses ({}){}",
                name_of(gi, li), t.table[b.resource].name, previous_names(ab), to_string(b.before),
                to_string(State{sy, acc, Layout::undefined}), layout_ok ? "" : " from layout undefined"));
        }
      }
      // The list's own uses: a member that takes over memory and is used here without a barrier.
      for (const Use& u : t.groups[gi]->lists()[li]->ops().front().uses) {
        if (takes_over[u.resource] == kNone || done[u.resource]) continue;
        done[u.resource] = 1;
        if (out.size() < 20)
          out.push_back(fmt::format(
              "pass '{}', resource '{}': takes over the memory of {} but is used with no barrier "
              "ordering it after their last accesses",
              name_of(gi, li), t.table[u.resource].name, previous_names(a.barriers[takes_over[u.resource]])));
      }
    }
  return out;
}

std::vector<std::string> check_aliasing(const Graph& g, const Schedule& s, const Aliasing& a) {
  std::vector<std::string> out;
  const size_t nr = g.resources.size();
  // Per resource, rebuilt from the declarations: first serial index, per-queue last user, and per
  // queue what every user knows to be complete when it starts.
  struct Users {
    uint32_t first = kNone;
    std::array<uint32_t, kQueues> last_pos{};
    std::array<uint32_t, kQueues> known{kNone, kNone, kNone};
  };
  std::vector<Users> us(nr);
  for (uint32_t i = 0; i < s.serial.size(); ++i) {
    const uint32_t p = s.serial[i];
    const size_t q = qi(exec_queue(g.passes[p]));
    for (const PassUse& u : g.passes[p].uses) {
      Users& x = us[u.resource];
      if (x.first == kNone) x.first = i;
      x.last_pos[q] = std::max(x.last_pos[q], s.pos[p] + 1);
      for (size_t k = 0; k < kQueues; ++k) x.known[k] = std::min(x.known[k], k == q ? s.pos[p] : s.clock[p][k]);
    }
  }
  auto ordered = [&](uint32_t x, uint32_t y) {
    for (size_t k = 0; k < kQueues; ++k)
      if (us[y].known[k] < us[x].last_pos[k]) return false;
    return true;
  };
  // Elementary memory intervals; the resources covering each, ordered by first use, must form a chain.
  // Placements reuse the same few offsets over and over, so a small direct-mapped memo of values
  // already collected drops most repeats before the sort (which dominated at 100k placements).
  // Exact: a value is skipped only when it is already in `cuts`; sort + unique still decide.
  std::vector<uint64_t> cuts;
  std::array<uint64_t, 256> memo{};
  std::array<bool, 256> memo_used{};
  auto add_cut = [&](uint64_t x) {
    const size_t h = static_cast<size_t>(((x / kPlacementAlignment) * 0x9E3779B97F4A7C15ull) >> 56);
    if (memo_used[h] && memo[h] == x) return;
    memo_used[h] = true;
    memo[h] = x;
    cuts.push_back(x);
  };
  for (const Placement& p : a.placements) {
    add_cut(p.offset);
    add_cut(p.offset + p.size);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  // The resources covering each elementary interval k, in placement order, in CSR form:
  // cover[cover_first[k] .. cover_first[k + 1]). One allocation instead of one vector per interval.
  const size_t intervals = cuts.empty() ? 0 : cuts.size() - 1;
  std::vector<uint32_t> cover_first(intervals + 1, 0), first_cut(a.placements.size(), 0);
  auto each_interval = [&](auto&& f) {
    for (size_t i = 0; i < a.placements.size(); ++i) {
      const Placement& p = a.placements[i];
      if (p.size == 0) continue;
      for (size_t k = first_cut[i]; k + 1 < cuts.size() && cuts[k] < p.offset + p.size; ++k) f(k, p.resource);
    }
  };
  for (size_t i = 0; i < a.placements.size(); ++i)
    first_cut[i] = static_cast<uint32_t>(std::lower_bound(cuts.begin(), cuts.end(), a.placements[i].offset) - cuts.begin());
  each_interval([&](size_t k, uint32_t) { ++cover_first[k + 1]; });
  for (size_t k = 0; k < intervals; ++k) cover_first[k + 1] += cover_first[k];
  std::vector<uint32_t> cover(cover_first[intervals]);
  {
    std::vector<uint32_t> fill(cover_first.begin(), cover_first.end() - 1);
    each_interval([&](size_t k, uint32_t r) { cover[fill[k]++] = r; });
  }
  auto by_first = [&](uint32_t x, uint32_t y) { return us[x].first < us[y].first; };
  for (size_t k = 0; k < intervals && out.size() < 20; ++k) {
    uint32_t* const c = cover.data() + cover_first[k];
    const size_t n = cover_first[k + 1] - cover_first[k];
    // Placements usually come in order of first use already. A sequence strictly increasing by
    // first use is the only order std::sort can produce, so the sort is skipped; otherwise (ties
    // or disorder) the same std::sort on the same sequence keeps the findings text identical.
    bool strictly_sorted = true;
    for (size_t i = 1; i < n && strictly_sorted; ++i) strictly_sorted = by_first(c[i - 1], c[i]);
    if (!strictly_sorted) std::sort(c, c + n, by_first);
    for (size_t i = 1; i < n; ++i)
      if (!ordered(c[i - 1], c[i])) {
        out.push_back(fmt::format("resources '{}' and '{}' share memory at offset {} but may be live together",
                                  g.resources[c[i - 1]].desc.name, g.resources[c[i]].desc.name, cuts[k]));
        break;
      }
  }
  return out;
}

std::vector<std::string> check_serial_order(const Graph& g, const Validated& v, const CullResult& c,
                                            const Schedule& s) {
  std::vector<std::string> out;
  const size_t np = g.passes.size();
  std::vector<uint32_t> at(np, kNone);
  for (uint32_t i = 0; i < s.serial.size(); ++i) {
    const uint32_t p = s.serial[i];
    if (p >= np || !c.live[p] || at[p] != kNone) {
      out.push_back(fmt::format("serial position {}: pass #{} is culled, unknown or listed twice", i, p));
      return out;
    }
    at[p] = i;
  }
  for (uint32_t p = 0; p < np; ++p)
    if (c.live[p] && at[p] == kNone) out.push_back(fmt::format("pass '{}' is live but not scheduled", g.passes[p].name));
  if (!out.empty()) return out;
  // Queue order and waits, rebuilt: per pass, per queue, how many passes of that queue are complete.
  std::array<uint32_t, kQueues> count{};
  std::vector<uint32_t> pos(np, kNone);
  std::vector<std::array<uint32_t, kQueues>> done(np);
  std::array<std::array<uint32_t, kQueues>, kQueues> last{};
  // Per waiting pass, the passes it waits for, in CSR form (one allocation, not one vector per pass).
  auto wait_ok = [&](const Sync& y) { return at[y.signal] != kNone && at[y.wait] != kNone && at[y.signal] < at[y.wait]; };
  std::vector<uint32_t> wait_first(np + 1, 0);
  for (const Sync& y : s.syncs) {
    if (!wait_ok(y)) {
      out.push_back(fmt::format("wait of pass '{}' for pass '{}' does not follow its signal in the serial order",
                                g.passes[y.wait].name, g.passes[y.signal].name));
      continue;
    }
    ++wait_first[y.wait + 1];
  }
  for (size_t p = 0; p < np; ++p) wait_first[p + 1] += wait_first[p];
  std::vector<uint32_t> waits(wait_first[np]);
  {
    std::vector<uint32_t> fill(wait_first.begin(), wait_first.end() - 1);
    for (const Sync& y : s.syncs)
      if (wait_ok(y)) waits[fill[y.wait]++] = y.signal;
  }
  for (uint32_t p : s.serial) {
    const size_t q = qi(exec_queue(g.passes[p]));
    pos[p] = count[q]++;
    std::array<uint32_t, kQueues> d = last[q];
    for (uint32_t i = wait_first[p]; i < wait_first[p + 1]; ++i)
      for (size_t k = 0; k < kQueues; ++k) d[k] = std::max(d[k], done[waits[i]][k]);
    d[q] = pos[p] + 1;
    done[p] = d;
    last[q] = d;
  }
  for (const Edge& e : v.edges) {
    if (!c.live[e.from] || !c.live[e.to]) continue;
    if (at[e.from] >= at[e.to]) {
      out.push_back(fmt::format("pass '{}' is scheduled before pass '{}' which it depends on ({})",
                                g.passes[e.to].name, g.passes[e.from].name, to_string(e.kind)));
      continue;
    }
    const size_t qf = qi(exec_queue(g.passes[e.from]));
    if (qi(exec_queue(g.passes[e.to])) != qf && done[e.to][qf] <= pos[e.from])
      out.push_back(fmt::format("pass '{}' on the {} queue may start before pass '{}' on the {} queue completes ({})",
                                g.passes[e.to].name, to_string(exec_queue(g.passes[e.to])), g.passes[e.from].name,
                                to_string(exec_queue(g.passes[e.from])), to_string(e.kind)));
  }
  return out;
}

}  // namespace baton::graph
