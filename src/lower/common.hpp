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
// Split barriers (Barrier::split_after) of one point that begin after the same operation are lowered
// together into one point, which halves(list, lowered) turns into its begin half (placed at
// (split_after, after)) and its end half (at the barrier's point); both come back with their half set.
// Native points are ordered by (op, where, end halves first, begin halves last).
template <class PointT>
bool point_order(const PointT& a, const PointT& b) {
  auto rank = [](SplitHalf h) { return h == SplitHalf::end ? 0 : h == SplitHalf::none ? 1 : 2; };
  if (a.op != b.op) return a.op < b.op;
  if (a.where != b.where) return a.where < b.where;
  return rank(a.half) < rank(b.half);
}
template <class PlanT, class GroupT, class ListT, class PointT, class LowerOne, class Halves>
PlanT walk_groups(const ResourceTable& resources, std::span<const CompiledGroup> groups,
                  std::vector<LoweredGroup>* view, LowerOne&& lower_one, Halves&& halves) {
  PlanT plan;
  if (view) *view = view_skeleton(groups);
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const CompiledGroup& g = groups[gi];
    GroupT& ng = plan.groups.emplace_back(GroupT{g.name, g.queue, {}});
    for (size_t li = 0; li < g.lists.size(); ++li) {
      const CompiledList& l = g.lists[li];
      ListT& nl = ng.lists.emplace_back(ListT{l.name, l.queue, {}});
      bool any_split = false;
      for (size_t pi = 0; pi < l.points.size(); ++pi) {
        const BarrierPoint& p = l.points[pi];
        const Site site{resources, g, l, p};
        PointT np;
        np.op = p.op;
        np.where = p.where;
        std::vector<std::pair<uint32_t, PointT>> splits;  // by begin op, in first-seen order
        for (const Barrier& b : l.barriers_at(p)) {
          PointT* target = &np;
          if (b.split() && p.where == Where::before && b.split_after < p.op) {
            auto it = std::find_if(splits.begin(), splits.end(), [&](const auto& s) { return s.first == b.split_after; });
            if (it == splits.end()) {
              splits.emplace_back(b.split_after, PointT{});
              it = splits.end() - 1;
              it->second.op = p.op;
              it->second.where = p.where;
            }
            target = &it->second;
          }
          LoweredBarrier v = lower_one(site, b, *target);
          if (target != &np) {
            v.split_after = b.split_after;
            v.split = split_reason(b, p.op);
          }
          if (view) (*view)[gi].lists[li].points[pi].barriers.push_back(std::move(v));
        }
        if (np.size() > 0) nl.points.push_back(std::move(np));
        for (auto& [begin_op, sp] : splits) {
          if (sp.size() == 0) continue;
          auto [begin, end] = halves(nl, std::move(sp));
          begin.op = begin_op;
          begin.where = Where::after;
          begin.half = SplitHalf::begin;
          end.half = SplitHalf::end;
          if (begin.size() > 0) nl.points.push_back(std::move(begin));
          if (end.size() > 0) nl.points.push_back(std::move(end));
          any_split = true;
        }
      }
      if (any_split) std::stable_sort(nl.points.begin(), nl.points.end(), point_order<PointT>);
    }
  }
  return plan;
}
}  // namespace baton::lower_detail
