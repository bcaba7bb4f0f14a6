// `baton compile` on frame graphs: the plan, one phase's dump, and the errors that belong to graphs.
#include <gtest/gtest.h>

#include "run_baton.hpp"

namespace baton::test {
namespace {

TEST(GraphCompile, DeferredExampleCompilesWithEveryCheckHolding) {
  const RunResult r = run_baton("compile examples/deferred.json --api vulkan");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("transient memory:"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty()) << r.err;
}

TEST(GraphCompile, DumpOfThePhaseCullNamesTheCulledPassAndWhy) {
  const RunResult r = run_baton("compile examples/deferred.json --dump cull");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("culled debug_depth:"), std::string::npos) << r.out;
}

TEST(GraphCompile, UnknownPhaseAndDumpOfARecordingAreBadInput) {
  const RunResult a = run_baton("compile examples/deferred.json --dump nope");
  EXPECT_EQ(a.exit_code, 2);
  EXPECT_TRUE(a.out.empty());
  EXPECT_NE(a.err.find("unknown phase 'nope'"), std::string::npos) << a.err;
  const RunResult b = run_baton("compile examples/minimal.json --dump cull");
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find("frame graphs only"), std::string::npos) << b.err;
}

// One queue: any valid order compiles with every check holding. (With async compute, a random order can
// make a compute group the last user of a texture whose resting state a compute list cannot name in
// D3D12 legacy; that is reported as bad input, see docs/graph-format.md.)
TEST(GraphCompile, RandomOrderKeepsEveryCheck) {
  for (const char* seed : {"1", "2", "3", "4", "5"}) {
    const RunResult r = run_baton(std::string("compile examples/deferred.json --order random --seed ") + seed);
    EXPECT_EQ(r.exit_code, 0) << "seed " << seed << ": " << r.err;
  }
}

}  // namespace
}  // namespace baton::test
