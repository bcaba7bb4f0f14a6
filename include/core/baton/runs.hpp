// Runs<T>: a value per subresource of one resource as runs of equal values over an index of its
// subresources. A resource starts as one run whatever its
// declared subresource count, an update splits runs only at the edges of what it touches, and equal
// neighbours merge again, so memory follows what is touched, not the declared extent. Used by the
// validator's shadow state and the frame graph's checks (each keeps its own rules; this is only the
// container). IntervalSet: subresource indices as disjoint intervals. box_intervals: the index
// intervals of a box in the subresource index (mip + layer * mips + plane * mips * layers, D3D12's
// order). RunOrder: the run index, the order runs should be kept in: mip-major (layer + mip * layers +
// plane * mips * layers), in which any box is at most mips x planes intervals (a texture has at most
// 17 mips) whatever its layer count, where the subresource index needs one interval per layer for a
// box of some mips over many layers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <map>
#include <utility>
#include <vector>

namespace baton {

// What a set of Runs costs, for callers that bound it: runs alive, and runs visited by updates and walks.
struct RunStats {
  uint64_t live = 0, visits = 0;
};

template <class T>
class Runs {
 public:
  Runs() = default;
  // One run (the usual case: a resource used whole) lives inline, without a map node; the map holds
  // the runs only while there are two or more, so a frame of whole-resource members allocates nothing.
  Runs(uint32_t size, const T& init) : size_(size), one_(init), single_(true) {}

  uint32_t size() const { return size_; }
  size_t run_count() const { return single_ ? 1 : runs_.size(); }
  // Counts this container's runs and visits into `stats` from now on (it must outlive the container's
  // use; the container must not be copied afterwards).
  void count_into(RunStats* stats) {
    stats_ = stats;
    stats_->live += run_count();
  }

  // Calls f(first, count, value&) for every run inside [lo, hi), splitting runs at lo and hi,
  // in ascending order. on_split(copy&) is called for each new run a split creates.
  template <class F, class S>
  void update(uint32_t lo, uint32_t hi, F&& f, S&& on_split) {
    if (lo >= hi) return;
    if (single_ && lo == 0 && hi >= size_) {
      visit();
      f(0, size_, one_);
      return;
    }
    expand();
    auto it = split(lo, on_split);
    split(hi, on_split);
    for (; it != runs_.end() && it->first < hi; ++it) {
      visit();
      f(it->first, end_of(it) - it->first, it->second);
    }
  }
  template <class F>
  void update(uint32_t lo, uint32_t hi, F&& f) {
    update(lo, hi, std::forward<F>(f), [](T&) {});
  }

  // Calls f(first, count, value) for the part of every run inside [lo, hi), without splitting.
  template <class F>
  void for_each(uint32_t lo, uint32_t hi, F&& f) const {
    if (lo >= hi) return;
    if (single_) {
      if (lo >= size_) return;
      visit();
      const uint32_t b = std::min(hi, size_);
      f(lo, b - lo, one_);
      return;
    }
    auto it = runs_.upper_bound(lo);
    --it;
    for (; it != runs_.end() && it->first < hi; ++it) {
      visit();
      const uint32_t a = std::max(lo, it->first), b = std::min(hi, end_of(it));
      f(a, b - a, it->second);
    }
  }
  const T& at(uint32_t i) const { return single_ ? one_ : std::prev(runs_.upper_bound(i))->second; }
  // Every run, mutable.
  template <class F>
  void for_all(F&& f) {
    if (single_) {
      visit();
      f(0, size_, one_);
      return;
    }
    for (auto it = runs_.begin(); it != runs_.end(); ++it) {
      visit();
      f(it->first, end_of(it) - it->first, it->second);
    }
  }

  // Becomes `size` subresources in the runs that each(emit) gives in ascending order (emit(first, value):
  // the first at 0, no two neighbours equal), reusing this container's map nodes: a container written
  // again every frame with as many runs as the frame before takes no heap block. Runs that start where the
  // map's do (the same frame again) only take their new values; from the first that does not, the map's
  // remaining nodes are taken out and given the new runs' starts.
  template <class Each>
  void assign(uint32_t size, Each&& each) {
    const size_t before = run_count();
    if (single_) {
      one_ = T{};
      single_ = false;
    }
    size_ = size;
    auto it = runs_.begin();  // the map's next node while the runs so far start where its nodes do
    bool same = true;
    Map spare;  // the nodes past the first run that starts elsewhere
    // With an empty map, the first run waits inline (one_) for a second: one run takes no node.
    bool held = false;
    uint32_t held_first = 0;
    const auto place = [&](uint32_t first, const T& v) {
      if (same) {
        if (it != runs_.end() && it->first == first) {
          it->second = v;
          ++it;
          return;
        }
        same = false;
        while (it != runs_.end()) {
          const auto next = std::next(it);
          spare.insert(spare.end(), runs_.extract(it));
          it = next;
        }
      }
      if (spare.empty()) {
        runs_.emplace_hint(runs_.end(), first, v);
        return;
      }
      auto node = spare.extract(spare.begin());
      node.key() = first;
      node.mapped() = v;
      runs_.insert(runs_.end(), std::move(node));
    };
    const bool empty_map = runs_.empty();
    size_t emitted = 0;
    each([&](uint32_t first, const T& v) {
      ++emitted;
      if (empty_map && emitted == 1) {
        held = true;
        held_first = first;
        one_ = v;
        return;
      }
      if (held) {
        held = false;
        place(held_first, one_);
        one_ = T{};
      }
      place(first, v);
    });
    if (held) {  // one run, never in the map
      single_ = true;
      if (stats_) stats_->live = stats_->live - before + 1;
      return;
    }
    if (same) runs_.erase(it, runs_.end());  // fewer runs than the map held
    if (runs_.size() == 1) {  // one run: inline, as everywhere else
      one_ = std::move(runs_.begin()->second);
      runs_.clear();
      single_ = true;
    }
    if (stats_) stats_->live = stats_->live - before + run_count();
  }

  // Merges equal neighbours among the runs that overlap or touch [lo, hi).
  void coalesce(uint32_t lo, uint32_t hi) {
    if (single_ || runs_.size() < 2) return;
    auto it = runs_.upper_bound(lo);
    --it;
    if (it != runs_.begin()) --it;
    while (it != runs_.end()) {
      auto next = std::next(it);
      if (next == runs_.end() || next->first > hi) break;
      if (next->second == it->second) {
        runs_.erase(next);
        if (stats_) --stats_->live;
      } else
        it = next;
    }
    if (runs_.size() == 1) {  // back to one run: inline again
      one_ = std::move(runs_.begin()->second);
      runs_.clear();
      single_ = true;
    }
  }
  void coalesce() { coalesce(0, size_); }

 private:
  using Map = std::map<uint32_t, T>;
  uint32_t end_of(typename Map::const_iterator it) const {
    const auto next = std::next(it);
    return next == runs_.end() ? size_ : next->first;
  }
  // The inline run into the map, before a split.
  void expand() {
    if (!single_) return;
    runs_.emplace(0, std::move(one_));
    one_ = T{};
    single_ = false;
  }
  // The run starting at `at` (end() for at == size_), splitting the run that contains it.
  template <class S>
  typename Map::iterator split(uint32_t at, S&& on_split) {
    if (at >= size_) return runs_.end();
    auto it = runs_.upper_bound(at);
    --it;
    if (it->first == at) return it;
    auto copy = runs_.emplace_hint(std::next(it), at, it->second);
    if (stats_) ++stats_->live;
    on_split(copy->second);
    return copy;
  }

  void visit() const {
    if (stats_) ++stats_->visits;
  }

  uint32_t size_ = 0;
  T one_{};             // the one run, while single_
  bool single_ = false;  // one run, held in one_ (a default-constructed Runs has none)
  Map runs_;
  RunStats* stats_ = nullptr;
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
  // Whether any index of [lo, hi) is in the set.
  bool overlaps(uint32_t lo, uint32_t hi) const {
    auto it = set_.upper_bound(lo);
    if (it != set_.begin() && std::prev(it)->second > lo) return true;
    return it != set_.end() && it->first < hi;
  }
  uint64_t total() const {
    uint64_t n = 0;
    for (const auto& [a, b] : set_) n += b - a;
    return n;
  }

 private:
  std::map<uint32_t, uint32_t> set_;  // first -> end
};

// The subresource-index intervals [lo, hi) of the box [m0, m1) x [l0, l1) x [p0, p1) of a resource
// with `mips` x `layers` subresources per plane, ascending, as f(lo, hi) with neighbours joined. A box
// whose mips (and layers) span the resource is one interval (per plane); otherwise one per (layer,
// plane) row. No allocation: the checks call it for every use and barrier.
template <class F>
void for_each_box_interval(uint32_t mips, uint32_t layers, uint32_t m0, uint32_t m1, uint32_t l0, uint32_t l1,
                           uint32_t p0, uint32_t p1, F&& f) {
  const uint32_t slice = mips * layers;  // subresources per plane
  if (m0 == 0 && m1 == mips && l0 == 0 && l1 == layers) {
    f(p0 * slice, p1 * slice);
    return;
  }
  uint32_t open_lo = 0, open_hi = 0;
  bool open = false;
  auto add = [&](uint32_t lo, uint32_t n) {
    if (open && open_hi == lo) {
      open_hi += n;
      return;
    }
    if (open) f(open_lo, open_hi);
    open_lo = lo;
    open_hi = lo + n;
    open = true;
  };
  if (m0 == 0 && m1 == mips) {
    for (uint32_t p = p0; p < p1; ++p) add(l0 * mips + p * slice, (l1 - l0) * mips);
  } else {
    for (uint32_t p = p0; p < p1; ++p)
      for (uint32_t l = l0; l < l1; ++l) add(m0 + l * mips + p * slice, m1 - m0);
  }
  if (open) f(open_lo, open_hi);
}
inline std::vector<std::pair<uint32_t, uint32_t>> box_intervals(uint32_t mips, uint32_t layers, uint32_t m0,
                                                                uint32_t m1, uint32_t l0, uint32_t l1,
                                                                uint32_t p0, uint32_t p1) {
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for_each_box_interval(mips, layers, m0, m1, l0, l1, p0, p1,
                        [&](uint32_t lo, uint32_t hi) { out.emplace_back(lo, hi); });
  return out;
}

// The run index of a texture's subresources (see the top): mip-major, so that a box costs at most
// mips x planes intervals, never one per layer. Converts to and from the subresource index, in which
// messages and APIs name subresources. A buffer (1 x 1) has the same index in both.
struct RunOrder {
  uint32_t mips = 1, layers = 1;
  // Subresource index (mip + layer * mips + plane * mips * layers) -> run index.
  uint32_t run(uint32_t subresource) const {
    const uint32_t slice = mips * layers, plane = subresource / slice, in = subresource % slice;
    return plane * slice + (in % mips) * layers + in / mips;
  }
  // Run index -> subresource index.
  uint32_t subresource(uint32_t run) const {
    const uint32_t slice = mips * layers, plane = run / slice, in = run % slice;
    return plane * slice + (in % layers) * mips + in / layers;
  }
  uint32_t mip(uint32_t run) const { return run % (mips * layers) / layers; }
  uint32_t layer(uint32_t run) const { return run % layers; }
  uint32_t plane(uint32_t run) const { return run / (mips * layers); }
  // The run-index intervals [lo, hi) of the box [m0, m1) x [l0, l1) x [p0, p1), ascending: one per
  // (mip, plane) row, rows that meet merged (all layers of consecutive mips are one interval).
  std::vector<std::pair<uint32_t, uint32_t>> box(uint32_t m0, uint32_t m1, uint32_t l0, uint32_t l1, uint32_t p0,
                                                 uint32_t p1) const {
    std::vector<std::pair<uint32_t, uint32_t>> out;
    const uint32_t slice = mips * layers;
    for (uint32_t p = p0; p < p1; ++p)
      for (uint32_t m = m0; m < m1; ++m) {
        const uint32_t lo = p * slice + m * layers + l0, hi = lo + (l1 - l0);
        if (!out.empty() && out.back().second == lo)
          out.back().second = hi;
        else
          out.emplace_back(lo, hi);
      }
    return out;
  }
};

}  // namespace baton
