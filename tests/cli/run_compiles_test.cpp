// `baton run` compiles a frame graph once (issue 13, item 2): the device's real memory
// requirements are read before the compile, so the placement compiled is the one bound; the JSON
// report counts graph compiles (graph::compile_graph_calls) and the memory really used.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_baton.hpp"

namespace baton::test {
namespace {

nlohmann::json run_json(const std::string& file) {
  // The child runs lavapipe; see RunTimestamps for why leaks are not checked in it.
  const RunResult r = run_baton(std::string("ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" '") + BATON_CLI +
                                    "' run " + file + " --format json",
                                "/dev/null", true);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(RunCompiles, AGraphIsCompiledOnceWithRealMemorySizes) {
  const nlohmann::json j = run_json("examples/deferred.json");
  EXPECT_EQ(j["graph_compiles"].get<int>(), 1);
  EXPECT_EQ(j["hazards"].get<int>(), 0);
  EXPECT_EQ(j["mismatches"].get<int>(), 0);
  const nlohmann::json& m = j["memory"];
  EXPECT_GE(m["heaps"].get<int>(), 1);
  EXPECT_GT(m["placed"].get<int>(), 0);
  EXPECT_GT(m["aliased_bytes"].get<uint64_t>(), 0u);  // deferred.json's transients share memory
}

TEST(RunCompiles, ARecordingCompilesNoGraph) {
  EXPECT_EQ(run_json("examples/demo.json")["graph_compiles"].get<int>(), 0);
}

}  // namespace
}  // namespace baton::test
