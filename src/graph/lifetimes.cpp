// Phase 4: lifetimes. Per resource, the serial span of its users and, per queue, the last position
// of a user; memory frees at the first serial index after which every later pass is ordered after
// all users (with one queue that is simply the index after the last user).
#include <algorithm>

#include "baton/graph.hpp"
#include "baton/reuse.hpp"

namespace baton::graph {

std::vector<Lifetime> lifetimes(const Graph& g, const Schedule& s) {
  std::vector<Lifetime> lt;
  lifetimes_into(lt, g, s);
  return lt;
}

void lifetimes_into(std::vector<Lifetime>& lt, const Graph& g, const Schedule& s) {
  lt.assign(g.resources.size(), Lifetime{});  // the caller's storage, every lifetime fresh
  const uint32_t n = static_cast<uint32_t>(s.serial.size());
  std::array<uint32_t, kQueues> on_queue{};  // per queue: 1 + the last position of a scheduled pass
  Lifetime* const out = lt.data();
  static_assert(kQueues == 3, "the walk below names each queue's clock");
  const uint32_t* const serial = s.serial.data();
  const uint32_t* const position = s.pos.data();
  const std::array<uint32_t, kQueues>* const clock_of = s.clock.data();
  const Pass* const passes = g.passes.data();
  // Every pass on one queue (the last one's position on its queue is its serial index): a pass's clock
  // knows only its own queue, up to itself, and its position is its serial index, so the users' first and
  // last serial index say everything: last_pos and min_clock on that queue are last + 1 and first (0 on
  // the others), and the memory frees right after the last user. One walk of first/last per use.
  if (n > 0 && position[serial[n - 1]] == n - 1) {
    const size_t q = qi(exec_queue(passes[serial[0]]));
    for (uint32_t i = 0; i < n; ++i) {
      const Pass& pass = passes[serial[i]];
      for (const PassUse *u = pass.uses.data(), *end = u + pass.uses.size(); u != end; ++u) {
        Lifetime& l = out[u->resource];
        if (l.first == kNone) l.first = i;
        l.last = i;
      }
    }
    for (Lifetime& l : lt) {
      if (!l.used()) continue;
      l.last_pos[q] = l.last + 1;
      l.min_clock = {0, 0, 0};
      l.min_clock[q] = l.first;
      l.free_at = l.last + 1;
    }
    return;
  }
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t p = serial[i];
    const Pass& pass = passes[p];
    const size_t q = qi(exec_queue(pass));
    const uint32_t pos = position[p];
    on_queue[q] = std::max(on_queue[q], pos + 1);
    // What is complete before the pass starts (its own queue: the passes before it), once per pass.
    const std::array<uint32_t, kQueues>& c = clock_of[p];
    const uint32_t known0 = q == 0 ? pos : c[0], known1 = q == 1 ? pos : c[1], known2 = q == 2 ? pos : c[2];
    for (const PassUse *u = pass.uses.data(), *end = u + pass.uses.size(); u != end; ++u) {
      Lifetime& l = out[u->resource];
      if (l.first == kNone) l.first = i;
      l.last = i;
      // The smallest clock over the users: a user on a queue that already had one (last_pos[q] != 0)
      // knows at least what that earlier user knew (clocks only grow along a queue, and its own
      // queue's entry is its position), so only the first user per queue can lower the minimum.
      if (l.last_pos[q] == 0) {
        l.min_clock[0] = std::min(l.min_clock[0], known0);
        l.min_clock[1] = std::min(l.min_clock[1], known1);
        l.min_clock[2] = std::min(l.min_clock[2], known2);
      }
      l.last_pos[q] = pos + 1;
    }
  }
  // Memory frees at the smallest serial index i > last such that every pass at index >= i knows
  // each queue q complete up to the resource's last user there: min over those passes of
  // clock[q] >= last_pos[q]. That minimum only grows with i, so per queue the answer is the
  // smallest i whose suffix minimum reaches last_pos[q]; the resource frees at the largest of
  // those (and after its last user). reach[q][v] tabulates that smallest i for every value v a
  // last_pos can take (0 .. passes on q), in one backward sweep: O(n) instead of a binary search
  // over a suffix array per resource (which missed the cache at 100k passes).
  // With every pass on one queue, pass i's clock there is i + 1 and nothing else is known: the answer
  // is then always the index after the last user, with no table.
  if ((on_queue[0] != 0) + (on_queue[1] != 0) + (on_queue[2] != 0) <= 1) {
    for (Lifetime& l : lt)
      if (l.used()) l.free_at = l.last + 1;
    return;
  }
  thread_local std::array<std::vector<uint32_t>, kQueues> reach;  // scratch kept from call to call
  // Invariant: m[k] = min of clock[k] over serial indices >= i + 1 (capped at the table); values
  // in (new m[k], m[k]] are first reached at i + 1 once the sweep drops below them. Values still
  // <= m[k] at the end are reached from index 0.
  std::array<uint32_t, kQueues> m = on_queue;
  for (size_t k = 0; k < kQueues; ++k) reach[k].assign(on_queue[k] + 1, 0);
  for (uint32_t i = n; i-- > 0;) {
    const std::array<uint32_t, kQueues>& clock = s.clock[s.serial[i]];
    for (size_t k = 0; k < kQueues; ++k) {
      const uint32_t c = std::min(m[k], clock[k]);
      for (uint32_t x = c + 1; x <= m[k]; ++x) reach[k][x] = i + 1;
      m[k] = c;
    }
  }
  for (Lifetime& l : lt) {
    if (!l.used()) continue;
    uint32_t at = l.last + 1;
    for (size_t k = 0; k < kQueues; ++k) at = std::max(at, reach[k][l.last_pos[k]]);
    l.free_at = at;
  }
}

}  // namespace baton::graph
