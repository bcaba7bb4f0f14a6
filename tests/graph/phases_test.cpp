// Phase behaviour on small graphs, and every check failing when fed a corrupted intermediate result.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <functional>
#include <random>

#include "baton/graph.hpp"
#include "random_graph.hpp"

namespace baton::graph {
namespace {

Resource texture(std::string name, uint32_t size, bool transient) {
  Resource r;
  r.desc.name = std::move(name);
  r.desc.width = r.desc.height = size;
  r.desc.usage = bit(Access::unordered_access) | bit(Access::shader_resource);
  r.transient = transient;
  return r;
}

PassUse use(uint32_t r, Access a, Stages s = kNoStages) { return PassUse{r, a, s, {}}; }

// The chain shape: pass i writes r_i (UAV) and reads r_{i-1}, r_{i-2}; all transient; the last
// pass copies into a persistent output.
Graph chain(size_t n, bool async_odd = false) {
  Graph g;
  const uint32_t sizes[] = {256, 512, 1024};
  for (size_t i = 0; i < n; ++i) g.resources.push_back(texture("r" + std::to_string(i), sizes[i % 3], true));
  Resource out = texture("out", 256, false);
  out.desc.usage = bit(Access::copy_dest) | bit(Access::shader_resource);
  g.resources.push_back(out);
  const Stages cs = stages(Stage::compute);
  for (uint32_t i = 0; i < n; ++i) {
    Pass p;
    p.name = "p" + std::to_string(i);
    p.queue = Queue::compute;
    p.async = async_odd && (i % 2 == 1);
    p.uses.push_back(use(i, Access::unordered_access, cs));
    if (i >= 1) p.uses.push_back(use(i - 1, Access::shader_resource, cs));
    if (i >= 2) p.uses.push_back(use(i - 2, Access::shader_resource, cs));
    g.passes.push_back(std::move(p));
  }
  Pass c;
  c.name = "copy_out";
  c.uses = {use(static_cast<uint32_t>(n - 1), Access::copy_source), use(static_cast<uint32_t>(n), Access::copy_dest)};
  g.passes.push_back(std::move(c));
  g.outputs.push_back(static_cast<uint32_t>(n));
  return g;
}

// validate() checks and applies a pass whose uses are on distinct resources in one loop, and undoes it
// when a use names a resource the pass already used (the general path then redoes the pass): the reads
// it applied must leave their readers' lists and the writes their latest writer as they were, or the
// pass would read twice (two write-after-read edges to the next writer) or overwrite itself (an
// ambiguous write order against itself).
TEST(GraphPhases, ValidateUndoesTheOneLoopPathAtARepeatedResource) {
  Graph g;
  for (const char* n : {"a", "b", "c"}) g.resources.push_back(texture(n, 64, false));
  g.resources[1].desc.usage |= bit(Access::copy_dest);  // b: overwritten without reading it
  const Stages cs = stages(Stage::compute);
  auto pass = [&](std::string name, std::vector<PassUse> uses) {
    Pass p;
    p.name = std::move(name);
    p.queue = Queue::compute;
    p.side_effect = true;
    p.uses = std::move(uses);
    g.passes.push_back(std::move(p));
  };
  pass("w0", {use(0, Access::unordered_access, cs), use(1, Access::unordered_access, cs),
              use(2, Access::unordered_access, cs)});
  // Reads a, overwrites b (a blind write: it needs the path from w0 its read of a gives), reads c, then a
  // again: the repeat is met after three applied uses.
  pass("x", {use(0, Access::shader_resource, cs), use(1, Access::copy_dest),
             use(2, Access::shader_resource, cs), use(0, Access::shader_resource, cs)});
  pass("y", {use(0, Access::unordered_access, cs), use(2, Access::unordered_access, cs),
             use(1, Access::unordered_access, cs)});
  const Validated v = validate(g);
  auto text = [&](uint32_t p) {
    std::string t;
    for (uint32_t e = v.in_first[p]; e < v.in_first[p + 1]; ++e) {
      const Edge& d = v.edges[e];
      t += fmt::format("{}->{} {} {}; ", d.from, d.to, d.kind == EdgeKind::write_after_read ? "war" : "raw",
                       d.resource);
    }
    return t;
  };
  EXPECT_EQ(text(0), "");
  EXPECT_EQ(text(1), "0->1 raw 0; 0->1 raw 2; ");
  // y's unordered accesses keep the contents: each depends on the latest writer, and a and c on x's one
  // read of each.
  EXPECT_EQ(text(2), "0->2 raw 0; 1->2 war 0; 0->2 raw 2; 1->2 war 2; 1->2 raw 1; ");
  EXPECT_EQ(v.edges.size(), 7u);
}

TEST(GraphPhases, ChainAliasesDownToTheLowerBound) {
  const Graph g = chain(300);
  const GraphCompileResult r = compile_graph(g);
  EXPECT_TRUE(r.findings.empty()) << dump(g, r, "checks");
  EXPECT_EQ(r.aliasing.heap_size, r.aliasing.lower_bound);
  EXPECT_LT(r.aliasing.heap_size * 50, r.aliasing.unaliased);
  CompileOptions off;
  off.aliasing.enabled = false;
  EXPECT_EQ(compile_graph(g, off).aliasing.heap_size, r.aliasing.unaliased);
}

// The second, largest-first placement runs at every size (it once stopped at 1,024 transients, being
// quadratic): on this chain of 1,100 transients with sizes 4 2 1 3 4 3 (repeating) the placement in
// order of first use needs 15 units and largest first reaches the lower bound, 11.
TEST(GraphPhases, LargestFirstPlacementRunsAboveAThousandTransients) {
  const size_t n = 1100;
  const Graph g = chain(n);
  CompileOptions o;
  o.aliasing.alignment = 1;
  o.aliasing.sizes.assign(g.resources.size(), 0);
  const uint64_t pattern[] = {4, 2, 1, 3, 4, 3};
  for (size_t i = 0; i < n; ++i) o.aliasing.sizes[i] = pattern[i % 6];
  o.aliasing.sizes[n] = 1;  // the persistent output (not placed)
  const GraphCompileResult r = compile_graph(g, o);
  EXPECT_TRUE(r.findings.empty()) << dump(g, r, "checks");
  EXPECT_EQ(r.aliasing.lower_bound, 11u);
  EXPECT_EQ(r.aliasing.heap_size, 11u);
}

// The runtime passes real memory requirements: the placement uses those sizes, rounded up to the
// alignment, and every offset is a multiple of it.
// The takeovers (Aliasing::barriers) against a brute-force reading of the placements: per byte of a
// placement, the resource placed there last before it (in order of first use) is a previous occupant.
// Graphs of mixed sizes and lifetimes, so placements clip and split earlier ones.
std::vector<std::pair<uint32_t, std::vector<uint32_t>>> expected_takeovers(const Aliasing& a) {
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> out;
  for (size_t i = 0; i < a.placements.size(); ++i) {
    const Placement& pi = a.placements[i];
    std::vector<uint64_t> cuts{pi.offset, pi.offset + pi.size};
    for (size_t j = 0; j < i; ++j) {
      const Placement& pj = a.placements[j];
      for (const uint64_t x : {pj.offset, pj.offset + pj.size})
        if (x > pi.offset && x < pi.offset + pi.size) cuts.push_back(x);
    }
    std::sort(cuts.begin(), cuts.end());
    std::vector<uint32_t> previous;
    for (size_t c = 0; c + 1 < cuts.size(); ++c) {
      if (cuts[c] == cuts[c + 1]) continue;
      for (size_t j = i; j-- > 0;) {
        const Placement& pj = a.placements[j];
        if (pj.offset <= cuts[c] && cuts[c + 1] <= pj.offset + pj.size) {
          previous.push_back(pj.resource);
          break;
        }
      }
    }
    std::sort(previous.begin(), previous.end());
    previous.erase(std::unique(previous.begin(), previous.end()), previous.end());
    if (!previous.empty()) out.emplace_back(pi.resource, previous);
  }
  return out;
}

// AliasBarrier::previous: up to three inline, more in one heap block; assign() and push_back() agree.
TEST(GraphPhases, PreviousOccupantsHoldAnyCount) {
  const std::vector<uint32_t> values = {7, 3, 9, 1, 4, 8, 2};
  for (size_t n = 0; n <= values.size(); ++n) {
    SCOPED_TRACE(n);
    PreviousOccupants assigned, pushed;
    assigned.assign(values.data(), n);
    for (size_t i = 0; i < n; ++i) pushed.push_back(values[i]);
    const std::vector<uint32_t> want(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_EQ(std::vector<uint32_t>(assigned.begin(), assigned.end()), want);
    EXPECT_EQ(std::vector<uint32_t>(pushed.begin(), pushed.end()), want);
    EXPECT_EQ(assigned.size(), n);
    EXPECT_EQ(assigned.empty(), n == 0);
    for (size_t i = 0; i < n; ++i) EXPECT_EQ(assigned[i], values[i]);
    // Assigned again, shorter or longer: only the new values.
    for (const size_t m : {size_t{1}, size_t{5}}) {
      PreviousOccupants again = assigned;
      again.assign(values.data() + 2, m);
      EXPECT_EQ(std::vector<uint32_t>(again.begin(), again.end()),
                std::vector<uint32_t>(values.begin() + 2, values.begin() + 2 + static_cast<std::ptrdiff_t>(m)));
    }
  }
}

// alias() reads the lifetimes by resource and by serial index: lifetimes that are not the graph's and the
// schedule's (a caller running the phases one by one) are refused with an error, not read out of bounds.
TEST(GraphPhases, AliasingRefusesLifetimesOfAnotherGraphOrSchedule) {
  const Graph g = chain(6);
  const Validated v = validate(g);
  const Schedule s = schedule(g, v, cull(g, v));
  std::vector<Lifetime> lt = lifetimes(g, s);
  EXPECT_NO_THROW(alias(g, s, lt));
  std::vector<Lifetime> fewer(lt.begin(), lt.end() - 1);
  try {
    alias(g, s, fewer);
    ADD_FAILURE() << "lifetimes of another graph accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("6 lifetimes for a graph of 7 resources"), std::string::npos) << e.what();
  }
  lt[2].last = static_cast<uint32_t>(s.serial.size());  // past the schedule's last pass
  try {
    alias(g, s, lt);
    ADD_FAILURE() << "a lifetime past the schedule accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/resources/2: resource 'r2': its lifetime"), std::string::npos) << e.what();
  }
}

TEST(GraphPhases, TakeoversNameEveryLatestOccupantOfThePlacement) {
  std::vector<Graph> graphs;
  for (uint64_t seed = 1; seed <= 40; ++seed) graphs.push_back(test::random_graph(seed, 20 + static_cast<uint32_t>(seed)));
  // Mixed sizes and windows: pass i writes r_i and reads up to three earlier ones.
  for (uint32_t variant = 0; variant < 4; ++variant) {
    Graph g;
    const uint32_t sizes[] = {128, 512, 256, 1024, 64, 384, 768};
    const uint32_t n = 80;
    for (uint32_t i = 0; i < n; ++i)
      g.resources.push_back(texture("r" + std::to_string(i), sizes[(i * (variant + 3)) % 7], true));
    g.resources.push_back(texture("out", 64, false));
    g.resources.back().desc.usage = bit(Access::copy_dest) | bit(Access::shader_resource);
    const Stages cs = stages(Stage::compute);
    for (uint32_t i = 0; i < n; ++i) {
      Pass p;
      p.name = "p" + std::to_string(i);
      p.queue = Queue::compute;
      p.async = variant >= 2 && i % 3 == 1;
      p.uses.push_back(use(i, Access::unordered_access, cs));
      for (uint32_t back = 1; back <= 1 + (i * 7 + variant) % 3 && back <= i; ++back)
        p.uses.push_back(use(i - back, Access::shader_resource, cs));
      g.passes.push_back(std::move(p));
    }
    Pass c;
    c.name = "copy_out";
    c.uses = {use(n - 1, Access::copy_source), use(n, Access::copy_dest)};
    g.passes.push_back(std::move(c));
    g.outputs.push_back(n);
    graphs.push_back(std::move(g));
  }
  size_t takeovers = 0, several = 0;
  for (size_t k = 0; k < graphs.size(); ++k) {
    SCOPED_TRACE(k);
    const GraphCompileResult r = compile_graph(graphs[k]);
    EXPECT_TRUE(r.findings.empty()) << r.findings.front();
    const auto want = expected_takeovers(r.aliasing);
    ASSERT_EQ(r.aliasing.barriers.size(), want.size());
    for (size_t b = 0; b < want.size(); ++b) {
      const AliasBarrier& ab = r.aliasing.barriers[b];
      EXPECT_EQ(ab.resource, want[b].first);
      EXPECT_EQ(std::vector<uint32_t>(ab.previous.begin(), ab.previous.end()), want[b].second);
      EXPECT_EQ(ab.pass, r.sched.serial[r.lifetimes[ab.resource].first]);
      several += ab.previous.size() > 1;
    }
    takeovers += want.size();
  }
  EXPECT_GT(takeovers, 200u);  // the graphs do exercise it, with splits
  EXPECT_GT(several, 10u);
}

// The placements against their definition, by brute force: the transient, used resources in order of
// first use (ties: index), each at the best fitting gap (the least gap that fits, ties: the lowest offset;
// else the top of the busy intervals) among the resources already placed that overlap it in time (neither
// one's users all complete before the other's start), first in that order, then largest first (ties:
// order of first use), the second only when the first is above the lower bound and kept when its heap is
// smaller. Every pair is compared: the phase's windows, candidate lists and sorts must give the same bytes.
// Graphs with up to three queues, long and short lifetimes and few distinct sizes (many ties, many gaps),
// and sizes near 2^55 (offsets that need more than 56 bits).
struct ReferencePlacement {
  std::vector<uint64_t> offset;  // per resource (kNone: not placed)
  uint64_t heap = 0, first_heap = 0;
};
ReferencePlacement reference_placement(const Graph& g, const Schedule& s, const std::vector<Lifetime>& lt,
                                       const AliasingOptions& o) {
  std::vector<uint32_t> order;
  for (uint32_t r = 0; r < g.resources.size(); ++r)
    if (g.resources[r].transient && lt[r].used()) order.push_back(r);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return lt[x].first < lt[y].first; });
  const uint64_t align = std::max<uint64_t>(o.alignment, 1);
  std::vector<uint64_t> size(g.resources.size(), 0);
  for (const uint32_t r : order) {
    const uint64_t b = r < o.sizes.size() && o.sizes[r] != 0 ? o.sizes[r] : estimated_size(g.resources[r]) * g.resources[r].count;
    size[r] = (b + align - 1) / align * align;
  }
  auto before = [&](uint32_t a, uint32_t b) {
    for (size_t k = 0; k < kQueues; ++k)
      if (lt[b].min_clock[k] < lt[a].last_pos[k]) return false;
    return true;
  };
  auto place = [&](const std::vector<uint32_t>& sequence, std::vector<uint64_t>& offset) {
    offset.assign(g.resources.size(), kNone);
    uint64_t top = 0;
    for (size_t i = 0; i < sequence.size(); ++i) {
      const uint32_t r = sequence[i];
      std::vector<std::pair<uint64_t, uint64_t>> busy;
      for (size_t j = 0; j < i; ++j) {
        const uint32_t q = sequence[j];
        if (!before(q, r) && !before(r, q)) busy.push_back({offset[q], offset[q] + size[q]});
      }
      std::sort(busy.begin(), busy.end());
      uint64_t best = kNone, best_gap = ~uint64_t{0}, cursor = 0;
      for (const auto& [begin, end] : busy) {
        if (begin > cursor && begin - cursor >= size[r] && begin - cursor < best_gap) {
          best = cursor;
          best_gap = begin - cursor;
        }
        cursor = std::max(cursor, end);
      }
      offset[r] = best != kNone ? best : cursor;
      top = std::max(top, offset[r] + size[r]);
    }
    return top;
  };
  ReferencePlacement p;
  std::vector<uint64_t> live(s.serial.size() + 1, 0);
  uint64_t lower_bound = 0;
  for (const uint32_t r : order)
    for (uint32_t i = lt[r].first; i <= lt[r].last; ++i) lower_bound = std::max(lower_bound, live[i] += size[r]);
  p.heap = p.first_heap = place(order, p.offset);
  if (p.first_heap > lower_bound) {
    std::vector<uint32_t> largest = order;
    std::stable_sort(largest.begin(), largest.end(), [&](uint32_t x, uint32_t y) { return size[x] > size[y]; });
    std::vector<uint64_t> second;
    const uint64_t top = place(largest, second);
    if (top < p.heap) {
      p.heap = top;
      p.offset = second;
    }
  }
  return p;
}

TEST(GraphPhases, PlacementsMatchTheirDefinition) {
  size_t second_won = 0, second_lost = 0, cases = 0, huge_heaps = 0, small_second_won = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    std::mt19937_64 rng(seed);
    auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
    // Pass i writes transient t_i and reads up to three of the last `reach` ones; some passes also read
    // an old one (a long lifetime); queues mixed.
    Graph g;
    // Every third graph has at most 32 transients (the largest-first placement orders so few by insertion).
    const uint32_t n = seed % 3 == 0 ? 6 + pick(27) : 40 + pick(120), reach = 2 + pick(12), queues = 1 + pick(3);
    for (uint32_t i = 0; i < n; ++i) g.resources.push_back(texture("t" + std::to_string(i), 64u << pick(4), true));
    g.resources.push_back(texture("out", 64, false));
    g.resources.back().desc.usage = bit(Access::copy_dest) | bit(Access::shader_resource);
    const Stages cs = stages(Stage::compute);
    for (uint32_t i = 0; i < n; ++i) {
      Pass p;
      p.name = "p" + std::to_string(i);
      p.queue = queues == 3 && pick(4) == 0 ? Queue::copy : Queue::compute;
      p.async = queues > 1 && pick(3) == 0;
      const bool copy = p.queue == Queue::copy;
      p.uses.push_back(use(i, copy ? Access::copy_dest : Access::unordered_access, copy ? kNoStages : cs));
      for (uint32_t k = 0, reads = pick(4); k < reads && i > 0; ++k) {
        const uint32_t back = 1 + (pick(8) == 0 ? pick(i) : pick(std::min(i, reach)));
        const uint32_t r = i - std::min(back, i);
        bool dup = false;
        for (const PassUse& u : p.uses) dup |= u.resource == r;
        if (!dup) p.uses.push_back(use(r, copy ? Access::copy_source : Access::shader_resource, copy ? kNoStages : cs));
      }
      p.side_effect = pick(6) == 0;
      g.passes.push_back(std::move(p));
    }
    for (Resource& r : g.resources) r.desc.usage |= bit(Access::copy_dest) | bit(Access::copy_source);
    Pass c;
    c.name = "copy_out";
    c.uses = {use(n - 1, Access::copy_source), use(n, Access::copy_dest)};
    g.passes.push_back(std::move(c));
    g.outputs.push_back(n);
    for (int variant = 0; variant < 7; ++variant) {
      SCOPED_TRACE(fmt::format("seed {} variant {}", seed, variant));
      // The phases up to aliasing (the transitions may reject reads of one resource on several queues).
      ScheduleOptions so;
      so.order = variant == 2 || variant == 3 || variant == 5 ? Order::random : Order::program;
      so.seed = seed;
      AliasingOptions ao;
      if (variant >= 1) {  // real sizes: few distinct ones, alignment 1 (many ties and gaps)
        ao.alignment = 1;
        ao.sizes.assign(g.resources.size(), 0);
        for (uint32_t i = 0; i < n; ++i) ao.sizes[i] = 1 + pick(variant == 1 ? 4 : 9);
        // Sizes of 2^53 to 2^55 bytes: offsets above 2^56 (the placement's sort of one word per interval
        // cannot hold them and takes its other path).
        if (variant == 3)
          for (uint32_t i = 0; i < n; ++i) ao.sizes[i] = uint64_t{1 + pick(4)} << 53;
        // The largest-first placement marks busy intervals in a bitmap of units (the largest power of two
        // dividing every size) when the heap has few words for the intervals, else sorts them: a few
        // intervals of 130 to 200 units among small ones (over three words of the bitmap); odd sizes of
        // thousands of bytes (a heap of more units: the sort of one word per interval); odd sizes near 2^53
        // (the sort of pairs).
        if (variant == 4)
          for (uint32_t i = 0; i < n; ++i) ao.sizes[i] = pick(10) == 0 ? 130 + pick(70) : 1 + pick(4);
        if (variant == 5)
          for (uint32_t i = 0; i < n; ++i) ao.sizes[i] = 3001 + 2 * pick(2500);
        if (variant == 6)
          for (uint32_t i = 0; i < n; ++i) ao.sizes[i] = (uint64_t{1 + pick(4)} << 53) + 1;
      }
      const Validated v = validate(g);
      const CullResult culled = cull(g, v);
      const Schedule s = schedule(g, v, culled, so);
      const std::vector<Lifetime> lt = lifetimes(g, s);
      const Aliasing a = alias(g, s, lt, ao);
      const ReferencePlacement want = reference_placement(g, s, lt, ao);
      EXPECT_EQ(a.heap_size, want.heap);
      for (uint32_t res = 0; res < g.resources.size(); ++res) {
        const uint32_t at = a.placement_of[res];
        EXPECT_EQ(at == kNone ? uint64_t{kNone} : a.placements[at].offset, want.offset[res])
            << g.resources[res].desc.name;
      }
      ++cases;
      huge_heaps += want.heap > (uint64_t{1} << 57);
      if (want.heap < want.first_heap) {
        ++second_won;
        small_second_won += n <= 32;
      } else if (want.first_heap > 0) {
        ++second_lost;
      }
    }
  }
  EXPECT_EQ(cases, 420u);
  EXPECT_GT(huge_heaps, 40u);
  EXPECT_GT(second_won, 20u);  // the largest-first placement is taken often enough to be tested
  EXPECT_GT(second_lost, 20u);
  EXPECT_GT(small_second_won, 5u);
  std::printf("largest first won %zu times (%zu with at most 32 transients), lost %zu\n", second_won,
              small_second_won, second_lost);
}

TEST(GraphPhases, RealSizesAndAlignmentDrivePlacement) {
  const Graph g = chain(12);
  CompileOptions o;
  o.aliasing.alignment = 4096;
  o.aliasing.sizes.assign(g.resources.size(), 0);
  for (size_t i = 0; i < 12; ++i) o.aliasing.sizes[i] = 5000 + 1000 * (i % 3);  // 2 or 3 pages
  const GraphCompileResult r = compile_graph(g, o);
  EXPECT_TRUE(r.findings.empty()) << dump(g, r, "checks");
  ASSERT_EQ(r.aliasing.placements.size(), 12u);
  for (const Placement& p : r.aliasing.placements) {
    EXPECT_EQ(p.offset % 4096, 0u) << g.resources[p.resource].desc.name;
    EXPECT_EQ(p.size, (o.aliasing.sizes[p.resource] + 4095) / 4096 * 4096);
  }
  // Three resources live at once (r_i and the two it reads), 2 or 3 pages each.
  EXPECT_LE(r.aliasing.heap_size, 9u * 4096);
  EXPECT_LT(r.aliasing.heap_size, r.aliasing.unaliased);
}

// The reason names every resource the culled pass writes once, in the order of its uses (a name inside
// another name is still listed; a resource written twice once); a pass that writes nothing says so. The
// reasons are written into the strings the result kept from the last compile: compiled into one result
// after a graph with other reasons, and after one with none, they are the same as a fresh compile's.
TEST(GraphPhases, CullReasonsNameEachWrittenResourceOnceAlsoCompiledIntoOneResult) {
  Graph g = chain(5);
  const auto add = [&](const char* name) {
    g.resources.push_back(texture(name, 64, true));
    return static_cast<uint32_t>(g.resources.size() - 1);
  };
  const uint32_t long_name = add("scratch_texture_with_a_long_name"), inner = add("scratch_texture"),
                 other = add("other");
  Pass dead;
  dead.name = "dead";
  dead.queue = Queue::compute;
  const Stages cs = stages(Stage::compute);
  dead.uses = {use(1, Access::shader_resource, cs), use(long_name, Access::unordered_access, cs),
               use(inner, Access::unordered_access, cs), use(inner, Access::unordered_access, cs),
               use(other, Access::unordered_access, cs)};
  g.passes.push_back(dead);
  Pass reader;  // reads what a live pass wrote, writes nothing, no side effect
  reader.name = "reader";
  reader.uses = {use(1, Access::shader_resource, stages(Stage::pixel))};
  g.passes.push_back(reader);
  const std::string want_dead =
      "no output, side-effect pass or live pass reads what it writes ('scratch_texture_with_a_long_name', "
      "'scratch_texture', 'other')";
  const auto check = [&](const GraphCompileResult& r, const char* what) {
    ASSERT_EQ(r.culled.culled.size(), 2u) << what;
    EXPECT_EQ(g.passes[r.culled.culled[0].pass].name, "dead") << what;
    EXPECT_EQ(r.culled.culled[0].why, want_dead) << what;
    EXPECT_EQ(g.passes[r.culled.culled[1].pass].name, "reader") << what;
    EXPECT_EQ(r.culled.culled[1].why, "writes nothing and has no side effect") << what;
  };
  check(compile_graph(g), "fresh");
  // Another graph's reasons first: its culled pass writes a name longer than all of g's together.
  Graph h = chain(5);
  h.resources.push_back(texture(std::string(300, 'x'), 64, true));
  Pass big;
  big.name = "big";
  big.queue = Queue::compute;
  big.uses = {use(static_cast<uint32_t>(h.resources.size() - 1), Access::unordered_access, cs)};
  h.passes.push_back(big);
  GraphCompileResult kept;
  compile_graph_into(kept, h);
  ASSERT_EQ(kept.culled.culled.size(), 1u);
  EXPECT_EQ(kept.culled.culled[0].why, "no output, side-effect pass or live pass reads what it writes ('" +
                                           std::string(300, 'x') + "')");
  compile_graph_into(kept, g);
  check(kept, "into the result of another graph");
  compile_graph_into(kept, chain(5));
  EXPECT_TRUE(kept.culled.culled.empty());
  compile_graph_into(kept, g);
  check(kept, "into the result of a graph that culls nothing");
  compile_graph_into(kept, g);
  check(kept, "into its own result");
}

TEST(GraphPhases, CullListsWhyAndKeepsWhatOutputsNeed) {
  Graph g = chain(5);
  Pass dead;
  dead.name = "dead";
  dead.queue = Queue::compute;
  g.resources.push_back(texture("scratch", 64, true));
  dead.uses = {use(1, Access::shader_resource, stages(Stage::compute)),
               use(static_cast<uint32_t>(g.resources.size() - 1), Access::unordered_access, stages(Stage::compute))};
  g.passes.push_back(dead);
  const GraphCompileResult r = compile_graph(g);
  ASSERT_EQ(r.culled.culled.size(), 1u);
  EXPECT_EQ(g.passes[r.culled.culled[0].pass].name, "dead");
  EXPECT_NE(r.culled.culled[0].why.find("'scratch'"), std::string::npos);
  EXPECT_TRUE(r.findings.empty());
}

// Lifetimes against their definitions, by brute force over the schedule: first and last are the serial
// span of the users, last_pos the last user's position per queue, min_clock the least clock a user
// knows, and memory frees at the first index after the last user from which every later pass is
// ordered after every user (happens_before). On one queue (where the phase takes a shortcut) and on
// several.
TEST(GraphPhases, LifetimesMatchTheirDefinitions) {
  std::vector<Graph> graphs{chain(12), chain(30, true)};
  for (uint64_t seed = 1; seed <= 30; ++seed) graphs.push_back(test::random_graph(seed, 10 + static_cast<uint32_t>(seed)));
  size_t one_queue = 0, several = 0;
  for (size_t k = 0; k < graphs.size(); ++k) {
    SCOPED_TRACE(k);
    const Graph& g = graphs[k];
    const GraphCompileResult r = compile_graph(g);
    const Schedule& s = r.sched;
    const uint32_t n = static_cast<uint32_t>(s.serial.size());
    std::vector<std::vector<uint32_t>> users(g.resources.size());
    bool multi = false;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t p = s.serial[i];
      multi |= exec_queue(g.passes[p]) != exec_queue(g.passes[s.serial[0]]);
      for (const PassUse& u : g.passes[p].uses)
        if (users[u.resource].empty() || users[u.resource].back() != p) users[u.resource].push_back(p);
    }
    (multi ? several : one_queue) += 1;
    for (uint32_t res = 0; res < g.resources.size(); ++res) {
      SCOPED_TRACE(g.resources[res].desc.name);
      const Lifetime& l = r.lifetimes[res];
      if (users[res].empty()) {
        EXPECT_FALSE(l.used());
        continue;
      }
      EXPECT_EQ(l.first, s.serial_of[users[res].front()]);
      EXPECT_EQ(l.last, s.serial_of[users[res].back()]);
      std::array<uint32_t, kQueues> last_pos{}, min_clock{kNone, kNone, kNone};
      for (const uint32_t u : users[res]) {
        const size_t q = qi(exec_queue(g.passes[u]));
        last_pos[q] = s.pos[u] + 1;
        std::array<uint32_t, kQueues> known = s.clock[u];
        known[q] = s.pos[u];
        for (size_t x = 0; x < kQueues; ++x) min_clock[x] = std::min(min_clock[x], known[x]);
      }
      EXPECT_EQ(l.last_pos, last_pos);
      EXPECT_EQ(l.min_clock, min_clock);
      uint32_t free_at = l.last + 1;
      for (;; ++free_at) {
        bool ordered = true;
        for (uint32_t j = free_at; j < n && ordered; ++j)
          for (const uint32_t u : users[res]) ordered &= happens_before(s, g, u, s.serial[j]);
        if (ordered) break;
      }
      EXPECT_EQ(l.free_at, free_at);
    }
  }
  EXPECT_GT(one_queue, 0u);
  EXPECT_GT(several, 0u);
}

// The program order is declaration order only while every edge between live passes points forward: the
// schedule takes it without reading the edges first and must notice an `after` that points backward
// between live passes (then the least ready pass first), while one that involves a culled pass changes
// nothing. On one queue and on two.
TEST(GraphPhases, ProgramOrderFollowsAnAfterThatPointsBackward) {
  for (const bool async : {false, true}) {
    SCOPED_TRACE(async);
    Graph g;
    const Stages cs = stages(Stage::compute);
    for (int i = 0; i < 4; ++i) g.resources.push_back(texture("o" + std::to_string(i), 64, false));
    for (uint32_t i = 0; i < 4; ++i) {
      Pass p;
      p.name = "p" + std::to_string(i);
      p.queue = Queue::compute;
      p.async = async && i == 1;
      p.side_effect = i != 3;  // p3 writes nothing anyone needs: culled
      p.uses = {use(i, Access::unordered_access, cs)};
      g.passes.push_back(p);
    }
    g.passes[0].after = {2};  // p0 runs after p2: live to live, backward
    g.passes[1].after = {3};  // p1 runs after the culled p3: no constraint left
    const GraphCompileResult r = compile_graph(g);
    EXPECT_TRUE(r.findings.empty()) << dump(g, r, "checks");
    ASSERT_EQ(r.culled.culled.size(), 1u);
    std::vector<std::string> order;
    for (uint32_t p : r.sched.serial) order.push_back(g.passes[p].name);
    EXPECT_EQ(order, (std::vector<std::string>{"p1", "p2", "p0"}));
    EXPECT_EQ(r.sched.serial_of[0], 2u);
    EXPECT_EQ(r.sched.serial_of[3], kNone);
    EXPECT_TRUE(happens_before(r.sched, g, 2, 0));
    // Without the backward edge: declaration order.
    g.passes[0].after.clear();
    const GraphCompileResult plain = compile_graph(g);
    EXPECT_EQ(plain.sched.serial, (std::vector<uint32_t>{0, 1, 2}));
  }
}

TEST(GraphPhases, CrossQueueWaitsAreTransitivelyReduced) {
  // Three async compute passes, then a graphics pass reading all three results, and a copy pass
  // (async) that needs the graphics pass and the first compute pass.
  Graph g;
  const Stages cs = stages(Stage::compute);
  for (int i = 0; i < 4; ++i) g.resources.push_back(texture("a" + std::to_string(i), 64, false));
  g.resources[3].desc.usage = bit(Access::copy_dest) | bit(Access::render_target);
  for (uint32_t i = 0; i < 3; ++i) {
    Pass p;
    p.name = "c" + std::to_string(i);
    p.queue = Queue::compute;
    p.async = true;
    p.uses = {use(i, Access::unordered_access, cs)};
    if (i) p.uses.push_back(use(i - 1, Access::shader_resource, cs));
    g.passes.push_back(p);
  }
  Pass gfx;
  gfx.name = "gfx";
  gfx.uses = {use(0, Access::shader_resource, stages(Stage::pixel)), use(1, Access::shader_resource, stages(Stage::pixel)),
              use(2, Access::shader_resource, stages(Stage::pixel)), use(3, Access::render_target)};
  g.passes.push_back(gfx);
  Pass cp;
  cp.name = "copy";
  cp.queue = Queue::copy;
  cp.async = true;
  cp.side_effect = true;
  cp.after = {0, 3};
  g.passes.push_back(cp);
  g.outputs = {3};
  const GraphCompileResult r = compile_graph(g);
  EXPECT_TRUE(r.findings.empty()) << dump(g, r, "checks");
  EXPECT_EQ(r.sched.cross_queue_edges, 5u);  // gfx <- c0, c1, c2; copy <- c0, gfx
  ASSERT_EQ(r.sched.syncs.size(), 2u);       // gfx waits for c2 only; copy waits for gfx only
  EXPECT_EQ(g.passes[r.sched.syncs[0].signal].name, "c2");
  EXPECT_EQ(g.passes[r.sched.syncs[1].signal].name, "gfx");
}

TEST(GraphPhases, RandomValidOrdersPassEveryCheck) {
  Graph g = chain(30, true);
  // Independent side branches give the random order freedom.
  for (uint32_t i = 0; i < 10; ++i) {
    g.resources.push_back(texture("side" + std::to_string(i), 128, false));
    Pass p;
    p.name = "side" + std::to_string(i);
    p.side_effect = true;
    p.uses = {use(static_cast<uint32_t>(g.resources.size() - 1), Access::unordered_access, stages(Stage::compute)),
              use(i * 2, Access::shader_resource, stages(Stage::compute))};
    g.passes.push_back(p);
  }
  std::vector<std::vector<uint32_t>> orders;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    CompileOptions o;
    o.schedule.order = Order::random;
    o.schedule.seed = seed;
    const GraphCompileResult r = compile_graph(g, o);
    EXPECT_TRUE(r.findings.empty()) << "seed " << seed << ": " << dump(g, r, "checks");
    orders.push_back(r.sched.serial);
  }
  std::sort(orders.begin(), orders.end());
  EXPECT_GT(std::unique(orders.begin(), orders.end()) - orders.begin(), 1);
}

// The latency-hiding order (issue 17, item 2): the pass with the longest chain after it goes first.
// Two independent side passes are declared first, then a chain whose second pass is async: program
// order runs the side passes first, latency runs the chain's head first so the async pass can start
// while the side passes run. Every check passes on both, and on random graphs.
TEST(GraphPhases, LatencyOrderStartsLongChainsFirst) {
  Graph g;
  const Stages cs = stages(Stage::compute);
  const uint32_t s0 = g.add_resource(texture("s0", 64, false)), s1 = g.add_resource(texture("s1", 64, false));
  const uint32_t a = g.add_resource(texture("a", 64, false)), b = g.add_resource(texture("b", 64, false));
  const uint32_t out = g.add_resource(texture("out", 64, false));
  g.add_pass(Pass{"side0", Queue::direct, false, false, {use(s0, Access::unordered_access, cs)}, {}});
  g.add_pass(Pass{"side1", Queue::direct, false, false, {use(s1, Access::unordered_access, cs)}, {}});
  g.add_pass(Pass{"head", Queue::direct, false, false, {use(a, Access::unordered_access, cs)}, {}});
  g.add_pass(Pass{"async", Queue::compute, true, false,
                  {use(a, Access::shader_resource, cs), use(b, Access::unordered_access, cs)}, {}});
  g.add_pass(Pass{"join", Queue::direct, false, false,
                  {use(b, Access::shader_resource, cs), use(s0, Access::shader_resource, cs),
                   use(s1, Access::shader_resource, cs), use(out, Access::unordered_access, cs)}, {}});
  g.outputs = {out};
  auto names = [&](const GraphCompileResult& r) {
    std::vector<std::string> v;
    for (uint32_t p : r.sched.serial) v.push_back(g.passes[p].name);
    return v;
  };
  const GraphCompileResult program = compile_graph(g);
  CompileOptions o;
  o.schedule.order = Order::latency;
  const GraphCompileResult latency = compile_graph(g, o);
  EXPECT_TRUE(program.findings.empty()) << dump(g, program, "checks");
  EXPECT_TRUE(latency.findings.empty()) << dump(g, latency, "checks");
  EXPECT_EQ(names(program), (std::vector<std::string>{"side0", "side1", "head", "async", "join"}));
  EXPECT_EQ(names(latency), (std::vector<std::string>{"head", "async", "side0", "side1", "join"}));
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Graph rg = test::random_graph(seed, 12 + static_cast<uint32_t>(seed));
    const GraphCompileResult r = compile_graph(rg, o);
    EXPECT_TRUE(r.findings.empty()) << "seed " << seed << ": " << dump(rg, r, "checks");
    EXPECT_EQ(r.sched.serial.size(), compile_graph(rg).sched.serial.size()) << "seed " << seed;
  }
}

TEST(GraphPhases, DumpsEveryPhaseAndRejectsUnknownOnes) {
  const Graph g = chain(6, true);
  const GraphCompileResult r = compile_graph(g);
  for (std::string_view p : kPhases) EXPECT_FALSE(dump(g, r, p).empty()) << p;
  EXPECT_THROW(dump(g, r, "nope"), Error);
}

// ---- every check fails on a corrupted intermediate result ------------------------------------

// The first barrier of resource `res` in list `list` that `pick` accepts (nullptr when none).
template <class Pick>
Barrier* barrier_in(GraphCompileResult& r, std::string_view list, std::string_view res, Pick pick) {
  for (CompiledGroup& cg : r.trans.compiled)
    for (size_t li = 0; li < cg.lists.size(); ++li) {
      if (cg.lists[li].name != list) continue;
      for (Barrier& b : cg.barriers_of(li))
        if (r.trans.table[b.resource].name == res && pick(b)) return &b;
    }
  return nullptr;
}

TEST(GraphChecks, CoverageFailsWhenATransitionIsDropped) {
  const Graph g = chain(8);
  GraphCompileResult r = compile_graph(g);
  ASSERT_TRUE(check_coverage(g, r.sched, r.trans).empty());
  // Drop the barrier that makes p3's read of r2 possible.
  Barrier* b = barrier_in(r, "p3", "r2", [](const Barrier&) { return true; });
  ASSERT_NE(b, nullptr);
  b->after = b->before;  // the transition into the read state is gone
  EXPECT_FALSE(check_coverage(g, r.sched, r.trans).empty());
}

// The same on several queues (odd passes on the async compute queue, so the walk keeps ordering records):
// the barrier that puts r2 in p3's read state dropped, or with the wrong layout or sync, leaves p3's read
// of r2 (its use 1) not covered; the walk's usual use there (whole records, exact state) must not pass it.
TEST(GraphChecks, CoverageFindsAnUncoveredUseOnSeveralQueues) {
  const Graph g = chain(8, true);
  for (const int how : {0, 1, 2}) {
    GraphCompileResult r = compile_graph(g);
    ASSERT_TRUE(r.findings.empty()) << how;
    Barrier* b = nullptr;
    for (std::string_view list : {"p3", "p2"})
      if (!b)
        b = barrier_in(r, list, "r2",
                       [](const Barrier& x) { return x.after.access == bit(Access::shader_resource); });
    ASSERT_NE(b, nullptr) << how;
    if (how == 0)
      b->after = b->before;
    else if (how == 1)
      b->after.layout = Layout::common;
    else
      b->after.sync = sync::none;
    const std::vector<std::string> found = check_coverage(g, r.sched, r.trans);
    EXPECT_TRUE(std::any_of(found.begin(), found.end(),
                            [](const std::string& f) { return f.starts_with("/passes/3/uses/1: pass 'p3', resource 'r2'"); }))
        << how << ": " << fmt::format("{}", fmt::join(found, "\n"));
  }
}

// A use whose state has its one access but not its layout, or not the sync it needs, is not covered: the
// walk's usual-use test (exactly the use's access, sync and layout) must not pass it, on one queue.
TEST(GraphChecks, CoverageFindsAUseInItsAccessWithTheWrongLayoutOrSync) {
  const Graph g = chain(8);
  for (const bool layout : {true, false}) {
    GraphCompileResult r = compile_graph(g);
    ASSERT_TRUE(check_coverage(g, r.sched, r.trans).empty());
    // The barrier that puts r2 in p3's read state: keep its access, break its layout or its sync.
    Barrier* b = barrier_in(r, "p3", "r2",
                            [](const Barrier& x) { return x.after.access == bit(Access::shader_resource); });
    ASSERT_NE(b, nullptr) << layout;
    if (layout)
      b->after.layout = Layout::common;
    else
      b->after.sync = sync::none;
    const std::vector<std::string> found = check_coverage(g, r.sched, r.trans);
    const std::string want =
        "/passes/3/uses/1: pass 'p3', resource 'r2' mip 0 layer 0 plane 0: use shader_resource";
    EXPECT_TRUE(std::any_of(found.begin(), found.end(),
                            [&](const std::string& f) {
                              return f.starts_with(want) && f.find("not covered") != std::string::npos;
                            }))
        << layout << "\n"
        << fmt::format("{}", fmt::join(found, "\n"));
  }
}

// A shader access with no stages needs every shading stage's sync (sync_of): p3's read of r2, declared for
// the compute stage and compiled so, then asked with no stages, is not covered by the compute-only state,
// on one queue (the walk's usual use) and on several (the several-queue usual use).
TEST(GraphChecks, CoverageAsksEveryShadingStageOfAShaderUseWithNoStages) {
  for (const bool async : {false, true}) {
    Graph g = chain(8, async);
    const GraphCompileResult r = compile_graph(g);
    ASSERT_TRUE(r.findings.empty()) << async;
    ASSERT_EQ(g.passes[3].uses[1].resource, 2u);
    g.passes[3].uses[1].stages = kNoStages;
    const std::vector<std::string> found = check_coverage(g, r.sched, r.trans);
    const std::string want = "/passes/3/uses/1: pass 'p3', resource 'r2' mip 0 layer 0 plane 0: use shader_resource";
    EXPECT_TRUE(std::any_of(found.begin(), found.end(),
                            [&](const std::string& f) {
                              return f.starts_with(want) && f.find("not covered") != std::string::npos;
                            }))
        << async << "\n"
        << fmt::format("{}", fmt::join(found, "\n"));
  }
}

// A barrier must start from the layout its subresources are really in: one that claims another layout
// is a coverage finding at its pass, on one queue (the walk's usual-barrier path) and on several.
TEST(GraphChecks, CoverageFindsABarrierThatStartsFromTheWrongLayout) {
  for (const bool async : {false, true}) {
    const Graph g = chain(8, async);
    ASSERT_TRUE(compile_graph(g).findings.empty()) << async;
    // r2's first barrier after its first touch (its transition from unordered access to the reads).
    Layout real = Layout::none;
    std::string pass;
    CompileOptions o;
    o.before_checks = [&](GraphCompileResult& r) {
      for (CompiledGroup& cg : r.trans.compiled)
        for (size_t li = 0; li < cg.lists.size() && pass.empty(); ++li)
          for (Barrier& b : cg.barriers_of(li))
            if (r.trans.table[b.resource].name == "r2" && b.before.layout != Layout::undefined &&
                pass.empty()) {
              real = b.before.layout;
              pass = cg.lists[li].name;
              b.before.layout = Layout::render_target;
            }
    };
    const GraphCompileResult r = compile_graph(g, o);
    ASSERT_FALSE(pass.empty()) << async;
    ASSERT_NE(real, Layout::render_target) << async;
    EXPECT_EQ(r.findings, (std::vector<std::string>{fmt::format(
                              "coverage: /passes/{}: pass '{}', resource 'r2': barrier starts from "
                              "layout {} but the resource is in {}",
                              *g.find_pass(pass), pass, to_string(Layout::render_target), to_string(real))}))
        << async << "\n"
        << dump(g, r, "checks");
  }
}

TEST(GraphChecks, RestingFailsWhenARestoreIsDropped) {
  const Graph g = chain(8);
  GraphCompileResult r = compile_graph(g);
  ASSERT_TRUE(check_resting(g, r.sched, r.trans, r.finals).empty());
  bool dropped = false;
  for (CompiledGroup& cg : r.trans.compiled)
    for (Barrier& b : cg.barriers)
      if (b.reason == Reason::restore && r.trans.table[b.resource].name == "out") {
        b.after = b.before;
        dropped = true;
      }
  ASSERT_TRUE(dropped);
  const FinalStates f = final_states(r.trans);
  EXPECT_FALSE(check_resting(g, r.sched, r.trans, f).empty());
}

// The resting check replays the barriers itself and compares the final states phase's result with what
// it finds: final states that say "at rest" where the barriers leave a resource elsewhere are a finding,
// and so is a final state that is merely different (the checks never trust the phase they check).
TEST(GraphChecks, RestingFindsFinalStatesThatAreNotWhatTheBarriersLeave) {
  const Graph g = chain(8);
  const GraphCompileResult ok = compile_graph(g);
  ASSERT_TRUE(ok.findings.empty()) << dump(g, ok, "checks");
  const ResourceId out = ok.trans.first_member[8];
  ASSERT_EQ(ok.trans.table[out].name, "out");
  const State rest = ok.finals.at(out, 0);
  CompileOptions o;
  o.before_checks = [&](GraphCompileResult& r) { r.finals.state[out] = kFirstTouch; };
  const GraphCompileResult r = compile_graph(g, o);
  EXPECT_EQ(r.findings, (std::vector<std::string>{fmt::format(
                            "resting: /resources/8: resource 'out' subresource 0: the final states say {} but "
                            "the barriers leave it in {}",
                            to_string(kFirstTouch), to_string(rest))}))
      << dump(g, r, "checks");
  // A final state split into runs that say otherwise for a subresource the barriers leave at rest.
  o.before_checks = [&](GraphCompileResult& x) {
    Runs<State> two(x.finals.cells[out], rest);
    two.update(0, 1, [](uint32_t, uint32_t, State& v) { v = kFirstTouch; });
    x.finals.split[out] = static_cast<uint32_t>(x.finals.runs.size());
    x.finals.runs.push_back(std::move(two));
  };
  EXPECT_EQ(compile_graph(g, o).findings, r.findings);
  // A final state of the wrong size: one finding, no read past its end.
  o.before_checks = [&](GraphCompileResult& x) { x.finals.cells[out] = 3; };
  EXPECT_EQ(compile_graph(g, o).findings,
            (std::vector<std::string>{"resting: /resources/8: resource 'out': the final states have 3 "
                                      "subresources, the resource 1"}));
  // Final states of another frame (a member missing): one finding.
  o.before_checks = [&](GraphCompileResult& x) { x.finals.state.pop_back(); };
  EXPECT_EQ(compile_graph(g, o).findings,
            (std::vector<std::string>{"resting: /resources: the final states have 8 members, the frame has 9"}));
  // A drop of the restore is found from the barriers even when the final states are left as they were.
  o.before_checks = [](GraphCompileResult& x) {
    for (CompiledGroup& cg : x.trans.compiled)
      for (Barrier& b : cg.barriers)
        if (b.reason == Reason::restore && x.trans.table[b.resource].name == "out") b.after = b.before;
  };
  const GraphCompileResult dropped = compile_graph(g, o);
  ASSERT_GE(dropped.findings.size(), 2u) << dump(g, dropped, "checks");
  EXPECT_TRUE(dropped.findings[0].starts_with("resting: /resources/8: resource 'out' subresource 0: ends the frame in "))
      << dropped.findings[0];
  EXPECT_TRUE(dropped.findings[1].starts_with("resting: /resources/8: resource 'out' subresource 0: the final states say "))
      << dropped.findings[1];
}

TEST(GraphChecks, AliasingFailsWhenTwoLiveResourcesShareMemory) {
  const Graph g = chain(8);
  GraphCompileResult r = compile_graph(g);
  ASSERT_TRUE(check_aliasing(g, r.sched, r.aliasing).empty());
  Aliasing bad = r.aliasing;
  // r4 and r5 are live together (p5 reads r4 while writing r5): put them at one offset.
  bad.placements[bad.placement_of[5]].offset = bad.placements[bad.placement_of[4]].offset;
  EXPECT_FALSE(check_aliasing(g, r.sched, bad).empty());
}

// One pass reads a and writes b: the two are live together in that pass, even though every user of a
// is submitted no later than every user of b (the pass that is a's last user is b's first).
TEST(GraphChecks, AliasingFailsWhenOnePassIsTheLastUserOfOneAndTheFirstOfTheOther) {
  Graph g;
  const uint32_t a = g.add_resource(texture("a", 256, true));
  const uint32_t b = g.add_resource(texture("b", 256, true));
  const uint32_t out = g.add_resource(texture("out", 256, false));
  const Stages cs = stages(Stage::compute);
  g.add_pass(Pass{"fill", Queue::compute, false, false, {use(a, Access::unordered_access, cs)}, {}});
  g.add_pass(Pass{"blur",
                  Queue::compute,
                  false,
                  false,
                  {use(a, Access::shader_resource, cs), use(b, Access::unordered_access, cs)},
                  {}});
  g.add_pass(Pass{"resolve",
                  Queue::compute,
                  false,
                  false,
                  {use(b, Access::shader_resource, cs), use(out, Access::unordered_access, cs)},
                  {}});
  g.outputs = {out};
  const GraphCompileResult ok = compile_graph(g);
  ASSERT_TRUE(ok.findings.empty()) << dump(g, ok, "checks");
  Aliasing bad = ok.aliasing;
  ASSERT_NE(bad.placements[bad.placement_of[b]].offset, bad.placements[bad.placement_of[a]].offset);
  bad.placements[bad.placement_of[b]].offset = bad.placements[bad.placement_of[a]].offset;
  EXPECT_EQ(check_aliasing(g, ok.sched, bad),
            (std::vector<std::string>{fmt::format("/resources/1: resources 'a' and 'b' share memory at offset {} but "
                                                  "may be live together",
                                                  bad.placements[bad.placement_of[a]].offset)}));
}

// The aliasing with every placement apart, one placement unit each, above the first 16 units (which the
// tests below then share out by hand).
Aliasing placements_apart(Aliasing a) {
  for (size_t i = 0; i < a.placements.size(); ++i) {
    a.placements[i].offset = (16 + i) * kPlacementAlignment;
    a.placements[i].size = kPlacementAlignment;
  }
  return a;
}

// A resource that spans two elementary intervals of the heap, ordered after its neighbour in the first
// (r0 is done before p3 writes r3) and live together with its neighbour in the second (p3 reads r2 while
// writing r3): the second pair is a finding even though r3 was already found ordered after r0 (the check
// asks each pair once, not each resource once).
TEST(GraphChecks, AliasingChecksEveryPairOfAResourceThatSpansSeveralIntervals) {
  const Graph g = chain(8);
  GraphCompileResult r = compile_graph(g);
  ASSERT_TRUE(r.findings.empty());
  Aliasing bad = placements_apart(r.aliasing);
  constexpr uint64_t kS = kPlacementAlignment;
  Placement& r0 = bad.placements[bad.placement_of[0]];
  Placement& r2 = bad.placements[bad.placement_of[2]];
  Placement& r3 = bad.placements[bad.placement_of[3]];
  r0.offset = 0;
  r2.offset = kS;
  r3.offset = 0;
  r3.size = 2 * kS;
  EXPECT_EQ(check_aliasing(g, r.sched, bad),
            (std::vector<std::string>{fmt::format(
                "/resources/3: resources 'r2' and 'r3' share memory at offset {} but may be live together", kS)}));
}

// Placements that cut each other's memory into pieces, in order of first use: r3 inside r0 (r0's memory
// on both sides of it stays r0's), r6 over all three pieces. Every pair that shares memory is ordered
// (r0's last user p2 before r3's first user p3, r3's last user p5 before p6): no finding. Then r4 also
// takes [S, 3S), over r3 (its last user p5 reads r3 after p4 wrote r4: live together) and r0's right
// piece, where r6 follows it (p6 reads r4 while writing r6: live together too).
TEST(GraphChecks, AliasingFollowsPlacementsThatCutEachOthersMemory) {
  const Graph g = chain(8);
  GraphCompileResult r = compile_graph(g);
  ASSERT_TRUE(r.findings.empty());
  Aliasing cut = placements_apart(r.aliasing);
  constexpr uint64_t kS = kPlacementAlignment;
  cut.placements[cut.placement_of[0]].offset = 0;
  cut.placements[cut.placement_of[0]].size = 4 * kS;
  cut.placements[cut.placement_of[3]].offset = kS;
  cut.placements[cut.placement_of[6]].offset = 0;
  cut.placements[cut.placement_of[6]].size = 4 * kS;
  EXPECT_TRUE(check_aliasing(g, r.sched, cut).empty());
  Aliasing bad = cut;
  bad.placements[bad.placement_of[4]].offset = kS;
  bad.placements[bad.placement_of[4]].size = 2 * kS;
  EXPECT_EQ(check_aliasing(g, r.sched, bad),
            (std::vector<std::string>{
                fmt::format("/resources/4: resources 'r3' and 'r4' share memory at offset {} but may be live together", kS),
                fmt::format("/resources/6: resources 'r4' and 'r6' share memory at offset {} but may be live together",
                            2 * kS)}));
}

// The aliasing of the two tests below: every placement apart, one unit each, but r0 and r5 at offset 0.
Aliasing only_r0_and_r5_share(Aliasing a) {
  a = placements_apart(std::move(a));
  a.placements[a.placement_of[0]].offset = 0;
  a.placements[a.placement_of[5]].offset = 0;
  return a;
}

// What every user of a resource knows complete is the least over its users, not its first user's: on
// several queues a later user may know less (here p7, r5's last user, is made to know nothing of the
// graphics queue), and then r5 is not ordered after r0 (whose last user is the graphics pass p2). The
// facts take a resource's first user's clock only on one queue in serial order, where it is the least.
TEST(GraphChecks, AliasingTakesWhatEveryUserKnowsNotWhatTheFirstKnows) {
  const Graph g = chain(12, true);
  GraphCompileResult r = compile_graph(g);
  ASSERT_TRUE(r.findings.empty());
  const Aliasing shared = only_r0_and_r5_share(r.aliasing);
  ASSERT_TRUE(check_aliasing(g, r.sched, shared).empty());  // r0 is done before any user of r5 starts
  Schedule forgetful = r.sched;
  forgetful.clock[7][qi(Queue::direct)] = 0;
  EXPECT_EQ(check_aliasing(g, forgetful, shared),
            (std::vector<std::string>{
                "/resources/5: resources 'r0' and 'r5' share memory at offset 0 but may be live together"}));
}

// The same on one queue: a resource's first user knows least there only while positions ascend in
// serial order; here p6 (a user of r5 after p5) is put at position 0, so r5's users no longer all start
// after r0's last user (p2).
TEST(GraphChecks, AliasingOnOneQueueTakesWhatEveryUserKnowsWhenPositionsDoNotAscend) {
  const Graph g = chain(8);
  GraphCompileResult r = compile_graph(g);
  ASSERT_TRUE(r.findings.empty());
  const Aliasing shared = only_r0_and_r5_share(r.aliasing);
  ASSERT_TRUE(check_aliasing(g, r.sched, shared).empty());
  Schedule shuffled = r.sched;
  shuffled.pos[6] = 0;
  EXPECT_EQ(check_aliasing(g, shuffled, shared),
            (std::vector<std::string>{
                "/resources/5: resources 'r0' and 'r5' share memory at offset 0 but may be live together"}));
}

TEST(GraphChecks, AliasingFailsForResourcesOnConcurrentQueues) {
  const Graph g = chain(8, true);
  GraphCompileResult r = compile_graph(g);
  ASSERT_TRUE(check_aliasing(g, r.sched, r.aliasing).empty());
  Schedule loose = r.sched;
  loose.syncs.clear();  // nothing orders the queues any more
  for (uint32_t p : loose.serial) {
    const size_t q = qi(exec_queue(g.passes[p]));
    for (size_t k = 0; k < kQueues; ++k)
      if (k != q) loose.clock[p][k] = 0;
  }
  EXPECT_FALSE(check_aliasing(g, loose, r.aliasing).empty());
}

TEST(GraphChecks, SerialOrderFailsWhenDependentPassesSwapOrAWaitIsLost) {
  const Graph g = chain(8, true);
  const GraphCompileResult r = compile_graph(g);
  ASSERT_TRUE(check_serial_order(g, r.validated, r.culled, r.sched).empty());
  Schedule swapped = r.sched;
  std::swap(swapped.serial[2], swapped.serial[3]);
  EXPECT_FALSE(check_serial_order(g, r.validated, r.culled, swapped).empty());
  Schedule no_wait = r.sched;
  ASSERT_FALSE(no_wait.syncs.empty());
  no_wait.syncs.erase(no_wait.syncs.begin() + 1);
  EXPECT_FALSE(check_serial_order(g, r.validated, r.culled, no_wait).empty());
}

// ---- checks over the schedule's happens-before, and compile_graph running each of them --------

bool has_prefix(const std::vector<std::string>& v, std::string_view prefix) {
  return std::any_of(v.begin(), v.end(), [&](const std::string& f) { return f.starts_with(prefix); });
}

// t is drawn on graphics, sampled by an async compute pass, then drawn again on graphics (which waits
// for the compute pass: it moves t out of the read state the compute pass reads in).
Graph reread() {
  Graph g;
  Resource t = texture("t", 64, false);
  t.desc.usage = bit(Access::render_target) | bit(Access::shader_resource);
  const uint32_t rt = g.add_resource(t);
  const uint32_t out = g.add_resource(texture("out", 64, false));
  const Stages cs = stages(Stage::compute);
  Pass draw{"draw", Queue::direct, false, false, {use(rt, Access::render_target)}, {}};
  Pass sample{"sample",
              Queue::compute,
              true,
              false,
              {use(rt, Access::shader_resource, cs), use(out, Access::unordered_access, cs)},
              {}};
  Pass redraw{"redraw", Queue::direct, false, false, {use(rt, Access::render_target)}, {}};
  g.add_pass(draw);
  g.add_pass(sample);
  g.add_pass(redraw);
  g.outputs = {rt, out};
  return g;
}

TEST(GraphChecks, CoverageFindsAGraphicsTransitionRacingAnAsyncComputeRead) {
  const Graph g = reread();
  const GraphCompileResult ok = compile_graph(g);
  ASSERT_TRUE(ok.findings.empty()) << dump(g, ok, "checks");
  ASSERT_EQ(ok.sched.syncs.size(), 2u);
  // In submission order the compute read comes first; only the wait orders it before redraw's
  // transition. Without it (the schedule's clock forgets the compute queue) the two may overlap.
  CompileOptions o;
  o.before_checks = [&](GraphCompileResult& r) {
    r.sched.clock[*g.find_pass("redraw")][qi(Queue::compute)] = 0;
  };
  const GraphCompileResult r = compile_graph(g, o);
  // The same transition leaves t at rest: the resting check finds it too.
  EXPECT_EQ(r.findings,
            (std::vector<std::string>{"coverage: /passes/2: pass 'redraw' (graphics queue): a layout transition on "
                                      "resource 't' is not ordered after "
                                      "pass 'sample' (compute queue), which uses it (no wait between them)",
                                      "resting: /resources/0: resource 't' subresource 0: pass 'redraw' (graphics queue) "
                                      "leaves it in its final state but "
                                      "is not ordered after pass 'sample' (compute queue), which uses it"}))
      << dump(g, r, "checks");
}

TEST(GraphChecks, CoverageFindsAReadNotOrderedAfterTheTransitionIntoItsState) {
  const Graph g = reread();
  CompileOptions o;  // sample no longer knows that draw (and its transition into the read state) completed
  o.before_checks = [&](GraphCompileResult& r) {
    r.sched.clock[*g.find_pass("sample")][qi(Queue::direct)] = 0;
  };
  const GraphCompileResult r = compile_graph(g, o);
  ASSERT_FALSE(r.findings.empty());
  EXPECT_EQ(
      r.findings[0],
      "coverage: /passes/1: pass 'sample' (compute queue): a read on resource 't' is not ordered after pass "
      "'draw' "
      "(graphics queue), which uses it (no wait between them)");
}

// u is sampled by graphics, then last written by async compute: a graphics group submitted last
// (frame_end) restores it, waiting for the compute group.
Graph update_last() {
  Graph g;
  const uint32_t u = g.add_resource(texture("u", 64, false));
  Resource out = texture("out", 64, false);
  out.desc.usage = bit(Access::render_target);
  const uint32_t o = g.add_resource(out);
  const Stages cs = stages(Stage::compute), ps = stages(Stage::pixel);
  g.add_pass(Pass{"shade",
                  Queue::direct,
                  false,
                  false,
                  {use(u, Access::shader_resource, ps), use(o, Access::render_target)},
                  {}});
  g.add_pass(Pass{"update", Queue::compute, true, false, {use(u, Access::unordered_access, cs)}, {}});
  g.outputs = {u, o};
  return g;
}

TEST(GraphChecks, RestingAndCoverageFindARestoreThatDoesNotWaitForTheLastUser) {
  const Graph g = update_last();
  const GraphCompileResult ok = compile_graph(g);
  ASSERT_TRUE(ok.findings.empty()) << dump(g, ok, "checks");
  ASSERT_EQ(ok.trans.info.back().role, GroupInfo::Role::frame_end);
  ASSERT_FALSE(ok.trans.info.back().waits.empty());
  CompileOptions o;
  o.before_checks = [](GraphCompileResult& r) { r.trans.info.back().waits.clear(); };
  const GraphCompileResult r = compile_graph(g, o);
  EXPECT_EQ(
      r.findings,
      (std::vector<std::string>{
          "coverage: /resources/0: the frame end transitions (graphics queue): a layout transition on resource "
          "'u' is not "
          "ordered after pass 'update' (compute queue), which uses it (no wait between them)",
          "resting: /resources/0: resource 'u' subresource 0: the frame end transitions (graphics queue) leaves it "
          "in its "
          "final state but is not ordered after pass 'update' (compute queue), which uses it"}))
      << dump(g, r, "checks");
}

// Each check reports through compile_graph (check_all): removing one from the pipeline fails here.
TEST(GraphChecks, CompileGraphRunsEveryCheck) {
  struct Case {
    std::string_view check;
    bool async;
    std::function<void(GraphCompileResult&)> corrupt;
  };
  const std::vector<Case> cases = {
      {"coverage: ", false,
       [](GraphCompileResult& r) {
         for (CompiledGroup& cg : r.trans.compiled)
           for (size_t li = 0; li < cg.lists.size(); ++li)
             if (cg.lists[li].name == "p3")
               for (Barrier& b : cg.barriers_of(li))
                 if (r.trans.table[b.resource].name == "r2") b.after = b.before;
       }},
      {"resting: ", false,
       [](GraphCompileResult& r) {
         for (CompiledGroup& cg : r.trans.compiled)
           for (Barrier& b : cg.barriers)
             if (b.reason == Reason::restore && r.trans.table[b.resource].name == "out") b.after = b.before;
         r.finals = final_states(r.trans);
       }},
      {"aliasing: ", false,
       [](GraphCompileResult& r) {
         r.aliasing.placements[r.aliasing.placement_of[5]].offset =
             r.aliasing.placements[r.aliasing.placement_of[4]].offset;
       }},
      {"takeover: ", false,
       [](GraphCompileResult& r) {
         ASSERT_FALSE(r.aliasing.barriers.empty());
         const ResourceId m = r.trans.first_member[r.aliasing.barriers.front().resource];
         for (CompiledGroup& cg : r.trans.compiled)
           for (Barrier& b : cg.barriers)
             if (b.resource == m) b.before = kFirstTouch;  // waits for nothing
       }},
      {"serial-order: ", true,
       [](GraphCompileResult& r) { std::swap(r.sched.serial[2], r.sched.serial[3]); }},
  };
  for (const Case& c : cases) {
    const Graph g = chain(8, c.async);
    ASSERT_TRUE(compile_graph(g).findings.empty()) << c.check;
    CompileOptions o;
    o.before_checks = c.corrupt;
    const GraphCompileResult r = compile_graph(g, o);
    EXPECT_TRUE(has_prefix(r.findings, c.check)) << c.check << "\n" << dump(g, r, "checks");
    EXPECT_EQ(check_all(g, r), r.findings);
  }
  // run_checks off: no findings whatever the phases hold.
  CompileOptions off;
  off.run_checks = false;
  off.before_checks = cases.front().corrupt;
  EXPECT_TRUE(compile_graph(chain(8), off).findings.empty());
}

TEST(GraphPhases, ResourceSetMembersGetTheirOwnBarriers) {
  Graph g;
  Resource set;
  set.desc.name = "emitters";
  set.desc.type = ResourceType::buffer;
  set.desc.size = 4096;
  set.desc.usage = bit(Access::unordered_access) | bit(Access::shader_resource);
  set.count = 3;
  g.resources.push_back(set);
  Resource target = texture("target", 64, false);
  target.desc.usage = bit(Access::render_target);
  g.resources.push_back(target);
  Pass sim;
  sim.name = "simulate";
  sim.queue = Queue::compute;
  sim.uses = {use(0, Access::unordered_access, stages(Stage::compute))};
  Pass draw;
  draw.name = "draw";
  draw.uses = {use(0, Access::shader_resource, stages(Stage::vertex)), use(1, Access::render_target)};
  g.passes = {sim, draw};
  g.outputs = {1};
  const GraphCompileResult r = compile_graph(g);
  EXPECT_TRUE(r.findings.empty());
  size_t member_barriers = 0;
  for (const CompiledGroup& cg : r.trans.compiled)
    for (const CompiledList& cl : cg.lists)
      if (cl.name == "draw")
        for (const Barrier& b : cl.barriers) member_barriers += r.trans.table[b.resource].name.starts_with("emitters[");
  EXPECT_EQ(member_barriers, 3u);
}

}  // namespace
}  // namespace baton::graph
