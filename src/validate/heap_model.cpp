// Heaps and placed resources (heap_model.hpp).
#include "heap_model.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace baton::validate {

HeapModel::HeapModel(const Trace& t)
    : trace_(t),
      heaps_(t.heaps.size()),
      activated_(t.resources.size(), false),
      evicted_(t.resources.size()) {}

std::vector<HeapModel::Previous> HeapModel::activate(int r) {
  std::vector<Previous> prev;
  activated_[static_cast<size_t>(r)] = true;
  evicted_[static_cast<size_t>(r)] = Eviction{};
  const TracePlacement& p = res(r).placement;
  if (p.heap == kNotPlaced) return prev;
  auto& segs = heaps_[static_cast<size_t>(p.heap)];
  const uint64_t lo = p.offset, hi = p.offset + p.bytes;
  // The first segment that may overlap [lo, hi): the one starting at or before lo, if it reaches past lo.
  auto it = segs.upper_bound(lo);
  if (it != segs.begin() && std::prev(it)->second.hi > lo) --it;
  while (it != segs.end() && it->first < hi) {
    const uint64_t slo = it->first, shi = it->second.hi;
    const int occ = it->second.occupant;
    it = segs.erase(it);
    // Keep the parts outside [lo, hi).
    if (slo < lo) segs.emplace(slo, Segment{lo, occ});
    if (shi > hi) it = segs.emplace(hi, Segment{shi, occ}).first;
    if (occ == r) continue;
    const uint64_t olo = std::max(slo, lo), ohi = std::min(shi, hi);
    auto found = std::find_if(prev.begin(), prev.end(), [&](const Previous& x) { return x.resource == occ; });
    if (found == prev.end())
      prev.push_back(Previous{occ, olo, ohi});
    else
      *found = Previous{occ, std::min(found->lo, olo), std::max(found->hi, ohi)};
    Eviction& e = evicted_[static_cast<size_t>(occ)];
    if (e.by == kNoResource) e = Eviction{r, olo, ohi};
  }
  segs.emplace(lo, Segment{hi, r});
  std::sort(prev.begin(), prev.end(),
            [](const Previous& a, const Previous& b) { return a.resource < b.resource; });
  return prev;
}

std::string HeapModel::bytes(int r, uint64_t lo, uint64_t hi) const {
  return fmt::format("heap '{}' bytes [{}, {})",
                     trace_.heaps[static_cast<size_t>(res(r).placement.heap)].name, lo, hi);
}

std::vector<std::vector<bool>> submission_order(const Trace& t) {
  const size_t n = t.submissions.size();
  std::vector<std::vector<bool>> hb(n, std::vector<bool>(n, false));
  for (size_t s = 0; s < n; ++s) {
    for (size_t e = s; e-- > 0;) {
      if (t.submissions[e].queue != t.submissions[s].queue) continue;
      hb[s] = hb[e];
      hb[s][e] = true;
      break;
    }
    for (const std::string& sem : t.submissions[s].wait) {
      for (size_t e = s; e-- > 0;) {
        const auto& sig = t.submissions[e].signal;
        if (std::find(sig.begin(), sig.end(), sem) == sig.end()) continue;
        hb[s][e] = true;
        for (size_t k = 0; k < n; ++k) hb[s][k] = hb[s][k] || hb[e][k];
        break;
      }
    }
  }
  return hb;
}

}  // namespace baton::validate
