// Run-length shadow state: the value of every subresource of one resource as runs of equal values
// over the subresource index. A resource starts as one run whatever its declared subresource count,
// a command splits runs only at the edges of what it touches, and equal neighbours merge again, so
// memory follows what the trace touches, not the declared extent (docs/trace-format.md, "Cost").
#pragma once

#include <baton/validate.hpp>
#include <cstdint>
#include <iterator>
#include <map>
#include <utility>
#include <vector>

namespace baton::validate {

template <class T>
class Runs {
 public:
  Runs() = default;
  Runs(uint32_t size, const T& init) : size_(size) { runs_.emplace(0, init); }

  uint32_t size() const { return size_; }
  size_t run_count() const { return runs_.size(); }

  // Calls f(first, count, value&) for every run inside [lo, hi), splitting runs at lo and hi,
  // in ascending order. on_split(copy&) is called for each new run a split creates.
  template <class F, class S>
  void update(uint32_t lo, uint32_t hi, F&& f, S&& on_split) {
    if (lo >= hi) return;
    auto it = split(lo, on_split);
    split(hi, on_split);
    for (; it != runs_.end() && it->first < hi; ++it) f(it->first, end_of(it) - it->first, it->second);
  }
  template <class F>
  void update(uint32_t lo, uint32_t hi, F&& f) {
    update(lo, hi, std::forward<F>(f), [](T&) {});
  }

  // Calls f(first, count, value) for the part of every run inside [lo, hi), without splitting.
  template <class F>
  void for_each(uint32_t lo, uint32_t hi, F&& f) const {
    if (lo >= hi) return;
    auto it = runs_.upper_bound(lo);
    --it;
    for (; it != runs_.end() && it->first < hi; ++it) {
      const uint32_t a = std::max(lo, it->first), b = std::min(hi, end_of(it));
      f(a, b - a, it->second);
    }
  }
  // Every run, mutable.
  template <class F>
  void for_all(F&& f) {
    for (auto it = runs_.begin(); it != runs_.end(); ++it) f(it->first, end_of(it) - it->first, it->second);
  }

  // Merges equal neighbours among the runs that overlap or touch [lo, hi).
  void coalesce(uint32_t lo, uint32_t hi) {
    if (runs_.size() < 2) return;
    auto it = runs_.upper_bound(lo);
    --it;
    if (it != runs_.begin()) --it;
    while (it != runs_.end()) {
      auto next = std::next(it);
      if (next == runs_.end() || next->first > hi) break;
      if (next->second == it->second)
        runs_.erase(next);
      else
        it = next;
    }
  }
  void coalesce() { coalesce(0, size_); }

 private:
  using Map = std::map<uint32_t, T>;
  uint32_t end_of(typename Map::const_iterator it) const {
    const auto next = std::next(it);
    return next == runs_.end() ? size_ : next->first;
  }
  // The run starting at `at` (end() for at == size_), splitting the run that contains it.
  template <class S>
  typename Map::iterator split(uint32_t at, S&& on_split) {
    if (at >= size_) return runs_.end();
    auto it = runs_.upper_bound(at);
    --it;
    if (it->first == at) return it;
    auto copy = runs_.emplace_hint(std::next(it), at, it->second);
    on_split(copy->second);
    return copy;
  }

  uint32_t size_ = 0;
  Map runs_;
};

// A set of subresource indices as disjoint intervals (coverage, duplicate checks).
class IntervalSet {
 public:
  // Adds [lo, hi).
  void add(uint32_t lo, uint32_t hi) {
    if (lo >= hi) return;
    auto it = set_.upper_bound(lo);
    if (it != set_.begin() && std::prev(it)->second >= lo) {
      --it;
      lo = it->first;
      hi = std::max(hi, it->second);
    }
    while (it != set_.end() && it->first <= hi) {
      hi = std::max(hi, it->second);
      it = set_.erase(it);
    }
    set_.emplace(lo, hi);
  }
  // Calls f(first, count, inside) for the pieces of [lo, hi) in order, inside = in the set.
  template <class F>
  void split(uint32_t lo, uint32_t hi, F&& f) const {
    auto it = set_.upper_bound(lo);
    if (it != set_.begin() && std::prev(it)->second > lo) --it;
    uint32_t at = lo;
    for (; it != set_.end() && it->first < hi && at < hi; ++it) {
      if (it->first > at) {
        f(at, it->first - at, false);
        at = it->first;
      }
      const uint32_t e = std::min(hi, it->second);
      if (e > at) {
        f(at, e - at, true);
        at = e;
      }
    }
    if (at < hi) f(at, hi - at, false);
  }
  template <class F>
  void for_each(F&& f) const {
    for (const auto& [a, b] : set_) f(a, b);
  }
  uint64_t total() const {
    uint64_t n = 0;
    for (const auto& [a, b] : set_) n += b - a;
    return n;
  }

 private:
  std::map<uint32_t, uint32_t> set_;  // first -> end
};

// The subresource-index intervals of a box over mip x layer x plane (ascending). A box whose mips
// (and layers) span the resource is one interval; otherwise one per (layer, plane) row.
inline std::vector<std::pair<uint32_t, uint32_t>> intervals(const TraceResource& r, uint32_t mip0,
                                                            uint32_t mips, uint32_t layer0, uint32_t layers,
                                                            uint32_t plane0, uint32_t planes) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  auto add = [&](uint32_t lo, uint32_t n) {
    if (!out.empty() && out.back().second == lo)
      out.back().second += n;
    else
      out.emplace_back(lo, lo + n);
  };
  const uint32_t slice = r.mips * r.layers;  // subresources per plane
  if (mip0 == 0 && mips == r.mips && layer0 == 0 && layers == r.layers) {
    add(plane0 * slice, planes * slice);
  } else if (mip0 == 0 && mips == r.mips) {
    for (uint32_t p = plane0; p < plane0 + planes; ++p) add(layer0 * r.mips + p * slice, layers * r.mips);
  } else {
    for (uint32_t p = plane0; p < plane0 + planes; ++p)
      for (uint32_t l = layer0; l < layer0 + layers; ++l) add(mip0 + l * r.mips + p * slice, mips);
  }
  return out;
}
inline std::vector<std::pair<uint32_t, uint32_t>> intervals(const TraceResource& r, const Subresources& s) {
  if (s.index != kAllSubresources) {
    const auto i = static_cast<uint32_t>(s.index);
    return {{i, i + 1}};
  }
  if (s.range.all) return {{0, r.subresource_count()}};
  return intervals(r, s.range.mip0, s.range.mips, s.range.layer0, s.range.layers, s.range.plane0,
                   s.range.planes);
}

}  // namespace baton::validate
