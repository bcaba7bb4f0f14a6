// RangeMap<T>: a value per subresource of one resource, stored as non-overlapping boxes in
// mip x layer x plane space that always cover the whole resource. Most resources are used whole,
// so the common case is a single box and every operation on it is O(1).
#pragma once

#include <algorithm>
#include <array>
#include <span>
#include <utility>
#include <vector>

#include "baton/core.hpp"

namespace baton {

// A vector that keeps one element inline: a resource used whole costs no heap allocation.
template <class T>
class OneInlineVec {
 public:
  size_t size() const { return n_; }
  T* data() { return n_ <= 1 ? inl_.data() : heap_.data(); }
  const T* data() const { return n_ <= 1 ? inl_.data() : heap_.data(); }
  T* begin() { return data(); }
  T* end() { return data() + n_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + n_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  void clear() {
    n_ = 0;
    heap_.clear();
  }
  void push_back(T v) {
    if (n_ == 0) {
      inl_[0] = std::move(v);
    } else {
      if (n_ == 1) {
        heap_.clear();
        heap_.push_back(std::move(inl_[0]));
      }
      heap_.push_back(std::move(v));
    }
    ++n_;
  }
  void erase_at(size_t i) {
    if (n_ <= 1) {
      n_ = 0;
      return;
    }
    heap_.erase(heap_.begin() + static_cast<std::ptrdiff_t>(i));
    if (--n_ == 1) {
      inl_[0] = std::move(heap_[0]);
      heap_.clear();
    }
  }

 private:
  std::array<T, 1> inl_{};
  std::vector<T> heap_;
  size_t n_ = 0;
};

template <class T>
class RangeMap {
 public:
  struct Entry {
    Box box;
    T value;
    // Changed (or created) since the last coalesce(): only pairs with a changed entry can merge, since
    // coalesce() ends with no mergeable pair left.
    bool dirty = false;
  };

  RangeMap() = default;
  RangeMap(const Box& full, T def) : full_(full) { entries_.push_back({full, std::move(def)}); }

  // The same as assigning RangeMap(full, def), keeping the storage of the entries.
  void reset(const Box& full, T def) {
    full_ = full;
    entries_.clear();
    entries_.push_back({full, std::move(def)});
  }

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
      entries_[0].dirty = true;
      return;
    }
    const size_t n = entries_.size();
    for (size_t i = 0; i < n; ++i) {
      if (!overlaps(entries_[i].box, b)) continue;
      if (contains(b, entries_[i].box)) continue;  // handled below without splitting
      split_outside(i, b);
    }
    for (Entry& e : entries_) {
      if (contains(b, e.box)) {
        f(e.box, e.value);
        e.dirty = true;
      }
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

  // Merges neighbouring boxes with equal values (boxes that share two extents and touch on the third):
  // repeatedly the first mergeable pair (i, j) in storage order (entry j merges into entry i), then
  // sorted by (plane, layer, mip). Computed without rescanning what cannot have changed: a pair of
  // entries unchanged since the last coalesce did not merge then and does not now, and after a merge
  // into entry i every earlier pair that failed still fails unless it involves i. So after a merge
  // only the pairs (a, i), a < i, are checked before going on from i; the result is the same as
  // restarting the whole scan, at O(entries) per changed entry and per merge.
  void coalesce() {
    if (entries_.size() < 2) {
      if (entries_.size() == 1) entries_[0].dirty = false;
      return;
    }
    auto mergeable = [&](size_t a, size_t b, Box& u) {
      return (entries_[a].dirty || entries_[b].dirty) && entries_[a].value == entries_[b].value &&
             try_union(entries_[a].box, entries_[b].box, u);
    };
    // Positions of the changed entries, ascending (a clean entry can only pair with one of them).
    std::vector<size_t> dirty;
    for (size_t k = 0; k < entries_.size(); ++k)
      if (entries_[k].dirty) dirty.push_back(k);
    auto erase = [&](size_t at) {  // erase_at, keeping `dirty` in step
      entries_.erase_at(at);
      auto it = std::lower_bound(dirty.begin(), dirty.end(), at);
      if (it != dirty.end() && *it == at) it = dirty.erase(it);
      for (; it != dirty.end(); ++it) --*it;
    };
    auto mark = [&](size_t at) {
      if (entries_[at].dirty) return;
      entries_[at].dirty = true;
      dirty.insert(std::lower_bound(dirty.begin(), dirty.end(), at), at);
    };
    size_t i = 0;
    while (i < entries_.size()) {
      Box u;
      size_t j = entries_.size();
      if (entries_[i].dirty) {
        for (size_t k = i + 1; k < entries_.size(); ++k)
          if (mergeable(i, k, u)) {
            j = k;
            break;
          }
      } else {
        for (auto it = std::upper_bound(dirty.begin(), dirty.end(), i); it != dirty.end(); ++it)
          if (mergeable(i, *it, u)) {
            j = *it;
            break;
          }
      }
      if (j == entries_.size()) {
        ++i;
        continue;
      }
      entries_[i].box = u;
      erase(j);
      mark(i);
      // Entry i changed: the first pair of a restarted scan that merges is (a, i) for the least such a.
      for (bool back = true; back;) {
        back = false;
        for (size_t a = 0; a < i; ++a) {
          if (!mergeable(a, i, u)) continue;
          entries_[a].box = u;
          erase(i);
          mark(a);
          i = a;
          back = true;
          break;
        }
      }
      // Then the pairs (i, b) again, with the changed entry i.
    }
    // The unchanged entries are still in order: sort only the changed ones and merge the two runs.
    auto key = [](const Entry& a, const Entry& b) {
      return std::tie(a.box.p0, a.box.l0, a.box.m0) < std::tie(b.box.p0, b.box.l0, b.box.m0);
    };
    Entry* const first = entries_.begin();
    Entry* const mid = std::stable_partition(first, entries_.end(), [](const Entry& e) { return !e.dirty; });
    std::sort(mid, entries_.end(), key);
    std::inplace_merge(first, mid, entries_.end(), key);
    for (Entry& e : entries_) e.dirty = false;
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
      if (!piece.empty()) entries_.push_back({piece, v, true});
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
    entries_[i].dirty = true;
  }

  Box full_{};
  OneInlineVec<Entry> entries_;
};

}  // namespace baton
