// Frame graphs with their transients in real shared memory (issue 12): the executor binds every
// placed transient into one heap at the offsets the aliasing phase chose from the objects' real
// memory requirements, so resources that take over memory really overwrite each other. The layer
// (its aliasing canary in tests/runtime) and the data check then see every unordered takeover.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../graph/random_graph.hpp"
#include "baton/exec_graph.hpp"
#include "exec_fixture.hpp"

namespace baton::exec::test {
namespace {

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new LavapipeEnvironment);

RunOptions graph_options() {
  RunOptions o;
  o.sync_queue_switches = true;
  return o;
}

void expect_clean_shared(const graph::Graph& g, const std::string& what) {
  RunOptions o = graph_options();
  const GraphRun gr = prepare_graph_run(lavapipe(), g, o);
  ASSERT_TRUE(o.shared.has_value());
  const RunReport r = run(lavapipe(), gr.rec, gr.history_in, gr.plan, o);
  EXPECT_TRUE(r.clean()) << what << ": " << summary(r);
  EXPECT_GT(r.subresources_checked, 0u) << what;
  // Every placed transient is bound into one heap (lavapipe has a memory type for images and
  // host-visible buffers alike); graphs whose transients were all culled place nothing.
  EXPECT_EQ(r.memory.heaps, r.memory.placed > 0 ? 1u : 0u) << what;
  EXPECT_EQ(r.memory.placed > 0, gr.estimated_heap > 0) << what;
  std::printf("%s: heaps %u, %llu bytes (estimate %llu), %llu aliased, %u placed, %u subresources taken over, %u checked\n",
              what.c_str(), r.memory.heaps, static_cast<unsigned long long>(r.memory.heap_bytes),
              static_cast<unsigned long long>(gr.estimated_heap), static_cast<unsigned long long>(r.memory.aliased_bytes),
              r.memory.placed, r.subresources_taken_over, r.subresources_checked);
}

graph::Graph example(const std::string& file) {
  return graph::load_graph_file(std::string(BATON_SOURCE_DIR) + "/examples/" + file);
}

TEST(SharedMemory, DeferredRunsCleanWithAliasedTransients) {
  ASSERT_TRUE(run_canary(lavapipe()).live);
  RunOptions o = graph_options();
  const GraphRun gr = prepare_graph_run(lavapipe(), example("deferred.json"), o);
  const RunReport r = run(lavapipe(), gr.rec, gr.history_in, gr.plan, o);
  EXPECT_TRUE(r.clean()) << summary(r);
  EXPECT_GT(r.memory.aliased_bytes, 0u) << "deferred.json's transients must really share memory";
  EXPECT_GT(r.subresources_taken_over, 0u);
  EXPECT_GT(r.subresources_checked, 0u);
}

TEST(SharedMemory, EveryExampleGraphRunsClean) {
  for (const char* f : {"deferred.json", "async.json", "async_compute.json", "copy_frame.json", "upload.json"}) {
    const std::string path = std::string(BATON_SOURCE_DIR) + "/examples/" + f;
    const nlohmann::json j = nlohmann::json::parse(std::ifstream(path));
    if (!graph::is_graph_json(j)) continue;  // a recording
    expect_clean_shared(graph::load_graph(j, path), f);
  }
}

TEST(SharedMemory, SixteenGeneratedGraphsRunClean) {
  for (uint64_t seed = 1; seed <= 16; ++seed)
    expect_clean_shared(graph::test::random_graph(seed, 10 + static_cast<uint32_t>(seed * 5)),
                        "seed " + std::to_string(seed));
}

}  // namespace
}  // namespace baton::exec::test
