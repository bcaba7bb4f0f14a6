// Heap blocks of one steady-state compile of the benchmark's chain (issue 16): the planner's output is
// flat (CompiledGroup owns one array of barriers and one of points; each CompiledList views its part),
// and so is its input (the transitions phase's ListStore: one array of lists, of operations, of uses and
// of entry states), so neither a pass's list nor its compiled list costs a heap block of its own. A
// per-list or per-operation vector coming back (in the planner or in any phase) adds one block per pass,
// which the slope below sees.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "../../bench/graph_workloads.hpp"
#include "baton/graph.hpp"

#include "../count_heap_blocks.hpp"

namespace baton::graph {
namespace {

// Blocks taken by one compile of the n-pass chain after a warm-up compile (per-thread scratch grown),
// with the previous result freed inside the count, as graph_bench and graph_instructions measure it.
uint64_t blocks_per_compile(size_t n) {
  const Graph g = bench::graph_chain(n);
  GraphCompileResult r = compile_graph(g);
  EXPECT_TRUE(r.findings.empty()) << r.findings.front();
  const uint64_t before = baton::test::heap_blocks();
  r = compile_graph(g);
  const uint64_t blocks = baton::test::heap_blocks() - before;
  EXPECT_TRUE(r.findings.empty());
  EXPECT_EQ(r.trans.compiled.size(), r.trans.groups.size());
  return blocks;
}

// Per pass (the slope from 500 to 1,000 passes) the compile takes no block: the lists, their operations,
// uses and entry states live in the store's arrays and the compiled lists in their group's (measured: 124
// and 127 blocks, 0.01 per pass, from arrays that grow by doubling; 3,149 at 1,000 passes when every pass
// had its CommandList, operation vector and use vector, 5,164 when every compiled list also had a barrier
// vector and a point vector). One block per pass makes the slope 1.
TEST(GraphHeapBlocks, ChainCompileTakesNoBlockPerPass) {
  const uint64_t b500 = blocks_per_compile(500), b1000 = blocks_per_compile(1000);
  ASSERT_GT(b1000, 0u);
  const double per_pass = (static_cast<double>(b1000) - static_cast<double>(b500)) / 500.0;
  // The counts, for the benchmark notes (docs/benchmarks.md), whether or not the bounds below hold.
  std::printf("heap blocks per compile: %llu at 500 passes, %llu at 1,000 (%.2f per pass)\n",
              static_cast<unsigned long long>(b500), static_cast<unsigned long long>(b1000), per_pass);
  EXPECT_LT(per_pass, 0.5) << b500 << " blocks at 500 passes, " << b1000 << " at 1,000";
  EXPECT_LE(b1000, 300u) << b500 << " blocks at 500 passes, " << b1000 << " at 1,000";
}

// The layered graph is cut into many groups (one per run of a queue's passes between waits and signals:
// 622 at 1,000 passes). Outside the planner a group costs no heap block: the transitions phase keeps the
// groups in one array of its ListStore and their lists' pointers in another (session 13; before, each group
// was a heap object with a vector of list pointers, two blocks). What the planner takes per group is
// measured apart, by compiling hand-made copies of the same groups, and taken off. What is left grows by
// about 0.5 a group, which is not the groups' own: the aliasing phase's lists of previous occupants
// (`AliasBarrier::previous`, 279 blocks at 1,000 passes) grow with the passes; a block per group, or the
// old two, take the slope above 1.
TEST(GraphHeapBlocks, LayeredCompileTakesNoBlockPerGroupOutsideThePlanner) {
  auto per_compile = [](size_t n, size_t& groups) {
    const Graph g = bench::graph_layered(n);
    GraphCompileResult r = compile_graph(g);
    EXPECT_TRUE(r.findings.empty()) << r.findings.front();
    uint64_t before = baton::test::heap_blocks();
    r = compile_graph(g);
    const uint64_t all = baton::test::heap_blocks() - before;
    groups = r.trans.groups.size();
    // The planner alone on copies of the groups (made before the count, compiled twice: the second is
    // the steady state its per-thread scratch reaches).
    auto copies = [&r](std::vector<std::unique_ptr<CommandList>>& lists,
                       std::vector<std::unique_ptr<CommandListGroup>>& own, std::vector<CommandListGroup*>& ptrs) {
      for (const CommandListGroup* src : r.trans.groups) {
        own.push_back(std::make_unique<CommandListGroup>(src->name(), src->queue()));
        for (const CommandList* l : src->lists()) {
          lists.push_back(std::make_unique<CommandList>(std::string(l->name()), l->queue(), l->ops(),
                                                        l->entry_states()));
          own.back()->add(*lists.back());
        }
        ptrs.push_back(own.back().get());
      }
    };
    uint64_t planner = 0;
    for (int round = 0; round < 2; ++round) {
      std::vector<std::unique_ptr<CommandList>> lists;
      std::vector<std::unique_ptr<CommandListGroup>> own;
      std::vector<CommandListGroup*> ptrs;
      copies(lists, own, ptrs);
      before = baton::test::heap_blocks();
      { const CompileResult cr = compile_all(r.trans.table, ptrs, r.trans.history_in, 1); }
      planner = baton::test::heap_blocks() - before;
    }
    return static_cast<double>(all) - static_cast<double>(planner);
  };
  size_t g500 = 0, g1000 = 0;
  const double b500 = per_compile(500, g500), b1000 = per_compile(1000, g1000);
  ASSERT_GT(g1000, g500 + 100);
  const double per_group = (b1000 - b500) / static_cast<double>(g1000 - g500);
  std::printf("heap blocks per compile outside the planner: %.0f at %zu groups, %.0f at %zu (%.2f per group)\n",
              b500, g500, b1000, g1000, per_group);
  EXPECT_LT(per_group, 1.0) << b500 << " blocks at " << g500 << " groups, " << b1000 << " at " << g1000;
}

// A frame graph compiled every frame into last frame's result (compile_graph_into) takes no heap block at
// all once the storage has grown (issue 16: per-frame memory reused from call to call): every phase's
// result keeps its containers, the planner compiles each group into the group's block of the frame before
// (its list slots, names and all), the list store keeps its arrays, the culled passes keep their reasons'
// strings and the final states their split members' runs (Runs::assign reuses the map's nodes). Measured
// on the chain (one group of 1,000 lists), the layered graph (622 groups, async queues, takeovers of
// several previous occupants) and examples/deferred.json (uses of parts of resources, an operation that
// names a resource twice, a culled pass, a member that ends the frame split, long list names: 11 blocks
// per compile at the start of session 19, 15 before session 18); compile_graph, which makes a new result
// each time, takes 30 blocks on the chain of 1,000 (the test above prints it).
TEST(GraphHeapBlocks, CompiledIntoLastFramesResultTakesNoBlock) {
  auto steady = [](const Graph& g) {
    GraphCompileResult r;
    compile_graph_into(r, g);
    compile_graph_into(r, g);  // the per-thread scratch and the result at their sizes
    EXPECT_TRUE(r.findings.empty()) << r.findings.front();
    const uint64_t before = baton::test::heap_blocks();
    compile_graph_into(r, g);
    return baton::test::heap_blocks() - before;
  };
  const uint64_t chain = steady(bench::graph_chain(1000)), layered = steady(bench::graph_layered(1000)),
                 deferred = steady(load_graph_file(BATON_SOURCE_DIR "/examples/deferred.json"));
  std::printf("heap blocks per compile into the last result: chain 1,000 %llu, layered 1,000 %llu, deferred.json %llu\n",
              static_cast<unsigned long long>(chain), static_cast<unsigned long long>(layered),
              static_cast<unsigned long long>(deferred));
  EXPECT_EQ(chain, 0u);
  EXPECT_EQ(layered, 0u);
  EXPECT_EQ(deferred, 0u);
}

}  // namespace
}  // namespace baton::graph
