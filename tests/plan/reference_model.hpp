// A brute-force reference model of barrier correctness, used to judge the group compiler's output.
//
// It shares nothing with the compiler but the vocabulary (Access, State, sync bits, layout_of,
// resting_state): flat per-subresource arrays, every use and every barrier replayed one subresource at
// a time. Per subresource it keeps the current layout (textures) and the accesses not yet ordered
// before later work, each with the stages and accesses it has been ordered for by barriers so far.
// Groups run in submission order; a submission boundary is not a memory barrier, but a group may
// only rely on what the resting (or declared entry) state says about a resource, so at the start of
// each group the model checks that the real pending accesses are described by that state and then
// forgets them in favour of it.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "baton/plan.hpp"

namespace baton::test {

// One barrier of a compiled recording: group, list, index into CompiledList::barriers.
struct BarrierRef {
  size_t group = 0, list = 0, index = 0;
  friend bool operator==(const BarrierRef&, const BarrierRef&) = default;
};

struct ModelOptions {
  std::optional<BarrierRef> skip;  // replay as if this one barrier had been deleted (mutation test)
  size_t max_violations = 8;       // stop after this many findings
  bool ignore_full_barriers = false;  // replay as if no global (full) barrier had been emitted
  // The history the plan was compiled from, for its takeover scopes and dying resources (empty: fresh).
  // A resource taking over memory starts with the previous occupants' accesses pending (so its first
  // barrier must wait for them, and SyncBefore NONE on it is a violation); one that dies need not
  // end at rest.
  History history;
};

// Replays the groups (in submission order, starting from resources never touched) with the barriers
// of `plans` (one CompiledGroup per group) and returns one line per violation, naming group, list,
// op, resource and subresource. Empty means: every use found its layout, nothing was accessed across
// a missing barrier, every texture ended each group at rest or in the entry state the next group
// declared, and SyncBefore NONE appeared only on first touches.
std::vector<std::string> check_plan(const ResourceTable& resources, std::span<const CommandListGroup* const> groups,
                                    std::span<const CompiledGroup> plans, const ModelOptions& options = {});

}  // namespace baton::test
