// The graph's checks replay the barrier stream per subresource as runs (baton/runs.hpp): a set of
// many members at the subresource limits costs what its barriers split it into, and the checks still
// hold (and still find a broken phase) on it.
#include <gtest/gtest.h>

#include <string>

#include "baton/graph.hpp"

namespace baton::graph {
namespace {

const char* kSets = R"({"resources":[{"name":"out","type":"buffer","size":16},
  {"name":"s","type":"texture","width":4096,"height":4096,"mips":13,"layers":64,"count":512,
   "usage":["render_target","shader_resource"]}],
 "passes":[{"name":"w","queue":"graphics","uses":[{"resource":"s","access":"render_target","mips":[0,1]}]},
           {"name":"r","queue":"graphics","uses":[{"resource":"s","access":"shader_resource","stages":"pixel"},
                                                  {"resource":"out","access":"unordered_access","stages":"pixel"}]}],
 "outputs":["out"]})";

TEST(GraphRuns, FinalStatesOfLargeSetsAreRunsAndTheChecksHold) {
  const Graph g = load_graph_text(kSets, "sets.json");
  const GraphCompileResult r = compile_graph(g);
  EXPECT_TRUE(r.findings.empty()) << r.findings.front();
  // 512 members of 832 subresources, mip 0 written: one run each at the end of the frame (all back at rest).
  ASSERT_EQ(r.finals.final_state.size(), 513u);
  for (ResourceId m = 0; m < r.finals.final_state.size(); ++m) {
    EXPECT_EQ(r.finals.final_state[m].run_count(), 1u) << m;
    EXPECT_EQ(r.finals.at(m, 0), r.finals.at(m, r.finals.final_state[m].size() - 1)) << m;
  }
  EXPECT_EQ(r.finals.final_state[1].size(), 13u * 64u);
}

// Runs are kept by run index (RunOrder, mip-major): a transient whose mips 1-2 of all 2,048 layers are
// rendered and then sampled ends the frame as three runs (mip 0, mips 1-2, mips 3-12), where the
// subresource index needs one run per layer (4,097); FinalStates::at still takes subresource indices.
TEST(GraphRuns, SomeMipsOfEveryLayerAreAFewRuns) {
  const Graph g = load_graph_text(
      R"({"resources":[{"name":"out","type":"buffer","size":16},
        {"name":"t","type":"texture","transient":true,"width":4096,"height":4096,"mips":13,"layers":2048}],
       "passes":[{"name":"w","uses":[{"resource":"t","access":"render_target","mips":[1,2]}]},
                 {"name":"r","uses":[{"resource":"t","access":"shader_resource","stages":"pixel","mips":[1,2]},
                                     {"resource":"out","access":"unordered_access","stages":"pixel"}]}],
       "outputs":["out"]})",
      "mips.json");
  const GraphCompileResult r = compile_graph(g);
  ASSERT_TRUE(r.findings.empty()) << r.findings.front();
  const ResourceId t = r.trans.first_member[1];
  EXPECT_EQ(r.finals.final_state[t].run_count(), 3u);
  const uint32_t mips = 13;
  auto sub = [&](uint32_t mip, uint32_t layer) { return mip + layer * mips; };
  EXPECT_EQ(r.finals.at(t, sub(1, 7)).access, bit(Access::shader_resource));
  EXPECT_EQ(r.finals.at(t, sub(2, 2047)).access, bit(Access::shader_resource));
  // Mip 0 and mips 3-12 were never used: both in the transient's start state, not the read state.
  EXPECT_EQ(r.finals.at(t, sub(0, 7)), r.finals.at(t, sub(3, 0)));
  EXPECT_EQ(r.finals.at(t, sub(12, 2047)), r.finals.at(t, sub(0, 0)));
  EXPECT_NE(r.finals.at(t, sub(0, 7)).access, bit(Access::shader_resource));
}

}  // namespace
}  // namespace baton::graph
