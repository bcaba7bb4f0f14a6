// The frame model of `baton view`: the same passes, barriers and waits as the compiler's own output,
// in submission order, for every API; a transient heap whose blocks never share memory while both
// are live.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>

#include "baton/graph.hpp"
#include "baton/recording.hpp"
#include "baton/view.hpp"
#include "view_support.hpp"

namespace baton::view {
namespace {

using test::example;

TEST(Frame, RecordingListsBecomePassesInSubmissionOrder) {
  const std::string text = example("demo.json");
  const Frame f = build_frame(text, "demo.json");
  Recording rec = load_recording(text);
  std::vector<std::string> lists;
  for (const auto& g : rec.groups)
    for (const CommandList* l : g->lists()) lists.emplace_back(l->name());
  ASSERT_EQ(f.passes.size(), lists.size());
  for (size_t i = 0; i < lists.size(); ++i) {
    EXPECT_EQ(f.passes[i].name, lists[i]);
    EXPECT_EQ(f.passes[i].slot, i);
  }
  EXPECT_FALSE(f.graph);
}

TEST(Frame, EveryApiKeepsEveryLoweredBarrierIncludingOmittedOnes) {
  const std::string text = example("demo.json");
  const Frame f = build_frame(text, "demo.json");
  Recording rec = load_recording(text);
  const std::vector<CompiledGroup> compiled =
      compile_all(rec.resources, rec.group_ptrs(), fresh_history(rec.resources)).groups;
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) {
    const std::vector<LoweredGroup> lowered = lower(api, rec.resources, compiled);
    size_t entries = 0, issued = 0, calls = 0;
    for (const LoweredGroup& g : lowered) {
      issued += g.barrier_count();
      calls += g.call_count();
      for (const LoweredList& l : g.lists)
        for (const LoweredPoint& p : l.points) entries += p.barriers.size();
    }
    const Lowering& low = f.lowering(api);
    EXPECT_TRUE(low.error.empty()) << low.error;
    EXPECT_EQ(low.barriers.size(), entries) << to_string(api);
    EXPECT_EQ(low.issued, issued) << to_string(api);
    EXPECT_EQ(low.calls, calls) << to_string(api);
    // Submission order: passes never go backwards.
    for (size_t i = 1; i < low.barriers.size(); ++i)
      EXPECT_LE(low.barriers[i - 1].pass, low.barriers[i].pass);
  }
}

TEST(Frame, GraphPassesWaitsAndCulledPassesMatchTheSchedule) {
  const std::string text = example("deferred.json");
  const Frame f = build_frame(text, "deferred.json");
  const graph::Graph g = graph::load_graph_text(text);
  const graph::GraphCompileResult r = graph::compile_graph(g);
  EXPECT_TRUE(f.graph);
  EXPECT_EQ(f.passes.size(), r.sched.serial.size());
  std::set<uint32_t> slots;
  for (const Pass& p : f.passes) {
    const auto gp = g.find_pass(p.name);
    ASSERT_TRUE(gp) << p.name;
    EXPECT_EQ(p.slot, r.sched.serial_of[*gp]) << p.name;
    EXPECT_EQ(p.queue, graph::exec_queue(g.passes[*gp])) << p.name;
    slots.insert(p.slot);
  }
  EXPECT_EQ(slots.size(), f.passes.size()) << "one pass per slot";
  ASSERT_EQ(f.waits.size(), r.sched.syncs.size());
  for (size_t i = 0; i < f.waits.size(); ++i) {
    EXPECT_EQ(f.passes[f.waits[i].signal].name, g.passes[r.sched.syncs[i].signal].name);
    EXPECT_EQ(f.passes[f.waits[i].wait].name, g.passes[r.sched.syncs[i].wait].name);
    EXPECT_NE(f.passes[f.waits[i].signal].queue, f.passes[f.waits[i].wait].queue) << "waits cross queues";
  }
  EXPECT_EQ(f.culled.size(), r.culled.culled.size());
}

// Two blocks may share heap bytes only if their lifetimes (slots) do not overlap: what the memory
// chart shows must be a sound aliasing.
TEST(Frame, HeapBlocksNeverOverlapInBothMemoryAndTime) {
  const Frame f = build_frame(example("deferred.json"), "deferred.json");
  ASSERT_FALSE(f.memory.blocks.empty());
  bool shared = false;
  for (size_t i = 0; i < f.memory.blocks.size(); ++i)
    for (size_t k = i + 1; k < f.memory.blocks.size(); ++k) {
      const Block& a = f.memory.blocks[i];
      const Block& b = f.memory.blocks[k];
      const bool bytes = a.offset < b.offset + b.size && b.offset < a.offset + a.size;
      const bool time = a.first <= b.last && b.first <= a.last;
      EXPECT_FALSE(bytes && time) << a.name << " and " << b.name;
      shared |= bytes;
    }
  EXPECT_TRUE(shared) << "deferred.json aliases some transient memory";
  uint64_t top = 0;
  for (const Block& b : f.memory.blocks) top = std::max(top, b.offset + b.size);
  EXPECT_LE(top, f.memory.heap_size);
}

TEST(Frame, EveryReasonHasItsOwnRule) {
  std::set<std::string_view> rules;
  for (int r = 0; r <= static_cast<int>(Reason::takeover); ++r) {
    const std::string_view rule = rule_of(static_cast<Reason>(r));
    EXPECT_FALSE(rule.empty());
    EXPECT_NE(rule, "(unknown reason)");
    // Issue 13 item 6: tooltips and the legend speak the reader's words, not the design's rule
    // numbers (this test asserted "invariant N" in the rules before; the issue calls that a defect).
    EXPECT_EQ(rule.find("invariant"), std::string_view::npos) << rule;
    rules.insert(rule);
  }
  EXPECT_EQ(rules.size(), static_cast<size_t>(Reason::takeover) + 1);
  EXPECT_NE(rule_of(Reason::discard).find("discard"), std::string_view::npos);
  EXPECT_NE(rule_of(Reason::first_touch).find("first-ever touch"), std::string_view::npos);
}

TEST(Frame, FullBarrierGetsAGlobalLane) {
  const char* text = R"({"resources": [{"name": "b", "type": "buffer", "size": 256}],
    "groups": [{"name": "g", "queue": "direct", "lists": [{"name": "l", "ops": [
      {"kind": "dispatch", "uses": [{"resource": "b", "access": "unordered_access", "stages": "compute"}]},
      {"kind": "dispatch", "full_barrier": true, "uses": [{"resource": "b", "access": "shader_resource", "stages": "compute"}]}]}]}]})";
  const Frame f = build_frame(text, "inline");
  ASSERT_EQ(f.resources.size(), 2u);
  EXPECT_EQ(f.resources[1].name, "(global)");
  bool full = false;
  for (const Barrier& b : f.lowering(Api::vulkan).barriers)
    full |= b.reason == Reason::full_barrier && b.resource == 1;
  EXPECT_TRUE(full);
}

TEST(Frame, BadInputIsOneLineNamingTheSource) {
  try {
    (void)build_frame("{\"groups\": [", "broken.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_EQ(m.rfind("broken.json", 0), 0u) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace baton::view

namespace baton::view {
namespace {

// The graph's own frame_start / frame_end graphics groups are passes of the picture too: first and
// last slot (slots stay unique), named after their lists, with their group waits drawn.
TEST(Frame, FrameStartAndEndGroupsTakeTheFirstAndLastSlots) {
  const std::string path = std::string(BATON_SOURCE_DIR) + "/tests/graph/data/frame_transitions.json";
  std::ifstream in(path);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const Frame f = build_frame(text, "frame_transitions.json");
  ASSERT_EQ(f.passes.size(), 5u);
  EXPECT_EQ(f.passes.front().name, "frame start transitions");
  EXPECT_EQ(f.passes.back().name, "frame end transitions");
  std::set<uint32_t> slots;
  for (const Pass& p : f.passes) slots.insert(p.slot);
  EXPECT_EQ(slots, (std::set<uint32_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(f.passes.front().slot, 0u);
  EXPECT_EQ(f.passes.back().slot, 4u);
  // The schedule's two signal/wait pairs and the two group waits.
  EXPECT_EQ(f.waits.size(), 4u);
}

}  // namespace
}  // namespace baton::view

namespace baton::view {
namespace {

// build_frame lowers only the APIs asked for; the frame JSON carries only those.
TEST(Frame, LowersOnlyTheApisAskedFor) {
  const std::array<Api, 1> only = {Api::vulkan};
  const Frame f = build_frame(test::example("deferred.json"), "deferred.json", {}, only);
  EXPECT_TRUE(f.lowering(Api::vulkan).lowered);
  EXPECT_FALSE(f.lowering(Api::vulkan).barriers.empty());
  for (const Api a : {Api::d3d12, Api::d3d12_legacy}) {
    EXPECT_FALSE(f.lowering(a).lowered);
    EXPECT_TRUE(f.lowering(a).barriers.empty());
  }
  const auto j = frame_json(f, Api::vulkan);
  EXPECT_EQ(j["lowerings"].size(), 1u);
  EXPECT_TRUE(j["lowerings"].contains("vulkan"));
  // The default is all three, and the one lowering is the same either way.
  const Frame all = build_frame(test::example("deferred.json"), "deferred.json");
  const auto& a = all.lowering(Api::vulkan).barriers;
  const auto& b = f.lowering(Api::vulkan).barriers;
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].resource, b[i].resource);
    EXPECT_EQ(a[i].range, b[i].range);
    EXPECT_EQ(a[i].before, b[i].before);
    EXPECT_EQ(a[i].after, b[i].after);
  }
}

}  // namespace
}  // namespace baton::view
