// Real memory requirements -> the aliasing phase's sizes -> per-member heap offsets. One home for
// the runtime and for the executors that run frame graphs with shared memory.
#include <algorithm>

#include "baton/runtime.hpp"

namespace baton::runtime {
namespace {
uint64_t round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }
}  // namespace

std::vector<uint32_t> first_members(const graph::Graph& g) {
  std::vector<uint32_t> first(g.resources.size() + 1, 0);
  for (size_t r = 0; r < g.resources.size(); ++r) first[r + 1] = first[r] + g.resources[r].count;
  return first;
}

void set_real_sizes(const graph::Graph& g, const std::vector<VkMemoryRequirements>& member_req,
                    uint64_t granularity, graph::AliasingOptions& o) {
  const std::vector<uint32_t> first = first_members(g);
  if (member_req.size() != first.back())
    throw Error("set_real_sizes: one memory requirement per member expected");
  uint64_t align = 1;
  bool images = false, buffers = false;
  for (size_t r = 0; r < g.resources.size(); ++r) {
    if (!g.resources[r].transient) continue;
    (g.resources[r].desc.type == ResourceType::buffer ? buffers : images) = true;
    for (uint32_t m = first[r]; m < first[r + 1]; ++m) align = std::max<uint64_t>(align, member_req[m].alignment);
  }
  if (images && buffers) align = std::max<uint64_t>(align, granularity);
  o.alignment = align;
  o.sizes.assign(g.resources.size(), 0);
  for (size_t r = 0; r < g.resources.size(); ++r) {
    if (!g.resources[r].transient) continue;
    uint64_t total = 0;
    for (uint32_t m = first[r]; m < first[r + 1]; ++m) total += round_up(member_req[m].size, align);
    o.sizes[r] = std::max<uint64_t>(total, 1);
  }
}

MemberPlacement member_placement(const graph::Graph& g, const graph::GraphCompileResult& r,
                                 const std::vector<VkMemoryRequirements>& member_req, const graph::AliasingOptions& o) {
  const std::vector<uint32_t> first = first_members(g);
  MemberPlacement mp;
  mp.offset.assign(first.back(), MemberPlacement::kNotPlaced);
  mp.taken_over.assign(first.back(), 0);
  mp.heap_size = r.aliasing.heap_size;
  // The same rounding as set_real_sizes: members follow each other inside their resource's placement.
  const uint64_t alignment = std::max<uint64_t>(o.alignment, 1);
  for (const graph::Placement& p : r.aliasing.placements) {
    uint64_t at = p.offset;
    for (uint32_t m = first[p.resource]; m < first[p.resource + 1]; ++m) {
      mp.offset[m] = at;
      mp.type_bits &= member_req[m].memoryTypeBits;
      at += round_up(member_req[m].size, alignment);
    }
  }
  for (const graph::AliasBarrier& b : r.aliasing.barriers)
    for (uint32_t prev : b.previous)
      for (uint32_t m = first[prev]; m < first[prev + 1]; ++m) mp.taken_over[m] = 1;
  return mp;
}

std::vector<std::vector<uint32_t>> group_waits(const graph::Graph& g, const graph::GraphCompileResult& r) {
  const std::vector<graph::GroupInfo>& info = r.trans.info;
  std::vector<std::vector<uint32_t>> waits(info.size());
  std::vector<uint32_t> group_of(g.passes.size(), graph::kNone);
  for (uint32_t gi = 0; gi < info.size(); ++gi)
    for (uint32_t p : info[gi].passes)
      if (p != graph::kNone && p < group_of.size()) group_of[p] = gi;
  for (const graph::Sync& y : r.sched.syncs) {
    const uint32_t from = y.signal < group_of.size() ? group_of[y.signal] : graph::kNone;
    const uint32_t to = y.wait < group_of.size() ? group_of[y.wait] : graph::kNone;
    if (from != graph::kNone && to != graph::kNone && from != to) waits[to].push_back(from);
  }
  for (uint32_t gi = 0; gi < info.size(); ++gi) {
    std::vector<uint32_t>& w = waits[gi];
    w.insert(w.end(), info[gi].waits.begin(), info[gi].waits.end());
    std::sort(w.begin(), w.end());
    w.erase(std::unique(w.begin(), w.end()), w.end());
  }
  return waits;
}

}  // namespace baton::runtime
