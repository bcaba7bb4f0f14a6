// Phase 3: schedule. A topological order of the live passes (program order, a seeded random valid
// order to shake out missing dependencies, or the latency-hiding order: longest chain after the pass
// first), per-queue positions, and the cross-queue
// signal/wait pairs. A dependency whose producer the consumer's queue already knows to be complete
// (through earlier waits, on any chain of queues) needs no wait: vector clocks make that test O(1),
// which is the transitive reduction of the cross-queue edges.
#include <algorithm>
#include <bit>
#include <queue>
#include <random>

#include "baton/graph.hpp"
#include "baton/reuse.hpp"

namespace baton::graph {

namespace {

// A topological order of the live passes under `o` (Kahn's algorithm): program order (the least ready
// pass first), a seeded random order, or the latency order.
void general_order(const Graph& g, const Validated& v, const CullResult& c, const ScheduleOptions& o, Schedule& s) {
  const size_t np = g.passes.size();
  s.serial.clear();
  // Live successors in CSR form (counting sort by `from`, keeping edge order, which the random
  // order depends on): two flat arrays instead of one vector per pass.
  std::vector<uint32_t> indeg(np, 0), out_first(np + 1, 0);
  for (const Edge& e : v.edges)
    if (c.live[e.from] && c.live[e.to]) {
      ++indeg[e.to];
      ++out_first[e.from + 1];
    }
  for (size_t p = 0; p < np; ++p) out_first[p + 1] += out_first[p];
  std::vector<uint32_t> out(out_first[np]);
  {
    std::vector<uint32_t> fill(out_first.begin(), out_first.end() - 1);
    for (const Edge& e : v.edges)
      if (c.live[e.from] && c.live[e.to]) out[fill[e.from]++] = e.to;
  }
  // Latency: each live pass's height, the longest chain of live passes from it to a sink
  // (heights over a topological order in reverse; the edges need not point forward).
  std::vector<uint32_t> height;
  if (o.order == Order::latency) {
    std::vector<uint32_t> deg = indeg, topo, stack;
    topo.reserve(np);
    for (uint32_t p = 0; p < np; ++p)
      if (c.live[p] && deg[p] == 0) stack.push_back(p);
    while (!stack.empty()) {
      const uint32_t p = stack.back();
      stack.pop_back();
      topo.push_back(p);
      for (uint32_t k = out_first[p]; k < out_first[p + 1]; ++k)
        if (--deg[out[k]] == 0) stack.push_back(out[k]);
    }
    height.assign(np, 0);
    for (size_t i = topo.size(); i-- > 0;) {
      const uint32_t p = topo[i];
      uint32_t h = 0;
      for (uint32_t k = out_first[p]; k < out_first[p + 1]; ++k) h = std::max(h, height[out[k]]);
      height[p] = h + 1;
    }
  }
  // Highest first, then async passes (their queue starts early and overlaps what follows on the
  // direct queue), then program order.
  auto later = [&](uint32_t a, uint32_t b) {
    if (height[a] != height[b]) return height[a] < height[b];
    const bool aa = exec_queue(g.passes[a]) != Queue::direct, ba = exec_queue(g.passes[b]) != Queue::direct;
    if (aa != ba) return ba;
    return a > b;
  };
  std::priority_queue<uint32_t, std::vector<uint32_t>, decltype(later)> by_height(later);
  std::mt19937_64 rng(o.seed);
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<>> heap;  // program order
  std::vector<uint32_t> ready;                                                 // random order
  auto push = [&](uint32_t p) {
    if (o.order == Order::program)
      heap.push(p);
    else if (o.order == Order::latency)
      by_height.push(p);
    else
      ready.push_back(p);
  };
  for (uint32_t p = 0; p < np; ++p)
    if (c.live[p] && indeg[p] == 0) push(p);
  while (!heap.empty() || !ready.empty() || !by_height.empty()) {
    uint32_t p;
    if (o.order == Order::program) {
      p = heap.top();
      heap.pop();
    } else if (o.order == Order::latency) {
      p = by_height.top();
      by_height.pop();
    } else {
      const size_t i = static_cast<size_t>(rng() % ready.size());
      p = ready[i];
      ready[i] = ready.back();
      ready.pop_back();
    }
    s.serial.push_back(p);
    for (uint32_t k = out_first[p]; k < out_first[p + 1]; ++k)
      if (--indeg[out[k]] == 0) push(out[k]);
  }
}

// Positions, clocks and the waits over s.serial. With `program_order` the serial order was taken to be
// the live passes in declaration order without looking at the edges: returns false (and leaves `s` to be
// redone) at the first edge between live passes that points backward, which that order breaks. Every
// edge between live passes is an in-edge of a live pass, so each is seen before the result counts.
bool clocks(const Graph& g, const Validated& v, const CullResult& c, Schedule& s, bool program_order) {
  std::array<uint32_t, kQueues> count{};
  std::array<std::array<uint32_t, kQueues>, kQueues> known{};  // per queue: clock after its last pass
  // Per pass, the queue it runs on, noted when the pass is scheduled (a producer always is before its
  // consumers): the edges below read it here instead of in the pass's (large) record. Per-thread scratch;
  // not bytes: a char store would make the compiler reload every pointer of the loop after it.
  thread_local std::vector<uint32_t> queue_of;
  queue_of.resize(g.passes.size());
  const Edge* const edges = v.edges.data();
  const uint32_t* const in_first = v.in_first.data();
  const uint8_t* const live = c.live.data();
  uint32_t* const pos = s.pos.data();
  std::array<uint32_t, kQueues>* const clock_of = s.clock.data();
  const uint32_t n = static_cast<uint32_t>(s.serial.size());
  uint32_t queues = 0;  // bit q: some pass runs on queue q
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t p = s.serial[i];
    const uint32_t q = static_cast<uint32_t>(qi(exec_queue(g.passes[p])));
    queue_of[p] = q;
    queues |= 1u << q;
  }
  if ((queues & (queues - 1)) == 0) {
    // One queue (q1): nothing crosses queues, so there is no wait; pass i is at position i, and its clock
    // knows only its own queue, up to itself (written in place: a copy built on the stack costs more).
    // The edges are read only to check the program order.
    const unsigned q1 = queues ? static_cast<unsigned>(std::countr_zero(queues)) : 0;
    uint32_t* const serial_of = s.serial_of.data();
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t p = s.serial[i];
      if (program_order)
        for (uint32_t e = in_first[p], end = in_first[p + 1]; e < end; ++e)
          if (edges[e].from > p && live[edges[e].from]) return false;
      serial_of[p] = i;
      pos[p] = i;
      std::array<uint32_t, kQueues>& clock = clock_of[p];
      clock = {};
      clock[q1] = i + 1;
    }
    return true;
  }
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t p = s.serial[i];
    s.serial_of[p] = i;
    const size_t q = queue_of[p];
    pos[p] = count[q]++;
    std::array<uint32_t, kQueues> clock = known[q];
    // The latest producer this pass needs on each other queue.
    std::array<uint32_t, kQueues> need;
    need.fill(kNone);
    bool any = false;
    // Walked by pointer: an index walk made the compiler rebuild both ends from the index per pass.
    for (const Edge *e = edges + in_first[p], *const end = edges + in_first[p + 1]; e != end; ++e) {
      const uint32_t u = e->from;
      if (!live[u]) continue;
      if (program_order && u > p) return false;
      const size_t qu = queue_of[u];
      if (qu == q) continue;
      ++s.cross_queue_edges;
      if (clock[qu] > pos[u]) continue;  // already known complete
      if (need[qu] == kNone || pos[need[qu]] < pos[u]) need[qu] = u;
      any = true;
    }
    // A wait another needed wait already implies is dropped too.
    if (any)
      for (size_t a = 0; a < kQueues; ++a) {
        if (need[a] == kNone) continue;
        bool implied = false;
        for (size_t b = 0; b < kQueues; ++b)
          if (b != a && need[b] != kNone && clock_of[need[b]][a] > pos[need[a]]) implied = true;
        if (implied) continue;
        s.syncs.push_back({need[a], p});
        for (size_t k = 0; k < kQueues; ++k) clock[k] = std::max(clock[k], clock_of[need[a]][k]);
      }
    clock[q] = pos[p] + 1;
    clock_of[p] = clock;
    known[q] = clock;
  }
  return true;
}

}  // namespace

Schedule schedule(const Graph& g, const Validated& v, const CullResult& c, const ScheduleOptions& o) {
  Schedule s;
  schedule_into(s, g, v, c, o);
  return s;
}

void schedule_into(Schedule& s, const Graph& g, const Validated& v, const CullResult& c, const ScheduleOptions& o) {
  const size_t np = g.passes.size();
  reuse_storage(s, &Schedule::serial, &Schedule::serial_of, &Schedule::pos, &Schedule::clock, &Schedule::syncs);
  s.serial_of.assign(np, kNone);
  s.pos.assign(np, kNone);
  s.clock.resize(np);  // a live pass's clock is written when it is scheduled; a culled pass's is zero
  s.serial.reserve(np);

  // Topological order. Derived edges point forward, so program order is valid unless an `after` edge
  // between live passes points backward: then (and for the other orders) Kahn's algorithm, whose
  // program order equals declaration order whenever the live passes' edges all point forward.
  if (o.order == Order::program) {
    for (uint32_t p = 0; p < np; ++p)
      if (c.live[p]) s.serial.push_back(p);
    // Every edge points forward (validate() says so): nothing to check.
    if (clocks(g, v, c, s, v.backward)) return;
    s.syncs.clear();
    s.cross_queue_edges = 0;
    std::fill(s.serial_of.begin(), s.serial_of.end(), kNone);
    std::fill(s.pos.begin(), s.pos.end(), kNone);
  }
  general_order(g, v, c, o, s);
  clocks(g, v, c, s, false);
}

bool happens_before(const Schedule& s, const Graph& g, uint32_t a, uint32_t b) {
  if (a == b || s.serial_of[a] == kNone || s.serial_of[b] == kNone) return false;
  return s.clock[b][qi(exec_queue(g.passes[a]))] > s.pos[a];
}

}  // namespace baton::graph
