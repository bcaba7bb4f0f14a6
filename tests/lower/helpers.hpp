// Hand-built compiled groups for the lowering tests (the lowering consumes the compiler's output;
// building it by hand keeps these tests about the tables and the API rules only).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "baton/plan.hpp"

namespace baton::test {

// The state one use puts a resource in (textures get the access's layout, buffers none).
inline State use(const ResourceDesc& d, Access a, Stages s = kNoStages) {
  return State{sync_of(a, s), bit(a), d.type == ResourceType::texture ? layout_of(a) : Layout::none};
}

inline Barrier barrier(const ResourceTable& t, ResourceId r, State before, State after, Reason reason,
                       bool discard = false) {
  return Barrier{r, full_box(t[r]), before, after, reason, discard};
}

inline Barrier global_barrier() {
  const State any{sync::all, kAnyAccess, Layout::none};
  return Barrier{kGlobalResource, Box{}, any, any, Reason::full_barrier, false};
}

struct PointSpec {
  uint32_t op = 0;
  Where where = Where::before;
  std::vector<Barrier> barriers;
};

// A hand-written list, before group() puts its barriers and points into the group's arrays.
struct ListSpec {
  std::string name;
  Queue queue = Queue::direct;
  std::vector<Barrier> barriers;
  std::vector<BarrierPoint> points;
};

inline ListSpec list(std::string name, Queue q, std::vector<PointSpec> points) {
  ListSpec l;
  l.name = std::move(name);
  l.queue = q;
  for (PointSpec& p : points) {
    BarrierPoint bp;
    bp.op = p.op;
    bp.where = p.where;
    bp.first = static_cast<uint32_t>(l.barriers.size());
    bp.count = static_cast<uint32_t>(p.barriers.size());
    for (Barrier& b : p.barriers) l.barriers.push_back(b);
    l.points.push_back(bp);
  }
  return l;
}

inline CompiledGroup group(std::string name, Queue q, std::vector<ListSpec> lists) {
  CompiledGroup g;
  g.name = std::move(name);
  g.queue = q;
  for (ListSpec& l : lists) g.add_list(std::move(l.name), l.queue, l.barriers, l.points);
  return g;
}

// One group, one list, one point.
inline CompiledGroup single_group(Queue q, std::vector<Barrier> barriers, uint32_t op = 0) {
  return group("g", q, {list("l", q, {PointSpec{op, Where::before, std::move(barriers)}})});
}
inline std::vector<CompiledGroup> single(Queue q, std::vector<Barrier> barriers, uint32_t op = 0) {
  std::vector<CompiledGroup> gs;
  gs.push_back(group("g", q, {list("l", q, {PointSpec{op, Where::before, std::move(barriers)}})}));
  return gs;
}

inline ResourceDesc texture(std::string name, AccessMask usage, FormatClass f = FormatClass::color) {
  ResourceDesc d;
  d.name = std::move(name);
  d.type = ResourceType::texture;
  d.width = d.height = 64;
  d.format = f;
  d.usage = usage;
  return d;
}

inline ResourceDesc buffer(std::string name) {
  ResourceDesc d;
  d.name = std::move(name);
  d.type = ResourceType::buffer;
  d.size = 1024;
  return d;
}

}  // namespace baton::test
