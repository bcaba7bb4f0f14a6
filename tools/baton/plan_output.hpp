// Printing lowered plans: the text form people read and the JSON form tools read. Both are pure
// functions of the recording and the lowered groups, so the same input gives the same bytes.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string>

#include "baton/frame.hpp"
#include "baton/lower.hpp"
#include "baton/recording.hpp"

namespace baton::cli {

struct Summary {
  size_t barriers = 0;  // API barriers issued
  size_t calls = 0;     // API barrier calls (one per barrier point that issues anything)
  size_t omitted = 0;   // neutral barriers the API does not need (shown, not issued)
};
Summary summarize(std::span<const LoweredGroup> groups);

// Per group, per list, per barrier point: a header line, then one line per barrier
// `resource[range] before -> after (reason)`.
std::string plan_text(const Recording& rec, Api api, std::span<const LoweredGroup> groups);
// A compiled frame's plan (`groups` is its one lowering for `api`): a recording's as above, a graph's
// per group and pass with its waits, aliasing barriers and numbers (src/graph/plan_print.cpp).
std::string plan_text(const CompiledFrame& f, Api api, std::span<const LoweredGroup> groups);
// One JSON shape for both inputs (docs/cli.md, "JSON"): {"api", "input", "groups":[...], "lists":[{"name",
// "group", "queue", "points":[{"op","kind","where","call","barriers":[...]}]}], "summary"}, and for graphs
// "culled", per group "waits"/"wait_groups"/"signal", per list "pass"/"aliasing", and "numbers".
nlohmann::ordered_json plan_json(const CompiledFrame& f, Api api, std::span<const LoweredGroup> groups);

// Plans, compiles and lowers a recording for one API (the recording's lists end up Compiled,
// so call compile_recording once and lower_recording per API). `split_barriers`: --split-barriers on.
std::vector<CompiledGroup> compile_recording(Recording& rec, bool split_barriers = false);
std::vector<LoweredGroup> lower_recording(const Recording& rec, Api api,
                                          std::span<const CompiledGroup> groups);

}  // namespace baton::cli
