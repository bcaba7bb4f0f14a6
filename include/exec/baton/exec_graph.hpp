// Frame graphs on the Vulkan executor with their transients in real shared memory, compiled ONCE:
// the executor's objects for the graph's resources give their real memory requirements before the
// compile (memory_requirements below: from the resource descriptions, sets expanded as the compile
// expands them), runtime::set_real_sizes turns them into the aliasing phase's sizes, and the one
// compile places exactly the objects that run; the runtime then binds them at the planned offsets
// (Runtime::place). `baton run GRAPH` and tests/exec use it.
#pragma once

#include "baton/exec_vulkan.hpp"
#include "baton/graph.hpp"

namespace baton::exec {

struct GraphRun {
  Recording rec;       // the compiled graph as a recording (lists already compiled)
  History history_in;  // per resource: touched = starts at rest (non-transient)
  ExecPlan plan;       // the Vulkan barriers of the compile
  size_t transient = 0, at_rest = 0;
  uint64_t planned_heap = 0;  // the compile's heap (real sizes with shared memory, estimates without)
  // For traces of the run (trace_of_plan): the compiled groups, and with shared memory the heap and
  // every placed member's real offset and size (its memory requirement rounded to the alignment).
  std::vector<CompiledGroup> compiled;
  PlanMemory memory;
};

// The memory requirements of the objects run() creates for every member of `g`'s resources (the
// same create infos), without compiling `g`.
std::vector<VkMemoryRequirements> memory_requirements(VulkanContext& ctx, const graph::Graph& g,
                                                      const RunOptions& options = {});
// Those requirements as the compile's aliasing sizes and alignment (runtime::set_real_sizes with the
// device's bufferImageGranularity); returns them for shared_memory_of.
std::vector<VkMemoryRequirements> set_real_sizes(VulkanContext& ctx, const graph::Graph& g, const RunOptions& options,
                                                 graph::AliasingOptions& aliasing);
// After the compile: options.shared from its placement (runtime::member_placement) and
// options.waits from its schedule (runtime::group_waits), and the plan's
// memory as bound (real offsets and sizes) for traces.
PlanMemory shared_memory_of(const graph::Graph& g, const graph::GraphCompileResult& r,
                            const std::vector<VkMemoryRequirements>& req, const graph::AliasingOptions& aliasing,
                            RunOptions& options);

// Compiles `g` once for running on `ctx` with `options` (its work sizes decide the objects). With
// shared_memory, real sizes first and options.shared from the placement. Throws Error on a failed
// graph check.
GraphRun prepare_graph_run(VulkanContext& ctx, const graph::Graph& g, RunOptions& options, bool shared_memory = true,
                           const graph::CompileOptions& compile = {});

}  // namespace baton::exec
