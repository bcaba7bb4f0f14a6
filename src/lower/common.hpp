// What every backend of the lowering shares: where a barrier sits (for error messages), the
// neutral queue-legality rules, and the skeleton of the API-independent view.
#pragma once

#include <algorithm>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "baton/lower.hpp"

namespace baton::lower_detail {

// The place of one barrier, so every error names group, list, op and resource.
struct Site {
  const ResourceTable& resources;
  const CompiledGroup& group;
  const CompiledList& list;
  const BarrierPoint& point;
};
std::string resource_name(const ResourceTable& t, ResourceId id);
// "group 'g' list 'l' op 3: resource 'r' <what>"
[[noreturn]] void fail(const Site& site, ResourceId resource, std::string_view what);

// Which side of a barrier describes work outside this list (another group, possibly another queue,
// ordered by ExecuteCommandLists or a fence/semaphore rather than by this barrier). Only those sides
// may name stages this list's queue cannot run; they are clamped to the queue. Every before side
// qualifies (a list never ran stages its queue cannot run); after sides by reason.
bool before_is_outside(Reason r);
bool after_is_outside(Reason r);

// The neutral sync bits a queue can run (direct: all of them).
SyncMask queue_sync(Queue q);
// Whether a state holding this access can appear in a barrier on a list of this queue.
bool queue_can_hold(Queue q, Access a);

// Checks both sides of a barrier against the list's queue and returns them with the outside sides'
// sync clamped to the queue (an empty result becomes sync::all). Throws Error naming the site:
// "... access render_target is not allowed on a compute list".
struct SidePair {
  State before, after;
};
SidePair check_queue(const Site& site, const Barrier& b);

bool is_first_touch(const State& s);
bool is_texture(const ResourceTable& t, ResourceId id);
std::string range_text(const ResourceTable& t, const Barrier& b);

// The view skeleton: one LoweredGroup/List/Point per neutral group/list/point, no barriers yet.
std::vector<LoweredGroup> view_skeleton(std::span<const CompiledGroup> groups);

// Joins the names of the set bits of a mask, "A|B"; `none` when no bit is set.
struct FlagName {
  uint64_t bit;
  std::string_view name;
};
std::string join_flags(uint64_t mask, std::span<const FlagName> names, std::string_view prefix,
                       std::string_view none);

// Walks every barrier point of every list of every group, in order, building the API's native plan
// (PlanT.groups of GroupT{name, queue, lists} of ListT{name, queue, points} of PointT) with
// lower_one(site, barrier, point) -> LoweredBarrier, and the text view when `view` is given. Points
// that end up with no API barrier are left out of the native plan (they need no call).
// Split barriers (Barrier::split_after) of one point that begin after the same operation of the same
// list are lowered together into one point, which halves(begin_list, its index, lowered) turns into its begin
// half (placed at (split_after, after) on list split_list of the group, this list or an earlier one)
// and its end half (at the barrier's point); both come back with their half set. Native points are
// ordered by (op, where, end halves first, begin halves last).
template <class PointT>
bool point_order(const PointT& a, const PointT& b) {
  auto rank = [](SplitHalf h) { return h == SplitHalf::end ? 0 : h == SplitHalf::none ? 1 : 2; };
  if (a.op != b.op) return a.op < b.op;
  if (a.where != b.where) return a.where < b.where;
  return rank(a.half) < rank(b.half);
}
// Whether a barrier's split can be lowered here: it begins on this list or an earlier one, before it.
inline bool lowers_split(const Barrier& b, size_t list, const BarrierPoint& p) {
  return b.split() && p.where == Where::before && b.split_list <= list &&
         (b.split_list < list || b.split_after < p.op);
}
template <class PlanT, class GroupT, class ListT, class PointT, class LowerOne, class Halves>
PlanT walk_groups(const ResourceTable& resources, std::span<const CompiledGroup> groups,
                  std::vector<LoweredGroup>* view, LowerOne&& lower_one, Halves&& halves) {
  PlanT plan;
  if (view) *view = view_skeleton(groups);
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const CompiledGroup& g = groups[gi];
    GroupT& ng = plan.groups.emplace_back(GroupT{g.name, g.queue, {}});
    ng.lists.reserve(g.lists.size());
    bool any_split = false;
    for (size_t li = 0; li < g.lists.size(); ++li) {
      const CompiledList& l = g.lists[li];
      ng.lists.emplace_back(ListT{l.name, l.queue, {}});
      for (size_t pi = 0; pi < l.points.size(); ++pi) {
        const BarrierPoint& p = l.points[pi];
        const Site site{resources, g, l, p};
        PointT np;
        np.op = p.op;
        np.where = p.where;
        // By (begin list, begin op), in first-seen order.
        std::vector<std::pair<std::pair<uint32_t, uint32_t>, PointT>> splits;
        for (const Barrier& b : l.barriers_at(p)) {
          PointT* target = &np;
          if (lowers_split(b, li, p)) {
            const std::pair<uint32_t, uint32_t> key{b.split_list, b.split_after};
            auto it =
                std::find_if(splits.begin(), splits.end(), [&](const auto& s) { return s.first == key; });
            if (it == splits.end()) {
              splits.emplace_back(key, PointT{});
              it = splits.end() - 1;
              it->second.op = p.op;
              it->second.where = p.where;
            }
            target = &it->second;
          }
          LoweredBarrier v = lower_one(site, b, *target);
          if (target != &np) {
            v.split_after = b.split_after;
            v.split = split_reason(g, static_cast<uint32_t>(li), b, p.op);
          }
          if (view) (*view)[gi].lists[li].points[pi].barriers.push_back(std::move(v));
        }
        if (np.size() > 0) ng.lists[li].points.push_back(std::move(np));
        for (auto& [key, sp] : splits) {
          if (sp.size() == 0) continue;
          auto [begin, end] = halves(ng.lists[key.first], key.first, std::move(sp));
          begin.op = key.second;
          begin.where = Where::after;
          begin.half = SplitHalf::begin;
          end.half = SplitHalf::end;
          if (begin.size() > 0) ng.lists[key.first].points.push_back(std::move(begin));
          if (end.size() > 0) ng.lists[li].points.push_back(std::move(end));
          any_split = true;
        }
      }
    }
    if (any_split)
      for (ListT& nl : ng.lists) std::stable_sort(nl.points.begin(), nl.points.end(), point_order<PointT>);
  }
  return plan;
}
}  // namespace baton::lower_detail
