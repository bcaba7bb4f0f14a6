// What every backend of the lowering shares: where a barrier sits (for error messages), the
// neutral queue-legality rules, and the skeleton of the API-independent view.
#pragma once

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
// may name stages this list's queue cannot run; they are clamped to the queue.
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

}  // namespace baton::lower_detail
