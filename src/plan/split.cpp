// Split barriers: a barrier whose producer (the last access on the same list) and consumer have
// independent work between them begins right after the producer and ends right before the consumer,
// so the GPU can drain the producer while the work between runs (issue 17). The compiled plan keeps
// the barrier at its end point and only says where it may begin (Barrier::split_after); a consumer
// that knows nothing of splits still issues a correct whole barrier there.
#include <fmt/format.h>

#include <unordered_map>

#include "baton/plan.hpp"

namespace baton {
namespace {

bool splittable(const Barrier& b) {
  if (b.resource == kGlobalResource || b.discard) return false;
  switch (b.reason) {
    case Reason::state_change:
    case Reason::read_merge:
    case Reason::uav_order:
    case Reason::write_order:
      return true;
    default:
      return false;
  }
}

struct LastTouch {
  uint32_t op = 0;
  bool barrier_after = false;  // a barrier at op's after-point touches it: a begin there would race it
};

}  // namespace

size_t mark_split_barriers(const CommandListGroup& group, CompiledGroup& compiled) {
  size_t marked = 0;
  for (size_t li = 0; li < compiled.lists.size() && li < group.lists().size(); ++li) {
    const std::vector<Operation>& ops = group.lists()[li]->ops();
    CompiledList& cl = compiled.lists[li];
    std::unordered_map<ResourceId, LastTouch> last;
    size_t pi = 0;
    // Operations with work after each op, counted from the front: work[k] - work[j + 1] = ops of work
    // in (j, k).
    std::vector<uint32_t> work(ops.size() + 1, 0);
    for (size_t k = 0; k < ops.size(); ++k) work[k + 1] = work[k] + (ops[k].kind != OpKind::transition ? 1 : 0);
    for (uint32_t k = 0; k < ops.size(); ++k) {
      if (pi < cl.points.size() && cl.points[pi].op == k && cl.points[pi].where == Where::before) {
        const BarrierPoint& p = cl.points[pi];
        for (uint32_t i = p.first; i < p.first + p.count; ++i) {
          Barrier& b = cl.barriers[i];
          if (!splittable(b)) continue;
          const auto it = last.find(b.resource);
          if (it == last.end() || it->second.barrier_after) continue;
          const uint32_t j = it->second.op;
          if (j + 1 >= k || work[k] - work[j + 1] == 0) continue;
          b.split_after = j;
          ++marked;
        }
        for (uint32_t i = p.first; i < p.first + p.count; ++i)
          if (cl.barriers[i].resource != kGlobalResource) last[cl.barriers[i].resource] = LastTouch{k, false};
        ++pi;
      }
      for (const Use& u : ops[k].uses) last[u.resource] = LastTouch{k, false};
      if (pi < cl.points.size() && cl.points[pi].op == k && cl.points[pi].where == Where::after) {
        const BarrierPoint& p = cl.points[pi];
        for (uint32_t i = p.first; i < p.first + p.count; ++i)
          if (cl.barriers[i].resource != kGlobalResource) last[cl.barriers[i].resource] = LastTouch{k, true};
        ++pi;
      }
    }
  }
  return marked;
}

size_t mark_split_barriers(std::span<CommandListGroup* const> groups, std::span<CompiledGroup> compiled) {
  size_t marked = 0;
  for (size_t g = 0; g < groups.size() && g < compiled.size(); ++g) marked += mark_split_barriers(*groups[g], compiled[g]);
  return marked;
}

std::string split_reason(const Barrier& b, uint32_t end_op) {
  if (!b.split()) return {};
  const uint32_t first = b.split_after + 1, last = end_op - 1;
  return first == last ? fmt::format("split: begins after op {}, op {} between does not touch it", b.split_after, first)
                       : fmt::format("split: begins after op {}, ops {}..{} between do not touch it", b.split_after,
                                     first, last);
}

}  // namespace baton
