// Seeded random recordings the Vulkan executor can run: buffers, colour, depth and depth_stencil
// textures (mips, layers), 1-3 groups (direct or compute queue) of 1-3 lists of 1-5 operations:
// dispatches, draws (render targets, depth, shader reads, storage writes, vertex/index/indirect
// buffers), copies and clears, each with distinct resources. Its own PRNG, so a seed is the same
// recording everywhere.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "baton/recording.hpp"

namespace baton::exec::test {

class Prng {
 public:
  explicit Prng(uint64_t seed) : s_(seed * 0x2545F4914F6CDD1Dull + 1) {}
  uint64_t next() {  // splitmix64
    uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint32_t in(uint32_t lo, uint32_t hi) {
    return lo + static_cast<uint32_t>(next() % (uint64_t{hi} - lo + 1));
  }
  bool chance(uint32_t percent) { return in(1, 100) <= percent; }

 private:
  uint64_t s_;
};

namespace detail {

enum class Kind { buffer, color, depth, depth_stencil };

struct Draft {
  ResourceDesc desc;
  Kind kind;
};

inline SubresourceRange one_sub(Prng& rng, const ResourceDesc& d) {
  SubresourceRange r;
  r.mip_first = rng.in(0, d.mips - 1);
  r.mip_count = 1;
  r.layer_first = rng.in(0, d.layers - 1);
  r.layer_count = 1;
  r.plane_first = 0;
  r.plane_count = 1;
  return r;
}

// Whole resource, or a random box of mips and layers (all planes); at most 2 mip x layer pairs, so
// that three uses stay within the executor's 6 bindings per kind and stage.
inline SubresourceRange some_subs(Prng& rng, const ResourceDesc& d) {
  SubresourceRange r;
  if (d.type == ResourceType::buffer) return r;
  if (d.mips * d.layers > 2) return one_sub(rng, d);
  if (rng.chance(50)) return r;
  r.mip_first = rng.in(0, d.mips - 1);
  r.mip_count = rng.in(1, d.mips - r.mip_first);
  r.layer_first = rng.in(0, d.layers - 1);
  r.layer_count = rng.in(1, d.layers - r.layer_first);
  return r;
}

}  // namespace detail

inline Recording random_exec_recording(uint64_t seed) {
  using detail::Kind;
  Prng rng(seed);
  std::vector<detail::Draft> drafts;
  const uint32_t n = rng.in(4, 8);
  for (uint32_t i = 0; i < n; ++i) {
    ResourceDesc d;
    d.name = "r" + std::to_string(i);
    const uint32_t pick = rng.in(1, 100);
    Kind k = pick <= 40   ? Kind::buffer
             : pick <= 80 ? Kind::color
             : pick <= 90 ? Kind::depth
                          : Kind::depth_stencil;
    if (k == Kind::buffer) {
      d.type = ResourceType::buffer;
      d.size = 256u << rng.in(0, 2);
    } else {
      d.type = ResourceType::texture;
      d.width = 4u << rng.in(0, 2);
      d.height = 4u << rng.in(0, 2);
      d.mips = rng.in(1, k == Kind::color ? 3 : 2);
      d.layers = k == Kind::color ? rng.in(1, 2) : 1;
      d.format = k == Kind::color   ? FormatClass::color
                 : k == Kind::depth ? FormatClass::depth
                                    : FormatClass::depth_stencil;
      d.planes = k == Kind::depth_stencil ? 2 : 1;
    }
    drafts.push_back({d, k});
  }

  Recording rec;
  std::vector<std::vector<std::vector<Operation>>> plan;  // group -> list -> ops
  std::vector<Queue> queues;
  const uint32_t groups = rng.in(1, 3);
  for (uint32_t g = 0; g < groups; ++g) {
    // Compute-queue groups touch buffers only: a texture resting in a graphics layout cannot be
    // handed to a compute list (Baton rejects it, rightly).
    const Queue q = rng.chance(15) ? Queue::compute : Queue::direct;
    queues.push_back(q);
    plan.emplace_back();
    const uint32_t lists = rng.in(1, 3);
    for (uint32_t l = 0; l < lists; ++l) {
      plan.back().emplace_back();
      const uint32_t ops = rng.in(1, 5);
      for (uint32_t o = 0; o < ops; ++o) {
        std::vector<ResourceId> order(drafts.size());
        for (ResourceId i = 0; i < order.size(); ++i) order[i] = i;
        for (size_t i = order.size(); i > 1; --i)
          std::swap(order[i - 1], order[rng.in(0, static_cast<uint32_t>(i - 1))]);
        size_t next = 0;
        auto take = [&](auto pred) -> std::optional<ResourceId> {
          for (size_t i = next; i < order.size(); ++i)
            if (pred(drafts[order[i]].kind)) {
              std::swap(order[i], order[next]);
              return order[next++];
            }
          return std::nullopt;
        };
        auto is = [q](std::initializer_list<Kind> ks) {
          return [ks, q](Kind k) {
            return (q != Queue::compute || k == Kind::buffer) &&
                   std::find(ks.begin(), ks.end(), k) != ks.end();
          };
        };
        Operation op;
        const uint32_t kind = q == Queue::compute ? rng.in(0, 2) : rng.in(0, 3);
        auto desc = [&](ResourceId r) -> const ResourceDesc& { return drafts[r].desc; };
        if (kind == 0) {  // dispatch
          op.kind = OpKind::dispatch;
          bool indirect = false;
          const uint32_t uses = rng.in(1, 3);
          for (uint32_t u = 0; u < uses; ++u) {
            auto r = take(is({Kind::buffer, Kind::color, Kind::depth, Kind::depth_stencil}));
            if (!r) break;
            const Kind k = drafts[*r].kind;
            Use use{*r, Access::shader_resource, stages(Stage::compute), detail::some_subs(rng, desc(*r))};
            if (k == Kind::buffer) {
              const uint32_t a = rng.in(0, 3);
              use.access = a == 0   ? Access::shader_resource
                           : a == 1 ? Access::unordered_access
                           : a == 2 ? Access::constant_buffer
                                    : Access::indirect_argument;
              if (use.access == Access::indirect_argument) {
                if (indirect) use.access = Access::unordered_access;
                indirect = true;
              }
            } else if (k == Kind::color) {
              use.access = rng.chance(50) ? Access::shader_resource : Access::unordered_access;
            }
            if (!is_shader_access(use.access)) use.stages = kNoStages;
            op.uses.push_back(use);
          }
        } else if (kind == 1) {  // copy (or fill)
          op.kind = OpKind::copy;
          auto dst = take(is({Kind::buffer, Kind::color, Kind::depth, Kind::depth_stencil}));
          if (!dst) continue;
          const Kind dk = drafts[*dst].kind;
          std::optional<ResourceId> src;
          if (rng.chance(80)) {
            if (dk == Kind::buffer)
              src = take(is({Kind::buffer, Kind::color, Kind::depth, Kind::depth_stencil}));
            else if (dk == Kind::color)
              src = take(is({Kind::buffer, Kind::color}));
            else
              src = take(is({dk}));
          }
          op.uses.push_back(Use{*dst, Access::copy_dest, kNoStages, detail::one_sub(rng, desc(*dst))});
          if (src)
            op.uses.push_back(Use{*src, Access::copy_source, kNoStages, detail::one_sub(rng, desc(*src))});
        } else if (kind == 2) {  // clear
          op.kind = OpKind::clear;
          auto r = take(is({Kind::buffer, Kind::color, Kind::depth, Kind::depth_stencil}));
          if (!r) continue;
          const Kind k = drafts[*r].kind;
          Use use{*r, Access::copy_dest, kNoStages, detail::one_sub(rng, desc(*r))};
          if ((k == Kind::buffer || k == Kind::color) && rng.chance(40)) {
            use.access = Access::unordered_access;
            use.stages = stages(Stage::compute);
            use.range = detail::some_subs(rng, desc(*r));
          } else if (q == Queue::direct && k == Kind::color && rng.chance(50)) {
            use.access = Access::render_target;
            use.range = detail::some_subs(rng, desc(*r));
          } else if (q == Queue::direct && k != Kind::buffer && k != Kind::color && rng.chance(60)) {
            use.access = Access::depth_write;
            use.range = SubresourceRange{};
          }
          op.uses.push_back(use);
        } else {  // draw
          op.kind = OpKind::draw;
          const uint32_t targets = rng.in(0, 2);
          for (uint32_t t = 0; t < targets; ++t)
            if (auto r = take(is({Kind::color})))
              op.uses.push_back(Use{*r, Access::render_target, kNoStages, detail::some_subs(rng, desc(*r))});
          if (rng.chance(50))
            if (auto r = take(is({Kind::depth, Kind::depth_stencil}))) {
              SubresourceRange range;
              if (rng.chance(40)) {
                range.mip_first = rng.in(0, desc(*r).mips - 1);
                range.mip_count = 1;
              }
              op.uses.push_back(
                  Use{*r, rng.chance(50) ? Access::depth_write : Access::depth_read, kNoStages, range});
            }
          const uint32_t reads = rng.in(0, 3);
          for (uint32_t s = 0; s < reads; ++s)
            if (auto r = take(is({Kind::buffer, Kind::color, Kind::depth, Kind::depth_stencil}))) {
              const Stages st = rng.chance(30)   ? stages(Stage::vertex)
                                : rng.chance(70) ? stages(Stage::pixel)
                                                 : Stage::vertex | Stage::pixel;
              const Access a = drafts[*r].kind == Kind::buffer && rng.chance(40) ? Access::constant_buffer
                                                                                 : Access::shader_resource;
              op.uses.push_back(Use{*r, a, st, detail::some_subs(rng, desc(*r))});
            }
          if (rng.chance(40))
            if (auto r = take(is({Kind::buffer, Kind::color})))
              op.uses.push_back(Use{*r, Access::unordered_access,
                                    rng.chance(75) ? stages(Stage::pixel) : stages(Stage::vertex),
                                    detail::some_subs(rng, desc(*r))});
          for (Access a : {Access::vertex_buffer, Access::index_buffer, Access::indirect_argument})
            if (rng.chance(25))
              if (auto r = take(is({Kind::buffer}))) op.uses.push_back(Use{*r, a, kNoStages, {}});
        }
        if (op.uses.empty()) continue;
        op.label = "op" + std::to_string(o);
        plan.back().back().push_back(std::move(op));
      }
    }
  }

  // Creation usage: every access the recording makes of the resource.
  for (const auto& g : plan)
    for (const auto& l : g)
      for (const Operation& op : l)
        for (const Use& u : op.uses) drafts[u.resource].desc.usage |= bit(u.access);
  for (auto& d : drafts) rec.resources.add(d.desc);
  for (uint32_t g = 0; g < plan.size(); ++g) {
    auto group = std::make_unique<CommandListGroup>("g" + std::to_string(g), queues[g]);
    for (uint32_t l = 0; l < plan[g].size(); ++l) {
      if (plan[g][l].empty()) continue;
      auto list = std::make_unique<CommandList>("g" + std::to_string(g) + "l" + std::to_string(l), queues[g]);
      for (Operation& op : plan[g][l]) list->append_operation(std::move(op));
      list->close();
      group->add(*list);
      rec.lists.push_back(std::move(list));
    }
    if (!group->lists().empty()) rec.groups.push_back(std::move(group));
  }
  return rec;
}

}  // namespace baton::exec::test
