// Runs<T> (baton/runs.hpp) against a flat per-index array on seeded random updates, and the
// interval walk of a box (for_each_box_interval) against the maximal runs of the box's indices.
#include "baton/runs.hpp"
#include "baton/range_map.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <new>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "../count_heap_blocks.hpp"

namespace baton {
namespace {

// The maximal runs of equal values of a flat array, as (first, end, value).
std::vector<std::tuple<uint32_t, uint32_t, int>> flat_runs(const std::vector<int>& v) {
  std::vector<std::tuple<uint32_t, uint32_t, int>> out;
  for (uint32_t i = 0; i < v.size(); ++i) {
    if (!out.empty() && std::get<2>(out.back()) == v[i])
      std::get<1>(out.back()) = i + 1;
    else
      out.emplace_back(i, i + 1, v[i]);
  }
  return out;
}

std::vector<std::tuple<uint32_t, uint32_t, int>> runs_of(Runs<int>& r) {
  std::vector<std::tuple<uint32_t, uint32_t, int>> out;
  r.for_all([&](uint32_t first, uint32_t n, int& v) { out.emplace_back(first, first + n, v); });
  return out;
}

// Whole updates of one run (the inline form), partial updates (the map) and coalescing back to one
// run, in random order: values, walks and run counts are those of the flat array.
TEST(Runs, AgreeWithAFlatArrayThroughSplitsAndMergesBackToOneRun) {
  for (uint32_t seed = 1; seed <= 200; ++seed) {
    std::mt19937 rng(seed);
    const auto size = static_cast<uint32_t>(1 + rng() % 24);
    Runs<int> r(size, 0);
    std::vector<int> flat(size, 0);
    for (int step = 0; step < 60; ++step) {
      uint32_t lo = 0, hi = size;
      if (rng() % 3 != 0) {  // two in three updates touch part of the index space
        lo = static_cast<uint32_t>(rng() % size);
        hi = lo + 1 + static_cast<uint32_t>(rng() % (size - lo));
      }
      const int value = static_cast<int>(rng() % 3);
      r.update(lo, hi, [&](uint32_t, uint32_t, int& v) { v = value; });
      for (uint32_t i = lo; i < hi; ++i) flat[i] = value;
      if (rng() % 2) r.coalesce(0, size);
      for (uint32_t i = 0; i < size; ++i) ASSERT_EQ(r.at(i), flat[i]) << "seed " << seed << " step " << step;
      uint32_t next = lo;
      r.for_each(lo, hi, [&](uint32_t first, uint32_t n, int v) {
        ASSERT_EQ(first, next);
        for (uint32_t i = first; i < first + n; ++i) ASSERT_EQ(v, flat[i]);
        next = first + n;
      });
      ASSERT_EQ(next, hi);
    }
    r.coalesce();
    EXPECT_EQ(runs_of(r), flat_runs(flat)) << "seed " << seed;
    EXPECT_EQ(r.run_count(), flat_runs(flat).size());
  }
}

// assign() writes a container again from a run list: the same runs as the flat array's maximal runs,
// whatever the container held (one run, many, none), with its stats kept in step; written again with at
// most as many runs as it held, it takes no heap block (its map's nodes are reused).
TEST(Runs, AssignGivesTheRunsItIsGivenAndReusesTheNodes) {
  std::mt19937 rng(7);
  Runs<int> r;
  RunStats stats;
  r.count_into(&stats);
  for (int round = 0; round < 300; ++round) {
    const auto size = static_cast<uint32_t>(1 + rng() % 40);
    std::vector<int> flat(size);
    for (uint32_t i = 0; i < size; ++i) flat[i] = static_cast<int>(rng() % (round % 4 == 0 ? 1 : 3));
    const auto want = flat_runs(flat);
    const size_t live_before = stats.live - r.run_count();
    const uint64_t blocks = baton::test::heap_blocks();
    const size_t nodes_before = r.run_count() > 1 ? r.run_count() : 0;
    r.assign(size, [&](auto&& emit) {
      for (const auto& [first, end, v] : want) emit(first, v);
    });
    if (want.size() > 1 && want.size() <= nodes_before) {  // as many nodes as it needs: none taken
      EXPECT_EQ(baton::test::heap_blocks(), blocks) << "round " << round;
    }
    ASSERT_EQ(r.size(), size);
    EXPECT_EQ(runs_of(r), want) << "round " << round;
    EXPECT_EQ(r.run_count(), want.size());
    for (uint32_t i = 0; i < size; ++i) ASSERT_EQ(r.at(i), flat[i]) << "round " << round;
    EXPECT_EQ(stats.live, live_before + r.run_count()) << "round " << round;
    // The same starts again with other values (the same frame again: every node keeps its place), then
    // only the first half of the runs (the last one reaching the end: the map's tail is dropped).
    std::vector<int> shifted(flat);
    for (int& v : shifted) v += 10;
    r.assign(size, [&](auto&& emit) {
      for (const auto& [first, end, v] : want) emit(first, v + 10);
    });
    EXPECT_EQ(runs_of(r), flat_runs(shifted)) << "round " << round;
    const size_t half = (want.size() + 1) / 2;
    std::vector<int> cut(flat);
    for (uint32_t i = std::get<0>(want[half - 1]); i < size; ++i) cut[i] = std::get<2>(want[half - 1]);
    const uint64_t blocks_cut = baton::test::heap_blocks();
    r.assign(size, [&](auto&& emit) {
      for (size_t k = 0; k < half; ++k) emit(std::get<0>(want[k]), std::get<2>(want[k]));
    });
    EXPECT_EQ(baton::test::heap_blocks(), blocks_cut) << "round " << round;
    EXPECT_EQ(runs_of(r), flat_runs(cut)) << "round " << round;
    EXPECT_EQ(stats.live, live_before + r.run_count()) << "round " << round;
    // Still an ordinary container afterwards (a second one, without stats: a counted container is not
    // copied): a partial update splits it as it would any other, and coalescing gives the runs back.
    Runs<int> plain(size, 5);
    plain.assign(size, [&](auto&& emit) {
      for (const auto& [first, end, v] : want) emit(first, v);
    });
    const int old0 = plain.at(0);
    plain.update(0, 1, [](uint32_t, uint32_t, int& v) { v = 9; });
    EXPECT_EQ(plain.at(0), 9);
    if (size > 1) {
      EXPECT_EQ(plain.at(size - 1), flat[size - 1]);
    }
    plain.update(0, 1, [&](uint32_t, uint32_t, int& v) { v = old0; });
    plain.coalesce();
    EXPECT_EQ(runs_of(plain), want) << "round " << round;
  }
}

TEST(Runs, StatsCountTheInlineRunAndTheSplitsAndMergesAfterIt) {
  RunStats stats;
  Runs<int> r(10, 0);
  r.count_into(&stats);
  EXPECT_EQ(stats.live, 1u);
  r.update(0, 10, [](uint32_t, uint32_t, int& v) { v = 1; });  // whole: still one run
  EXPECT_EQ(stats.live, 1u);
  EXPECT_EQ(stats.visits, 1u);
  r.update(2, 4, [](uint32_t, uint32_t, int& v) { v = 2; });  // three runs
  EXPECT_EQ(stats.live, 3u);
  r.update(2, 4, [](uint32_t, uint32_t, int& v) { v = 1; });
  r.coalesce(0, 10);  // back to one run
  EXPECT_EQ(stats.live, 1u);
  EXPECT_EQ(r.run_count(), 1u);
}

// One run updated whole, walked and coalesced needs no heap block: the frame graph's checks replay
// every member this way. Heap blocks are counted by this binary's operator new (below).
TEST(Runs, OneRunUpdatedWholeAllocatesNothing) {
  Runs<int> r(64, 0);
  const uint64_t before = baton::test::heap_blocks();
  r.update(0, 64, [](uint32_t, uint32_t, int& v) { v = 3; });
  int sum = 0;
  r.for_each(0, 64, [&](uint32_t, uint32_t n, int v) { sum += static_cast<int>(n) * v; });
  r.coalesce(0, 64);
  EXPECT_EQ(sum, 192);
  EXPECT_EQ(baton::test::heap_blocks(), before);
  r.update(3, 5, [](uint32_t, uint32_t, int& v) { v = 4; });  // a split does take the map's nodes
  EXPECT_GT(baton::test::heap_blocks(), before);
}

// A RangeMap split and merged again takes no heap block once its storage has grown: coalesce() keeps
// its changed positions per thread and orders a small map without a temporary buffer (the compiler
// coalesces after every ranged read and write; a block per coalesce was a third of the core benchmark's
// compile). The order it leaves is the corner order (plane, layer, mip).
TEST(RangeMapCoalesce, SplitAndMergedAgainTakesNoHeapBlockOnceGrown) {
  RangeMap<int> m(Box{0, 8, 0, 4, 0, 1}, 0);
  const auto cycle = [&] {
    m.assign(Box{2, 5, 1, 3, 0, 1}, 1);  // split into five boxes
    m.coalesce();
    std::vector<std::tuple<uint32_t, uint32_t, int>> corners;  // (layer, mip, value), storage order
    corners.reserve(8);  // one block
    for (const auto& e : m.entries()) corners.emplace_back(e.box.l0, e.box.m0, e.value);
    m.assign(Box{2, 5, 1, 3, 0, 1}, 0);
    m.coalesce();  // one box again
    return corners;
  };
  const auto first = cycle();
  ASSERT_EQ(m.entries().size(), 1u);
  std::vector<std::tuple<uint32_t, uint32_t, int>> corners;
  const uint64_t before = baton::test::heap_blocks();
  corners = cycle();  // assigned to storage made before the count: the vector's block is not the map's
  const uint64_t after = baton::test::heap_blocks();
  EXPECT_EQ(corners, first);
  EXPECT_TRUE(std::is_sorted(corners.begin(), corners.end())) << "not in corner order";
  EXPECT_EQ(corners.size(), 5u);
  // cycle() itself makes one vector (its result); the map's split and merges take nothing.
  EXPECT_LE(after - before, 1u);
}

// The indices of the box, as maximal runs of consecutive indices.
std::vector<std::pair<uint32_t, uint32_t>> brute_intervals(uint32_t mips, uint32_t layers, uint32_t m0, uint32_t m1,
                                                           uint32_t l0, uint32_t l1, uint32_t p0, uint32_t p1) {
  std::vector<uint32_t> idx;
  for (uint32_t p = p0; p < p1; ++p)
    for (uint32_t l = l0; l < l1; ++l)
      for (uint32_t m = m0; m < m1; ++m) idx.push_back(m + l * mips + p * mips * layers);
  std::sort(idx.begin(), idx.end());
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (uint32_t i : idx) {
    if (!out.empty() && out.back().second == i)
      ++out.back().second;
    else
      out.emplace_back(i, i + 1);
  }
  return out;
}

TEST(BoxIntervals, EveryBoxOfSmallResourcesGivesTheMaximalRunsOfItsIndices) {
  for (uint32_t mips = 1; mips <= 3; ++mips)
    for (uint32_t layers = 1; layers <= 3; ++layers)
      for (uint32_t m0 = 0; m0 < mips; ++m0)
        for (uint32_t m1 = m0 + 1; m1 <= mips; ++m1)
          for (uint32_t l0 = 0; l0 < layers; ++l0)
            for (uint32_t l1 = l0 + 1; l1 <= layers; ++l1)
              for (uint32_t p0 = 0; p0 < 2; ++p0)
                for (uint32_t p1 = p0 + 1; p1 <= 2; ++p1) {
                  std::vector<std::pair<uint32_t, uint32_t>> walked;
                  for_each_box_interval(mips, layers, m0, m1, l0, l1, p0, p1,
                                        [&](uint32_t lo, uint32_t hi) { walked.emplace_back(lo, hi); });
                  const auto expected = brute_intervals(mips, layers, m0, m1, l0, l1, p0, p1);
                  EXPECT_EQ(walked, expected) << mips << "x" << layers << " mips " << m0 << ".." << m1 << " layers "
                                              << l0 << ".." << l1 << " planes " << p0 << ".." << p1;
                  EXPECT_EQ(box_intervals(mips, layers, m0, m1, l0, l1, p0, p1), expected);
                }
}

}  // namespace
}  // namespace baton
