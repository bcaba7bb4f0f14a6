// Frame graphs on the Vulkan executor with their transients in real shared memory: the graph is
// compiled once to learn its resources, the executor's objects give their real memory
// requirements, and the graph is compiled again with those sizes (runtime::set_real_sizes), so that
// the aliasing phase places exactly the objects that run. `baton run GRAPH` and tests/exec use it.
#pragma once

#include "baton/exec_vulkan.hpp"
#include "baton/graph.hpp"

namespace baton::exec {

struct GraphRun {
  Recording rec;       // the compiled graph as a recording (lists already compiled)
  History history_in;  // per resource: touched = starts at rest (non-transient)
  ExecPlan plan;       // the Vulkan barriers of the second compile
  size_t transient = 0, at_rest = 0;
  uint64_t estimated_heap = 0;  // the first compile's heap (size estimates)
  // For traces of the run (trace_of_plan): the compiled groups, and with shared memory the heap and
  // every placed member's real offset and size (its memory requirement rounded to the alignment).
  std::vector<CompiledGroup> compiled;
  PlanMemory memory;
};

// Compiles `g` for running on `ctx` with `options` (its work sizes decide the objects). With
// shared_memory, sets options.shared from the placement. Throws Error on a failed graph check.
GraphRun prepare_graph_run(VulkanContext& ctx, const graph::Graph& g, RunOptions& options, bool shared_memory = true,
                           const graph::CompileOptions& compile = {});

}  // namespace baton::exec
