// Small facts about one operation's uses, shared by the plan and the compiler.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "baton/plan.hpp"
#include "baton/record.hpp"

namespace baton::plan_detail {

// plan() into `out`, reusing the storage of the facts an earlier call left there (their vectors are
// cleared, not freed): compile_all keeps one Plan per thread, so a frame planned again allocates nothing
// per group. Same checks, errors and facts as plan().
void plan_into(Plan& out, const ResourceTable& rt, std::span<const CommandListGroup* const> groups, History history);

// state_of_entry() inline for the usual declaration of one use (the planner and the compiler ask for
// every entry state; two calls each cost more than the state itself); a shared read entry goes out of line.
inline State entry_state(const ResourceDesc& d, const EntryState& e) {
  return e.shared ? state_of_entry(d, e) : state_of_use(d, e.access, e.stages);
}

// Whether some resource has two uses in the operation: the only case in which uses of one operation
// can conflict or merge. Operations are small, so a pairwise look beats sorting; past 8 uses the
// answer is a conservative "maybe" (true), and callers take their general path.
inline bool shares_a_resource(std::span<const Use> uses) {
  const size_t n = uses.size();
  if (n > 8) return true;
  const Use* u = uses.data();
  if (n == 2) return u[0].resource == u[1].resource;
  if (n == 3)  // a frame graph pass's usual shape: one write, two reads
    return u[0].resource == u[1].resource || u[0].resource == u[2].resource || u[1].resource == u[2].resource;
  for (size_t i = 1; i < n; ++i)
    for (size_t j = 0; j < i; ++j)
      if (uses[i].resource == uses[j].resource) return true;
  return false;
}

// Two uses of one operation that conflict: first < second, the pair with the smallest `second`,
// then the smallest `first` (the use that conflicts with an earlier one, and the earliest of those).
struct UsePair {
  uint32_t first = 0, second = 0;
};

// Finds the first conflicting pair among the uses of one operation: two uses of one resource whose
// boxes overlap and whose accesses `conflict(a, b)` (a symmetric predicate on accesses alone).
// Without comparing all pairs: uses are grouped by resource; a resource whose accesses cannot
// conflict (one access, or reads only) is skipped; otherwise each subresource records the first use
// of each access that touched it, so the work is the total volume of the boxes (bounded), with a
// pairwise scan of the conflicting accesses only past that bound.
template <class DescOf, class Conflict>
std::optional<UsePair> first_conflict(std::span<const Use> uses, const std::vector<Box>& boxes,
                                      const DescOf& desc_of, const Conflict& conflict) {
  const auto n = static_cast<uint32_t>(uses.size());
  if (n < 2) return std::nullopt;
  // The uses' indices in resource order, ties in index order. Most operations that name a resource twice
  // have a few uses: sorted by insertion in an array on the stack, so that a frame planned every frame
  // takes no heap block here; a larger one is sorted in a per-thread array kept from call to call.
  constexpr uint32_t kSmall = 64;
  std::array<uint32_t, kSmall> small;
  thread_local std::vector<uint32_t> large;
  if (n > kSmall && large.size() < n) large.resize(n);
  uint32_t* const idx = n <= kSmall ? small.data() : large.data();
  for (uint32_t i = 0; i < n; ++i) idx[i] = i;
  if (n <= kSmall) {
    for (uint32_t i = 1; i < n; ++i) {
      const uint32_t x = idx[i];
      uint32_t j = i;
      for (; j > 0 && uses[idx[j - 1]].resource > uses[x].resource; --j) idx[j] = idx[j - 1];
      idx[j] = x;
    }
  } else {
    std::stable_sort(idx, idx + n, [&](uint32_t a, uint32_t b) { return uses[a].resource < uses[b].resource; });
  }
  std::optional<UsePair> best;
  auto better = [&](uint32_t a, uint32_t b) {
    if (!best || b < best->second || (b == best->second && a < best->first)) best = UsePair{a, b};
  };
  std::vector<uint32_t> table;
  for (uint32_t lo = 0; lo < n;) {
    uint32_t hi = lo + 1;
    while (hi < n && uses[idx[hi]].resource == uses[idx[lo]].resource) ++hi;
    // The accesses of this resource, and whether any two of them can conflict.
    std::array<int8_t, kAccessCount> slot{};
    slot.fill(-1);
    std::array<Access, kAccessCount> present{};  // the distinct accesses, in order of first use
    size_t kinds = 0;
    uint64_t volume = 0;
    for (uint32_t k = lo; k < hi; ++k) {
      const Access a = uses[idx[k]].access;
      if (slot[static_cast<size_t>(a)] < 0) {
        slot[static_cast<size_t>(a)] = static_cast<int8_t>(kinds);
        present[kinds++] = a;
      }
      volume += boxes[idx[k]].volume();
    }
    bool can_conflict = false;
    for (size_t x = 0; x < kinds && !can_conflict; ++x)
      for (size_t y = x + 1; y < kinds && !can_conflict; ++y)
        can_conflict = conflict(present[x], present[y]);
    if (hi - lo < 2 || !can_conflict) {
      lo = hi;
      continue;
    }
    const ResourceDesc& d = desc_of(uses[idx[lo]].resource);
    // A buffer's boxes are its bytes on the mip axis (use_extent): as many cells as they reach.
    uint64_t subresources = uint64_t{d.mips} * d.layers * d.planes;
    if (d.type == ResourceType::buffer)
      for (uint32_t k = lo; k < hi; ++k) subresources = std::max<uint64_t>(subresources, boxes[idx[k]].m1);
    constexpr uint64_t kBudget = uint64_t{1} << 26;
    if (hi - lo <= 32) {
      // A few uses (the common case, e.g. a downsample reading one mip and writing the next):
      // every pair, in index order, costs less than any table.
      for (uint32_t k = lo + 1; k < hi; ++k) {
        const uint32_t b = idx[k];
        if (best && b > best->second) break;
        for (uint32_t q = lo; q < k; ++q) {
          const uint32_t a = idx[q];
          if (conflict(uses[a].access, uses[b].access) && overlaps(boxes[a], boxes[b])) {
            better(a, b);
            break;
          }
        }
      }
    } else if (volume <= kBudget) {
      // Per subresource and access: the first use (in index order) that touched it, in a dense
      // table when the resource is small next to the boxes, else in a hash map (work follows the
      // subresources touched, not the resource's extent).
      const bool dense = subresources * kinds <= 4 * volume + 4096;
      if (dense) table.assign(static_cast<size_t>(subresources * kinds), UINT32_MAX);
      std::unordered_map<uint64_t, uint32_t> sparse;
      auto first_of = [&](uint64_t key) -> uint32_t& {
        if (dense) return table[static_cast<size_t>(key)];
        return sparse.try_emplace(key, UINT32_MAX).first->second;
      };
      for (uint32_t k = lo; k < hi; ++k) {  // idx[lo, hi) is in index order (stable sort)
        const uint32_t b = idx[k];
        if (best && b > best->second) break;
        const Box& box = boxes[b];
        const auto s = static_cast<size_t>(slot[static_cast<size_t>(uses[b].access)]);
        for (uint32_t m = box.m0; m < box.m1; ++m)
          for (uint32_t l = box.l0; l < box.l1; ++l)
            for (uint32_t p = box.p0; p < box.p1; ++p) {
              const uint64_t base = ((uint64_t{m} * d.layers + l) * d.planes + p) * kinds;
              for (size_t other = 0; other < kinds; ++other) {
                if (other == s) continue;
                const uint32_t a = dense
                                       ? table[static_cast<size_t>(base + other)]
                                       : (sparse.contains(base + other) ? sparse[base + other] : UINT32_MAX);
                if (a != UINT32_MAX && conflict(present[other], uses[b].access)) better(a, b);
              }
              uint32_t& mine = first_of(base + s);
              if (mine == UINT32_MAX) mine = b;
            }
      }
    } else {
      // Past the budget: compare the distinct (access, box) pairs, each at its first use, with the
      // earlier ones of a conflicting access (a repeated use can only conflict later than its first).
      std::vector<uint32_t> distinct(idx + lo, idx + hi);
      auto key = [&](uint32_t i) {
        const Box& x = boxes[i];
        return std::make_tuple(uses[i].access, x.m0, x.m1, x.l0, x.l1, x.p0, x.p1, i);
      };
      std::sort(distinct.begin(), distinct.end(), [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
      distinct.erase(std::unique(distinct.begin(), distinct.end(),
                                 [&](uint32_t a, uint32_t b) {
                                   return uses[a].access == uses[b].access && boxes[a] == boxes[b];
                                 }),
                     distinct.end());
      std::sort(distinct.begin(), distinct.end());
      for (size_t k = 0; k < distinct.size(); ++k) {
        const uint32_t b = distinct[k];
        if (best && b > best->second) break;
        for (size_t q = 0; q < k; ++q) {
          const uint32_t a = distinct[q];
          if (conflict(uses[a].access, uses[b].access) && overlaps(boxes[a], boxes[b])) {
            better(a, b);
            break;
          }
        }
      }
    }
    lo = hi;
  }
  return best;
}

}  // namespace baton::plan_detail
