// The replays' per-member runs (src/graph/replay.hpp, FlatRuns): a split member's runs are a flat array
// while they are few and a Runs<T> tree past that; either way they must be what one value per cell gives,
// as maximal runs, through splits, merges, the move into the tree and the way back to one run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

#include "../../src/graph/replay.hpp"

namespace baton::graph {
namespace {

using RunList = std::vector<std::tuple<uint32_t, uint32_t, uint32_t>>;  // (first, count, value)

// The maximal runs of one value per cell.
RunList maximal_runs(const std::vector<uint32_t>& cells) {
  RunList out;
  for (uint32_t c = 0; c < cells.size(); ++c) {
    if (!out.empty() && std::get<2>(out.back()) == cells[c])
      ++std::get<1>(out.back());
    else
      out.emplace_back(c, 1u, cells[c]);
  }
  return out;
}

RunList runs_of(const detail::FlatRuns<uint32_t>& fr, uint32_t m) {
  RunList out;
  fr.for_each(m, [&](uint32_t first, uint32_t n, const uint32_t& v) { out.emplace_back(first, n, v); });
  return out;
}

TEST(FlatRuns, AgreeWithOneValuePerCellThroughManyRunsAndBackToOne) {
  constexpr uint32_t kCells = 4096;
  detail::FlatRuns<uint32_t> fr;
  // Member 1 is never updated: it must keep its own value beside member 0's splits.
  fr.reset(2, [](uint32_t m) { return m == 0 ? kCells : 7u; }, [](uint32_t m, uint32_t& v) { v = m == 0 ? 0u : 42u; });
  std::vector<uint32_t> ref(kCells, 0);
  std::mt19937 rng(7);
  // Rounds of short updates of a few values in any order, which split the member into hundreds of runs
  // (past the flat array's limit, into the tree), then long updates of one value, which merge them back
  // into one run (inline again): each round moves into the tree from a different array.
  // Each round opens with different values at the two ends, so the first and the last run differ when
  // the runs move into the tree.
  const auto set = [&](uint32_t lo, uint32_t hi, uint32_t v) {
    fr.update(0, lo, hi, [&](uint32_t, uint32_t, uint32_t& x) { x = v; });
    for (uint32_t c = lo; c < hi; ++c) ref[c] = v;
  };
  for (uint32_t round = 0; round < 8; ++round) {
    size_t most = 0;
    set(0, kCells / 3, 500 + round);
    set(2 * kCells / 3, kCells, 600 + round);
    for (int step = 0; step < 1200; ++step) {
      const bool split = step < 600;
      const uint32_t lo = static_cast<uint32_t>(rng() % kCells);
      const uint32_t len = split ? 1 + static_cast<uint32_t>(rng() % 4) : 256 + static_cast<uint32_t>(rng() % 1024);
      const uint32_t hi = std::min(kCells, lo + len);
      const uint32_t v = split ? 10 * round + static_cast<uint32_t>(rng() % 5) : 1000 + round;
      uint32_t covered = 0;
      fr.update(0, lo, hi, [&](uint32_t first, uint32_t n, uint32_t& x) {
        EXPECT_TRUE(first >= lo && first + n <= hi) << "round " << round << " step " << step;
        covered += n;
        x = v;
      });
      ASSERT_EQ(covered, hi - lo) << "round " << round << " step " << step;
      for (uint32_t c = lo; c < hi; ++c) ref[c] = v;
      const RunList want = maximal_runs(ref);
      ASSERT_EQ(runs_of(fr, 0), want) << "round " << round << " step " << step;
      most = std::max(most, want.size());
      if (step % 97 == 0) {  // the Runs<T> copy of the member holds the same runs
        RunList copied;
        fr.runs(0).for_each(0, kCells, [&](uint32_t first, uint32_t n, const uint32_t& x) { copied.emplace_back(first, n, x); });
        ASSERT_EQ(copied, want) << "round " << round << " step " << step;
      }
      ASSERT_EQ(runs_of(fr, 1), (RunList{{0u, 7u, 42u}}));
    }
    EXPECT_GT(most, 200u) << "round " << round;  // well past the flat array's limit: the tree was used
    // One value over every cell: one run again, held inline.
    set(0, kCells, 2000 + round);
    EXPECT_TRUE(fr.is_whole(0));
    EXPECT_EQ(fr.whole(0), 2000 + round);
    EXPECT_EQ(runs_of(fr, 0), (RunList{{0u, kCells, 2000 + round}}));
  }
}

}  // namespace
}  // namespace baton::graph
