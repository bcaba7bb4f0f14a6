// Phase 5: aliasing. Transient resources go into one heap, each at the best fitting gap between
// the resources it may overlap in time (placed in order of first use, and again largest first: the
// smaller heap wins). Two resources may share memory only
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

  // Offsets: two greedy passes, each placing a resource at the best fitting gap among the
  // resources it may overlap in time (one pass in order of first use, one largest first); the
  // smaller heap wins. Then, in order of first use, who takes over whose memory.
  auto size_of = [&](uint32_t r) { return estimated_size(g.resources[r]) * g.resources[r].count; };
  auto overlap = [&](uint32_t x, uint32_t y) { return !before(lt[x], lt[y]) && !before(lt[y], lt[x]); };
  // `in_time_order`: the sequence is in order of first use, so a resource free before the current
  // one's first use is free for every later one too and leaves the candidate list for good.
  auto place = [&](const std::vector<uint32_t>& sequence, std::vector<uint64_t>& offset_of, bool in_time_order) {
    std::vector<uint32_t> placed;
    std::vector<std::pair<uint64_t, uint64_t>> busy;  // [begin, end) blocked for the current resource
    uint64_t top = 0;
    for (uint32_t r : sequence) {
      const uint64_t size = size_of(r);
      busy.clear();
      size_t keep = 0;
      for (uint32_t q : placed) {
        if (in_time_order && lt[q].free_at <= lt[r].first) continue;
        placed[keep++] = q;
        if (overlap(q, r)) busy.push_back({offset_of[q], offset_of[q] + size_of(q)});
      }
      placed.resize(keep);
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
      // Otherwise the free tail (possibly empty) grows the heap as little as possible.
      offset_of[r] = best != kNone ? best : cursor;
      top = std::max(top, offset_of[r] + size);
      placed.push_back(r);
    }
    return top;
  };
  std::vector<uint64_t> offset_of(nr, 0), by_size_offset(nr, 0);
  uint64_t top = place(order, offset_of, true);
  // The second pass compares every pair (quadratic): only when the first left room to gain and the
  // frame has at most kLargestFirstLimit transients (real frames have tens; generated benchmark
  // chains have thousands and are placed exactly by the first pass).
  constexpr size_t kLargestFirstLimit = 1024;
  if (top > a.lower_bound && order.size() <= kLargestFirstLimit) {
    std::vector<uint32_t> largest_first = order;
    std::stable_sort(largest_first.begin(), largest_first.end(),
                     [&](uint32_t x, uint32_t y) { return size_of(x) > size_of(y); });
    if (const uint64_t t = place(largest_first, by_size_offset, false); t < top) {
      top = t;
      offset_of = by_size_offset;
    }
  }

  std::map<uint64_t, std::pair<uint64_t, uint32_t>> occupant;  // begin -> (end, last resource placed there)
  for (uint32_t r : order) {
    const Lifetime& l = lt[r];
    const uint64_t size = size_of(r), offset = offset_of[r];
    const uint32_t pi = static_cast<uint32_t>(a.placements.size());
    a.placement_of[r] = pi;
    a.placements.push_back({r, offset, size});

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
