// Frame graphs on the executor with real shared memory (include/exec/baton/exec_graph.hpp).
#include "baton/exec_graph.hpp"
#include "baton/graph_recording.hpp"
#include "baton/runtime.hpp"
#include "context_impl.hpp"

namespace baton::exec {

GraphRun prepare_graph_run(VulkanContext& ctx, const graph::Graph& g, RunOptions& options, bool shared_memory,
                           const graph::CompileOptions& compile) {
  graph::CompileOptions co = compile;
  graph::GraphCompileResult first = graph::compile_graph(g, co);
  if (!first.findings.empty()) throw Error("graph check failed: " + first.findings.front());
  GraphRun run;
  run.estimated_heap = first.aliasing.heap_size;
  if (shared_memory) {
    // The objects the executor creates for this graph's resources, and what they really need.
    const Recording probe = graph::recording_from(std::move(first.trans));
    const std::vector<VkMemoryRequirements> req = memory_requirements(ctx, probe, options);
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(ctx.physical_device(), &props);
    runtime::set_real_sizes(g, req, props.limits.bufferImageGranularity, co.aliasing);
    graph::GraphCompileResult second = graph::compile_graph(g, co);
    if (!second.findings.empty()) throw Error("graph check failed: " + second.findings.front());
    const runtime::MemberPlacement mp = runtime::member_placement(g, second, req, co.aliasing);
    RunOptions::SharedMemory shared;
    shared.offset = mp.offset;
    shared.taken_over = mp.taken_over;
    shared.heap_size = mp.heap_size;
    options.shared = std::move(shared);
    // The plan's memory as bound: real offsets (member_placement) and sizes rounded as it rounds them.
    const uint64_t align = std::max<uint64_t>(co.aliasing.alignment, 1);
    std::vector<uint64_t> member_bytes(req.size(), 0);
    for (size_t m = 0; m < req.size(); ++m) member_bytes[m] = (req[m].size + align - 1) / align * align;
    run.memory = graph::plan_memory(g, second.aliasing, member_bytes);
    for (size_t m = 0; m < run.memory.placement.size(); ++m)
      if (run.memory.placement[m]) run.memory.placement[m]->offset = mp.offset[m];
    first = std::move(second);
  } else {
    options.shared.reset();
  }
  run.plan = to_exec_plan(lower_vulkan(first.trans.table, first.trans.compiled));
  run.history_in = first.trans.history_in;
  run.compiled = first.trans.compiled;
  for (const ResourceHistory& h : run.history_in) (h.touched ? run.at_rest : run.transient) += 1;
  run.rec = graph::recording_from(std::move(first.trans));
  return run;
}

}  // namespace baton::exec
