// Frame graphs on the executor with real shared memory, compiled once (include/exec/baton/exec_graph.hpp).
#include "baton/exec_graph.hpp"
#include "baton/graph_recording.hpp"
#include "baton/runtime.hpp"
#include "context_impl.hpp"
#include "gpu_resources.hpp"

namespace baton::exec {

std::vector<VkMemoryRequirements> memory_requirements(VulkanContext& ctx, const graph::Graph& g,
                                                      const RunOptions& options) {
  std::vector<ResourceDesc> members;
  for (const graph::Resource& r : g.resources)
    for (uint32_t m = 0; m < r.count; ++m) members.push_back(r.desc);
  // Whether a buffer is structural (index / indirect arguments) changes neither its create info nor
  // its requirements, only whether it is placed (RunOptions::shared): none marked here.
  return requirements_of(ctx.impl(), make_geometry(members, {}, options.max_side, options.max_words),
                         options.sharing != RunOptions::Sharing::concurrent);
}

std::vector<VkMemoryRequirements> set_real_sizes(VulkanContext& ctx, const graph::Graph& g, const RunOptions& options,
                                                 graph::AliasingOptions& aliasing) {
  std::vector<VkMemoryRequirements> req = memory_requirements(ctx, g, options);
  runtime::set_real_sizes(g, req, ctx.impl().properties.limits.bufferImageGranularity, aliasing);
  return req;
}

PlanMemory shared_memory_of(const graph::Graph& g, const graph::GraphCompileResult& r,
                            const std::vector<VkMemoryRequirements>& req, const graph::AliasingOptions& aliasing,
                            RunOptions& options) {
  options.waits = runtime::group_waits(g, r);  // the schedule's waits, as an engine's frame has them
  const runtime::MemberPlacement mp = runtime::member_placement(g, r, req, aliasing);
  RunOptions::SharedMemory shared;
  shared.offset = mp.offset;
  shared.taken_over = mp.taken_over;
  shared.heap_size = mp.heap_size;
  options.shared = std::move(shared);
  // The plan's memory as bound: real offsets (member_placement) and sizes rounded as it rounds them.
  const uint64_t align = std::max<uint64_t>(aliasing.alignment, 1);
  std::vector<uint64_t> member_bytes(req.size(), 0);
  for (size_t m = 0; m < req.size(); ++m) member_bytes[m] = (req[m].size + align - 1) / align * align;
  PlanMemory memory = graph::plan_memory(g, r.aliasing, member_bytes);
  for (size_t m = 0; m < memory.placement.size(); ++m)
    if (memory.placement[m]) memory.placement[m]->offset = mp.offset[m];
  return memory;
}

GraphRun prepare_graph_run(VulkanContext& ctx, const graph::Graph& g, RunOptions& options, bool shared_memory,
                           const graph::CompileOptions& compile) {
  graph::CompileOptions co = compile;
  std::vector<VkMemoryRequirements> req;
  if (shared_memory) req = set_real_sizes(ctx, g, options, co.aliasing);
  graph::GraphCompileResult r = graph::compile_graph(g, co);  // the one compile
  if (!r.findings.empty()) throw Error("graph check failed: " + r.findings.front());
  GraphRun run;
  run.planned_heap = r.aliasing.heap_size;
  if (shared_memory)
    run.memory = shared_memory_of(g, r, req, co.aliasing, options);
  else
    options.shared.reset();
  options.waits = runtime::group_waits(g, r);
  run.plan = to_exec_plan(lower_vulkan(r.trans.table, r.trans.compiled));
  run.history_in = r.trans.history_in;
  run.compiled = r.trans.compiled;
  for (const ResourceHistory& h : run.history_in) (h.touched ? run.at_rest : run.transient) += 1;
  run.rec = graph::recording_from(std::move(r.trans));
  return run;
}

}  // namespace baton::exec
