// A depth buffer read on two queues at once: depth-tested on the direct queue and sampled by an async
// compute pass that neither waits for nor is waited for by the graphics pass. The graph holds it in
// the shared read state (Layout::shared_read), which every API has: legacy
// DEPTH_READ|NON_PIXEL_SHADER_RESOURCE, enhanced DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE
// (only direct lists transition), Vulkan DEPTH_STENCIL_READ_ONLY_OPTIMAL. It compiles for all three,
// each trace passes Baton's validator, and it runs clean on lavapipe.
#include <baton/exec_graph.hpp>
#include <baton/lower_d3d12.hpp>
#include <baton/validated_compile.hpp>

#include "exec_fixture.hpp"

namespace baton::exec::test {
namespace {

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new LavapipeEnvironment);

graph::Graph mixed_read() {
  graph::Graph g;
  graph::Resource depth;
  depth.desc.name = "depth";
  depth.desc.width = depth.desc.height = 64;
  depth.desc.format = FormatClass::depth;
  depth.desc.usage = bit(Access::depth_write) | bit(Access::depth_read) | bit(Access::shader_resource);
  const uint32_t d = g.add_resource(depth);
  graph::Resource ao;
  ao.desc.name = "ao";
  ao.desc.width = ao.desc.height = 64;
  ao.desc.usage = bit(Access::unordered_access) | bit(Access::shader_resource);
  const uint32_t a = g.add_resource(ao);
  graph::Resource hdr;
  hdr.desc.name = "hdr";
  hdr.desc.width = hdr.desc.height = 64;
  hdr.desc.usage = bit(Access::render_target);
  const uint32_t h = g.add_resource(hdr);
  const Stages cs = stages(Stage::compute), ps = stages(Stage::pixel);
  auto pass = [&](std::string name, Queue q, bool async, std::vector<graph::PassUse> uses) {
    graph::Pass p;
    p.name = std::move(name);
    p.queue = q;
    p.async = async;
    p.uses = std::move(uses);
    g.add_pass(std::move(p));
  };
  pass("prepass", Queue::direct, false, {{d, Access::depth_write, kNoStages, {}}});
  pass("ssao", Queue::compute, true,
       {{d, Access::shader_resource, cs, {}}, {a, Access::unordered_access, cs, {}}});
  pass("shade", Queue::direct, false,
       {{d, Access::depth_read, kNoStages, {}}, {h, Access::render_target, kNoStages, {}}});
  pass("compose", Queue::direct, false,
       {{a, Access::shader_resource, ps, {}}, {h, Access::render_target, kNoStages, {}}});
  g.outputs = {h, a};
  return g;
}

TEST(MixedRead, DepthReadOnTwoQueuesCompilesForEveryApiAndValidates) {
  const graph::Graph g = mixed_read();
  const graph::GraphCompileResult r = graph::compile_graph(g);
  ASSERT_TRUE(r.findings.empty()) << graph::dump(g, r, "checks");
  // ssao and shade are not ordered against each other: the read run really is concurrent.
  EXPECT_FALSE(graph::happens_before(r.sched, g, *g.find_pass("ssao"), *g.find_pass("shade")));
  EXPECT_FALSE(graph::happens_before(r.sched, g, *g.find_pass("shade"), *g.find_pass("ssao")));
  const ResourceId depth = r.trans.first_member[*g.find_resource("depth")];
  std::vector<const CommandListGroup*> groups;
  for (CommandListGroup* gr : r.trans.groups) groups.push_back(gr);
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan})
    EXPECT_NO_THROW(validate_compiled(r.trans.table, groups, r.trans.compiled, api, r.trans.history_in))
        << to_string(api);

  // Every layout transition of depth is on a direct list; the shared state in each API's terms.
  size_t into_shared = 0;
  for (const CompiledGroup& cg : r.trans.compiled)
    for (const CompiledList& cl : cg.lists)
      for (const Barrier& b : cl.barriers)
        if (b.resource == depth && b.before.layout != b.after.layout) {
          EXPECT_EQ(cg.queue, Queue::direct) << cl.name;
          into_shared += b.after.layout == Layout::shared_read;
        }
  EXPECT_EQ(into_shared, 1u);
  size_t vk = 0;
  for (const VulkanGroup& vg : lower_vulkan(r.trans.table, r.trans.compiled).groups)
    for (const VulkanList& l : vg.lists)
      for (const VulkanPoint& p : l.points)
        for (size_t i = 0; i < p.images.size(); ++i)
          vk += p.image_resources[i] == depth &&
                p.images[i].newLayout == VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
  EXPECT_EQ(vk, 1u);
  size_t enhanced = 0;
  for (const D3D12EnhancedGroup& eg : lower_d3d12_enhanced(r.trans.table, r.trans.compiled).groups)
    for (const D3D12EnhancedList& l : eg.lists)
      for (const D3D12EnhancedPoint& p : l.points)
        for (size_t i = 0; i < p.textures.size(); ++i)
          enhanced +=
              p.texture_resources[i] == depth && static_cast<uint32_t>(p.textures[i].LayoutAfter) == 31u;
  EXPECT_EQ(enhanced, 1u);
  size_t legacy = 0;
  for (const D3D12LegacyGroup& lg : lower_d3d12_legacy(r.trans.table, r.trans.compiled).groups)
    for (const D3D12LegacyList& l : lg.lists)
      for (const D3D12LegacyPoint& p : l.points)
        for (size_t i = 0; i < p.barriers.size(); ++i)
          if (p.resources[i] == depth && p.barriers[i].Type == D3D12_RESOURCE_BARRIER_TYPE_TRANSITION)
            legacy += p.barriers[i].Transition.StateAfter ==
                      (D3D12_RESOURCE_STATE_DEPTH_READ | D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
  EXPECT_EQ(legacy, 1u);
}

TEST(MixedRead, DepthReadOnTwoQueuesRunsCleanOnLavapipe) {
  ASSERT_TRUE(run_canary(lavapipe()).live);
  RunOptions o;
  o.sync_queue_switches = true;
  const GraphRun gr = prepare_graph_run(lavapipe(), mixed_read(), o);
  const RunReport r = run(lavapipe(), gr.rec, gr.history_in, gr.plan, o);
  EXPECT_TRUE(r.clean()) << summary(r);
  EXPECT_EQ(r.validation.hazards(), 0u);
  EXPECT_GT(r.subresources_checked, 0u);
}

}  // namespace
}  // namespace baton::exec::test
