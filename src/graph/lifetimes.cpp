// Phase 4: lifetimes. Per resource, the serial span of its users and, per queue, the last position
// of a user; memory frees at the first serial index after which every later pass is ordered after
// all users (with one queue that is simply the index after the last user).
#include <algorithm>

#include "baton/graph.hpp"

namespace baton::graph {

std::vector<Lifetime> lifetimes(const Graph& g, const Schedule& s) {
  std::vector<Lifetime> lt(g.resources.size());
  const uint32_t n = static_cast<uint32_t>(s.serial.size());
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t p = s.serial[i];
    const size_t q = qi(exec_queue(g.passes[p]));
    for (const PassUse& u : g.passes[p].uses) {
      Lifetime& l = lt[u.resource];
      if (l.first == kNone) l.first = i;
      l.last = i;
      l.last_pos[q] = s.pos[p] + 1;
      // What is complete before the pass starts: on its own queue, the passes before it.
      for (size_t k = 0; k < kQueues; ++k) l.min_clock[k] = std::min(l.min_clock[k], k == q ? s.pos[p] : s.clock[p][k]);
    }
  }
  // suffix[i][q]: the least that any pass at serial index >= i knows about queue q.
  std::vector<std::array<uint32_t, kQueues>> suffix(n + 1);
  suffix[n].fill(kNone);
  for (uint32_t i = n; i-- > 0;)
    for (size_t k = 0; k < kQueues; ++k) suffix[i][k] = std::min(suffix[i + 1][k], s.clock[s.serial[i]][k]);
  for (Lifetime& l : lt) {
    if (!l.used()) continue;
    auto covered = [&](uint32_t i) {
      for (size_t k = 0; k < kQueues; ++k)
        if (suffix[i][k] < l.last_pos[k]) return false;
      return true;
    };
    uint32_t lo = l.last + 1, hi = n;  // suffix only grows with i: binary search
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (covered(mid)) hi = mid;
      else lo = mid + 1;
    }
    l.free_at = lo;
  }
  return lt;
}

}  // namespace baton::graph
