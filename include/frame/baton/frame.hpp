// One way in, one compiled frame: the input is read and parsed once, "recording or frame graph?"
// is decided once (a graph file has "passes"), and both compile to the same value, which the
// commands (emit-trace, triage, validate --compare, compile, run) consume. A graph's compiled frame
// is its planner output: the resource table with sets expanded, one list per live pass (plus
// frame_start / frame_end transition lists) in its groups, the compiled groups, and the history the
// frame starts from (non-transient resources at rest).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "baton/graph.hpp"
#include "baton/recording.hpp"

namespace baton {

struct FrameInput {
  std::string source;  // file name for messages ("<stdin>" for -)
  std::optional<Recording> recording;
  std::optional<graph::Graph> graph;
  bool is_graph() const { return graph.has_value(); }
};
// Reads through the input gate (include/core/baton/input.hpp) and loads either format; throws Error.
FrameInput load_frame_input(const std::string& path);
FrameInput parse_frame_input(std::string_view text, std::string source);

struct CompiledFrame {
  std::string source;
  bool from_graph = false;
  Recording rec;                          // lists compiled
  History history_in;                     // fresh for recordings; graphs: non-transient at rest
  std::vector<CompiledGroup> compiled;    // one per group of rec
  std::shared_ptr<const graph::Graph> graph;  // graphs only
  // Graphs only: every phase's result (culled passes, schedule and its waits, lifetimes, aliasing,
  // the groups' GroupInfo, final states). Its trans's table, lists, groups and compiled groups were
  // moved into `rec` and `compiled` above: read them there (printers take them as arguments).
  std::shared_ptr<const graph::GraphCompileResult> graph_result;
  std::vector<std::string> findings;      // graphs: the checks' findings (empty = all hold)
  PlanMemory memory;                      // graphs: the transients' heap and placements (estimated sizes
                                          // unless the options gave real ones)
};
// Compiles either input (graphs with `options`); throws Error naming the source. `inspect` (graphs)
// sees the graph's whole result before its plan moves into the frame (`baton compile --dump`).
using InspectGraph = std::function<void(const graph::Graph&, const graph::GraphCompileResult&)>;
CompiledFrame compile_frame(FrameInput in, const graph::CompileOptions& options = {},
                            const InspectGraph& inspect = {});

// The compiled frame as a validator trace (docs/trace-format.md). For a recording the bytes equal
// trace_of_recording's; a graph's non-transient resources start in their resting state, and its
// placed transients are written with their heap and byte range (the validator checks the takeovers).
std::string trace_of(const CompiledFrame& f, Api api);

}  // namespace baton
