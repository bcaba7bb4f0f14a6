// A replay of the barrier stream, per subresource, in submission order. The checks use it instead
// of anything the planner computed: it only applies each barrier's after-state. The state of each
// member is kept as runs of equal states over its run index (baton/runs.hpp, RunOrder: mip-major), so a
// member costs what its barriers split it into, not its subresource count, and a box of some mips over
// many layers is one interval per (mip, plane), not one per layer. Messages name subresources by their
// subresource index (mip + layer * mips + plane * mips * layers), converted back here.
#pragma once

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include "baton/graph.hpp"
#include "baton/runs.hpp"

namespace baton::graph::detail {

// A value per cell (subresource, or byte of a buffer) of every member, as flat per-member arrays: a
// member is one value held in `one_` until an update splits it; only then does it get runs of its own,
// from a pool whose entries keep their storage from reset to reset. A split member mostly has a few runs
// (a box is one interval per (mip, plane)): they are a sorted array of (first cell, value), which an
// update inserts into and closes up in place, cheaper than a tree node per run and allocating nothing once
// the pool has grown. Past kFlatMax runs (a texture whose subresources uses set one by one, in any order)
// an insertion would move every later run, quadratic over a frame: the member's runs move into a Runs<T>
// tree (O(log runs) per update) until it is one run again. The arrays keep their storage from call to call
// (the callers hold them in thread_local scratch), so a frame allocates nothing in steady state.
template <class T>
class FlatRuns {
 public:
  static constexpr uint32_t kWhole = 0xffffffffu;
  // Starts over with n members: member m has size_of(m) cells, each with the value init(m, value&)
  // leaves (init gets the member's previous value, whose storage it may keep).
  template <class Size, class Init>
  void reset(uint32_t n, Size&& size_of, Init&& init) {
    one_.resize(n);
    size_.resize(n);
    split_.assign(n, kWhole);
    pool_used_ = 0;
    for (uint32_t m = 0; m < n; ++m) {
      size_[m] = size_of(m);
      init(m, one_[m]);
    }
  }
  // Starts over with n members, each one run, for a caller that then writes every member's value and
  // size through values() and sizes() (the replays' start: one loop, no callbacks).
  void reset(uint32_t n) {
    one_.resize(n);
    size_.resize(n);
    split_.assign(n, kWhole);
    pool_used_ = 0;
  }
  // The flat arrays, for the replays' loops: values()[m] is member m's value while splits()[m] is
  // kWhole. They stay where they are until the next reset (an update only writes into them).
  T* values() { return one_.data(); }
  const T* values() const { return one_.data(); }
  uint32_t* sizes() { return size_.data(); }
  const uint32_t* sizes() const { return size_.data(); }
  const uint32_t* splits() const { return split_.data(); }
  uint32_t members() const { return static_cast<uint32_t>(size_.size()); }
  uint32_t size(uint32_t m) const { return size_[m]; }
  // Whether member m is one run (then whole(m) is its value).
  bool is_whole(uint32_t m) const { return split_[m] == kWhole; }
  // Whether no member is split into runs (sufficient, not necessary: a member back to one run may leave
  // its runs taken from the pool).
  bool none_split() const { return pool_used_ == 0; }
  const T& whole(uint32_t m) const { return one_[m]; }
  // Member m's one value, writable, while it is one run (else nullptr): the callers' fast path for an
  // update of the whole member.
  T* whole_value(uint32_t m) { return split_[m] == kWhole ? &one_[m] : nullptr; }
  // f(first, count, T&) for every run inside [lo, hi) of member m, splitting runs at lo and hi, then
  // equal neighbours merged again: the runs that Runs<T>::update and ::coalesce leave (no two
  // neighbours equal, whatever the order of the updates).
  template <class F>
  void update(uint32_t m, uint32_t lo, uint32_t hi, F&& f) {
    if (lo >= hi) return;
    const uint32_t size = size_[m];
    if (split_[m] == kWhole) {
      if (lo == 0 && hi >= size) {
        f(0u, size, one_[m]);
        return;
      }
      split_[m] = take(std::move(one_[m]));
    }
    Split& sp = pool_[split_[m]];
    if (sp.tree_used) {
      sp.tree.update(lo, hi, std::forward<F>(f));
      sp.tree.coalesce(lo, hi);
      if (sp.tree.run_count() == 1) {
        sp.tree.for_all([&](uint32_t, uint32_t, T& v) { one_[m] = std::move(v); });
        give_back(m);
      }
      return;
    }
    std::vector<Run>& r = sp.flat;
    const size_t i = split_at(r, lo, size);
    const size_t j = split_at(r, hi, size);
    for (size_t k = i; k < j; ++k) f(r[k].first, (k + 1 < r.size() ? r[k + 1].first : size) - r[k].first, r[k].value);
    // Equal neighbours from the run before lo's to the last one that starts at or before hi merge (the
    // runs outside were merged by earlier updates already).
    size_t w = i > 0 ? i - 1 : 0;
    size_t k = w + 1;
    for (; k < r.size() && r[k].first <= hi; ++k)
      if (!(r[k].value == r[w].value) && ++w != k) r[w] = std::move(r[k]);
    if (w + 1 != k) r.erase(r.begin() + static_cast<std::ptrdiff_t>(w + 1), r.begin() + static_cast<std::ptrdiff_t>(k));
    if (r.size() == 1) {  // one run again: back inline
      one_[m] = std::move(r.front().value);
      give_back(m);
    } else if (r.size() > kFlatMax) {
      to_tree(sp, size);
    }
  }
  // f(first, count, const T&) for the runs of member m, in run order.
  template <class F>
  void for_each(uint32_t m, F&& f) const {
    if (split_[m] == kWhole) return f(0u, size_[m], static_cast<const T&>(one_[m]));
    const Split& sp = pool_[split_[m]];
    if (sp.tree_used) return sp.tree.for_each(0, size_[m], std::forward<F>(f));
    const std::vector<Run>& r = sp.flat;
    for (size_t k = 0; k < r.size(); ++k)
      f(r[k].first, (k + 1 < r.size() ? r[k + 1].first : size_[m]) - r[k].first, static_cast<const T&>(r[k].value));
  }
  // Member m as a Runs<T> (the same runs: a split member has two or more, no two neighbours equal).
  Runs<T> runs(uint32_t m) const {
    Runs<T> out;
    runs_into(m, out);
    return out;
  }
  // runs(m) into `out`, reusing its map's nodes (the final states keep a split member's runs from frame to
  // frame: no heap block once they had as many runs).
  void runs_into(uint32_t m, Runs<T>& out) const {
    if (split_[m] == kWhole) {
      out = Runs<T>(size_[m], one_[m]);
      return;
    }
    const Split& sp = pool_[split_[m]];
    if (sp.tree_used) {
      out = sp.tree;  // a copy-assignment: the map reuses out's nodes
      return;
    }
    out.assign(size_[m], [&](auto&& emit) {
      for (const Run& r : sp.flat) emit(r.first, r.value);
    });
  }

 private:
  struct Run {
    uint32_t first;
    T value;
  };
  static constexpr size_t kFlatMax = 64;
  // A split member's runs: `flat`, or `tree` once they outgrew kFlatMax (tree_used).
  struct Split {
    std::vector<Run> flat;
    Runs<T> tree;
    bool tree_used = false;
  };
  // A pool entry for a member that splits, holding its one run [0, size) of value v.
  uint32_t take(T&& v) {
    if (pool_used_ == pool_.size()) pool_.emplace_back();
    Split& sp = pool_[pool_used_];
    sp.tree_used = false;
    sp.flat.clear();
    sp.flat.push_back(Run{0, std::move(v)});
    return pool_used_++;
  }
  // Member m is one run again (its value back in one_[m]): its pool entry is free.
  void give_back(uint32_t m) {
    if (split_[m] + 1 == pool_used_) --pool_used_;  // the last one taken: give it back
    split_[m] = kWhole;
  }
  // The flat runs of a member of `size` cells into its tree: the first run's value over every cell, then
  // each later run's (no two neighbours are equal, so the tree needs no merging).
  static void to_tree(Split& sp, uint32_t size) {
    const std::vector<Run>& r = sp.flat;
    sp.tree = Runs<T>(size, r.front().value);
    for (size_t k = 1; k < r.size(); ++k) {
      const uint32_t end = k + 1 < r.size() ? r[k + 1].first : size;
      sp.tree.update(r[k].first, end, [&](uint32_t, uint32_t, T& x) { x = r[k].value; });
    }
    sp.tree_used = true;
  }
  // The index of the run that starts at `at` in r, splitting the run that contains it (r.size() for at
  // at or past the end): Runs<T>::split.
  static size_t split_at(std::vector<Run>& r, uint32_t at, uint32_t size) {
    if (at >= size) return r.size();
    size_t k = r.size();
    while (r[k - 1].first > at) --k;  // runs are few: from the back, where most updates land
    if (r[k - 1].first == at) return k - 1;
    r.insert(r.begin() + static_cast<std::ptrdiff_t>(k), Run{at, r[k - 1].value});
    return k;
  }
  std::vector<T> one_;
  std::vector<uint32_t> size_, split_;
  std::vector<Split> pool_;  // split members' runs; [0, pool_used_) in use
  uint32_t pool_used_ = 0;
};

// The run order of member d's state: a texture's (mips, layers); a buffer's bytes are their own order.
inline RunOrder run_order(const ResourceDesc& d) {
  return d.type == ResourceType::buffer ? RunOrder{} : RunOrder{d.mips, d.layers};
}
// The run-index intervals of a box of texture d, ascending, as f(lo, hi): one per (mip, plane) row,
// rows that meet joined. No allocation: the checks call it for every use and barrier.
template <class F>
void for_each_interval(const ResourceDesc& d, const Box& b, F&& f) {
  const uint32_t layers = d.layers, slice = d.mips * d.layers;
  uint32_t open_lo = 0, open_hi = 0;
  bool open = false;
  for (uint32_t p = b.p0; p < b.p1; ++p)
    for (uint32_t m = b.m0; m < b.m1; ++m) {
      const uint32_t lo = p * slice + m * layers + b.l0, hi = lo + (b.l1 - b.l0);
      if (open && open_hi == lo) {
        open_hi = hi;
        continue;
      }
      if (open) f(open_lo, open_hi);
      open_lo = lo;
      open_hi = hi;
      open = true;
    }
  if (open) f(open_lo, open_hi);
}
// The index space of a member's state: a texture's subresources; a buffer's bytes (buffer_extent), so
// that the checks see byte ranges as the planner does (a buffer used whole is one run all the same).
inline uint32_t cells(const ResourceDesc& d) {
  return d.type == ResourceType::buffer ? buffer_extent(d).m1 : d.mips * d.layers * d.planes;
}
// The intervals of that space a barrier covers, as f(lo, hi).
template <class F>
void for_each_barrier_interval(const ResourceDesc& d, const Barrier& b, F&& f) {
  if (d.type != ResourceType::buffer) {
    if (b.box == full_box(d)) return f(0u, d.mips * d.layers * d.planes);  // every row: one interval
    return for_each_interval(d, b.box, std::forward<F>(f));
  }
  const uint32_t end = buffer_extent(d).m1;
  if (b.whole_bytes()) return f(0u, end);
  const uint64_t hi = b.byte_offset + b.byte_size;
  f(static_cast<uint32_t>(b.byte_offset), hi >= end ? end : static_cast<uint32_t>(hi));
}
// The intervals of that space a use covers, as f(lo, hi).
template <class F>
void for_each_use_interval(const ResourceDesc& d, const SubresourceRange& r, F&& f) {
  if (is_whole(r)) return f(0u, cells(d));  // what the box or extent below come to for the whole
  if (d.type == ResourceType::buffer) {
    const Box e = is_whole(r) ? buffer_extent(d) : use_extent(d, r);
    return f(e.m0, e.m1);
  }
  for_each_interval(d, is_whole(r) ? full_box(d) : resolve(d, r), std::forward<F>(f));
}
// (mip, layer, plane) of a subresource index of d.
struct Sub3 {
  uint32_t mip, layer, plane;
};
inline Sub3 sub3(const ResourceDesc& d, uint32_t i) {
  return {i % d.mips, i / d.mips % d.layers, i / (d.mips * d.layers)};
}
// The least subresource index among the run indices [lo, hi) of d (what a message names as "the
// first" subresource): the first index's, or that of the first whole (mip, plane) row after it, whose
// layer 0 has the least subresource index of its row.
inline uint32_t least_subresource(const ResourceDesc& d, uint32_t lo, uint32_t hi) {
  const RunOrder o = run_order(d);
  uint32_t best = o.subresource(lo);
  const uint32_t row = (lo + o.layers - 1) / o.layers * o.layers;
  if (row < hi) best = std::min(best, o.subresource(row));
  return best;
}
// Calls f(subresource, value) for the subresources of the runs (lo, hi, value) in ascending
// subresource index, stopping after `limit` calls: per-subresource findings come in the order of the
// subresource index whatever the order of the runs.
template <class T, class F>
void for_each_subresource_ascending(const ResourceDesc& d,
                                    const std::vector<std::tuple<uint32_t, uint32_t, T>>& runs, size_t limit,
                                    F&& f) {
  if (limit == 0) return;
  const RunOrder o = run_order(d);
  std::vector<std::pair<uint32_t, size_t>>
      subs;  // the first `limit` subresources of every (mip, plane) row piece
  for (size_t k = 0; k < runs.size(); ++k) {
    const auto& [lo, hi, v] = runs[k];
    for (uint32_t a = lo; a < hi;) {
      const uint32_t row_end = std::min(hi, (a / o.layers + 1) * o.layers);
      for (uint32_t i = a; i < row_end && i - a < limit; ++i) subs.emplace_back(o.subresource(i), k);
      a = row_end;
    }
  }
  std::sort(subs.begin(), subs.end());
  for (size_t i = 0; i < subs.size() && i < limit; ++i) f(subs[i].first, std::get<2>(runs[subs[i].second]));
}
// The replay's state: per member, by run index.
using States = FlatRuns<State>;
// Whether barrier b covers the whole of its member d (every subresource; a buffer: every byte).
inline bool whole_barrier(const ResourceDesc& d, const Barrier& b) {
  return d.type == ResourceType::buffer ? b.whole_bytes()
                                        : (b.box.m0 | b.box.l0 | b.box.p0) == 0 && b.box.m1 == d.mips &&
                                              b.box.l1 == d.layers && b.box.p1 == d.planes;
}
// Every member's subresources at the start of the frame (touched members at rest, the others
// untouched), into `st` (its storage kept). The two replays (final_states, the checks' walk) then apply
// every list's barriers in submission order themselves, each in one loop over the flat arrays.
void replay_start(const Transitions& t, States& st);

}  // namespace baton::graph::detail
