// RangeMap<T> against a flat per-subresource array on thousands of seeded random assignments.
#include "baton/range_map.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <utility>
#include <vector>

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
    if (seed % 2) m.set_index_threshold(2);  // the indexed form too
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

// The coalesce of RangeMap skips pairs that cannot have changed; it must give exactly the boxes the
// original algorithm (every pair, restart after each merge) gives, since plans are made of them. The
// original, verbatim but for its name, as the reference.
template <class T>
class OldRangeMap {
 public:
  struct Entry {
    Box box;
    T value;
  };

  OldRangeMap() = default;
  OldRangeMap(const Box& full, T def) : full_(full) { entries_.push_back({full, std::move(def)}); }

  const Box& full() const { return full_; }
  std::span<const Entry> entries() const { return {entries_.data(), entries_.size()}; }
  size_t box_count() const { return entries_.size(); }

  // Calls f(piece, value) for every stored box overlapping b, clipped to b, in storage order.
  template <class F>
  void for_each(const Box& b, F&& f) const {
    for (const Entry& e : entries_) {
      if (overlaps(e.box, b)) f(intersect(e.box, b), e.value);
    }
  }

  // Calls f(piece, value&) for the part of every stored box inside b, splitting boxes at b's
  // faces so that the change stays inside b. Call coalesce() afterwards to merge equal neighbours.
  template <class F>
  void update(const Box& b, F&& f) {
    if (entries_.size() == 1 && contains(b, entries_[0].box)) {
      f(entries_[0].box, entries_[0].value);
      return;
    }
    const size_t n = entries_.size();
    for (size_t i = 0; i < n; ++i) {
      if (!overlaps(entries_[i].box, b)) continue;
      if (contains(b, entries_[i].box)) continue;  // handled below without splitting
      split_outside(i, b);
    }
    for (Entry& e : entries_) {
      if (contains(b, e.box)) f(e.box, e.value);
    }
  }

  void assign(const Box& b, const T& v) {
    update(b, [&](const Box&, T& x) { x = v; });
    coalesce();
  }

  const T& at(uint32_t mip, uint32_t layer, uint32_t plane) const {
    for (const Entry& e : entries_) {
      const Box& b = e.box;
      if (mip >= b.m0 && mip < b.m1 && layer >= b.l0 && layer < b.l1 && plane >= b.p0 && plane < b.p1)
        return e.value;
    }
    throw Error("RangeMap::at: subresource outside the resource");
  }

  // Merges neighbouring boxes with equal values (boxes that share two extents and touch on the third).
  void coalesce() {
    if (entries_.size() < 2) return;
    bool merged = true;
    while (merged) {
      merged = false;
      for (size_t i = 0; i < entries_.size() && !merged; ++i) {
        for (size_t j = i + 1; j < entries_.size(); ++j) {
          if (!(entries_[i].value == entries_[j].value)) continue;
          Box u;
          if (try_union(entries_[i].box, entries_[j].box, u)) {
            entries_[i].box = u;
            entries_.erase(entries_.begin() + static_cast<std::ptrdiff_t>(j));
            merged = true;
            break;
          }
        }
      }
    }
    std::sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
      return std::tie(a.box.p0, a.box.l0, a.box.m0) < std::tie(b.box.p0, b.box.l0, b.box.m0);
    });
  }

  // Two boxes form one box when they agree on two axes and touch on the third.
  static bool try_union(const Box& a, const Box& b, Box& out) {
    const bool sm = a.m0 == b.m0 && a.m1 == b.m1, sl = a.l0 == b.l0 && a.l1 == b.l1,
               sp = a.p0 == b.p0 && a.p1 == b.p1;
    out = a;
    if (sl && sp && (a.m1 == b.m0 || b.m1 == a.m0)) {
      out.m0 = std::min(a.m0, b.m0);
      out.m1 = std::max(a.m1, b.m1);
      return true;
    }
    if (sm && sp && (a.l1 == b.l0 || b.l1 == a.l0)) {
      out.l0 = std::min(a.l0, b.l0);
      out.l1 = std::max(a.l1, b.l1);
      return true;
    }
    if (sm && sl && (a.p1 == b.p0 || b.p1 == a.p0)) {
      out.p0 = std::min(a.p0, b.p0);
      out.p1 = std::max(a.p1, b.p1);
      return true;
    }
    return false;
  }

 private:
  // Replaces entry i by the part of it inside b plus up to six slabs outside b.
  void split_outside(size_t i, const Box& b) {
    Box e = entries_[i].box;
    const T v = entries_[i].value;
    auto push = [&](const Box& piece) {
      if (!piece.empty()) entries_.push_back({piece, v});
    };
    // Slabs along mips, then layers within the mip overlap, then planes within both overlaps.
    push({e.m0, std::min(e.m1, b.m0), e.l0, e.l1, e.p0, e.p1});
    push({std::max(e.m0, b.m1), e.m1, e.l0, e.l1, e.p0, e.p1});
    const uint32_t m0 = std::max(e.m0, b.m0), m1 = std::min(e.m1, b.m1);
    push({m0, m1, e.l0, std::min(e.l1, b.l0), e.p0, e.p1});
    push({m0, m1, std::max(e.l0, b.l1), e.l1, e.p0, e.p1});
    const uint32_t l0 = std::max(e.l0, b.l0), l1 = std::min(e.l1, b.l1);
    push({m0, m1, l0, l1, e.p0, std::min(e.p1, b.p0)});
    push({m0, m1, l0, l1, std::max(e.p0, b.p1), e.p1});
    entries_[i].box = intersect(e, b);
  }

  Box full_{};
  std::vector<Entry> entries_;
};

// Sets box b of both maps to v: the boxes each update changes, and their order, must agree.
::testing::AssertionResult updated_alike(RangeMap<int>& m, OldRangeMap<int>& ref, const Box& b, int v) {
  std::vector<std::pair<Box, int>> got, want;
  m.update(b, [&](const Box& x, int& y) {
    got.emplace_back(x, y);
    y = v;
  });
  ref.update(b, [&](const Box& x, int& y) {
    want.emplace_back(x, y);
    y = v;
  });
  if (got == want) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "update order: " << got.size() << " boxes changed, " << want.size()
                                       << " by the reference";
}

// The same boxes and values, in the same storage order.
::testing::AssertionResult same_boxes(const RangeMap<int>& m, const OldRangeMap<int>& ref) {
  if (m.entries().size() != ref.entries().size())
    return ::testing::AssertionFailure() << m.entries().size() << " boxes, " << ref.entries().size()
                                         << " by the reference";
  for (size_t i = 0; i < m.entries().size(); ++i)
    if (!(m.entries()[i].box == ref.entries()[i].box) || m.entries()[i].value != ref.entries()[i].value)
      return ::testing::AssertionFailure() << "entry " << i << " differs";
  return ::testing::AssertionSuccess();
}

TEST(RangeMap, CoalesceGivesTheBoxesOfTheExhaustiveAlgorithm) {
  int compared = 0;
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    std::mt19937 rng(seed);
    const uint32_t mips = std::uniform_int_distribution<uint32_t>(1, 8)(rng);
    const uint32_t layers = std::uniform_int_distribution<uint32_t>(1, 8)(rng);
    const uint32_t planes = std::uniform_int_distribution<uint32_t>(1, 3)(rng);
    const Box full{0, mips, 0, layers, 0, planes};
    RangeMap<int> m(full, 0);
    OldRangeMap<int> ref(full, 0);
    for (int step = 0; step < 60; ++step) {
      // One to three updates (distinct and repeated values), then one coalesce, as compile() does.
      for (int k = 0, n = std::uniform_int_distribution<int>(1, 3)(rng); k < n; ++k) {
        const Box b = random_box(rng, mips, layers, planes);
        const int v = std::uniform_int_distribution<int>(0, step % 3 == 0 ? 1 : 6)(rng);
        ASSERT_TRUE(updated_alike(m, ref, b, v)) << "seed " << seed << " step " << step;
      }
      m.coalesce();
      ref.coalesce();
      ASSERT_TRUE(same_boxes(m, ref)) << "seed " << seed << " step " << step;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 18000);
}

// A map kept unindexed (set_index_threshold past any size) coalesces in one of two forms: at most 64 boxes
// (the changed ones as the bits of a word), or more (a list of their positions). Both against the original
// algorithm (and the boxes an update changes, in its order), with mostly small boxes so that maps grow past
// 64 boxes, and the sizes met counted so that both forms are compared many times.
TEST(RangeMap, UnindexedCoalesceOfFewAndManyBoxesGivesTheBoxesOfTheExhaustiveAlgorithm) {
  int few = 0, many = 0;
  for (uint32_t seed = 1; seed <= 200; ++seed) {
    std::mt19937 rng(seed);
    const uint32_t mips = std::uniform_int_distribution<uint32_t>(4, 12)(rng);
    const uint32_t layers = std::uniform_int_distribution<uint32_t>(4, 12)(rng);
    const uint32_t planes = std::uniform_int_distribution<uint32_t>(1, 3)(rng);
    const Box full{0, mips, 0, layers, 0, planes};
    RangeMap<int> m(full, 0);
    m.set_index_threshold(~size_t{0});
    OldRangeMap<int> ref(full, 0);
    for (int step = 0; step < 60; ++step) {
      for (int k = 0, n = std::uniform_int_distribution<int>(1, 4)(rng); k < n; ++k) {
        Box b = random_box(rng, mips, layers, planes);
        if (std::uniform_int_distribution<int>(0, 3)(rng) != 0) {
          b.m1 = std::min(b.m1, b.m0 + 1);
          b.l1 = std::min(b.l1, b.l0 + 2);
        }
        const int v = std::uniform_int_distribution<int>(0, step % 4 == 0 ? 1 : 3)(rng);
        ASSERT_TRUE(updated_alike(m, ref, b, v)) << "seed " << seed << " step " << step;
      }
      (m.box_count() <= 64 ? few : many) += 1;
      m.coalesce();
      ref.coalesce();
      ASSERT_FALSE(m.indexed());
      ASSERT_TRUE(same_boxes(m, ref)) << "seed " << seed << " step " << step;
      // A second coalesce with nothing changed in between leaves the map as it is.
      const std::vector<RangeMap<int>::Entry> before(m.entries().begin(), m.entries().end());
      m.coalesce();
      ASSERT_EQ(m.entries().size(), before.size());
      for (size_t i = 0; i < before.size(); ++i) ASSERT_EQ(m.entries()[i].box, before[i].box);
    }
  }
  std::printf("unindexed coalesces compared: %d of at most 64 boxes, %d of more\n", few, many);
  EXPECT_GT(few, 2000);
  EXPECT_GT(many, 2000);
}

// A map copied and moved keeps its boxes, whether it holds one box (inline) or several (on the heap); the
// copy is independent of the original.
TEST(RangeMap, CopiesAndMovesKeepTheBoxes) {
  const Box full{0, 4, 0, 2, 0, 1};
  for (const bool split : {false, true}) {
    RangeMap<int> m(full, 7);
    if (split) m.assign(Box{1, 2, 0, 1, 0, 1}, 3);
    const std::vector<RangeMap<int>::Entry> want(m.entries().begin(), m.entries().end());
    auto same = [&](const RangeMap<int>& x) {
      ASSERT_EQ(x.entries().size(), want.size());
      for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(x.entries()[i].box, want[i].box);
        EXPECT_EQ(x.entries()[i].value, want[i].value);
      }
    };
    RangeMap<int> copy(m);
    same(copy);
    copy.assign(full, 1);  // the original does not see it
    same(m);
    std::vector<RangeMap<int>> v;
    v.push_back(m);
    for (int i = 0; i < 40; ++i) v.push_back(RangeMap<int>(full, i));  // reallocations move v[0]
    same(v[0]);
    RangeMap<int> moved(std::move(v[0]));
    same(moved);
    RangeMap<int> assigned(full, 0);
    assigned = moved;
    same(assigned);
    assigned = std::move(moved);
    same(assigned);
    EXPECT_EQ(assigned.at(1, 0, 0), split ? 3 : 7);
  }
}

// The indexed form (a map of many boxes, RangeMap::set_index_threshold) against the original algorithm:
// the same boxes, values and storage order after every coalesce, the same pieces in the same order from
// for_each, and the same values from at(), over textures and over a buffer's bytes (one long axis).
TEST(RangeMap, IndexedMapGivesTheBoxesOfTheExhaustiveAlgorithm) {
  int compared = 0, indexed = 0;
  for (uint32_t seed = 1; seed <= 400; ++seed) {
    std::mt19937 rng(seed);
    const bool bytes = seed % 4 == 0;
    const uint32_t mips = bytes ? 512 : std::uniform_int_distribution<uint32_t>(1, 8)(rng);
    const uint32_t layers = bytes ? 1 : std::uniform_int_distribution<uint32_t>(1, 12)(rng);
    const uint32_t planes = bytes ? 1 : std::uniform_int_distribution<uint32_t>(1, 3)(rng);
    const Box full{0, mips, 0, layers, 0, planes};
    RangeMap<int> m(full, 0);
    m.set_index_threshold(seed % 3 == 0 ? 0 : 3);  // from the start, or once there are a few boxes
    OldRangeMap<int> ref(full, 0);
    auto small_box = [&] {  // mostly small boxes, so that the maps grow many
      Box b = random_box(rng, mips, layers, planes);
      if (std::uniform_int_distribution<int>(0, 3)(rng) != 0) {
        b.m1 = std::min(b.m1, b.m0 + (bytes ? 16u : 1u));
        b.l1 = std::min(b.l1, b.l0 + 1);
      }
      return b;
    };
    for (int step = 0; step < 80; ++step) {
      for (int k = 0, n = std::uniform_int_distribution<int>(1, 3)(rng); k < n; ++k) {
        const Box b = small_box();
        const int v = std::uniform_int_distribution<int>(0, step % 3 == 0 ? 1 : 6)(rng);
        ASSERT_TRUE(updated_alike(m, ref, b, v)) << "seed " << seed << " step " << step;
      }
      m.coalesce();
      ref.coalesce();
      indexed += m.indexed();
      ASSERT_TRUE(same_boxes(m, ref)) << "seed " << seed << " step " << step;
      const Box q = small_box();
      std::vector<std::pair<Box, int>> got, want;
      m.for_each(q, [&](const Box& x, const int& y) { got.emplace_back(x, y); });
      ref.for_each(q, [&](const Box& x, const int& y) { want.emplace_back(x, y); });
      ASSERT_EQ(got, want) << "for_each, seed " << seed << " step " << step;
      const uint32_t pm = q.m0, pl = q.l0, pp = q.p0;
      ASSERT_EQ(m.at(pm, pl, pp), ref.at(pm, pl, pp)) << "seed " << seed << " step " << step;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 32000);
  EXPECT_GT(indexed, 25000);  // the indexed form was the one compared, nearly always
}

// N writes of disjoint 16-byte ranges of one buffer, each its own value (as a list of clears gives the
// planner): an indexed map looks at O(log boxes) index entries per update, where scanning looks at
// every box (N^2 / 2 in all).
TEST(RangeMap, ManyPiecesOfOneBufferCostLogarithmicVisits) {
  constexpr uint32_t kN = 20000;
  RangeMap<int> m(Box{0, 16 * kN, 0, 1, 0, 1}, -1);
  for (uint32_t i = 0; i < kN; ++i) {
    const uint32_t at = (i * 7919u) % kN * 16;  // scattered, not in address order
    m.update(Box{at, at + 16, 0, 1, 0, 1}, [&](const Box&, int& x) { x = static_cast<int>(i); });
    m.coalesce();
  }
  EXPECT_TRUE(m.indexed());
  EXPECT_EQ(m.box_count(), size_t{kN});
  EXPECT_LT(m.visits(), uint64_t{100} * kN);
  EXPECT_EQ(m.at(16 * ((5 * 7919u) % kN), 0, 0), 5);
}

}  // namespace
}  // namespace baton
