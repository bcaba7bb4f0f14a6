// A replay of the barrier stream, per subresource, in submission order. The checks use it instead
// of anything the planner computed: it only applies each barrier's after-state. The state of each
// member is kept as runs of equal states over its run index (baton/runs.hpp, RunOrder: mip-major), so a
// member costs what its barriers split it into, not its subresource count, and a box of some mips over
// many layers is one interval per (mip, plane), not one per layer. Messages name subresources by their
// subresource index (mip + layer * mips + plane * mips * layers), converted back here.
#pragma once

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include "baton/graph.hpp"
#include "baton/runs.hpp"

namespace baton::graph::detail {

struct Replay {
  std::vector<Runs<State>> state;  // per member
};

// The run order of member d's state: a texture's (mips, layers); a buffer's bytes are their own order.
inline RunOrder run_order(const ResourceDesc& d) {
  return d.type == ResourceType::buffer ? RunOrder{} : RunOrder{d.mips, d.layers};
}
// The run-index intervals of a box of texture d, ascending, as f(lo, hi): one per (mip, plane) row,
// rows that meet joined. No allocation: the checks call it for every use and barrier.
template <class F>
void for_each_interval(const ResourceDesc& d, const Box& b, F&& f) {
  const uint32_t layers = d.layers, slice = d.mips * d.layers;
  uint32_t open_lo = 0, open_hi = 0;
  bool open = false;
  for (uint32_t p = b.p0; p < b.p1; ++p)
    for (uint32_t m = b.m0; m < b.m1; ++m) {
      const uint32_t lo = p * slice + m * layers + b.l0, hi = lo + (b.l1 - b.l0);
      if (open && open_hi == lo) {
        open_hi = hi;
        continue;
      }
      if (open) f(open_lo, open_hi);
      open_lo = lo;
      open_hi = hi;
      open = true;
    }
  if (open) f(open_lo, open_hi);
}
// The index space of a member's state: a texture's subresources; a buffer's bytes (buffer_extent), so
// that the checks see byte ranges as the planner does (a buffer used whole is one run all the same).
inline uint32_t cells(const ResourceDesc& d) {
  return d.type == ResourceType::buffer ? buffer_extent(d).m1 : d.mips * d.layers * d.planes;
}
// The intervals of that space a barrier covers, as f(lo, hi).
template <class F>
void for_each_barrier_interval(const ResourceDesc& d, const Barrier& b, F&& f) {
  if (d.type != ResourceType::buffer) return for_each_interval(d, b.box, std::forward<F>(f));
  const uint32_t end = buffer_extent(d).m1;
  if (b.whole_bytes()) return f(0u, end);
  const uint64_t hi = b.byte_offset + b.byte_size;
  f(static_cast<uint32_t>(b.byte_offset), hi >= end ? end : static_cast<uint32_t>(hi));
}
// The intervals of that space a use covers, as f(lo, hi).
template <class F>
void for_each_use_interval(const ResourceDesc& d, const SubresourceRange& r, F&& f) {
  if (d.type == ResourceType::buffer) {
    const Box e = is_whole(r) ? buffer_extent(d) : use_extent(d, r);
    return f(e.m0, e.m1);
  }
  for_each_interval(d, is_whole(r) ? full_box(d) : resolve(d, r), std::forward<F>(f));
}
// (mip, layer, plane) of a subresource index of d.
struct Sub3 {
  uint32_t mip, layer, plane;
};
inline Sub3 sub3(const ResourceDesc& d, uint32_t i) {
  return {i % d.mips, i / d.mips % d.layers, i / (d.mips * d.layers)};
}
// The least subresource index among the run indices [lo, hi) of d (what a message names as "the
// first" subresource): the first index's, or that of the first whole (mip, plane) row after it, whose
// layer 0 has the least subresource index of its row.
inline uint32_t least_subresource(const ResourceDesc& d, uint32_t lo, uint32_t hi) {
  const RunOrder o = run_order(d);
  uint32_t best = o.subresource(lo);
  const uint32_t row = (lo + o.layers - 1) / o.layers * o.layers;
  if (row < hi) best = std::min(best, o.subresource(row));
  return best;
}
// Calls f(subresource, value) for the subresources of the runs (lo, hi, value) in ascending
// subresource index, stopping after `limit` calls: per-subresource findings come in the order of the
// subresource index whatever the order of the runs.
template <class T, class F>
void for_each_subresource_ascending(const ResourceDesc& d,
                                    const std::vector<std::tuple<uint32_t, uint32_t, T>>& runs, size_t limit,
                                    F&& f) {
  if (limit == 0) return;
  const RunOrder o = run_order(d);
  std::vector<std::pair<uint32_t, size_t>>
      subs;  // the first `limit` subresources of every (mip, plane) row piece
  for (size_t k = 0; k < runs.size(); ++k) {
    const auto& [lo, hi, v] = runs[k];
    for (uint32_t a = lo; a < hi;) {
      const uint32_t row_end = std::min(hi, (a / o.layers + 1) * o.layers);
      for (uint32_t i = a; i < row_end && i - a < limit; ++i) subs.emplace_back(o.subresource(i), k);
      a = row_end;
    }
  }
  std::sort(subs.begin(), subs.end());
  for (size_t i = 0; i < subs.size() && i < limit; ++i) f(subs[i].first, std::get<2>(runs[subs[i].second]));
}
// Every member's subresources at the start of the frame (touched members at rest, the others
// untouched).
Replay replay_start(const Transitions& t);

// Walks every group, list and barrier point in order. `on_barrier(group, list, barrier, current, first,
// count)` is called per run of subresources [first, first + count) of the barrier's member in one state
// before the barrier applies; `on_use(group, list, replay)` between the list's before and after points
// (the list's one operation). A template rather than std::function: both callbacks inline here.
template <class OnBarrier, class OnUse>
Replay replay(const Transitions& t, OnBarrier&& on_barrier, OnUse&& on_use) {
  Replay rp = replay_start(t);
  auto apply = [&](uint32_t gi, uint32_t li, const Barrier& b) {
    if (b.resource == kGlobalResource) return;
    Runs<State>& runs = rp.state[b.resource];
    for_each_barrier_interval(t.table[b.resource], b, [&](uint32_t lo, uint32_t hi) {
      runs.update(lo, hi, [&](uint32_t first, uint32_t n, State& s) {
        on_barrier(gi, li, b, s, first, n);
        s = b.after;
      });
      runs.coalesce(lo, hi);
    });
  };
  for (uint32_t gi = 0; gi < t.compiled.size(); ++gi) {
    const CompiledGroup& cg = t.compiled[gi];
    for (uint32_t li = 0; li < cg.lists.size(); ++li) {
      const CompiledList& cl = cg.lists[li];
      size_t k = 0;
      for (; k < cl.points.size() && cl.points[k].where == Where::before; ++k)
        for (const Barrier& b : cl.barriers_at(cl.points[k])) apply(gi, li, b);
      on_use(gi, li, rp);
      for (; k < cl.points.size(); ++k)
        for (const Barrier& b : cl.barriers_at(cl.points[k])) apply(gi, li, b);
    }
  }
  return rp;
}

}  // namespace baton::graph::detail
