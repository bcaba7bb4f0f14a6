// Seeded random recordings for the property test: random resources (textures of every format class,
// placed and swapchain ones, buffers), 1-3 groups of 1-4 lists of 1-8 operations of 1-4 uses, with
// accesses legal for the resource and the queue, no conflicting uses inside one operation,
// occasional declared entry states and full barriers. The generator is its own small PRNG so that a
// seed means the same recording with every standard library.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "baton/plan.hpp"

namespace baton::test {

class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {  // splitmix64
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi].
  uint32_t in(uint32_t lo, uint32_t hi) { return lo + static_cast<uint32_t>(next() % (uint64_t{hi} - lo + 1)); }
  bool chance(uint32_t percent) { return in(1, 100) <= percent; }
  template <class T>
  const T& pick(const std::vector<T>& v) {
    return v[in(0, static_cast<uint32_t>(v.size() - 1))];
  }

 private:
  uint64_t s_;
};

struct RandomRecording {
  ResourceTable rt;
  std::vector<std::unique_ptr<CommandList>> lists;
  std::vector<std::unique_ptr<CommandListGroup>> groups;
  std::vector<const CommandListGroup*> group_ptrs() const {
    std::vector<const CommandListGroup*> v;
    for (const auto& g : groups) v.push_back(g.get());
    return v;
  }
};

namespace random_detail {

inline std::vector<Access> legal_accesses(const ResourceDesc& d, Queue q) {
  std::vector<Access> all;
  if (d.type == ResourceType::buffer) {
    all = {Access::shader_resource, Access::unordered_access, Access::copy_source,      Access::copy_dest,
           Access::vertex_buffer,   Access::index_buffer,     Access::constant_buffer,  Access::indirect_argument,
           Access::host_read,       Access::host_write};
  } else if (d.format == FormatClass::color) {
    all = {Access::render_target, Access::shader_resource, Access::unordered_access, Access::copy_source,
           Access::copy_dest,     Access::resolve_source,  Access::resolve_dest};
    if (d.swapchain) all.push_back(Access::present);
  } else {
    all = {Access::depth_write, Access::depth_read, Access::shader_resource, Access::copy_source, Access::copy_dest};
  }
  std::vector<Access> out;
  for (Access a : all)
    if (queue_allows(q, a, q == Queue::compute ? stages(Stage::compute) : kNoStages)) out.push_back(a);
  return out;
}

inline Stages random_stages(Rng& rng, Access a, Queue q) {
  if (!is_shader_access(a)) return kNoStages;
  if (q == Queue::compute) return stages(Stage::compute);
  return static_cast<Stages>(rng.in(1, 7));
}

inline SubresourceRange random_range(Rng& rng, const ResourceDesc& d, bool byte_ranges = false) {
  SubresourceRange r;
  if (d.type == ResourceType::buffer && byte_ranges && rng.chance(70)) {
    // Bytes in 256-byte steps of a 4096-byte buffer, so that ranges often meet, overlap or touch.
    const uint32_t first = rng.in(0, 15);
    r.byte_offset = uint64_t{first} * 256;
    r.byte_size = uint64_t{rng.in(1, 16 - first)} * 256;
    return r;
  }
  if (d.type == ResourceType::buffer || rng.chance(35)) return r;  // whole resource
  auto axis = [&](uint32_t total, uint32_t& first, uint32_t& count) {
    if (rng.chance(40)) return;  // the whole axis
    first = rng.in(0, total - 1);
    count = rng.chance(20) ? kAll : rng.in(1, total - first);
  };
  axis(d.mips, r.mip_first, r.mip_count);
  axis(d.layers, r.layer_first, r.layer_count);
  axis(d.planes, r.plane_first, r.plane_count);
  return r;
}

// Whether a new use may join the uses already in one operation (the planner rejects two different
// writes, a write with a read, or present with anything else, on one subresource).
inline bool compatible(const ResourceTable& rt, std::span<const Use> uses, const Use& n) {
  const Box nb = use_extent(rt[n.resource], n.range);
  for (const Use& u : uses) {
    if (u.resource != n.resource || !overlaps(use_extent(rt[u.resource], u.range), nb)) continue;
    if ((is_write(u.access) || is_write(n.access)) && u.access != n.access) return false;
    if ((u.access == Access::present) != (n.access == Access::present)) return false;
  }
  return true;
}

inline ResourceDesc random_resource(Rng& rng, uint32_t index) {
  ResourceDesc d;
  d.name = "r" + std::to_string(index);
  if (rng.chance(30)) {
    d.type = ResourceType::buffer;
    d.size = 4096;
    return d;
  }
  d.type = ResourceType::texture;
  d.width = d.height = 64;
  if (rng.chance(12)) {
    d.swapchain = true;
    d.usage = bit(Access::render_target) | bit(Access::present);
    return d;
  }
  d.mips = rng.in(1, 4);
  d.layers = rng.in(1, 3);
  const uint32_t f = rng.in(0, 9);
  d.format = f < 6 ? FormatClass::color : f < 8 ? FormatClass::depth : FormatClass::depth_stencil;
  d.planes = d.format == FormatClass::depth_stencil ? 2 : 1;
  const std::vector<Access> usable =
      d.format == FormatClass::color
          ? std::vector<Access>{Access::render_target, Access::shader_resource, Access::unordered_access,
                                Access::copy_source, Access::copy_dest}
          : std::vector<Access>{Access::depth_write, Access::shader_resource, Access::copy_dest};
  for (Access a : usable)
    if (rng.chance(45)) d.usage |= bit(a);
  d.placed = rng.chance(25);
  if (rng.chance(8)) {  // per-resource override of the resting state
    d.resting = d.format == FormatClass::color ? rng.pick(std::vector<Access>{Access::copy_source, Access::render_target})
                                               : Access::depth_read;
  }
  return d;
}

}  // namespace random_detail

// byte_ranges: buffer uses name bytes most of the time (otherwise buffers are used whole).
inline std::unique_ptr<RandomRecording> make_random_recording(uint64_t seed, bool byte_ranges = false) {
  using namespace random_detail;
  Rng rng(seed);
  auto rec = std::make_unique<RandomRecording>();
  const uint32_t resources = rng.in(1, 6);
  for (uint32_t i = 0; i < resources; ++i) rec->rt.add(random_resource(rng, i));
  const uint32_t groups = rng.in(1, 3);
  for (uint32_t gi = 0; gi < groups; ++gi) {
    const Queue q = rng.chance(20) ? Queue::compute : Queue::direct;
    auto group = std::make_unique<CommandListGroup>("g" + std::to_string(gi), q);
    const uint32_t lists = rng.in(1, 4);
    std::vector<bool> used_in_group(rec->rt.size(), false);
    for (uint32_t li = 0; li < lists; ++li) {
      auto list = std::make_unique<CommandList>("g" + std::to_string(gi) + "l" + std::to_string(li), q);
      std::vector<ResourceId> first_used_here;
      const uint32_t ops = rng.in(1, 8);
      for (uint32_t oi = 0; oi < ops; ++oi) {
        Operation op;
        op.kind = q == Queue::compute ? (rng.chance(80) ? OpKind::dispatch : OpKind::copy)
                                      : static_cast<OpKind>(rng.in(0, 5));
        op.full_barrier = rng.chance(4);
        const uint32_t n = rng.in(1, 4);
        for (uint32_t k = 0; k < n * 3 && op.uses.size() < n; ++k) {  // a few tries per use
          const ResourceId r = rng.in(0, static_cast<uint32_t>(rec->rt.size() - 1));
          const ResourceDesc& d = rec->rt[r];
          const std::vector<Access> acc = legal_accesses(d, q);
          if (acc.empty()) continue;
          Use u;
          u.resource = r;
          u.access = rng.pick(acc);
          u.stages = random_stages(rng, u.access, q);
          u.range = u.access == Access::present ? SubresourceRange{} : random_range(rng, d, byte_ranges);
          if (!compatible(rec->rt, op.uses, u)) continue;
          op.uses.push_back(u);
          if (!used_in_group[r]) {
            used_in_group[r] = true;
            first_used_here.push_back(r);
          }
        }
        if (op.uses.empty()) continue;
        // An op kind that cannot perform one of the accesses (rule R0301) stands for work Baton does not see.
        for (const Use& u : op.uses)
          if (!(op_kind_accesses(op.kind) & bit(u.access))) op.kind = OpKind::external;
        list->append_operation(std::move(op));
      }
      // Occasionally declare the state a resource is in when the group starts (only its first user
      // in the group may).
      for (ResourceId r : first_used_here) {
        if (!rng.chance(12)) continue;
        const std::vector<Access> acc = legal_accesses(rec->rt[r], q);
        const Access a = rng.pick(acc);
        list->declare_entry(r, a, random_stages(rng, a, q));
      }
      list->close();
      group->add(*list);
      rec->lists.push_back(std::move(list));
    }
    rec->groups.push_back(std::move(group));
  }
  return rec;
}

}  // namespace baton::test
