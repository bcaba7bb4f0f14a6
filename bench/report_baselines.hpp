// The two baselines the benchmark report measures Baton against, each written from scratch over
// the recording (never calling the planner, the compiler or the lowering):
//
//  - minimum: a brute-force per-subresource model of when a barrier is *required*. Per subresource
//    (flat arrays, one slot per mip x layer x plane), walking every group's lists and operations in
//    submission order, a barrier is required before an operation when
//      * a hazard needs ordering: anything after a write (RAW, WAW, UAV after UAV), or a write
//        after reads (WAR); read after read never does;
//      * a texture's layout must change: the first touch (layout undefined), or a use whose layout
//        differs from the current one. A run of consecutive read-only operations needs one layout:
//        the merged read layout of all its reads, reached by one barrier before the run;
//      * at the end of a group a touched texture is not in its resting layout (the contract every
//        group keeps, DESIGN.md invariant 4).
//    It counts required per-subresource transitions: a lower bound for any correct plan.
//
//  - naive: the tracker many renderers start with. Whole-resource state, one transition per use
//    whose layout differs (no read merging), a barrier after every operation for every resource it
//    wrote, and every resource restored to its resting layout at the end of every list (each list
//    starts from rest). Barriers before an operation, after it, and the restores at a list's end are
//    one API call each.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "baton/plan.hpp"

namespace baton::bench {

struct MinimumCount {
  uint64_t transitions = 0;  // required per-subresource transitions, restores included
  uint64_t restores = 0;     // of which: back to rest at a group's end
};
MinimumCount minimum_transitions(const ResourceTable& rt, std::span<const CommandListGroup* const> groups);

struct NaiveCount {
  uint64_t barriers = 0;  // barrier structs (one per resource per event)
  uint64_t calls = 0;     // barrier API calls
};
NaiveCount naive_tracker(const ResourceTable& rt, std::span<const CommandListGroup* const> groups);

}  // namespace baton::bench
