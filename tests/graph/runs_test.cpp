// The graph's checks replay the barrier stream per subresource as runs (baton/runs.hpp): a set of
// many members at the subresource limits costs what its barriers split it into, and the checks still
// hold (and still find a broken phase) on it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

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
  ASSERT_EQ(r.finals.members(), 513u);
  for (ResourceId m = 0; m < r.finals.members(); ++m) {
    EXPECT_EQ(r.finals.runs_of(m).run_count(), 1u) << m;
    EXPECT_EQ(r.finals.split[m], kNone) << m;  // one state: no runs kept
    EXPECT_EQ(r.finals.at(m, 0), r.finals.at(m, r.finals.runs_of(m).size() - 1)) << m;
  }
  EXPECT_EQ(r.finals.runs_of(1).size(), 13u * 64u);
}

// Runs are kept in the run order (mip-major): a transient that dies with mips 1-2 of its 2,048 layers
// read is three runs (mip 0, mips 1-2, the rest), where the subresource index needs one per layer.
TEST(GraphRuns, SomeMipsOfManyLayersAreOneRunPerMipRow) {
  const Graph g = load_graph_text(R"({"resources":[{"name":"out","type":"buffer","size":16},
    {"name":"t","type":"texture","transient":true,"width":256,"height":256,"mips":9,"layers":2048,
     "usage":["render_target","shader_resource"]}],
   "passes":[{"name":"w","queue":"graphics","uses":[{"resource":"t","access":"render_target","mips":[1,2]}]},
             {"name":"r","queue":"graphics","uses":[{"resource":"t","access":"shader_resource","stages":"pixel","mips":[1,2]},
                                                    {"resource":"out","access":"unordered_access","stages":"pixel"}]}],
   "outputs":["out"]})",
                                  "mips.json");
  const GraphCompileResult r = compile_graph(g);
  EXPECT_TRUE(r.findings.empty()) << r.findings.front();
  ASSERT_EQ(r.finals.members(), 2u);
  EXPECT_EQ(r.finals.runs_of(1).run_count(), 3u);
  EXPECT_NE(r.finals.split[1], kNone);
  // at() takes the subresource index (mip + layer * mips): mips 1-2 of every layer were sampled last.
  const State read = r.finals.at(1, 1 + 9 * 700);
  EXPECT_EQ(read.layout, Layout::shader_resource);
  EXPECT_EQ(r.finals.at(1, 2 + 9 * 2047), read);
  EXPECT_NE(r.finals.at(1, 0 + 9 * 700), read);
  EXPECT_NE(r.finals.at(1, 3 + 9 * 5), read);
}

// Findings per subresource come in subresource index order (mip + layer * mips), whatever order the
// runs are kept in: mips 1-2 of layers 0-1 not covered are named (1,0) (2,0) (1,1) (2,1).
TEST(GraphRuns, FindingsNameSubresourcesInSubresourceIndexOrder) {
  const Graph g = load_graph_text(R"({"resources":[{"name":"out","type":"buffer","size":16},
    {"name":"a","type":"texture","width":64,"height":64,"mips":4,"layers":2,"usage":["render_target","shader_resource"]}],
   "passes":[{"name":"w","queue":"graphics","uses":[{"resource":"a","access":"render_target","mips":[1,2]}]},
             {"name":"r","queue":"graphics","uses":[{"resource":"a","access":"shader_resource","stages":"pixel","mips":[1,2]},
                                                    {"resource":"out","access":"unordered_access","stages":"pixel"}]}],
   "outputs":["out"]})",
                                  "order.json");
  CompileOptions o;
  o.run_checks = false;
  GraphCompileResult r = compile_graph(g, o);
  // The read's transition removed (it ends where it starts): its use is not covered anywhere.
  for (CompiledGroup& cg : r.trans.compiled)
    for (size_t li = 0; li < cg.lists.size(); ++li)
      if (cg.lists[li].name == "r")
        for (Barrier& b : cg.barriers_of(li))
          if (r.trans.table[b.resource].name == "a") b.after = b.before;
  std::vector<std::string> where;
  for (const std::string& f : check_all(g, r))
    if (f.starts_with("coverage: /passes/1/uses/0:")) {
      const size_t at = f.find(" mip ");
      where.push_back(f.substr(at + 1, f.find(':', at) - at - 1));
    }
  EXPECT_EQ(where, (std::vector<std::string>{"mip 1 layer 0 plane 0", "mip 2 layer 0 plane 0",
                                             "mip 1 layer 1 plane 0", "mip 2 layer 1 plane 0"}));
}

}  // namespace
}  // namespace baton::graph
