// A compiled frame as one value for people to look at: passes on queue lanes in submission order,
// the waits between queues, every resource, the barriers of all three APIs' lowerings (each with
// its reason and the rule behind it) and, for frame graphs, the transient heap. `baton view` turns
// it into a self-contained HTML page and `baton compile --dot` into Graphviz; both are pure
// functions of the frame, so the same input gives the same bytes.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "baton/lower.hpp"
#include "baton/plan.hpp"
#include "baton/record.hpp"

namespace baton {
struct CompiledFrame;  // include/baton/frame.hpp
}  // namespace baton

namespace baton::view {

// A pass is what occupies one slot of a queue lane: a pass of a frame graph, a command list of a
// recording. Its operations divide the box, and barrier points sit on their boundaries.
struct Pass {
  std::string name, group;
  Queue queue = Queue::direct;
  uint32_t slot = 0;  // position in submission (serial) order, 0-based, unique
  uint32_t ops = 1;
};

struct ResourceInfo {
  std::string name;
  bool buffer = false;
  bool transient = false;  // graphs: memory owned by the frame (aliasing candidate)
};

// What a pass does with a resource, over all its operations.
struct Use {
  uint32_t pass = 0, resource = 0;
  bool write = false;
};

// A cross-queue dependency kept by the schedule: `wait` waits for `signal`.
struct Wait {
  uint32_t signal = 0, wait = 0;  // passes
};

struct Barrier {
  uint32_t pass = 0, op = 0;
  Where where = Where::before;
  uint32_t resource = 0;
  std::string range, before, after;
  Reason reason = Reason::state_change;
  std::string note;      // API detail (discard flag, UAV barrier, ...)
  bool omitted = false;  // the API does this for free; shown, not issued
  std::string omitted_why;
};

// One API's lowering. A frame that one API cannot express (e.g. a state a compute queue cannot
// hold there) keeps the message instead of barriers, so the other two can still be looked at.
struct Lowering {
  Api api = Api::d3d12;
  bool lowered = false;  // build_frame was asked for this API (the others are not computed)
  std::string error;
  std::vector<Barrier> barriers;  // in submission order
  size_t issued = 0, calls = 0;
};

// Graphs: where each transient resource lives in the heap, and for how long (slots, inclusive).
struct Block {
  std::string name;
  uint64_t offset = 0, size = 0;
  uint32_t first = 0, last = 0;
};
struct AliasMark {
  uint32_t pass = 0;
  std::string resource;
  std::vector<std::string> previous;
};
struct Memory {
  std::vector<Block> blocks;
  std::vector<AliasMark> aliasing;
  uint64_t heap_size = 0, unaliased = 0, lower_bound = 0;
};

// A measured GPU time of one operation (`baton run --timestamps`), in microseconds from the frame's
// first timestamp.
struct OpTime {
  uint32_t pass = 0, op = 0;
  double begin_us = 0, end_us = 0;
};

struct Frame {
  std::string source;
  bool graph = false;
  std::vector<Pass> passes;  // in slot order
  std::vector<ResourceInfo> resources;
  std::vector<Use> uses;  // by pass, then first use
  std::vector<Wait> waits;
  std::array<Lowering, 3> lowerings;  // d3d12, d3d12_legacy, vulkan (the order of Api)
  Memory memory;
  std::vector<std::string> culled;    // graphs: "pass: why"
  std::vector<std::string> findings;  // graphs: failed checks
  // Measured times (attach_times): empty = none, the page's x axis is submission order; otherwise one
  // per operation of every pass, and the page draws the frame at these times.
  std::vector<OpTime> times;
  std::string times_source;

  const Lowering& lowering(Api a) const { return lowerings[static_cast<size_t>(a)]; }
};

// Parses and compiles a recording (docs/recording-format.md) or a frame graph
// (docs/graph-format.md) and lowers it for each API of `apis` (by default all three; the others keep
// `lowered` false and no barriers). Throws Error with one line, prefixed with `source` when the
// message does not already name it. `on_stage` (optional) is called as each of 1 + apis.size()
// stages starts ("compile", then "lower <api>" per API), for progress on big frames.
// `split_barriers`: compile with split barriers (mark_split_barriers); a split barrier's note says so.
inline constexpr std::array<Api, 3> kAllApis = {Api::d3d12, Api::d3d12_legacy, Api::vulkan};
inline constexpr size_t kBuildStages = 1 + kAllApis.size();
using StageFn = std::function<void(std::string_view stage)>;
Frame build_frame(std::string_view json_text, std::string_view source, const StageFn& on_stage = {},
                  std::span<const Api> apis = kAllApis, bool split_barriers = false);
// The same from a compiled frame (include/baton/frame.hpp) that the caller compiled: no compile
// here, one lowering per API of `apis`; `on_stage` sees the "lower <api>" stages only.
Frame build_frame(const CompiledFrame& f, const StageFn& on_stage = {}, std::span<const Api> apis = kAllApis);

// Reads the trace-event JSON `baton run --timestamps` writes (Chrome / Perfetto format: complete
// events "ph": "X" named "PASS/OP" with "ts" and "dur" in microseconds; metadata events "M" are
// skipped) and attaches one time per operation of every pass. Throws Error naming `source` and the
// JSON pointer of the event: another event kind, a pass the frame does not have, an operation past
// the pass's last, a queue that is not the pass's, a time twice, negative or missing times; and a
// pass or operation of the frame that has no time.
void attach_times(Frame& f, std::string_view trace_json, const std::string& source);

// The frame as trace-event JSON (Chrome / Perfetto), for a standard timeline viewer: one complete
// event per operation on its queue's track (at the measured times when the frame has them, else at
// 1,000 us per submission slot, marked "synthetic"), and one instant event per barrier of `api`'s
// lowering at its barrier point, with resource, range, states, reason and whether it was omitted.
std::string trace_events(const Frame& f, Api api);

// The rule behind a barrier's reason, in one sentence for the reader (tooltips, the legend, dot).
std::string_view rule_of(Reason r);

// The frame as the JSON the page embeds ("format": "baton-frame").
nlohmann::ordered_json frame_json(const Frame& f, Api initial);
// One self-contained HTML page (no network at view time) that shows the frame, `initial` selected.
std::string render_html(const Frame& f, Api initial);
// Graphviz (dot) of one API's lowering: queue clusters with passes in order, waits, resources, and
// one node per barrier between the resource and the pass it precedes or follows.
std::string render_dot(const Frame& f, Api api);

}  // namespace baton::view
