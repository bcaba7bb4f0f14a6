// RangeMap<T>: a value per subresource of one resource, stored as non-overlapping boxes in
// mip x layer x plane space that always cover the whole resource. Most resources are used whole,
// so the common case is a single box and every operation on it is O(1). A map of many boxes (one
// resource split into many differently-stated pieces: 10^5 byte ranges of one buffer, every
// subresource of a texture) is indexed (RangeIndex below), so that an update costs O(log boxes) per
// box it touches instead of a scan of every box, with exactly the boxes and the storage order of the
// scanning algorithm (plans are made of them).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <map>
#include <queue>
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "baton/core.hpp"
#include "baton/small_sort.hpp"

namespace baton {

// A vector that keeps one element inline: a resource used whole costs no heap allocation.
// The pieces of box `e` outside box `b`, as f(piece) in a fixed order (empty pieces skipped): slabs along
// mips, then along layers within the mips overlap, then along planes within both overlaps. Together with
// intersect(e, b) they tile e. RangeMap's splits depend on this order (plans are byte-identical).
template <class F>
void for_each_box_outside(const Box& e, const Box& b, F&& f) {
  auto push = [&](const Box& piece) {
    if (!piece.empty()) f(piece);
  };
  push({e.m0, std::min(e.m1, b.m0), e.l0, e.l1, e.p0, e.p1});
  push({std::max(e.m0, b.m1), e.m1, e.l0, e.l1, e.p0, e.p1});
  const uint32_t m0 = std::max(e.m0, b.m0), m1 = std::min(e.m1, b.m1);
  push({m0, m1, e.l0, std::min(e.l1, b.l0), e.p0, e.p1});
  push({m0, m1, std::max(e.l0, b.l1), e.l1, e.p0, e.p1});
  const uint32_t l0 = std::max(e.l0, b.l0), l1 = std::min(e.l1, b.l1);
  push({m0, m1, l0, l1, e.p0, std::min(e.p1, b.p0)});
  push({m0, m1, l0, l1, std::max(e.p0, b.p1), e.p1});
}

// The storage in use is kept as a pointer (into the object itself, or the heap vector's), set again at
// every change of size and by copies and moves: every access is one load, not a choice between the two.
template <class T>
class OneInlineVec {
 public:
  OneInlineVec() = default;
  OneInlineVec(const OneInlineVec& o) : inl_(o.inl_), heap_(o.heap_), n_(o.n_) { point(); }
  OneInlineVec(OneInlineVec&& o) noexcept : inl_(std::move(o.inl_)), heap_(std::move(o.heap_)), n_(o.n_) {
    point();
    o.clear();
  }
  OneInlineVec& operator=(const OneInlineVec& o) {
    if (this != &o) {
      inl_ = o.inl_;
      heap_ = o.heap_;
      n_ = o.n_;
      point();
    }
    return *this;
  }
  OneInlineVec& operator=(OneInlineVec&& o) noexcept {
    if (this != &o) {
      inl_ = std::move(o.inl_);
      heap_ = std::move(o.heap_);
      n_ = o.n_;
      point();
      o.clear();
    }
    return *this;
  }
  ~OneInlineVec() = default;

  size_t size() const { return n_; }
  T* data() { return p_; }
  const T* data() const { return p_; }
  T* begin() { return data(); }
  T* end() { return data() + n_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + n_; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  void clear() {
    n_ = 0;
    heap_.clear();
    p_ = inl_.data();
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
      p_ = heap_.data();
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
      p_ = inl_.data();
    }
  }

 private:
  void point() { p_ = n_ <= 1 ? inl_.data() : heap_.data(); }
  std::array<T, 1> inl_{};
  std::vector<T> heap_;
  size_t n_ = 0;
  T* p_ = inl_.data();
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

  // A map with more boxes than this after a coalesce() keeps an index over them (set_index_threshold).
  static constexpr size_t kIndexAt = 32;

  RangeMap() = default;
  RangeMap(const Box& full, T def) : full_(full) { entries_.push_back({full, std::move(def)}); }

  // The same as assigning RangeMap(full, def), keeping the storage of the entries.
  void reset(const Box& full, T def) {
    full_ = full;
    entries_.clear();
    index_.clear();
    indexed_ = false;
    entries_.push_back({full, std::move(def)});
  }

  // Index the boxes once there are more than n of them (0: always), from now on. For tests: the
  // indexed and the scanning forms give the same boxes in the same order. Call on a coalesced map.
  void set_index_threshold(size_t n) {
    index_at_ = n;
    if (!indexed_ && entries_.size() > n) build_index();
  }
  bool indexed() const { return indexed_; }
  // Boxes (or index entries) looked at by the calls so far: the cost an index saves, for tests.
  uint64_t visits() const { return visits_ + index_.visits; }

  const Box& full() const { return full_; }
  // Every box, in storage order: sorted by (plane, layer, mip) after coalesce(); a box an update split
  // keeps its place, and the pieces it split off follow all boxes, in the order they were made.
  std::span<const Entry> entries() const {
    if (!indexed_) return {entries_.data(), entries_.size()};
    return index_.view();
  }
  size_t box_count() const { return indexed_ ? index_.live : entries_.size(); }

  // Calls f(piece, value) for every stored box overlapping b, clipped to b, in storage order.
  template <class F>
  void for_each(const Box& b, F&& f) const {
    if (indexed_) {
      for (uint32_t id : index_.overlapping(b))
        f(intersect(index_.nodes[id].e.box, b), index_.nodes[id].e.value);
      return;
    }
    for (const Entry& e : entries_) {
      ++visits_;
      if (overlaps(e.box, b)) f(intersect(e.box, b), e.value);
    }
  }

  // Calls f(piece, value&) for the part of every stored box inside b, splitting boxes at b's
  // faces so that the change stays inside b. Call coalesce() afterwards to merge equal neighbours.
  template <class F>
  void update(const Box& b, F&& f) {
    if (indexed_) {
      // The boxes b overlaps, in storage order: split in that order (the pieces are appended in it),
      // then each changed in that order.
      const std::vector<uint32_t> ids = index_.overlapping(b);
      for (uint32_t id : ids)
        if (!contains(b, index_.nodes[id].e.box)) index_.split_outside(id, b);
      for (uint32_t id : ids) {
        Entry& e = index_.nodes[id].e;
        f(e.box, e.value);
        index_.mark(id);
      }
      return;
    }
    if (entries_.size() == 1 && contains(b, entries_[0].box)) {
      f(entries_[0].box, entries_[0].value);
      entries_[0].dirty = true;
      return;
    }
    // In storage order, every box b overlaps: split at b's faces when it reaches past them (its part inside
    // b keeps its place, the pieces outside go to the end, where no later step of this walk reaches), then
    // changed. The same calls in the same order as splitting every box first and then changing every box
    // inside b: the pieces are outside b.
    const size_t n = entries_.size();
    visits_ += n;
    for (size_t i = 0; i < n; ++i) {
      if (!overlaps(entries_[i].box, b)) continue;
      if (!contains(b, entries_[i].box)) split_outside(i, b);
      Entry& e = entries_[i];
      f(e.box, e.value);
      e.dirty = true;
    }
  }

  void assign(const Box& b, const T& v) {
    update(b, [&](const Box&, T& x) { x = v; });
    coalesce();
  }

  const T& at(uint32_t mip, uint32_t layer, uint32_t plane) const {
    if (indexed_) {
      if (mip < full_.m0 || mip >= full_.m1 || layer < full_.l0 || layer >= full_.l1 || plane < full_.p0 ||
          plane >= full_.p1)
        throw Error("RangeMap::at: subresource outside the resource");
      return index_.nodes[index_.locate(mip, layer, plane)].e.value;
    }
    for (const Entry& e : entries_) {
      ++visits_;
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
  // restarting the whole scan, at O(entries) per changed entry and per merge. (Indexed: the same
  // pairs in the same order from a heap of the changed entries' at most six neighbours, RangeIndex.)
  void coalesce() {
    if (indexed_) {
      index_.coalesce();
      return;
    }
    if (entries_.size() < 2) {
      if (entries_.size() == 1) entries_[0].dirty = false;
      return;
    }
    if (entries_.size() <= 64) {
      coalesce_small();
      return;
    }
    auto mergeable = [&](size_t a, size_t b, Box& u) {
      ++visits_;
      return (entries_[a].dirty || entries_[b].dirty) && entries_[a].value == entries_[b].value &&
             try_union(entries_[a].box, entries_[b].box, u);
    };
    // Positions of the changed entries, ascending (a clean entry can only pair with one of them). Kept per
    // thread with its storage: a coalesce per read or write of a ranged resource took a heap block each.
    std::vector<size_t>& dirty = dirty_scratch();
    dirty.clear();
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
      i = merge_back(i, j, u, mergeable, erase, mark);
      // Then the pairs (i, b) again, with the changed entry i.
    }
    sort_changed();
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
  // coalesce() of a map of at most 64 boxes (almost every map): the same merges in the same order, with
  // the changed entries as the bits of one word instead of a list of positions. A map no update changed
  // since the last coalesce (no entry changed) is coalesced and sorted already.
  void coalesce_small() {
    Entry* e = entries_.data();
    size_t n = entries_.size();
    uint64_t dirty = 0;  // the entries' flags move into the word (and back only for sort_changed())
    for (size_t k = 0; k < n; ++k) {
      dirty |= uint64_t{e[k].dirty} << k;
      e[k].dirty = false;
    }
    if (dirty == 0) return;
    // a and b merge (into a) when one of them changed, their values are equal and their boxes form one.
    auto mergeable = [&](size_t a, size_t b, Box& u) {
      ++visits_;
      return e[a].value == e[b].value && try_union(e[a].box, e[b].box, u);
    };
    auto erase = [&](size_t at) {
      entries_.erase_at(at);
      e = entries_.data();
      --n;
      const uint64_t below = (uint64_t{1} << at) - 1;
      dirty = (dirty & below) | ((dirty >> 1) & ~below);
    };
    auto mark = [&](size_t at) { dirty |= uint64_t{1} << at; };
    size_t i = 0;
    while (i < n) {
      Box u;
      size_t j = n;
      if ((dirty >> i) & 1) {
        for (size_t k = i + 1; k < n; ++k)
          if (mergeable(i, k, u)) {
            j = k;
            break;
          }
      } else {
        // The changed entries after i (i < 64 here: n <= 64). None: every later entry is unchanged too, and
        // pairs of unchanged entries do not merge, so nothing is left to merge.
        const uint64_t after = i + 1 < 64 ? dirty & (~uint64_t{0} << (i + 1)) : 0;
        if (after == 0) break;
        for (uint64_t m = after; m != 0; m &= m - 1) {
          const auto k = static_cast<size_t>(std::countr_zero(m));
          if (mergeable(i, k, u)) {
            j = k;
            break;
          }
        }
      }
      if (j == n) {
        ++i;
        continue;
      }
      i = merge_back(i, j, u, mergeable, erase, mark);
    }
    if (n <= kIndexAt) {
      insertion_sort();  // no flag is set
      if (n > index_at_) build_index();
      return;
    }
    for (size_t k = 0; k < n; ++k) e[k].dirty = ((dirty >> k) & 1) != 0;
    sort_changed();
  }

  // Both coalesce forms' step once a pair merges: entry j merges into entry i (their union u); entry i
  // changed, so the first pair of a restarted scan that merges is (a, i) for the least such a, again and
  // again. Returns the entry the merges end in.
  template <class Mergeable, class Erase, class Mark>
  [[gnu::always_inline]] size_t merge_back(size_t i, size_t j, const Box& u, Mergeable& mergeable, Erase& erase,
                                           Mark& mark) {
    entries_[i].box = u;
    erase(j);
    mark(i);
    for (bool back = true; back;) {
      back = false;
      for (size_t a = 0; a < i; ++a) {
        Box w;
        if (!mergeable(a, i, w)) continue;
        entries_[a].box = w;
        erase(i);
        mark(a);
        i = a;
        back = true;
        break;
      }
    }
    return i;
  }

  // Storage order after a coalesce: by the box's corner (plane, layer, mip).
  static bool corner_less(const Entry& a, const Entry& b) {
    if (a.box.p0 != b.box.p0) return a.box.p0 < b.box.p0;
    if (a.box.l0 != b.box.l0) return a.box.l0 < b.box.l0;
    return a.box.m0 < b.box.m0;
  }

  // A small map: one insertion sort, which costs little on the sorted clean run and takes no temporary
  // buffer (stable_partition and inplace_merge take a heap block each). The keys are unique (disjoint
  // boxes have distinct corners), so every sort gives the same order.
  void insertion_sort() {
    baton::insertion_sort(entries_.begin(), entries_.end(),
                          [](const Entry& x, const Entry& y) { return corner_less(x, y); });  // inlined
  }

  // The unchanged entries are still in order: sort only the changed ones and merge the two runs; then no
  // entry is changed.
  void sort_changed() {
    if (entries_.size() <= kIndexAt) {
      insertion_sort();
    } else {
      Entry* const first = entries_.begin();
      Entry* const last = entries_.end();
      Entry* const mid = std::stable_partition(first, last, [](const Entry& e) { return !e.dirty; });
      std::sort(mid, last, corner_less);
      std::inplace_merge(first, mid, last, corner_less);
    }
    for (Entry& e : entries_) e.dirty = false;
    if (entries_.size() > index_at_) build_index();
  }

  // coalesce()'s positions of changed entries, per thread (coalesce() never nests).
  static std::vector<size_t>& dirty_scratch() {
    thread_local std::vector<size_t> v;
    return v;
  }
  // The boxes of a map with many of them: a pool of nodes, each with its place in the storage order
  // (Rank), and an index of the boxes by rows. The index runs along the resource's longest axis (a
  // buffer's bytes; a texture's layers, or its mips when it has few layers); a row is one coordinate
  // of each other axis (at most 17 mips x 3 planes), and a box is in every row it crosses, keyed by
  // (row, its start on the axis). Boxes tile the resource, so the box holding a point is the last one
  // starting at or before it in its row, and the boxes a box b overlaps are found from b's rows in
  // O(log boxes) each.
  struct RangeIndex {
    // Place in the storage order: after a coalesce every box is sorted by its corner (p0, l0, m0)
    // (tag 0); a box an update splits keeps its place, and each piece split off comes after all of
    // them, in order (tag 1, 2, ...). Unique: corners of disjoint boxes differ.
    struct Rank {
      uint32_t tag = 0, p = 0, l = 0, m = 0;
      friend auto operator<=>(const Rank&, const Rank&) = default;
    };
    struct Node {
      Entry e;
      Rank rank;
      bool alive = false;
    };
    std::vector<Node> nodes;
    std::vector<uint32_t> free_ids;
    std::vector<uint32_t> changed;      // nodes with e.dirty, in the order they changed
    std::map<uint64_t, uint32_t> rows;  // (row << 32 | start on the axis) -> node
    Box full{};
    int axis = 0;      // 0: mips, 1: layers, 2: planes
    uint32_t tag = 0;  // pieces split off since the last coalesce
    size_t live = 0;
    mutable uint64_t visits = 0;
    mutable std::vector<uint32_t> stamp;  // per node: the query that last met it
    mutable uint32_t query = 0;
    mutable std::vector<Entry> view_;
    mutable bool view_ok = false;

    static uint32_t lo(const Box& b, int a) { return a == 0 ? b.m0 : a == 1 ? b.l0 : b.p0; }
    static uint32_t hi(const Box& b, int a) { return a == 0 ? b.m1 : a == 1 ? b.l1 : b.p1; }
    int other1() const { return axis == 0 ? 1 : 0; }
    int other2() const { return axis == 2 ? 1 : 2; }
    uint64_t row(uint32_t c1, uint32_t c2) const {
      return uint64_t{c1 - lo(full, other1())} * (hi(full, other2()) - lo(full, other2())) +
             (c2 - lo(full, other2()));
    }
    static uint64_t key(uint64_t r, uint32_t x) { return r << 32 | x; }
    static Rank corner(const Box& b) { return Rank{0, b.p0, b.l0, b.m0}; }

    void clear() {
      nodes.clear();
      free_ids.clear();
      changed.clear();
      rows.clear();
      stamp.clear();
      tag = 0;
      live = 0;
      view_ok = false;
    }
    void init(const Box& f, const OneInlineVec<Entry>& sorted) {
      clear();
      full = f;
      const uint32_t em = f.m1 - f.m0, el = f.l1 - f.l0, ep = f.p1 - f.p0;
      axis = em >= el && em >= ep ? 0 : el >= ep ? 1 : 2;
      for (const Entry& e : sorted) add(e, corner(e.box));
    }
    template <class F>
    void for_rows(const Box& b, F&& f) const {
      for (uint32_t c1 = lo(b, other1()); c1 < hi(b, other1()); ++c1)
        for (uint32_t c2 = lo(b, other2()); c2 < hi(b, other2()); ++c2) f(row(c1, c2));
    }
    void enter(uint32_t id) {
      const Box& b = nodes[id].e.box;
      for_rows(b, [&](uint64_t r) { rows.emplace(key(r, lo(b, axis)), id); });
    }
    void leave(uint32_t id) {
      const Box& b = nodes[id].e.box;
      for_rows(b, [&](uint64_t r) { rows.erase(key(r, lo(b, axis))); });
    }
    uint32_t add(const Entry& e, Rank r) {
      uint32_t id;
      if (!free_ids.empty()) {
        id = free_ids.back();
        free_ids.pop_back();
      } else {
        id = static_cast<uint32_t>(nodes.size());
        nodes.emplace_back();
        stamp.push_back(0);
      }
      nodes[id] = Node{e, r, true};
      ++live;
      enter(id);
      if (e.dirty) changed.push_back(id);
      view_ok = false;
      return id;
    }
    void remove(uint32_t id) {
      leave(id);
      nodes[id].alive = false;
      free_ids.push_back(id);
      --live;
      view_ok = false;
    }
    void mark(uint32_t id) {
      if (!nodes[id].e.dirty) {
        nodes[id].e.dirty = true;
        changed.push_back(id);
      }
      view_ok = false;
    }
    // The node whose box holds the point (coordinates inside `full`).
    uint32_t locate(uint32_t m, uint32_t l, uint32_t p) const {
      const uint32_t c[3] = {m, l, p};
      const uint64_t r = row(c[other1()], c[other2()]);
      ++visits;
      return std::prev(rows.upper_bound(key(r, c[axis])))->second;
    }
    // The nodes whose boxes overlap b, in storage order.
    std::vector<uint32_t> overlapping(const Box& b) const {
      std::vector<uint32_t> out;
      ++query;
      const Box c = intersect(b, full);
      if (c.empty()) return out;
      for_rows(c, [&](uint64_t r) {
        auto it = rows.upper_bound(key(r, lo(c, axis)));
        if (it != rows.begin() && (std::prev(it)->first >> 32) == r) --it;
        for (; it != rows.end() && (it->first >> 32) == r && static_cast<uint32_t>(it->first) < hi(c, axis);
             ++it) {
          ++visits;
          if (stamp[it->second] == query) continue;
          stamp[it->second] = query;
          if (overlaps(nodes[it->second].e.box, b)) out.push_back(it->second);
        }
      });
      std::sort(out.begin(), out.end(),
                [&](uint32_t x, uint32_t y) { return nodes[x].rank < nodes[y].rank; });
      return out;
    }
    // RangeMap::split_outside on node id: the pieces outside b come after every box, in the same order.
    void split_outside(uint32_t id, const Box& b) {
      const Box e = nodes[id].e.box;
      leave(id);
      for_each_box_outside(e, b, [&](const Box& piece) { add(Entry{piece, nodes[id].e.value, true}, Rank{++tag, 0, 0, 0}); });
      nodes[id].e.box = intersect(e, b);
      enter(id);
      mark(id);
    }
    // The scanning coalesce's merges: repeatedly the mergeable pair first in storage order. A box can
    // merge only with the box across one of its six faces that has the same extents on the other two
    // axes (boxes tile the resource, so that box holds the point just across the face), and only pairs
    // with a changed box can merge; so a heap of such pairs, refilled with the neighbours of each merged
    // box, gives the same merges in the same order. Then every changed box takes its sorted place.
    void coalesce() {
      using Pair = std::tuple<Rank, Rank, uint32_t, uint32_t>;
      std::priority_queue<Pair, std::vector<Pair>, std::greater<>> heap;
      auto mergeable = [&](uint32_t a, uint32_t b, Box& u) {
        ++visits;
        return nodes[a].e.value == nodes[b].e.value && RangeMap::try_union(nodes[a].e.box, nodes[b].e.box, u);
      };
      auto neighbours = [&](uint32_t id) {
        const Box x = nodes[id].e.box;
        const uint32_t at[3] = {x.m0, x.l0, x.p0};
        for (int d = 0; d < 3; ++d)
          for (int side = 0; side < 2; ++side) {
            uint32_t c[3] = {at[0], at[1], at[2]};
            if (side == 0) {
              if (hi(x, d) >= hi(full, d)) continue;
              c[d] = hi(x, d);
            } else {
              if (lo(x, d) <= lo(full, d)) continue;
              c[d] = lo(x, d) - 1;
            }
            const uint32_t n = locate(c[0], c[1], c[2]);
            Box u;
            if (n == id || !mergeable(id, n, u)) continue;
            if (nodes[id].rank < nodes[n].rank)
              heap.emplace(nodes[id].rank, nodes[n].rank, id, n);
            else
              heap.emplace(nodes[n].rank, nodes[id].rank, n, id);
          }
      };
      for (size_t k = 0; k < changed.size(); ++k)
        if (nodes[changed[k]].alive) neighbours(changed[k]);
      while (!heap.empty()) {
        const auto [ra, rb, a, b] = heap.top();
        heap.pop();
        Box u;
        if (!nodes[a].alive || !nodes[b].alive || !mergeable(a, b, u)) continue;
        remove(b);
        leave(a);
        nodes[a].e.box = u;
        enter(a);
        mark(a);
        neighbours(a);
      }
      for (uint32_t id : changed)
        if (nodes[id].alive) {
          nodes[id].rank = corner(nodes[id].e.box);
          nodes[id].e.dirty = false;
        }
      changed.clear();
      tag = 0;
      view_ok = false;
    }
    std::span<const Entry> view() const {
      if (!view_ok) {
        std::vector<uint32_t> ids;
        ids.reserve(live);
        for (uint32_t id = 0; id < nodes.size(); ++id)
          if (nodes[id].alive) ids.push_back(id);
        std::sort(ids.begin(), ids.end(),
                  [&](uint32_t x, uint32_t y) { return nodes[x].rank < nodes[y].rank; });
        view_.clear();
        for (uint32_t id : ids) view_.push_back(nodes[id].e);
        view_ok = true;
      }
      return {view_.data(), view_.size()};
    }
  };

  // Replaces entry i by the part of it inside b plus up to six slabs outside b.
  void split_outside(size_t i, const Box& b) {
    Box e = entries_[i].box;
    const T v = entries_[i].value;
    for_each_box_outside(e, b, [&](const Box& piece) { entries_.push_back({piece, v, true}); });
    entries_[i].box = intersect(e, b);
    entries_[i].dirty = true;
  }

  // The sorted, coalesced entries into the index.
  void build_index() {
    index_.init(full_, entries_);
    entries_.clear();
    indexed_ = true;
  }

  Box full_{};
  OneInlineVec<Entry> entries_;  // while not indexed
  RangeIndex index_;             // while indexed
  bool indexed_ = false;
  size_t index_at_ = kIndexAt;
  mutable uint64_t visits_ = 0;
};

}  // namespace baton
