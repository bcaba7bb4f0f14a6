// RangeMap<T> against a flat per-subresource array on thousands of seeded random assignments.
#include <gtest/gtest.h>

#include <random>

#include "baton/range_map.hpp"

namespace baton {
namespace {

struct Flat {
  uint32_t mips, layers, planes;
  std::vector<int> v;
  int& at(uint32_t m, uint32_t l, uint32_t p) { return v[m + l * mips + p * mips * layers]; }
};

Box random_box(std::mt19937& rng, uint32_t mips, uint32_t layers, uint32_t planes) {
  auto axis = [&](uint32_t n, uint32_t& a, uint32_t& b) {
    a = std::uniform_int_distribution<uint32_t>(0, n - 1)(rng);
    b = std::uniform_int_distribution<uint32_t>(a + 1, n)(rng);
  };
  Box b;
  axis(mips, b.m0, b.m1);
  axis(layers, b.l0, b.l1);
  axis(planes, b.p0, b.p1);
  return b;
}

void expect_equal(const RangeMap<int>& m, Flat& f, uint32_t seed, int step) {
  uint64_t covered = 0;
  for (const auto& e : m.entries()) covered += e.box.volume();
  ASSERT_EQ(covered, uint64_t{f.mips} * f.layers * f.planes) << "boxes must tile the resource (seed " << seed << ")";
  for (size_t i = 0; i < m.entries().size(); ++i)
    for (size_t j = i + 1; j < m.entries().size(); ++j)
      ASSERT_FALSE(overlaps(m.entries()[i].box, m.entries()[j].box)) << "seed " << seed << " step " << step;
  for (uint32_t p = 0; p < f.planes; ++p)
    for (uint32_t l = 0; l < f.layers; ++l)
      for (uint32_t mi = 0; mi < f.mips; ++mi)
        ASSERT_EQ(m.at(mi, l, p), f.at(mi, l, p)) << "seed " << seed << " step " << step << " at " << mi << "," << l
                                                  << "," << p;
}

TEST(RangeMap, MatchesFlatArrayOnRandomAssignments) {
  int checks = 0;
  for (uint32_t seed = 1; seed <= 400; ++seed) {
    std::mt19937 rng(seed);
    const uint32_t mips = std::uniform_int_distribution<uint32_t>(1, 6)(rng);
    const uint32_t layers = std::uniform_int_distribution<uint32_t>(1, 5)(rng);
    const uint32_t planes = std::uniform_int_distribution<uint32_t>(1, 2)(rng);
    RangeMap<int> m(Box{0, mips, 0, layers, 0, planes}, 0);
    Flat f{mips, layers, planes, std::vector<int>(size_t{mips} * layers * planes, 0)};
    for (int step = 0; step < 25; ++step) {
      const Box b = random_box(rng, mips, layers, planes);
      const int op = std::uniform_int_distribution<int>(0, 2)(rng);
      const int v = std::uniform_int_distribution<int>(0, 3)(rng);
      if (op == 0) {
        m.assign(b, v);
        for (uint32_t p = b.p0; p < b.p1; ++p)
          for (uint32_t l = b.l0; l < b.l1; ++l)
            for (uint32_t mi = b.m0; mi < b.m1; ++mi) f.at(mi, l, p) = v;
      } else if (op == 1) {
        m.update(b, [&](const Box&, int& x) { x += v; });
        m.coalesce();
        for (uint32_t p = b.p0; p < b.p1; ++p)
          for (uint32_t l = b.l0; l < b.l1; ++l)
            for (uint32_t mi = b.m0; mi < b.m1; ++mi) f.at(mi, l, p) += v;
      } else {
        // for_each visits exactly the subresources of b, each once, with their values.
        uint64_t seen = 0;
        m.for_each(b, [&](const Box& piece, const int& x) {
          EXPECT_TRUE(contains(b, piece));
          seen += piece.volume();
          for (uint32_t p = piece.p0; p < piece.p1; ++p)
            for (uint32_t l = piece.l0; l < piece.l1; ++l)
              for (uint32_t mi = piece.m0; mi < piece.m1; ++mi) EXPECT_EQ(f.at(mi, l, p), x);
        });
        EXPECT_EQ(seen, b.volume());
      }
      expect_equal(m, f, seed, step);
      ++checks;
    }
  }
  EXPECT_EQ(checks, 10000);
}

TEST(RangeMap, CoalesceMergesBackToOneBox) {
  RangeMap<int> m(Box{0, 4, 0, 3, 0, 1}, 7);
  m.assign(Box{1, 2, 1, 2, 0, 1}, 3);
  EXPECT_GT(m.box_count(), 1u);
  m.assign(Box{1, 2, 1, 2, 0, 1}, 7);
  EXPECT_EQ(m.box_count(), 1u);
  EXPECT_EQ(m.entries()[0].box, (Box{0, 4, 0, 3, 0, 1}));
}

}  // namespace
}  // namespace baton
