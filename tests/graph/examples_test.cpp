// The shipped examples compile through every phase with every check holding.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "baton/graph.hpp"

namespace baton::graph {
namespace {

GraphCompileResult compile_file(const std::string& file, Graph& g) {
  g = load_graph_file(std::string(BATON_SOURCE_DIR) + "/examples/" + file);
  return compile_graph(g);
}

TEST(Examples, DeferredCompilesCleanWithAliasingNearTheBound) {
  Graph g;
  const GraphCompileResult r = compile_file("deferred.json", g);
  EXPECT_TRUE(r.findings.empty()) << dump(g, r, "checks");
  ASSERT_EQ(r.culled.culled.size(), 1u);
  EXPECT_EQ(g.passes[r.culled.culled[0].pass].name, "debug_depth");
  EXPECT_LT(r.aliasing.heap_size, r.aliasing.unaliased);
  EXPECT_GE(r.aliasing.heap_size, r.aliasing.lower_bound);
  EXPECT_TRUE(r.sched.syncs.empty());  // one queue
  if (std::getenv("BATON_GRAPH_DUMP"))
    for (std::string_view p : kPhases) std::cout << "== " << p << "\n" << dump(g, r, p);
}

TEST(Examples, AsyncRunsSsaoAndParticlesOnTheComputeQueue) {
  Graph g;
  const GraphCompileResult r = compile_file("async.json", g);
  EXPECT_TRUE(r.findings.empty()) << dump(g, r, "checks");
  EXPECT_FALSE(r.sched.syncs.empty());
  EXPECT_LE(r.sched.syncs.size(), r.sched.cross_queue_edges);
  size_t compute_groups = 0;
  for (const GroupInfo& i : r.trans.info) compute_groups += i.queue == Queue::compute;
  EXPECT_GE(compute_groups, 1u);
  // Every API can express the plan: the async passes hand on what they wrote (no restore to a
  // pixel-shader state on a compute list), and linear_depth, last read on the compute queue,
  // declares that it rests in unordered access.
  for (const Numbers::PerApi& a : numbers(g, r).apis) {
    EXPECT_TRUE(a.error.empty()) << to_string(a.api) << ": " << a.error;
    EXPECT_GT(a.barriers, 0u) << to_string(a.api);
  }
  if (std::getenv("BATON_GRAPH_DUMP"))
    for (std::string_view p : kPhases) std::cout << "== " << p << "\n" << dump(g, r, p);
}

}  // namespace
}  // namespace baton::graph
