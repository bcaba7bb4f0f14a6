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

}  // namespace
}  // namespace baton::graph
