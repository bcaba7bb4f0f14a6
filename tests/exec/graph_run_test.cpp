// Frame graphs through the Vulkan executor (issue 4, item 5): the shipped examples compile, lower
// to sync2 and run with zero validation messages and zero data mismatches, the oracle live. The
// graph's persistent resources start at rest (history_in): without the executor's set-up that
// puts them there, the plan's first barriers name the wrong old layout, and the layer says so.
#include <cstdio>

#include "../graph/random_graph.hpp"
#include "baton/graph_recording.hpp"
#include "exec_fixture.hpp"

namespace baton::exec::test {
namespace {

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new LavapipeEnvironment);

struct GraphRun {
  Recording rec;
  History history_in;
  ExecPlan plan;
  size_t transient = 0, at_rest = 0;
};

// As `baton run` runs graphs: a switch between direct and compute groups is a queue hand-off.
RunOptions graph_options() {
  RunOptions o;
  o.sync_queue_switches = true;
  return o;
}

// A compiled graph lowered to sync2 and moved into a Recording, as `baton run` does.
GraphRun for_run(graph::GraphCompileResult&& r) {
  GraphRun run;
  run.plan = to_exec_plan(lower_vulkan(r.trans.table, r.trans.compiled));
  run.history_in = r.trans.history_in;
  for (const ResourceHistory& h : run.history_in) (h.touched ? run.at_rest : run.transient) += 1;
  run.rec = graph::recording_from(std::move(r.trans));
  return run;
}

// Runs it on lavapipe under the layer, starting from its history (persistent resources at rest).
RunReport run_on_lavapipe(const GraphRun& g) {
  check_executable(g.rec);
  return run(lavapipe(), g.rec, g.history_in, g.plan, graph_options());
}

GraphRun compile_example(const std::string& file) {
  const graph::Graph g = graph::load_graph_file(std::string(BATON_SOURCE_DIR) + "/examples/" + file);
  graph::GraphCompileResult r = graph::compile_graph(g);
  EXPECT_TRUE(r.findings.empty()) << graph::dump(g, r, "checks");
  return for_run(std::move(r));
}

void expect_clean_run(const std::string& file) {
  ASSERT_TRUE(run_canary(lavapipe()).live);
  GraphRun g = compile_example(file);
  EXPECT_GT(g.at_rest, 0u);
  EXPECT_GT(g.transient, 0u);
  const RunReport r = run_on_lavapipe(g);
  EXPECT_TRUE(r.clean()) << summary(r) << dump(g.rec);
  EXPECT_EQ(r.validation.hazards(), 0u);
  EXPECT_TRUE(r.mismatches.empty());
  EXPECT_EQ(r.groups, g.rec.groups.size());
  EXPECT_TRUE(g.rec.lists.empty());  // a frame graph's lists are in the store, one array
  EXPECT_EQ(r.ops, g.rec.store.lists.size());  // one operation per live pass
  EXPECT_EQ(r.barriers, g.plan.barrier_count());
  EXPECT_GT(r.barriers, 0u);
  EXPECT_GT(r.subresources_checked, 0u);
  std::printf(
      "%s: %u groups (%u submissions), %u ops, %u barriers in %u calls, %u hazards, %u validation messages, "
      "%zu "
      "mismatches, %u subresources checked, %u never defined; %zu resources at rest, %zu transient\n",
      file.c_str(), r.groups, r.submits, r.ops, r.barriers, r.barrier_calls, r.validation.hazards(),
      r.validation.total(), r.mismatches.size(), r.subresources_checked, r.subresources_undefined, g.at_rest,
      g.transient);
}

TEST(GraphExamples, DeferredRunsCleanAndCorrect) {
  expect_clean_run("deferred.json");
}

TEST(GraphExamples, AsyncRunsCleanAndCorrect) {
  expect_clean_run("async.json");
}

// On one VkQueue, the async example's compute groups need the queue hand-off the schedule's
// signal/wait pairs give on two queues: their barriers name compute stages only (a later pixel
// read of ssao relies on the wait). Without it the layer reports the hazard.
// Since an async compute pass hands its output on as it wrote it (transitions.cpp: the compute queue
// can express neither the reader's pixel state nor the resting state), the graphics group makes the
// transition with the compute stage in its source scope: on one queue Baton's barriers alone order
// the hand-offs, without the executor's switch waits. (Before, the compute list restored to rest
// with graphics-only stages, and only the wait hid the hazard.)
TEST(GraphExamples, AsyncIsOrderedByItsBarriersOnOneQueue) {
  GraphRun g = compile_example("async.json");
  const RunReport r = run(lavapipe(), g.rec, g.history_in, g.plan);  // sync_queue_switches off
  EXPECT_TRUE(r.clean()) << summary(r);
  EXPECT_GT(r.subresources_checked, 0u);
}

// The at-rest set-up is what makes the plan's from_rest barriers right: starting every resource
// untouched instead (the recordings' convention) must be reported by the layer.
TEST(GraphExamples, PersistentResourcesMustStartAtRest) {
  GraphRun g = compile_example("deferred.json");
  const RunReport r = run(lavapipe(), g.rec, History{}, g.plan, graph_options());
  EXPECT_GT(r.validation.total(), 0u) << "a wrong old layout went unnoticed";
}

// One barrier the plan needs, left out, must be caught (by the layer or by the data check).
TEST(GraphExamples, DroppingABarrierOfTheDeferredPlanIsCaught) {
  GraphRun g = compile_example("deferred.json");
  const std::vector<BarrierRef> refs = enumerate_barriers(g.plan);
  ASSERT_FALSE(refs.empty());
  // The first image barrier that changes layout between two real uses (not a first touch).
  std::optional<BarrierRef> pick;
  for (const BarrierRef& ref : refs) {
    if (ref.kind != BarrierRef::Kind::image) continue;
    const VkImageMemoryBarrier2& b = g.plan.points[ref.point].images[ref.index];
    if (b.oldLayout != VK_IMAGE_LAYOUT_UNDEFINED && b.oldLayout != b.newLayout && b.srcAccessMask != 0) {
      pick = ref;
      break;
    }
  }
  ASSERT_TRUE(pick.has_value());
  RunOptions o = graph_options();
  o.skip = pick;
  const RunReport r = run(lavapipe(), g.rec, g.history_in, g.plan, o);
  EXPECT_FALSE(r.clean()) << "dropped " << describe(g.plan, *pick, g.rec);
}

// Generated graphs (tests/graph/random_graph.hpp: compute passes, a third of them on the async
// compute queue, persistent and transient textures and buffers) run clean and correct. Among them
// are async compute passes that first touch, or read and hand on, a texture resting in
// shader_resource for every stage: the compute list's barriers wait only for its own stage, the
// earlier graphics work being ordered by the queue switch (lower/common.cpp, before sides).
// A buffer taking over a texture's memory and a texture taking over the buffer's (the generated graphs
// have no buffer takeover): their takeover barriers (buffer and image barriers from the previous
// occupant's stages, oldLayout UNDEFINED) run clean with correct data.
TEST(GraphTakeover, BufferAndTextureTakeoversRunCleanAndCorrect) {
  ASSERT_TRUE(run_canary(lavapipe()).live);
  graph::Graph g;
  auto resource = [&](std::string name, ResourceType type, AccessMask usage, bool transient) {
    graph::Resource r;
    r.desc.name = std::move(name);
    r.desc.type = type;
    r.desc.usage = usage;
    if (type == ResourceType::buffer)
      r.desc.size = 64 * 64 * 4;
    else
      r.desc.width = r.desc.height = 64;
    r.transient = transient;
    return g.add_resource(std::move(r));
  };
  const AccessMask rt_sampled = bit(Access::render_target) | bit(Access::shader_resource);
  const AccessMask uav_sampled = bit(Access::unordered_access) | bit(Access::shader_resource);
  const uint32_t a = resource("a", ResourceType::texture, rt_sampled, true);
  const uint32_t x = resource("x", ResourceType::buffer, uav_sampled, true);
  const uint32_t b = resource("b", ResourceType::texture, uav_sampled, true);
  const uint32_t out = resource("out", ResourceType::texture, rt_sampled, false);
  const uint32_t out_buf = resource("out_buf", ResourceType::buffer, uav_sampled, false);
  const uint32_t out2 = resource("out2", ResourceType::texture, uav_sampled, false);
  const Stages cs = stages(Stage::compute), ps = stages(Stage::pixel);
  auto pass = [&](std::string name, Queue q, std::vector<graph::PassUse> uses) {
    graph::Pass p;
    p.name = std::move(name);
    p.queue = q;
    p.uses = std::move(uses);
    g.add_pass(std::move(p));
  };
  pass("draw_a", Queue::direct, {{a, Access::render_target, kNoStages, {}}});
  pass("sample_a", Queue::direct, {{a, Access::shader_resource, ps, {}}, {out, Access::render_target, kNoStages, {}}});
  pass("write_x", Queue::compute, {{x, Access::unordered_access, cs, {}}});
  pass("read_x", Queue::compute, {{x, Access::shader_resource, cs, {}}, {out_buf, Access::unordered_access, cs, {}}});
  pass("write_b", Queue::compute, {{b, Access::unordered_access, cs, {}}});
  pass("read_b", Queue::compute, {{b, Access::shader_resource, cs, {}}, {out2, Access::unordered_access, cs, {}}});
  g.outputs = {out, out_buf, out2};
  graph::GraphCompileResult r = graph::compile_graph(g);
  ASSERT_TRUE(r.findings.empty()) << graph::dump(g, r, "checks");
  size_t buffers = 0, textures = 0;
  for (const graph::AliasBarrier& ab : r.aliasing.barriers)
    (g.resources[ab.resource].desc.type == ResourceType::buffer ? buffers : textures) += 1;
  EXPECT_EQ(buffers, 1u);
  EXPECT_EQ(textures, 1u);
  GraphRun run = for_run(std::move(r));
  const RunReport rep = run_on_lavapipe(run);
  EXPECT_TRUE(rep.clean()) << summary(rep) << dump(run.rec);
  EXPECT_EQ(rep.barriers, run.plan.barrier_count());
  EXPECT_GT(rep.subresources_checked, 0u);
}

TEST(GraphGenerated, SixteenSeedsRunCleanAndCorrect) {
  ASSERT_TRUE(run_canary(lavapipe()).live);
  size_t ran = 0, async_first = 0, buffer_takeovers = 0, texture_takeovers = 0;
  for (uint64_t seed = 1; seed <= 16; ++seed) {
    const graph::Graph g = graph::test::random_graph(seed, 10 + static_cast<uint32_t>(seed * 5));
    graph::GraphCompileResult r;
    try {
      r = graph::compile_graph(g);
    } catch (const Error& e) {
      ADD_FAILURE() << "seed " << seed << ": " << e.what();
      continue;
    }
    ASSERT_TRUE(r.findings.empty()) << "seed " << seed;
    // Whether a compute-queue group is the first to touch a persistent texture of the frame.
    std::vector<uint8_t> seen(g.resources.size(), 0);
    for (uint32_t p : r.sched.serial)
      for (const graph::PassUse& u : g.passes[p].uses) {
        if (seen[u.resource]) continue;
        seen[u.resource] = 1;
        const graph::Resource& res = g.resources[u.resource];
        async_first += !res.transient && res.desc.type == ResourceType::texture && graph::exec_queue(g.passes[p]) == Queue::compute;
      }
    // Transients taking over memory: their first barrier (reason takeover) runs on the executor too.
    for (const graph::AliasBarrier& ab : r.aliasing.barriers)
      (g.resources[ab.resource].desc.type == ResourceType::buffer ? buffer_takeovers : texture_takeovers) += 1;
    // D3D12 too: a compute list never names PIXEL_SHADER_RESOURCE (the frame_start / frame_end groups).
    for (Api api : {Api::d3d12, Api::d3d12_legacy})
      EXPECT_NO_THROW((void)lower(api, r.trans.table, r.trans.compiled)) << "seed " << seed << " " << to_string(api);
    const RunReport rep = run_on_lavapipe(for_run(std::move(r)));
    EXPECT_TRUE(rep.clean()) << "seed " << seed << ": " << summary(rep);
    EXPECT_GT(rep.subresources_checked, 0u) << "seed " << seed;
    ++ran;
  }
  EXPECT_EQ(ran, 16u);
  EXPECT_GT(async_first, 0u) << "no generated graph has an async compute pass first touching a persistent texture";
  EXPECT_GT(texture_takeovers, 0u) << "no generated graph has a transient texture taking over memory";
  std::printf("generated graphs: %zu of 16 ran clean; %zu persistent textures first touched on the compute queue; "
              "%zu buffer and %zu texture takeovers\n",
              ran, async_first, buffer_takeovers, texture_takeovers);
}

}  // namespace
}  // namespace baton::exec::test

namespace baton::exec::test {
namespace {

// The executor's own full barriers (every image GENERAL, a full memory barrier at every point) on
// the same graph: a data mismatch here is the executor's or the model's, not the plan's.
TEST(GraphExamples, DeferredWithFullBarriersIsCorrect) {
  GraphRun g = compile_example("deferred.json");
  RunOptions o = graph_options();
  o.source = BarrierSource::full;
  const RunReport r = run(lavapipe(), g.rec, g.history_in, ExecPlan{}, o);
  EXPECT_TRUE(r.mismatches.empty()) << summary(r);
  std::printf("deferred.json with full barriers: %zu mismatches, %u validation messages\n", r.mismatches.size(),
              r.validation.total());
}

}  // namespace
}  // namespace baton::exec::test

namespace baton::exec::test {
namespace {

// As on a GPU: textures not seeded at creation (undefined until written), on lavapipe.
TEST(GraphExamples, DeferredWithoutSeededTexturesIsCorrect) {
  GraphRun g = compile_example("deferred.json");
  RunOptions o = graph_options();
  o.seed_textures = false;
  const RunReport r = run(lavapipe(), g.rec, g.history_in, g.plan, o);
  EXPECT_TRUE(r.clean()) << summary(r);
}

}  // namespace
}  // namespace baton::exec::test

namespace baton::exec::test {
namespace {

graph::Graph test_graph(const std::string& file) {
  return graph::load_graph_file(std::string(BATON_SOURCE_DIR) + "/tests/graph/data/" + file);
}

// The frame_start / frame_end graphics groups run: their transition lists do no work, the async
// passes between them see the states the groups left, and the textures end the frame at rest.
TEST(GraphFrameTransitions, RunCleanAndCorrect) {
  ASSERT_TRUE(run_canary(lavapipe()).live);
  graph::GraphCompileResult r = graph::compile_graph(test_graph("frame_transitions.json"));
  ASSERT_TRUE(r.findings.empty());
  ASSERT_EQ(r.trans.info.front().role, graph::GroupInfo::Role::frame_start);
  ASSERT_EQ(r.trans.info.back().role, graph::GroupInfo::Role::frame_end);
  const RunReport rep = run_on_lavapipe(for_run(std::move(r)));
  EXPECT_TRUE(rep.clean()) << summary(rep);
  EXPECT_EQ(rep.groups, 5u);
  EXPECT_GT(rep.subresources_checked, 0u);
}

// Readers on two queues with no order at the end of the frame, restored by frame_end.
TEST(GraphFrameTransitions, UnorderedReadersRunCleanAndCorrect) {
  graph::GraphCompileResult r = graph::compile_graph(test_graph("unordered_readers.json"));
  ASSERT_TRUE(r.findings.empty());
  ASSERT_EQ(r.trans.info.back().role, graph::GroupInfo::Role::frame_end);
  const RunReport rep = run_on_lavapipe(for_run(std::move(r)));
  EXPECT_TRUE(rep.clean()) << summary(rep);
  EXPECT_GT(rep.subresources_checked, 0u);
}

}  // namespace
}  // namespace baton::exec::test
