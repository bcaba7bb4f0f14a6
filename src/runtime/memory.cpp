// Real memory requirements -> the aliasing phase's sizes -> per-member heap offsets. One home for
// both runtimes and for the executors that run frame graphs with shared memory.
#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>

#include "baton/runtime_common.hpp"

namespace baton::runtime {
namespace {
uint64_t round_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }
}  // namespace

std::vector<uint32_t> first_members(const graph::Graph& g) {
  std::vector<uint32_t> first(g.resources.size() + 1, 0);
  for (size_t r = 0; r < g.resources.size(); ++r) first[r + 1] = first[r] + g.resources[r].count;
  return first;
}

void set_real_sizes(const graph::Graph& g, const std::vector<MemoryRequirement>& member_req,
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
                                 const std::vector<MemoryRequirement>& member_req, const graph::AliasingOptions& o) {
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
      mp.type_bits &= member_req[m].type_bits;
      at += round_up(member_req[m].size, alignment);
    }
  }
  for (const graph::AliasBarrier& b : r.aliasing.barriers)
    for (uint32_t prev : b.previous)
      for (uint32_t m = first[prev]; m < first[prev + 1]; ++m) mp.taken_over[m] = 1;
  return mp;
}

void check_unique_names(const std::vector<graph::Resource>& resources, const std::vector<std::string_view>& passes) {
  std::unordered_set<std::string_view> names;
  names.reserve(std::max(resources.size(), passes.size()));
  for (const graph::Resource& r : resources)
    if (!names.insert(r.desc.name).second) throw Error(fmt::format("resource '{}' declared twice", r.desc.name));
  names.clear();
  for (std::string_view p : passes)
    if (!names.insert(p).second) throw Error(fmt::format("pass '{}' declared twice", p));
}

bool uses_only_resources_of_the_frame(const std::vector<Use>& uses, size_t resources) {
  for (const Use& u : uses)
    if (!u.res.valid() || u.res.index >= resources) return false;
  return true;
}

void declare_output(Res r, size_t resources, std::vector<uint32_t>& outputs, std::vector<std::string>& errors) {
  if (!r.valid() || r.index >= resources) {
    errors.push_back("output() names a resource that is not of this frame");
    return;
  }
  outputs.push_back(r.index);
}

std::vector<std::vector<uint32_t>> group_waits(const graph::Graph& g, const graph::GraphCompileResult& r) {
  const std::vector<graph::GroupInfo>& info = r.trans.info;
  std::vector<uint32_t> group_of(g.passes.size(), graph::kNone);
  for (uint32_t gi = 0; gi < info.size(); ++gi)
    for (uint32_t p : info[gi].passes)
      if (p < group_of.size()) group_of[p] = gi;  // kNone (a transition list) is never < size
  std::vector<std::vector<uint32_t>> waits(info.size());
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

uint64_t aliased_bytes(const std::vector<std::pair<uint64_t, uint64_t>>& ranges) {
  // Sweep over the range ends: +1 at a begin, -1 at an end; count the bytes where 2 or more overlap.
  std::vector<std::pair<uint64_t, int>> ev;
  ev.reserve(ranges.size() * 2);
  for (const auto& [offset, size] : ranges) {
    if (size == 0) continue;
    ev.push_back({offset, 1});
    ev.push_back({offset + size, -1});
  }
  std::sort(ev.begin(), ev.end());
  uint64_t total = 0, last = 0;
  int live = 0;
  for (const auto& [x, d] : ev) {
    if (live >= 2) total += x - last;
    live += d;
    last = x;
  }
  return total;
}

}  // namespace baton::runtime
