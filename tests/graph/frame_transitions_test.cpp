// The frame_start / frame_end graphics groups (transitions.cpp): an async compute pass that first
// or last touches a texture whose resting state a compute list cannot name (shader_resource for every
// stage; D3D12 legacy PIXEL_SHADER_RESOURCE) gets its transition from / to rest on the graphics
// queue, in a `transition` list with no work, ordered by group waits.
#include <gtest/gtest.h>

#include "baton/graph.hpp"

namespace baton::graph {
namespace {

Graph frame_graph() { return load_graph_file(std::string(BATON_SOURCE_DIR) + "/tests/graph/data/frame_transitions.json"); }

ResourceId member(const GraphCompileResult& r, const Graph& g, std::string_view name) {
  return r.trans.first_member[*g.find_resource(name)];
}

TEST(GraphFrameTransitions, AsyncFirstAndLastTouchesMoveToGraphicsGroups) {
  const Graph g = frame_graph();
  const GraphCompileResult r = compile_graph(g);
  EXPECT_TRUE(r.findings.empty()) << dump(g, r, "checks");
  const Transitions& t = r.trans;
  ASSERT_EQ(t.info.size(), 5u);
  // frame_start: first, graphics, one transition list with no pass; the blur group waits for it.
  EXPECT_EQ(t.info.front().role, GroupInfo::Role::frame_start);
  EXPECT_EQ(t.info.front().queue, Queue::direct);
  EXPECT_EQ(std::vector<uint32_t>(t.info.front().passes.begin(), t.info.front().passes.end()),
            std::vector<uint32_t>{kNone});
  EXPECT_EQ(t.groups.front()->name(), "graphics#frame_start");
  ASSERT_FALSE(t.groups.front()->lists().empty());
  const CommandList& start = *t.groups.front()->lists()[0];
  EXPECT_EQ(start.name(), "frame start transitions");
  ASSERT_EQ(start.ops().size(), 1u);
  EXPECT_EQ(start.ops()[0].kind, OpKind::transition);
  EXPECT_EQ(std::vector<uint32_t>(t.info[1].passes.begin(), t.info[1].passes.end()),
            std::vector<uint32_t>{*g.find_pass("blur")});
  EXPECT_EQ(t.info[1].waits, std::vector<uint32_t>{0});
  EXPECT_EQ(t.groups[1]->name(), "compute#0");  // pass groups keep their numbers
  // The from-rest transition of history is in frame_start, into what blur wants; blur declares it.
  const ResourceId history = member(r, g, "history");
  ASSERT_EQ(t.compiled[0].lists[0].barriers.size(), 1u);
  const Barrier& b = t.compiled[0].lists[0].barriers[0];
  EXPECT_EQ(b.resource, history);
  EXPECT_EQ(b.reason, Reason::from_rest);
  EXPECT_EQ(b.before, resting_state(t.table[history]));
  EXPECT_EQ(b.after, state_of_use(t.table[history], Access::unordered_access, stages(Stage::compute)));
  ASSERT_EQ(t.groups[1]->lists()[0]->entry_states().size(), 1u);
  EXPECT_EQ(t.groups[1]->lists()[0]->entry_states()[0].access, Access::unordered_access);
  // No compute list's barrier leaves or enters a state with vertex or pixel stages.
  for (size_t gi = 0; gi < t.compiled.size(); ++gi) {
    if (t.info[gi].queue != Queue::compute) continue;
    for (const CompiledList& l : t.compiled[gi].lists)
      for (const Barrier& x : l.barriers) {
        EXPECT_EQ(x.before.sync & (sync::vertex_shading | sync::pixel_shading), 0u) << to_string(x.reason);
        EXPECT_EQ(x.after.sync & (sync::vertex_shading | sync::pixel_shading), 0u) << to_string(x.reason);
      }
  }
  // frame_end: last, waits for denoise's group, takes ao over in its entry state and restores it.
  EXPECT_EQ(t.info.back().role, GroupInfo::Role::frame_end);
  EXPECT_EQ(t.info.back().waits, std::vector<uint32_t>{3});
  EXPECT_EQ(std::vector<uint32_t>(t.info[3].passes.begin(), t.info[3].passes.end()),
            std::vector<uint32_t>{*g.find_pass("denoise")});
  const ResourceId ao = member(r, g, "ao");
  ASSERT_EQ(r.finals.restores.size(), 2u);
  EXPECT_EQ(r.finals.restores.back().group, 4u);
  EXPECT_EQ(r.finals.restores.back().pass, kNone);
  EXPECT_EQ(r.finals.restores.back().member, ao);
  EXPECT_TRUE(check_resting(g, r.sched, t, r.finals).empty());
  // All three APIs lower it, D3D12 legacy included (the reason for the graphics groups).
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) EXPECT_NO_THROW(lower(api, t.table, t.compiled)) << to_string(api);
  // The printers name the lists and the group waits.
  const std::string text = plan_text(g, r, Api::d3d12_legacy);
  EXPECT_NE(text.find("group graphics#frame_start (graphics)\n  frame start transitions (no work)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("group compute#0 (compute)\n  wait for group graphics#frame_start\n"), std::string::npos) << text;
  EXPECT_NE(text.find("group graphics#frame_end (graphics)\n  wait for group compute#2\n"), std::string::npos) << text;
  EXPECT_NE(dump(g, r, "restores").find("graphics#frame_end after frame end transitions: ao"), std::string::npos);
}

// A texture whose resting state the compute queue can hold (unordered_access) needs neither group.
TEST(GraphFrameTransitions, ComputeLegalRestingStateNeedsNoGraphicsGroups) {
  Graph g = frame_graph();
  for (Resource& res : g.resources) res.desc.resting = Access::unordered_access;
  const GraphCompileResult r = compile_graph(g);
  EXPECT_TRUE(r.findings.empty());
  ASSERT_EQ(r.trans.info.size(), 3u);
  for (const GroupInfo& i : r.trans.info) {
    EXPECT_EQ(i.role, GroupInfo::Role::passes);
    EXPECT_TRUE(i.waits.empty());
  }
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) EXPECT_NO_THROW(lower(api, r.trans.table, r.trans.compiled));
}

// The coverage check sees the transition list's uses: a frame_start list whose barrier is lost is a
// finding naming the list.
TEST(GraphFrameTransitions, CoverageCheckNamesTheTransitionList) {
  const Graph g = frame_graph();
  GraphCompileResult r = compile_graph(g);
  ASSERT_FALSE(r.trans.compiled[0].lists[0].barriers.empty());
  r.trans.compiled[0].set_list(0, {}, {});
  const std::vector<std::string> f = check_coverage(g, r.sched, r.trans);
  ASSERT_FALSE(f.empty());
  EXPECT_NE(f.front().find("frame start transitions, resource 'history'"), std::string::npos) << f.front();
}

// Readers on two queues with no order between them at the end of the frame: the last toucher hands
// the texture on in the merged read state and frame_end restores it once the other queue's reader
// is done too (this graph was rejected before frame_end existed).
TEST(GraphFrameTransitions, UnorderedReadersAtTheEndAreRestoredByFrameEnd) {
  const Graph g = load_graph_file(std::string(BATON_SOURCE_DIR) + "/tests/graph/data/unordered_readers.json");
  const GraphCompileResult r = compile_graph(g);
  EXPECT_TRUE(r.findings.empty()) << dump(g, r, "checks");
  const Transitions& t = r.trans;
  const uint32_t measure = *g.find_pass("measure"), relight = *g.find_pass("relight");
  EXPECT_FALSE(happens_before(r.sched, g, measure, relight));
  EXPECT_FALSE(happens_before(r.sched, g, relight, measure));
  ASSERT_EQ(t.info.back().role, GroupInfo::Role::frame_end);
  // It waits for the compute group of `measure` (the graphics one is ordered by the queue).
  uint32_t measure_group = kNone;
  for (uint32_t gi = 0; gi < t.info.size(); ++gi)
    if (t.info[gi].passes.front() == measure) measure_group = gi;
  ASSERT_NE(measure_group, kNone);
  EXPECT_EQ(t.info.back().waits, std::vector<uint32_t>{measure_group});
  // The only restore of `lighting` is frame_end's; relight's group hands it on instead.
  const ResourceId lighting = member(r, g, "lighting");
  size_t restores = 0;
  for (const Restore& x : r.finals.restores)
    if (x.member == lighting) {
      ++restores;
      EXPECT_EQ(x.group, t.info.size() - 1);
    }
  EXPECT_EQ(restores, 1u);
  EXPECT_TRUE(check_resting(g, r.sched, t, r.finals).empty());
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) EXPECT_NO_THROW(lower(api, t.table, t.compiled)) << to_string(api);
}

}  // namespace
}  // namespace baton::graph
