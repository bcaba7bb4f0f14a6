// Phase 5: aliasing. Transient resources go into one heap, each at the best fitting gap between
// the resources it may overlap in time (placed in order of first use, and again largest first: the
// smaller heap wins). Two resources may share memory only
// when every user of the earlier one is ordered before every user of the later one under the
// schedule (with several queues: through its waits). The heap never grows past what is needed
// for a resource that fits nowhere else.
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <type_traits>

#include <fmt/format.h>

#include "baton/graph.hpp"
#include "baton/reuse.hpp"
#include "baton/small_sort.hpp"

namespace baton::graph {
namespace {

// Defined here, next to its one caller, so that the placement's loop inlines it.
__attribute__((always_inline)) inline uint64_t estimated_size_of(const Resource& r) {
  const ResourceDesc& d = r.desc;
  uint64_t bytes = 0;
  if (d.type == ResourceType::buffer) {
    bytes = d.size;
  } else {
    const uint64_t texel = r.texel_bytes ? r.texel_bytes : (d.format == FormatClass::depth_stencil ? 8 : 4);
    for (uint32_t m = 0; m < d.mips; ++m) {
      const uint64_t w = std::max<uint64_t>(1, d.width >> m), h = std::max<uint64_t>(1, d.height >> m);
      bytes += w * h * texel;
    }
    bytes *= uint64_t{d.layers} * d.planes;
  }
  return (bytes + kPlacementAlignment - 1) / kPlacementAlignment * kPlacementAlignment;
}

// Lifetimes not made from this graph and schedule (lifetimes_into), which the placements cannot read.
[[noreturn, gnu::cold]] void lifetimes_mismatch(const Graph& g, const Schedule& s, uint32_t r, const Lifetime& l) {
  throw Error(fmt::format("/resources/{}: resource '{}': its lifetime (serial indices {} to {}) does not fit the "
                          "schedule of {} passes: the lifetimes are not this schedule's",
                          r, g.resources[r].desc.name, l.first, l.last, s.serial.size()));
}

}  // namespace

uint64_t estimated_size(const Resource& r) { return estimated_size_of(r); }

Aliasing alias(const Graph& g, const Schedule& s, const std::vector<Lifetime>& lt, const AliasingOptions& o) {
  Aliasing a;
  alias_into(a, g, s, lt, o);
  return a;
}


void alias_into(Aliasing& a, const Graph& g, const Schedule& s, const std::vector<Lifetime>& lt,
                const AliasingOptions& o) {
  if (lt.size() != g.resources.size())
    throw Error(fmt::format("aliasing: {} lifetimes for a graph of {} resources: the lifetimes are not this graph's",
                            lt.size(), g.resources.size()));
  // The barriers are reused in place, not emptied: each one's list of previous occupants keeps its heap
  // block (more than three occupants), which clear() would free. Both writers set every field. So are the
  // placements: both paths below write every field of every placement (resize() only cuts or extends).
  reuse_storage(a, &Aliasing::placement_of, keep(&Aliasing::barriers), keep(&Aliasing::placements));
  size_t barriers_used = 0, barriers_kept = a.barriers.size();  // kept: counted here, not per barrier
  const auto next_barrier = [&a, &barriers_used, &barriers_kept]() -> AliasBarrier& {
    if (barriers_used < barriers_kept) return a.barriers[barriers_used++];
    ++barriers_used;
    ++barriers_kept;
    return a.barriers.emplace_back();
  };
  const size_t nr = g.resources.size();
  a.placement_of.assign(nr, kNone);
  // A transient, used resource with what the placements read of it most (its first use, where its memory
  // frees and its bytes), copied once into an array in order of first use: the loops below stream over
  // it instead of reading the resource table and the lifetimes by index. The per-queue facts the first
  // placement reads once per resource stay in the lifetimes (half the bytes to copy and to sort).
  struct Cand {
    uint32_t r, first, free_at;
    uint64_t size;
  };
  // Every array below is per-thread scratch kept from call to call (no allocation in steady state).
  thread_local struct {
    std::vector<uint64_t> offset_of, by_size_offset;
    std::vector<uint32_t> slot;
    std::vector<int64_t> delta;
    std::vector<Cand> cand, scanned;
  } scratch;
  // Transient, used resources in order of first use (ties: resource index). The resource table is
  // large (names, descriptions): walk it once, copying each candidate's facts (its lifetime's and its
  // bytes) into `scanned`, in index order. Resources are usually declared in the order they are first
  // used: when the first uses never decrease along the walk, that is already the order; otherwise a
  // counting sort over the first serial index (stable: ties stay ordered by index), the same order as a
  // sort by (first, index), in linear time.
  //
  // The same walk sums the bytes for the lower bound: the most bytes live at once over the serial
  // order. A resource is live over [first, last]; a difference array over serial indices gives the live
  // bytes at each index in one pass (the same maximum as sorting the alloc/free events with frees first,
  // which never peaks in the middle of an index's events). It also ors the sizes together and notes a
  // size 0, for the unit below.
  const uint32_t span = static_cast<uint32_t>(s.serial.size());  // every first and last is below it
  std::vector<int64_t>& delta_v = scratch.delta;
  delta_v.assign(size_t{span} + 1, 0);
  int64_t* const delta = delta_v.data();
  uint64_t unaliased = 0, any_size = 0;
  bool empty_size = false;
  std::vector<Cand>& scanned_v = scratch.scanned;
  if (scanned_v.size() < nr) scanned_v.resize(nr);
  Cand* const scanned = scanned_v.data();
  size_t n = 0;
  const uint64_t align = std::max<uint64_t>(o.alignment, 1);
  const Lifetime* const life = lt.data();
  unsigned in_order = 1;  // a word, not a bool: no branch, and no bitwise & of two bools
  const uint64_t* const sizes = o.sizes.data();  // the walk's stores could alias the vector's own fields
  const size_t n_sizes = o.sizes.size();
  uint32_t last_first = 0;
  uint32_t misfit = kNone;  // a resource whose lifetime does not fit the schedule
  for (uint32_t r = 0; r < nr; ++r) {
    const Resource& res = g.resources[r];
    const Lifetime& l = life[r];
    if (!res.transient || !l.used()) continue;
    // The difference array below is indexed by serial index: lifetimes of another schedule are refused
    // (after the loop) rather than written out of bounds.
    if (std::max(l.first, l.last) >= span) [[unlikely]] {
      misfit = r;
      break;
    }
    in_order &= static_cast<unsigned>(l.first >= last_first);
    last_first = l.first;
    const uint64_t b = r < n_sizes && sizes[r] != 0 ? sizes[r] : estimated_size_of(res) * res.count;
    const uint64_t size = (b + align - 1) / align * align;
    unaliased += size;
    any_size |= size;
    empty_size |= size == 0;
    delta[l.first] += static_cast<int64_t>(size);
    delta[l.last + 1] -= static_cast<int64_t>(size);
    scanned[n++] = Cand{r, l.first, l.free_at, size};
  }
  if (misfit != kNone) [[unlikely]]
    lifetimes_mismatch(g, s, misfit, life[misfit]);
  a.unaliased = unaliased;
  {
    int64_t live = 0;
    uint64_t most = 0;
    for (uint32_t i = 0; i <= span; ++i) {
      live += delta[i];
      most = std::max(most, static_cast<uint64_t>(live));
    }
    a.lower_bound = most;
  }
  const Cand* cand = scanned;
  if (!in_order) {
    std::vector<Cand>& cand_v = scratch.cand;
    if (cand_v.size() < n) cand_v.resize(n);
    Cand* const sorted = cand_v.data();
    std::vector<uint32_t>& slot = scratch.slot;
    slot.assign(span + 1, 0);
    for (size_t i = 0; i < n; ++i) ++slot[scanned[i].first + 1];
    for (uint32_t i = 0; i < span; ++i) slot[i + 1] += slot[i];
    for (size_t i = 0; i < n; ++i) sorted[slot[scanned[i].first]++] = scanned[i];
    cand = sorted;
  }
  a.placements.resize(n);

  if (!o.enabled) {
    for (size_t i = 0; i < n; ++i) {
      a.placement_of[cand[i].r] = static_cast<uint32_t>(i);
      a.placements[i] = {cand[i].r, a.heap_size, cand[i].size};
      a.heap_size += cand[i].size;
    }
    a.barriers.clear();
    return;
  }

  // Every offset either placement chooses is 0 or the end of an interval, so a sum of sizes: a multiple
  // of the largest power of two that divides every size (the unit; 64: none, a size 0 among them).
  const int unit = empty_size || any_size == 0 ? 64 : std::countr_zero(any_size);

  // Offsets: two greedy passes, each placing a resource at the best fitting gap among the
  // resources it may overlap in time (one pass in order of first use, one largest first); the
  // smaller heap wins. Then, in order of first use, who takes over whose memory.
  //
  // First placement, in order of first use: a resource free before the current one's first use is
  // free for every later one too and leaves the candidate list for good. The candidates are kept in
  // (offset, end) order, each with the facts the tests read (its interval, free_at and last_pos,
  // copied: one sequential walk, no lookup per candidate), so the busy intervals come out sorted and the
  // best fit is taken in the same walk (best fit among the gaps below the top of the busy intervals,
  // ties: the lowest offset; otherwise the free tail, possibly empty, which grows the heap as little as
  // possible). A new one is inserted by shifting the few later ones up (the list is short: the
  // resources alive at one point).
  //
  // Overlap in time: neither resource's users all complete before the other's start. Here the earlier
  // candidate q (q.first <= c.first) is never ordered after c: c's first user is not before q's first
  // user in the serial order, and a clock only knows passes earlier in that order (c's user on q's
  // queue, if any, is at or after q's first user there; on another queue, after what q's first user
  // knows complete). So the one test is whether q is ordered before c.
  //
  // The walk meets every pair of resources whose windows [first, free_at) meet (from free_at on, every
  // later pass is ordered after all users, so no other pair can overlap in time), and notes the pairs
  // that overlap for the second placement: per candidate, the earlier ones it overlaps (`near`,
  // contiguous per candidate: near_first; indices are positions in `cand`).
  struct Placed {
    uint64_t begin, end;
    uint32_t free_at, at;  // at: index in `cand`
    std::array<uint32_t, kQueues> last_pos;
  };
  constexpr uint32_t kEnd = 0xffffffffu;
  thread_local std::vector<Placed> placed_v;
  thread_local std::vector<uint32_t> near_v, near_first_v, near_end_v, larger_head_v, larger_v;
  // Offsets in order of first use (the first placement's, or the second's when it wins).
  std::vector<uint64_t>& offset_v = scratch.offset_of;
  if (offset_v.size() < n) offset_v.resize(n);
  uint64_t* const offset_at = offset_v.data();  // by index in `cand`
  if (near_first_v.size() < n + 1) near_first_v.resize(n + 1);
  if (larger_head_v.size() < n) larger_head_v.resize(n);
  uint32_t* const near_first = near_first_v.data();
  uint32_t* const larger_head = larger_head_v.data();
  if (near_end_v.size() < n) near_end_v.resize(n);
  uint32_t* const near_end = near_end_v.data();
  uint64_t top = 0;
  uint32_t n_larger = 0;  // (candidate, next) pairs in `larger`
  uint32_t moved = 0;     // of those, the pairs the catch-up split moved out of `near` (holes left there)
  {
    if (placed_v.size() < n + 1) placed_v.resize(n + 1);
    Placed* const placed = placed_v.data();
    uint32_t* near = near_v.data();
    uint32_t* larger = larger_v.data();
    // The lists' sizes, read per resource from locals rather than from the per-thread vectors.
    size_t near_room = near_v.size(), larger_room = larger_v.size();
    uint32_t n_near = 0;
    size_t listed = 0;  // placed[0, listed): the candidates, sorted by (begin, end)
    constexpr size_t kLongList = 12, kDeadMax = 6;
    // Files `later` (a larger candidate placed after it) in `smaller`'s list of later, larger neighbours.
    auto add_larger = [&](uint32_t smaller, uint32_t later) __attribute__((always_inline)) {
      larger[2 * n_larger] = later;
      larger[2 * n_larger + 1] = larger_head[smaller];
      larger_head[smaller] = n_larger++;
    };
    // Places candidate i. Split: the second placement is known to run (top > lower bound), and each pair
    // is sorted for it as met: q at least as large goes to i's `near` list, a smaller q gets i in its
    // `larger` list (q.end - q.begin is q's size). Before that, every pair goes to `near`.
    auto place_as = [&](size_t i, auto split_tag, auto lazy_tag) __attribute__((always_inline)) {
      constexpr bool kSplit = decltype(split_tag)::value;
      constexpr bool kLazy = decltype(lazy_tag)::value;
      const Cand& c = cand[i];
      const uint64_t size = c.size;
      const Lifetime& l = life[c.r];
      const std::array<uint32_t, kQueues> known = l.min_clock;
      uint64_t best = kNone, best_gap = ~uint64_t{0}, cursor = 0;
      if (n_near + listed > near_room) {  // room for every listed candidate
        near_v.resize(std::max(2 * near_room, n_near + listed + 64));
        near = near_v.data();
        near_room = near_v.size();
      }
      if (kSplit && 2 * (size_t{n_larger} + listed) > larger_room) {
        larger_v.resize(std::max(2 * larger_room, 2 * (size_t{n_larger} + listed) + 128));
        larger = larger_v.data();
        larger_room = larger_v.size();
      }
      near_first[i] = n_near;
      size_t keep = 0;
      for (size_t k = 0; k < listed; ++k) {
        const Placed& q = placed[k];
        if (q.free_at <= c.first) continue;
        if constexpr (!kLazy) {
          if (keep != k) placed[keep] = q;
        }
        ++keep;
        if (known[0] >= q.last_pos[0] && known[1] >= q.last_pos[1] && known[2] >= q.last_pos[2]) continue;
        if (q.begin > cursor && q.begin - cursor >= size && q.begin - cursor < best_gap) {
          best = cursor;
          best_gap = q.begin - cursor;
        }
        cursor = std::max(cursor, q.end);
        if (!kSplit || q.end - q.begin >= size) {
          near[n_near++] = q.at;
        } else {
          add_larger(q.at, static_cast<uint32_t>(i));
        }
      }
      near_end[i] = n_near;
      if (!kLazy) {
        listed = keep;
      } else if (listed - keep > kDeadMax) {
        keep = 0;
        for (size_t k = 0; k < listed; ++k)
          if (placed[k].free_at > c.first) placed[keep++] = placed[k];
        listed = keep;
      }
      const uint64_t offset = best != kNone ? best : cursor;
      offset_at[i] = offset;
      top = std::max(top, offset + size);
      // Insert after every (begin, end) not greater (as upper_bound would).
      size_t at = listed;
      while (at > 0 && (placed[at - 1].begin > offset ||
                        (placed[at - 1].begin == offset && placed[at - 1].end > offset + size))) {
        placed[at] = placed[at - 1];
        --at;
      }
      placed[at] = Placed{offset, offset + size, c.free_at, static_cast<uint32_t>(i), l.last_pos};
      ++listed;
    };
    // Long lists (many resources alive at once) keep their expired entries until a few have gathered, then
    // drop them in one sweep (an entry is skipped by its free_at either way, and an expired one never
    // counts again: first uses only grow); short ones drop them in the walk.
    auto place = [&](size_t i, auto split_tag) __attribute__((always_inline)) {
      if (listed > kLongList)
        place_as(i, split_tag, std::true_type{});
      else
        place_as(i, split_tag, std::false_type{});
    };
    size_t i = 0;
    for (; i < n && top <= a.lower_bound; ++i) place(i, std::false_type{});
    if (top > a.lower_bound) {
      // From here the second placement runs: split the pairs met so far (each candidate's in the order the
      // walk met them, so every list is as if split as met), then the later ones as they come.
      if (larger_room < 2 * size_t{n_near}) {
        larger_v.resize(2 * size_t{n_near} + 128);
        larger = larger_v.data();
        larger_room = larger_v.size();
      }
      std::fill(larger_head, larger_head + n, kEnd);
      for (size_t j = 0; j < i; ++j) {
        const uint64_t size_j = cand[j].size;
        uint32_t kept = near_first[j];
        for (uint32_t k = near_first[j], end = near_end[j]; k < end; ++k) {
          const uint32_t q = near[k];
          if (cand[q].size >= size_j) {
            near[kept++] = q;
          } else {
            add_larger(q, static_cast<uint32_t>(j));
          }
        }
        near_end[j] = kept;
      }
      moved = n_larger;
      for (; i < n; ++i) place(i, std::true_type{});
    }
    near_first[n] = n_near;  // with n_larger - moved: every overlapping pair
  }
  // Second placement, largest first (ties: order of first use), only when the first left room to gain.
  // Resource x is placed before y when it is larger, or as large and earlier in order of first use: y's
  // busy intervals are those of the earlier candidates it overlaps that are at least as large (its `near`
  // list) and of the later ones that overlap it and are larger (y's list of later, larger neighbours,
  // `larger`, threaded through one array of (candidate, next)): the first placement's walk sorts each
  // pair into one of the two as it meets it (no second visit per pair). They are sorted by begin for the
  // same scan as above. O(overlapping pairs + candidates x log) in all: no pair is tested twice.
  if (top > a.lower_bound) {
    uint32_t* const near = near_v.data();
    uint32_t* const larger = larger_v.data();
    thread_local std::vector<uint32_t> sequence_v;
    thread_local std::vector<std::pair<uint64_t, uint64_t>> busy_v;
    thread_local std::vector<uint64_t> begin_v, end_v;
    sequence_v.resize(n);
    uint32_t* const sequence = sequence_v.data();
    if (n <= 32) {
      // Few candidates (a frame's usual count): an insertion sort by size, descending; a candidate moves
      // only past smaller ones, so equal sizes keep the order of first use.
      for (size_t i = 0; i < n; ++i) sequence[i] = static_cast<uint32_t>(i);
      insertion_sort(sequence, sequence + n, [&](uint32_t x, uint32_t y) { return cand[x].size > cand[y].size; });
    } else {
      // Few distinct sizes (the usual case): a counting sort over them; otherwise a sort by (size
      // descending, index).
      constexpr size_t kFew = 16;
      std::array<uint64_t, kFew> distinct;
      std::array<uint32_t, kFew> count{};
      size_t nd = 0;
      bool few = true;
      for (size_t i = 0; i < n && few; ++i) {
        size_t d = 0;
        while (d < nd && distinct[d] != cand[i].size) ++d;
        if (d == nd) {
          if (nd == kFew) {
            few = false;
            break;
          }
          distinct[nd++] = cand[i].size;
        }
        ++count[d];
      }
      if (few) {
        // Classes in descending size; start[d]: where class d's candidates go.
        std::array<uint32_t, kFew> start;
        for (size_t d = 0; d < nd; ++d) {
          uint32_t before = 0;
          for (size_t e = 0; e < nd; ++e)
            if (distinct[e] > distinct[d]) before += count[e];
          start[d] = before;
        }
        for (size_t i = 0; i < n; ++i) {
          size_t d = 0;
          while (distinct[d] != cand[i].size) ++d;
          sequence[start[d]++] = static_cast<uint32_t>(i);
        }
      } else {
        for (size_t i = 0; i < n; ++i) sequence[i] = static_cast<uint32_t>(i);
        std::sort(sequence, sequence + n, [&](uint32_t x, uint32_t y) {
          return cand[x].size != cand[y].size ? cand[x].size > cand[y].size : x < y;
        });
      }
    }
    std::vector<uint64_t>& second_v = scratch.by_size_offset;
    if (second_v.size() < n) second_v.resize(n);
    uint64_t* const second = second_v.data();  // by index in `cand`
    if (busy_v.size() < n) busy_v.resize(n);
    if (begin_v.size() < n) begin_v.resize(n);
    if (end_v.size() < n) end_v.resize(n);
    uint64_t* const begin_of = begin_v.data();
    uint64_t* const end_of = end_v.data();
    // While the heap is at most kUnits units (see `unit`), a resource's busy intervals are marked in a
    // bitmap of units instead of sorted: the gaps the scan below finds between the sorted intervals (below
    // their top) are the bitmap's runs of clear bits below the highest set one, in the same order, so the
    // same best fit. An interval of no bytes would split a gap there and not in the bitmap: with any size 0
    // the bitmap is not used.
    constexpr uint64_t kUnits = 64 * 64;
    thread_local std::array<uint64_t, kUnits / 64 + 1> bits{};  // and a spare word (see `mark`)
    // This placement stops once its heap reaches the first one's top (it can no longer win), so every busy
    // interval ends below `top`. The bitmap's cost grows with the heap's words (scanned and cleared per
    // resource), the sort's with the busy intervals: the bitmap when the words are at most one more than
    // the earlier neighbours per resource, and the heap at most kUnits units.
    const bool bitmap = unit < 64 && (top >> unit) <= kUnits &&
                        ((top >> unit >> 6) + 1) * n <= size_t{near_first[n]} + n_larger - moved + n;
    uint64_t heap_top = 0;
    if (bitmap) {
      // In units: `second` holds offsets in units until the end.
      // Per placed resource, its interval's bits, computed once when it is placed (every busy interval
      // is a placed resource's): the word it starts in and the bits there and in the next word (an
      // interval shorter than 64 units spans at most two), or, for 64 units or more, kLong (marked word
      // by word from its offset).
      struct Stamp {
        uint64_t lo, hi;
        uint64_t w;  // kLong: 64 units or more
      };
      constexpr uint64_t kLong = ~uint64_t{0};
      thread_local std::vector<Stamp> stamp_v;
      if (stamp_v.size() < n) stamp_v.resize(n);
      Stamp* const stamp = stamp_v.data();
      const uint64_t top_units = top >> unit;
      uint64_t heap_units = 0;
      // Marks q's interval [second[q], second[q] + length): the spare word past the heap takes no bit of
      // a short one (every interval ends at or below heap_units).
      auto mark = [&](uint32_t q) {
        const Stamp& t = stamp[q];
        if (t.w != kLong) {
          bits[t.w] |= t.lo;
          bits[t.w + 1] |= t.hi;
          return;
        }
        const uint64_t b = second[q], w = b >> 6, sh = b & 63;
        const uint64_t e = b + (cand[q].size >> unit), w1 = (e - 1) >> 6;
        if (w == w1) {
          bits[w] |= (~uint64_t{0} << sh) & (~uint64_t{0} >> (63 - ((e - 1) & 63)));
        } else {
          bits[w] |= ~uint64_t{0} << sh;
          for (uint64_t x = w + 1; x < w1; ++x) bits[x] = ~uint64_t{0};
          bits[w1] |= ~uint64_t{0} >> (63 - ((e - 1) & 63));
        }
      };
      for (size_t j = 0; j < n; ++j) {
        const uint32_t r = sequence[j];
        for (uint32_t k = near_first[r]; k < near_end[r]; ++k) mark(near[k]);
        for (uint32_t k = larger_head[r]; k != kEnd; k = larger[2 * k + 1]) mark(larger[2 * k]);
        // The busy intervals' top: the end of the highest set bit (every one ends at or below heap_units).
        uint64_t last_word = heap_units == 0 ? 0 : (heap_units - 1) >> 6;
        while (last_word > 0 && bits[last_word] == 0) --last_word;
        const uint64_t busy_top =
            bits[last_word] == 0 ? 0 : last_word * 64 + 64 - static_cast<uint64_t>(std::countl_zero(bits[last_word]));
        // The runs of clear bits below busy_top, lowest first: the best fit (least run that holds the
        // resource, ties: the lowest), else the top.
        const uint64_t need = cand[r].size >> unit;
        uint64_t best = kNone, best_gap = ~uint64_t{0}, at = 0;
        while (at < busy_top) {
          uint64_t w = at >> 6, x = ~bits[w] & (~uint64_t{0} << (at & 63));
          while (x == 0 && w < last_word) x = ~bits[++w];
          if (x == 0) break;
          const uint64_t free_begin = w * 64 + static_cast<uint64_t>(std::countr_zero(x));
          if (free_begin >= busy_top) break;
          // The bit busy_top - 1 is set: a set bit follows.
          x = bits[w] & (~uint64_t{0} << (free_begin & 63));
          while (x == 0) x = bits[++w];
          at = w * 64 + static_cast<uint64_t>(std::countr_zero(x));
          const uint64_t gap = at - free_begin;
          if (gap >= need && gap < best_gap) {
            best = free_begin;
            best_gap = gap;
          }
        }
        for (uint64_t w = 0; w <= last_word; ++w) bits[w] = 0;
        const uint64_t b = best != kNone ? best : busy_top;
        second[r] = b;
        if (need < 64) {
          const uint64_t m = (uint64_t{1} << need) - 1, sh = b & 63;
          stamp[r] = Stamp{m << sh, (m >> 1) >> (63 - sh), b >> 6};
        } else {
          stamp[r].w = kLong;
        }
        heap_units = std::max(heap_units, b + need);
        if (heap_units >= top_units) break;
      }
      heap_top = heap_units << unit;
      if (heap_top < top)
        for (size_t i = 0; i < n; ++i) second[i] <<= unit;
    }
    for (size_t j = 0; j < n && !bitmap; ++j) {
      const uint32_t r = sequence[j];
      const uint64_t size = cand[r].size;
      // Its busy intervals: the ends by index, the begins as one word each, (begin << 8) | index, sorted
      // (the usual case: fewer than 256 intervals, every begin below 2^56; otherwise pairs).
      size_t nb = 0;
      uint64_t any = 0;  // every begin or'ed: whether they all fit in 56 bits
      for (uint32_t k = near_first[r]; k < near_end[r]; ++k) {
        const uint32_t q = near[k];
        const uint64_t b = second[q];
        any |= b;
        begin_of[nb] = b << 8 | (nb & 0xff);
        end_of[nb++] = b + cand[q].size;
      }
      for (uint32_t k = larger_head[r]; k != kEnd; k = larger[2 * k + 1]) {
        const uint32_t q = larger[2 * k];
        const uint64_t b = second[q];
        any |= b;
        begin_of[nb] = b << 8 | (nb & 0xff);
        end_of[nb++] = b + cand[q].size;
      }
      // Sorted by begin only: of several with one begin, the first's gap test is the same whichever comes
      // first (it reads the begin and the cursor before them), the others find no gap (the cursor is past
      // their begin by then, or they are empty and at it), and the cursor ends at the largest end of
      // them in any order.
      uint64_t best = kNone, best_gap = ~uint64_t{0}, cursor = 0;
      auto visit = [&](uint64_t begin, uint64_t end) {
        if (begin > cursor && begin - cursor >= size && begin - cursor < best_gap) {
          best = cursor;
          best_gap = begin - cursor;
        }
        cursor = std::max(cursor, end);
      };
      if (nb <= 256 && (any >> 56) == 0) {
        // The words are distinct (each holds its index): every sort gives one order. A few (the usual
        // case) by insertion, without std::sort's setup.
        if (nb <= 16) {
          insertion_sort(begin_of, begin_of + nb, [](uint64_t x, uint64_t y) { return x < y; });
        } else {
          std::sort(begin_of, begin_of + nb);
        }
        for (size_t x = 0; x < nb; ++x) visit(begin_of[x] >> 8, end_of[begin_of[x] & 0xff]);
      } else {
        std::pair<uint64_t, uint64_t>* const busy = busy_v.data();  // the lists again, as pairs
        size_t m = 0;
        for (uint32_t k = near_first[r]; k < near_end[r]; ++k, ++m) busy[m] = {second[near[k]], end_of[m]};
        for (uint32_t k = larger_head[r]; k != kEnd; k = larger[2 * k + 1], ++m) busy[m] = {second[larger[2 * k]], end_of[m]};
        std::sort(busy, busy + nb, [](const auto& x, const auto& y) { return x.first < y.first; });
        for (size_t x = 0; x < nb; ++x) visit(busy[x].first, busy[x].second);
      }
      second[r] = best != kNone ? best : cursor;
      heap_top = std::max(heap_top, second[r] + size);
      if (heap_top >= top) break;
    }
    if (heap_top < top) {
      top = heap_top;
      for (size_t i = 0; i < n; ++i) offset_at[i] = second[i];
    }
  }

  // Whose memory each resource takes over: the latest occupants of its bytes, in order of first use.
  thread_local std::vector<uint32_t> previous;  // whose memory the current resource takes over
  a.barriers.reserve(n);                        // at most one per placement
  for (size_t i = 0; i < n; ++i) {
    a.placement_of[cand[i].r] = static_cast<uint32_t>(i);
    a.placements[i] = {cand[i].r, offset_at[i], cand[i].size};
  }
  const uint64_t heap_units = unit < 64 ? top >> unit : 0;
  if (unit < 64 && heap_units <= 64 * (uint64_t{n} + 64) && heap_units < (uint64_t{1} << 32)) {
    // Whole units, no size 0, and a heap of at most about one word of units per resource: the occupants
    // as disjoint intervals of units, each kept at its first unit (its end and its resource), with a
    // bitmap of the units where one begins. The interval holding a unit is the highest begin at or below
    // it (found a word at a time); a placement clips that one, drops the begins it covers and clips the
    // last of those at its end: no search over the intervals, no shifting of the later ones. The same
    // intervals as the list below, so the same occupants.
    struct Span {
      uint32_t end, resource;
    };
    thread_local std::vector<uint64_t> begins_v;
    thread_local std::vector<Span> span_v;
    begins_v.assign(heap_units / 64 + 1, 0);  // an interval begins below heap_units
    if (span_v.size() < heap_units) span_v.resize(heap_units);
    uint64_t* const begins = begins_v.data();
    Span* const span_at = span_v.data();
    for (size_t i = 0; i < n; ++i) {
      const uint32_t r = cand[i].r;
      const uint64_t u = offset_at[i] >> unit, e = u + (cand[i].size >> unit);
      // The highest begin at or below u.
      uint64_t w = u >> 6, x = begins[w] & (~uint64_t{0} >> (63 - (u & 63)));
      while (x == 0 && w > 0) x = begins[--w];
      previous.clear();
      bool right = false;  // a part of an old interval is left past e: [e, right_end) of right_resource
      uint32_t right_end = 0, right_resource = 0;
      if (x != 0) {
        const uint64_t p = w * 64 + 63 - static_cast<uint64_t>(std::countl_zero(x));
        Span& held = span_at[p];
        if (held.end > u) {
          // The usual takeover: exactly that interval's units.
          if (p == u && held.end == e) {
            AliasBarrier& ab = next_barrier();
            ab.pass = s.serial[cand[i].first];
            ab.resource = r;
            ab.previous.assign(&held.resource, 1);
            held.resource = r;
            continue;
          }
          previous.push_back(held.resource);
          if (held.end > e) {
            right = true;
            right_end = held.end;
            right_resource = held.resource;
          }
          if (p < u) held.end = static_cast<uint32_t>(u);  // its part before u stays
        }
      }
      // The intervals beginning in (u, e): taken over, their begins dropped; the last may reach past e.
      if (u + 1 < e) {
        const uint64_t w0 = (u + 1) >> 6, w1 = (e - 1) >> 6;
        for (uint64_t wd = w0; wd <= w1; ++wd) {
          uint64_t m = begins[wd];
          if (wd == w0) m &= ~uint64_t{0} << ((u + 1) & 63);
          if (wd == w1) m &= ~uint64_t{0} >> (63 - ((e - 1) & 63));
          begins[wd] &= ~m;
          for (; m != 0; m &= m - 1) {
            const Span& taken = span_at[wd * 64 + static_cast<uint64_t>(std::countr_zero(m))];
            if (std::find(previous.begin(), previous.end(), taken.resource) == previous.end())
              previous.push_back(taken.resource);
            if (taken.end > e) {
              right = true;
              right_end = taken.end;
              right_resource = taken.resource;
            }
          }
        }
      }
      begins[u >> 6] |= uint64_t{1} << (u & 63);
      span_at[u] = Span{static_cast<uint32_t>(e), r};
      if (right) {
        begins[e >> 6] |= uint64_t{1} << (e & 63);
        span_at[e] = Span{right_end, right_resource};
      }
      if (!previous.empty()) {
        if (previous.size() > 1) std::sort(previous.begin(), previous.end());
        AliasBarrier& ab = next_barrier();
        ab.pass = s.serial[cand[i].first];
        ab.resource = r;
        ab.previous.assign(previous.data(), previous.size());  // up to three: inline, no allocation
      }
    }
  } else {
    // Otherwise the heap's current occupants as disjoint intervals [begin, end) sorted by begin, each with
    // the last resource placed there, in one flat array (per-thread scratch: no node per interval, no
    // allocation once it has grown). A placement clips the interval it starts in and the one it ends in
    // and replaces everything between by itself: one binary search and one splice.
    struct Occupant {
      uint64_t begin, end;
      uint32_t resource;
    };
    thread_local std::vector<Occupant> occupant;
    occupant.clear();
    for (size_t i = 0; i < n; ++i) {
      const Cand& c = cand[i];
      const uint32_t r = c.r;
      const uint64_t size = c.size, offset = offset_at[i];
      // Whose memory this takes over: the latest occupants of [offset, offset + size).
      const uint64_t end = offset + size;
      const size_t no = occupant.size();
      Occupant* occ = occupant.data();
      // The last interval beginning at or before `offset` (it may reach into the new one), else the first.
      size_t lo = 0, hi = no;
      while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        if (offset < occ[mid].begin)
          hi = mid;
        else
          lo = mid + 1;
      }
      size_t first = lo;
      if (first > 0) --first;
      // The usual takeover: exactly the bytes of one occupant (and no empty interval at the same offset,
      // which the general path below keeps): it becomes the occupant, the old one the one previous.
      if (size > 0 && first < no && occ[first].begin == offset && occ[first].end == end &&
          !(first > 0 && occ[first - 1].begin == offset)) {
        AliasBarrier& ab = next_barrier();
        ab.pass = s.serial[c.first];
        ab.resource = r;
        ab.previous.assign(&occ[first].resource, 1);
        occ[first].resource = r;
        continue;
      }
      // Only that interval can end at or before `offset` (every later one begins after it): it stays.
      if (first < no && occ[first].begin <= offset && occ[first].end <= offset) ++first;
      std::array<Occupant, 3>
          pieces;  // what replaces [first, last): kept left part, the new one, kept right part
      size_t npieces = 0;
      bool right = false;
      size_t last = first;
      previous.clear();
      for (; last < no && occ[last].begin < end; ++last) {
        const Occupant oc = occ[last];
        if (std::find(previous.begin(), previous.end(), oc.resource) == previous.end())
          previous.push_back(oc.resource);
        if (oc.begin < offset) pieces[npieces++] = {oc.begin, offset, oc.resource};
        if (oc.end > end) {
          pieces[2] = {end, oc.end, oc.resource};
          right = true;
        }
      }
      // A placement of no bytes whose begin is already a begin (an interval kept before, or the kept
      // right part) adds nothing.
      const bool taken = (first > 0 && occ[first - 1].begin == offset) ||
                         (right && pieces[2].begin == offset) ||
                         (!right && last < no && occ[last].begin == offset);
      if (!taken) pieces[npieces++] = {offset, end, r};
      if (right) pieces[npieces++] = pieces[2];
      const size_t removed = last - first;
      // Shift the tail by hand: it is a few intervals (a call to memmove cost more than the moves).
      if (npieces > removed) {
        const size_t grow = npieces - removed;
        occupant.resize(no + grow);
        occ = occupant.data();
        for (size_t k = no; k-- > last;) occ[k + grow] = occ[k];
      } else if (npieces < removed) {
        const size_t shrink = removed - npieces;
        for (size_t k = last; k < no; ++k) occ[k - shrink] = occ[k];
        occupant.resize(no - shrink);
      }
      for (size_t k = 0; k < npieces; ++k) occ[first + k] = pieces[k];
      if (!previous.empty()) {
        if (previous.size() > 1) std::sort(previous.begin(), previous.end());
        AliasBarrier& ab = next_barrier();
        ab.pass = s.serial[c.first];
        ab.resource = r;
        ab.previous.assign(previous.data(), previous.size());  // up to three: inline, no allocation
      }
    }
  }
  a.barriers.resize(barriers_used);  // a smaller frame than the last: its extra barriers go
  a.heap_size = top;
}

}  // namespace baton::graph

namespace baton::graph {

PlanMemory plan_memory(const Graph& g, const Aliasing& a, const std::vector<uint64_t>& member_bytes) {
  PlanMemory m;
  if (a.placements.empty()) return m;
  m.heaps.push_back({"transients", std::max<uint64_t>(a.heap_size, 1)});
  std::vector<uint32_t> first(g.resources.size() + 1, 0);
  for (size_t r = 0; r < g.resources.size(); ++r) first[r + 1] = first[r] + g.resources[r].count;
  m.placement.resize(first.back());
  for (const Placement& p : a.placements) {
    const uint32_t count = first[p.resource + 1] - first[p.resource];
    uint64_t at = p.offset;
    for (uint32_t k = first[p.resource]; k < first[p.resource + 1]; ++k) {
      const uint64_t bytes =
          k < member_bytes.size() ? member_bytes[k] : p.size / std::max<uint32_t>(count, 1);
      m.placement[k] = PlanMemory::Range{0, at, std::max<uint64_t>(bytes, 1)};
      at += bytes;
    }
  }
  return m;
}

}  // namespace baton::graph
