// The merging of one resource's barriers at one barrier point (invariant 6: contiguous subresource
// ranges merge into one barrier), shared by the compiler's close_point and its tests: the scan that
// defines the result, and the indexed form that gives the same result for many barriers.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <queue>
#include <tuple>
#include <utility>
#include <vector>

#include "baton/plan.hpp"
#include "baton/range_map.hpp"

namespace baton::plan_detail {

// Barriers that are identical but for their boxes or bytes.
inline bool same_but_extent(const Barrier& x, const Barrier& y) {
  return x.before == y.before && x.after == y.after && x.reason == y.reason && x.discard == y.discard &&
         x.previous == y.previous;
}

// Merges y's bytes into x when the two byte ranges of one buffer touch.
inline bool join_bytes(Barrier& x, const Barrier& y) {
  if (x.whole_bytes() || y.whole_bytes()) return false;
  if (x.byte_offset + x.byte_size == y.byte_offset) {
    x.byte_size += y.byte_size;
    return true;
  }
  if (y.byte_offset + y.byte_size == x.byte_offset) {
    x.byte_offset = y.byte_offset;
    x.byte_size += y.byte_size;
    return true;
  }
  return false;
}

// The barriers b[0, n) of one resource at one point: repeatedly the first pair (x, y), x before y, that
// is identical but for contiguous bytes (a buffer's ranges) or boxes (whole-bytes barriers) merges, y into
// x; restarts after each merge. Returns how many are left, in order, at b[0, result). O(n^2) per merge:
// for the few barriers a point usually has.
inline size_t merge_barriers_scan(Barrier* b, size_t n) {
  size_t w = n;
  for (bool changed = n > 1; changed;) {
    changed = false;
    for (size_t x = 0; x < w && !changed; ++x)
      for (size_t y = x + 1; y < w; ++y) {
        Box u;
        if (same_but_extent(b[x], b[y]) && join_bytes(b[x], b[y])) {
          for (size_t z = y + 1; z < w; ++z) b[z - 1] = b[z];
          --w;
          changed = true;
          break;
        }
        if (same_but_extent(b[x], b[y]) && b[x].whole_bytes() && b[y].whole_bytes() &&
            RangeMap<int>::try_union(b[x].box, b[y].box, u)) {
          b[x].box = u;
          for (size_t z = y + 1; z < w; ++z) b[z - 1] = b[z];
          --w;
          changed = true;
          break;
        }
      }
  }
  return w;
}

// The merges of close_point's scan (repeatedly the first pair (x, y), x before y, of barriers identical
// but for contiguous boxes or bytes; y merges into x) over the n barriers of one resource at b, without
// rescanning every pair after each merge: a pair can merge only across a face of x (a box with the same
// other extents that starts where x ends or ends where x starts; bytes likewise), so each barrier is
// filed under its six faces (two for bytes), and a heap of the mergeable pairs, refilled with the
// partners of each merged barrier, gives the same merges in the same order. Returns how many are left,
// in order, at b[0, result). O(n log n) for the disjoint boxes the planner emits. `tests`, when given,
// counts the pairs tested (the cost, for tests).
inline size_t merge_barriers_many(Barrier* b, size_t n, uint64_t* tests = nullptr) {
  // Barriers identical but for their extent share a class.
  std::vector<uint32_t> order(n), cls(n);
  for (uint32_t k = 0; k < n; ++k) order[k] = k;
  auto value = [&](uint32_t k) {
    const Barrier& x = b[k];
    return std::tuple(x.before.sync, x.before.access, x.before.layout, x.after.sync, x.after.access,
                      x.after.layout, x.reason, x.discard, x.previous);
  };
  std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) { return value(x) < value(y); });
  for (size_t k = 0; k < n; ++k)
    cls[order[k]] =
        k > 0 && value(order[k]) == value(order[k - 1]) ? cls[order[k - 1]] : static_cast<uint32_t>(k);
  using Face = std::array<uint64_t, 6>;  // class | axis (3: bytes) | side, the other extents, where
  auto face = [&](uint32_t k, uint32_t axis, bool end, uint64_t at) {
    const Box& x = b[k].box;
    Face f{uint64_t{cls[k]} << 8 | axis << 1 | (end ? 1u : 0u), 0, 0, 0, 0, at};
    if (axis == 0) f = {f[0], x.l0, x.l1, x.p0, x.p1, at};
    if (axis == 1) f = {f[0], x.m0, x.m1, x.p0, x.p1, at};
    if (axis == 2) f = {f[0], x.m0, x.m1, x.l0, x.l1, at};
    return f;
  };
  auto lo = [](const Box& x, uint32_t a) { return a == 0 ? x.m0 : a == 1 ? x.l0 : x.p0; };
  auto hi = [](const Box& x, uint32_t a) { return a == 0 ? x.m1 : a == 1 ? x.l1 : x.p1; };
  std::map<Face, std::vector<uint32_t>> faces;
  // f(own face: where the barrier starts or ends; partner face: where a partner on that side is filed).
  auto for_faces = [&](uint32_t k, auto&& f) {
    const Barrier& x = b[k];
    if (!x.whole_bytes()) {
      f(face(k, 3, false, x.byte_offset), face(k, 3, true, x.byte_offset));
      f(face(k, 3, true, x.byte_offset + x.byte_size), face(k, 3, false, x.byte_offset + x.byte_size));
      return;
    }
    for (uint32_t a = 0; a < 3; ++a) {
      f(face(k, a, false, lo(x.box, a)), face(k, a, true, lo(x.box, a)));
      f(face(k, a, true, hi(x.box, a)), face(k, a, false, hi(x.box, a)));
    }
  };
  auto file = [&](uint32_t k) {
    for_faces(k, [&](const Face& own, const Face&) { faces[own].push_back(k); });
  };
  auto unfile = [&](uint32_t k) {
    for_faces(k, [&](const Face& own, const Face&) { std::erase(faces[own], k); });
  };
  auto mergeable = [&](uint32_t x, uint32_t y) {
    if (tests) ++*tests;
    const Barrier &p = b[x], &q = b[y];
    if (cls[x] != cls[y]) return false;
    if (!p.whole_bytes() && !q.whole_bytes())
      return p.byte_offset + p.byte_size == q.byte_offset || q.byte_offset + q.byte_size == p.byte_offset;
    Box u;
    return p.whole_bytes() && q.whole_bytes() && RangeMap<int>::try_union(p.box, q.box, u);
  };
  std::priority_queue<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint32_t, uint32_t>>,
                      std::greater<>>
      heap;
  std::vector<uint8_t> alive(n, 1);
  auto partners = [&](uint32_t k) {
    for_faces(k, [&](const Face&, const Face& other) {
      const auto it = faces.find(other);
      if (it == faces.end()) return;
      for (uint32_t q : it->second)
        if (q != k && mergeable(k, q)) heap.emplace(std::min(k, q), std::max(k, q));
    });
  };
  for (uint32_t k = 0; k < n; ++k) file(k);
  for (uint32_t k = 0; k < n; ++k) partners(k);
  while (!heap.empty()) {
    const auto [x, y] = heap.top();
    heap.pop();
    if (!alive[x] || !alive[y] || !mergeable(x, y)) continue;
    unfile(x);
    unfile(y);
    alive[y] = 0;
    Box u;
    if (!join_bytes(b[x], b[y]) && RangeMap<int>::try_union(b[x].box, b[y].box, u)) b[x].box = u;
    file(x);
    partners(x);
  }
  size_t w = 0;
  for (size_t k = 0; k < n; ++k)
    if (alive[k]) b[w++] = b[k];
  return w;
}

}  // namespace baton::plan_detail
