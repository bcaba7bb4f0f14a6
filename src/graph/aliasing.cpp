// Phase 5: aliasing. Transient resources go into one heap, in order of first use, each at the best
// fitting gap between the resources it may overlap in time. Two resources may share memory only
// when every user of the earlier one is ordered before every user of the later one under the
// schedule (with several queues: through its waits). The heap never grows past what is needed
// for a resource that fits nowhere else.
#include <algorithm>
#include <map>
#include <numeric>

#include "baton/graph.hpp"

namespace baton::graph {
namespace {

// Every user of `a` completes before any user of `b` starts.
bool before(const Lifetime& a, const Lifetime& b) {
  for (size_t k = 0; k < kQueues; ++k)
    if (b.min_clock[k] < a.last_pos[k]) return false;
  return true;
}

}  // namespace

Aliasing alias(const Graph& g, const Schedule& s, const std::vector<Lifetime>& lt, const AliasingOptions& o) {
  Aliasing a;
  const size_t nr = g.resources.size();
  a.placement_of.assign(nr, kNone);
  std::vector<uint32_t> order;
  for (uint32_t r = 0; r < nr; ++r)
    if (g.resources[r].transient && lt[r].used()) order.push_back(r);
  std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    return lt[x].first != lt[y].first ? lt[x].first < lt[y].first : x < y;
  });
  a.placements.reserve(order.size());
  // Lower bound: the most bytes live at once over the serial order.
  std::vector<std::pair<uint32_t, int64_t>> events;
  events.reserve(order.size() * 2);
  for (uint32_t r : order) {
    const uint64_t size = estimated_size(g.resources[r]) * g.resources[r].count;
    a.unaliased += size;
    events.push_back({lt[r].first, static_cast<int64_t>(size)});
    events.push_back({lt[r].last + 1, -static_cast<int64_t>(size)});
  }
  std::sort(events.begin(), events.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first < y.first : x.second < y.second;  // frees first
  });
  int64_t live = 0;
  for (const auto& e : events) {
    live += e.second;
    a.lower_bound = std::max(a.lower_bound, static_cast<uint64_t>(live));
  }

  if (!o.enabled) {
    for (uint32_t r : order) {
      const uint64_t size = estimated_size(g.resources[r]) * g.resources[r].count;
      a.placement_of[r] = static_cast<uint32_t>(a.placements.size());
      a.placements.push_back({r, a.heap_size, size});
      a.heap_size += size;
    }
    return a;
  }

  std::vector<uint32_t> active;  // placements that are not yet free for every later resource
  std::vector<std::pair<uint64_t, uint64_t>> busy;  // [begin, end) blocked for the current resource
  std::map<uint64_t, std::pair<uint64_t, uint32_t>> occupant;  // begin -> (end, last resource placed there)
  uint64_t top = 0;
  for (uint32_t r : order) {
    const Lifetime& l = lt[r];
    const uint64_t size = estimated_size(g.resources[r]) * g.resources[r].count;
    busy.clear();
    size_t keep = 0;
    for (uint32_t pi : active) {
      const Placement& p = a.placements[pi];
      if (lt[p.resource].free_at <= l.first) continue;  // free for this and every later resource
      active[keep++] = pi;
      if (!before(lt[p.resource], l)) busy.push_back({p.offset, p.offset + p.size});
    }
    active.resize(keep);
    std::sort(busy.begin(), busy.end());
    // Best fit among the gaps below the top; ties go to the lowest offset.
    uint64_t best = kNone, best_gap = ~uint64_t{0}, cursor = 0;
    for (const auto& b : busy) {
      if (b.first > cursor && b.first - cursor >= size && b.first - cursor < best_gap) {
        best = cursor;
        best_gap = b.first - cursor;
      }
      cursor = std::max(cursor, b.second);
    }
    uint64_t offset;
    if (best != kNone) offset = best;
    else offset = cursor;  // the free tail (possibly empty) grows the heap as little as possible
    top = std::max(top, offset + size);
    const uint32_t pi = static_cast<uint32_t>(a.placements.size());
    a.placement_of[r] = pi;
    a.placements.push_back({r, offset, size});
    active.push_back(pi);

    // Whose memory this takes over: the latest occupants of [offset, offset + size).
    AliasBarrier ab{s.serial[l.first], r, {}};
    const uint64_t end = offset + size;
    auto it = occupant.upper_bound(offset);
    if (it != occupant.begin()) --it;
    while (it != occupant.end() && it->first < end) {
      const uint64_t b = it->first, e = it->second.first;
      const uint32_t prev = it->second.second;
      if (e <= offset) {
        ++it;
        continue;
      }
      if (std::find(ab.previous.begin(), ab.previous.end(), prev) == ab.previous.end()) ab.previous.push_back(prev);
      it = occupant.erase(it);
      if (b < offset) occupant.emplace(b, std::make_pair(offset, prev));
      if (e > end) occupant.emplace(end, std::make_pair(e, prev));
    }
    occupant.emplace(offset, std::make_pair(end, r));
    if (!ab.previous.empty()) {
      std::sort(ab.previous.begin(), ab.previous.end());
      a.barriers.push_back(std::move(ab));
    }
  }
  a.heap_size = top;
  return a;
}

}  // namespace baton::graph
