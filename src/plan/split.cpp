// Split barriers: a barrier whose producer (the last access on the same list) and consumer have
// independent work between them begins right after the producer and ends right before the consumer,
// so the GPU can drain the producer while the work between runs (issue 17). The compiled plan keeps
// the barrier at its end point and only says where it may begin (Barrier::split_after); a consumer
// that knows nothing of splits still issues a correct whole barrier there.
#include <fmt/format.h>

#include <algorithm>
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
    case Reason::hand_off:
      return true;
    default:
      return false;
  }
}

struct LastTouch {
  uint32_t list = 0, op = 0;
  bool barrier_after = false;  // a barrier at op's after-point touches it: a begin there would race it
};

}  // namespace

size_t mark_split_barriers(const CommandListGroup& group, CompiledGroup& compiled) {
  size_t marked = 0;
  const size_t lists = std::min(compiled.lists.size(), group.lists().size());
  // Operations of work counted over the group in submission order: the work between (l', j) and (l, k)
  // is work[base[l] + k] - work[base[l'] + j + 1].
  std::vector<uint32_t> base(lists + 1, 0);
  for (size_t li = 0; li < lists; ++li)
    base[li + 1] = base[li] + static_cast<uint32_t>(group.lists()[li]->ops().size());
  std::vector<uint32_t> work(base[lists] + 1, 0);
  for (size_t li = 0; li < lists; ++li) {
    const std::span<const Operation> ops = group.lists()[li]->ops();
    for (size_t k = 0; k < ops.size(); ++k)
      work[base[li] + k + 1] = work[base[li] + k] + (ops[k].kind != OpKind::transition ? 1 : 0);
  }
  std::unordered_map<ResourceId, LastTouch> last;
  for (uint32_t li = 0; li < lists; ++li) {
    const std::span<const Operation> ops = group.lists()[li]->ops();
    const CompiledList& cl = compiled.lists[li];
    const std::span<Barrier> marks = compiled.barriers_of(li);  // cl.barriers, writable
    size_t pi = 0;
    for (uint32_t k = 0; k < ops.size(); ++k) {
      if (pi < cl.points.size() && cl.points[pi].op == k && cl.points[pi].where == Where::before) {
        const BarrierPoint& p = cl.points[pi];
        for (uint32_t i = p.first; i < p.first + p.count; ++i) {
          Barrier& b = marks[i];
          if (!splittable(b)) continue;
          const auto it = last.find(b.resource);
          if (it == last.end() || it->second.barrier_after) continue;
          const LastTouch t = it->second;
          if (work[base[li] + k] - work[base[t.list] + t.op + 1] == 0) continue;
          b.split_after = t.op;
          b.split_list = t.list;
          ++marked;
        }
        for (uint32_t i = p.first; i < p.first + p.count; ++i)
          if (cl.barriers[i].resource != kGlobalResource)
            last[cl.barriers[i].resource] = LastTouch{li, k, false};
        ++pi;
      }
      for (const Use& u : ops[k].uses) last[u.resource] = LastTouch{li, k, false};
      if (pi < cl.points.size() && cl.points[pi].op == k && cl.points[pi].where == Where::after) {
        const BarrierPoint& p = cl.points[pi];
        for (uint32_t i = p.first; i < p.first + p.count; ++i)
          if (cl.barriers[i].resource != kGlobalResource)
            last[cl.barriers[i].resource] = LastTouch{li, k, true};
        ++pi;
      }
    }
  }
  return marked;
}

size_t mark_split_barriers(std::span<CommandListGroup* const> groups, std::span<CompiledGroup> compiled) {
  size_t marked = 0;
  for (size_t g = 0; g < groups.size() && g < compiled.size(); ++g)
    marked += mark_split_barriers(*groups[g], compiled[g]);
  return marked;
}

std::string split_reason(const CompiledGroup& group, uint32_t end_list, const Barrier& b, uint32_t end_op) {
  if (!b.split()) return {};
  if (b.split_list != end_list) {
    const std::string name = b.split_list < group.lists.size() ? group.lists[b.split_list].name : "?";
    return fmt::format("split: begins after op {} of list '{}', the work between does not touch it",
                       b.split_after, name);
  }
  const uint32_t first = b.split_after + 1, last = end_op - 1;
  return first == last
             ? fmt::format("split: begins after op {}, op {} between does not touch it", b.split_after, first)
             : fmt::format("split: begins after op {}, ops {}..{} between do not touch it", b.split_after,
                           first, last);
}

}  // namespace baton
