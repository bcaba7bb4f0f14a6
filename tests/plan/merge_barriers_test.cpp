// Invariant 6: the barriers of one resource at one point that are identical but for contiguous ranges
// merge into one. The compiler's indexed form (plan_detail::merge_barriers_many, for points with many
// barriers of one resource) must give exactly what the defining scan gives, barrier for barrier and in
// the same order, and cost pair tests in proportion to the barriers, not to their square.
#include "../../src/plan/merge_barriers.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace baton {
namespace {

bool same_barrier(const Barrier& a, const Barrier& b) {
  return a.resource == b.resource && a.box == b.box && a.before == b.before && a.after == b.after &&
         a.reason == b.reason && a.discard == b.discard && a.previous == b.previous &&
         a.byte_offset == b.byte_offset && a.byte_size == b.byte_size;
}

Barrier with_value(int v) {
  Barrier b;
  b.resource = 3;
  b.before = State{sync::all, kAnyAccess, Layout::common};
  b.after = State{sync::all, kAnyAccess, v % 2 ? Layout::shader_resource : Layout::render_target};
  b.reason = v >= 2 ? Reason::restore : Reason::state_change;
  return b;
}

std::vector<Barrier> random_barriers(std::mt19937& rng) {
  auto pick = [&](uint32_t n) { return std::uniform_int_distribution<uint32_t>(0, n - 1)(rng); };
  std::vector<Barrier> out;
  if (pick(3) == 0) {  // byte ranges of a buffer: a partition of [0, 1024) into pieces, some whole
    for (uint64_t at = 0; at < 1024;) {
      const uint64_t size = std::min<uint64_t>(1024 - at, 8 * (1 + pick(6)));
      Barrier b = with_value(static_cast<int>(pick(3)));
      b.byte_offset = at;
      b.byte_size = size;
      out.push_back(b);
      at += size;
    }
    for (uint32_t k = pick(3); k > 0; --k) out.push_back(with_value(static_cast<int>(pick(3))));
  } else {  // boxes: the tiling a range map leaves after random assignments
    const uint32_t mips = 1 + pick(6), layers = 1 + pick(8), planes = 1 + pick(2);
    RangeMap<int> m(Box{0, mips, 0, layers, 0, planes}, 0);
    for (uint32_t k = 0, n = 2 + pick(12); k < n; ++k) {
      Box b;
      b.m0 = pick(mips);
      b.m1 = b.m0 + 1 + pick(mips - b.m0);
      b.l0 = pick(layers);
      b.l1 = b.l0 + 1 + pick(layers - b.l0);
      b.p0 = pick(planes);
      b.p1 = b.p0 + 1 + pick(planes - b.p0);
      m.assign(b, static_cast<int>(k));
    }
    for (const auto& e : m.entries()) {
      // Split further into single subresources now and then, so that there is much to merge.
      if (pick(2) == 0) {
        for (uint32_t mi = e.box.m0; mi < e.box.m1; ++mi)
          for (uint32_t l = e.box.l0; l < e.box.l1; ++l)
            for (uint32_t p = e.box.p0; p < e.box.p1; ++p) {
              Barrier b = with_value(e.value % 3);
              b.box = Box{mi, mi + 1, l, l + 1, p, p + 1};
              out.push_back(b);
            }
      } else {
        Barrier b = with_value(e.value % 3);
        b.box = e.box;
        out.push_back(b);
      }
    }
    if (pick(6) == 0)
      out.push_back(out[pick(static_cast<uint32_t>(out.size()))]);  // a duplicate, overlapping
  }
  std::shuffle(out.begin(), out.end(), rng);
  return out;
}

TEST(MergeBarriers, ManyGivesWhatTheScanGives) {
  size_t merged = 0;
  for (uint32_t seed = 1; seed <= 3000; ++seed) {
    std::mt19937 rng(seed);
    std::vector<Barrier> a = random_barriers(rng), b = a;
    const size_t na = plan_detail::merge_barriers_scan(a.data(), a.size());
    const size_t nb = plan_detail::merge_barriers_many(b.data(), b.size());
    ASSERT_EQ(na, nb) << "seed " << seed;
    for (size_t k = 0; k < na; ++k)
      ASSERT_TRUE(same_barrier(a[k], b[k])) << "seed " << seed << " barrier " << k;
    merged += a.size() - na;
  }
  EXPECT_GT(merged, 20000u);  // there was much to merge
}

// The restores of a texture left as 34,816 single subresources in two states (alternating by layer): a
// few pair tests per barrier, where the scan tests ~n^2 / 2 pairs for each merge.
TEST(MergeBarriers, ManyCostsPairTestsInProportion) {
  std::vector<Barrier> bs;
  for (uint32_t l = 0; l < 2048; ++l)
    for (uint32_t m = 0; m < 17; ++m) {
      Barrier b = with_value(static_cast<int>(l % 2));
      b.box = Box{m, m + 1, l, l + 1, 0, 1};
      bs.push_back(b);
    }
  uint64_t tests = 0;
  const size_t left = plan_detail::merge_barriers_many(bs.data(), bs.size(), &tests);
  EXPECT_EQ(left, 2048u);  // one barrier per layer, all its mips
  for (size_t k = 0; k < left; ++k)
    EXPECT_EQ(bs[k].box, (Box{0, 17, static_cast<uint32_t>(k), static_cast<uint32_t>(k) + 1, 0, 1}));
  EXPECT_LT(tests, uint64_t{40} * 17 * 2048);
}

}  // namespace
}  // namespace baton
