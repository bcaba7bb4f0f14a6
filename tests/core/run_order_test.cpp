// RunOrder (include/core/baton/runs.hpp): the run index in which Runs keep a texture's subresources.
// It is a bijection with the subresource index, its box intervals cover exactly the box's
// subresources, and a box costs at most one interval per (mip, plane), whatever its layer count.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "baton/runs.hpp"

namespace baton {
namespace {

TEST(RunOrder, IsABijectionWithTheSubresourceIndex) {
  const RunOrder o{5, 7};
  const uint32_t n = 5 * 7 * 2;  // two planes
  std::set<uint32_t> runs;
  for (uint32_t s = 0; s < n; ++s) {
    const uint32_t r = o.run(s);
    EXPECT_LT(r, n);
    EXPECT_EQ(o.subresource(r), s);
    // The run index names the same (mip, layer, plane) as the subresource index.
    EXPECT_EQ(o.mip(r), s % 5);
    EXPECT_EQ(o.layer(r), s / 5 % 7);
    EXPECT_EQ(o.plane(r), s / 35);
    runs.insert(r);
  }
  EXPECT_EQ(runs.size(), n);
  // Mip-major: the layers of one mip are consecutive.
  EXPECT_EQ(o.run(1 + 0 * 5), 7u);
  EXPECT_EQ(o.run(1 + 1 * 5), 8u);
}

TEST(RunOrder, BoxIntervalsCoverExactlyTheBox) {
  const uint32_t mips = 4, layers = 6, planes = 2;
  const RunOrder o{mips, layers};
  for (uint32_t m0 = 0; m0 < mips; ++m0)
    for (uint32_t m1 = m0 + 1; m1 <= mips; ++m1)
      for (uint32_t l0 = 0; l0 < layers; ++l0)
        for (uint32_t l1 = l0 + 1; l1 <= layers; ++l1)
          for (uint32_t p0 = 0; p0 < planes; ++p0)
            for (uint32_t p1 = p0 + 1; p1 <= planes; ++p1) {
              std::set<uint32_t> want, got;
              for (uint32_t p = p0; p < p1; ++p)
                for (uint32_t l = l0; l < l1; ++l)
                  for (uint32_t m = m0; m < m1; ++m) want.insert(m + l * mips + p * mips * layers);
              const auto box = o.box(m0, m1, l0, l1, p0, p1);
              uint32_t last_end = 0;
              for (size_t i = 0; i < box.size(); ++i) {
                const auto [lo, hi] = box[i];
                ASSERT_LT(lo, hi);
                if (i > 0) {
                  EXPECT_LT(last_end, lo) << "ascending, disjoint and not touching (merged)";
                }
                last_end = hi;
                for (uint32_t r = lo; r < hi; ++r) got.insert(o.subresource(r));
              }
              EXPECT_EQ(got, want) << m0 << m1 << l0 << l1 << p0 << p1;
              EXPECT_LE(box.size(), size_t{(m1 - m0) * (p1 - p0)});
            }
}

// What the issue measured: some mips of every layer. In the subresource index that is one interval
// per layer (box_intervals); in the run index, one per mip.
TEST(RunOrder, SomeMipsOfEveryLayerAreOneIntervalPerMipNotPerLayer) {
  const uint32_t mips = 16, layers = 65536;
  EXPECT_EQ(box_intervals(mips, layers, 3, 5, 0, layers, 0, 1).size(), size_t{layers});
  const auto box = RunOrder{mips, layers}.box(3, 5, 0, layers, 0, 1);
  ASSERT_EQ(box.size(), 1u);  // mips 3 and 4 of every layer are consecutive run indices
  EXPECT_EQ(box[0], std::make_pair(3 * layers, 5 * layers));
  // Runs over the run index: the update splits the resource into three runs, not 2 x 65,536.
  Runs<int> runs(mips * layers, 0);
  for (const auto& [lo, hi] : box) runs.update(lo, hi, [](uint32_t, uint32_t, int& v) { v = 1; });
  EXPECT_EQ(runs.run_count(), 3u);
}

}  // namespace
}  // namespace baton
