// `baton triage`: exit 0 with nothing to explain, 1 with explanations (the text is examples/triage/*/
// expected.txt), 2 on bad input with one stderr line and nothing on stdout.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "run_baton.hpp"

namespace baton::test {
namespace {

void expect_bad_input(const RunResult& r, const std::string& fragment) {
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("baton: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
}

TEST(TriageCli, OwnPlanIsCleanExitZero) {
  for (const char* api : {"d3d12", "d3d12-legacy", "vulkan"}) {
    const RunResult r = run_baton(std::string("triage examples/demo.json --api ") + api);
    EXPECT_EQ(r.exit_code, 0) << api << r.err;
    EXPECT_EQ(r.out, "0 messages explained\n");
    EXPECT_EQ(r.err, "");
  }
}

struct Example {
  const char* dir;
  const char* api;
};
constexpr Example kExamples[] = {{"wrong_entry_state", "d3d12"},
                                 {"undeclared_write", "vulkan"},
                                 {"wrong_resting_layout", "d3d12-legacy"},
                                 {"recreated_without_history_reset", "d3d12-legacy"}};

TEST(TriageCli, ExamplesPrintTheirExpectedExplanation) {
  for (const Example& e : kExamples) {
    const std::string dir = std::string("examples/triage/") + e.dir;
    const RunResult r = run_baton("triage " + dir + "/recording.json " + dir + "/trace.json --api " + e.api);
    EXPECT_EQ(r.exit_code, 1) << e.dir << r.err;
    EXPECT_EQ(r.out, slurp(std::string(BATON_SOURCE_DIR) + "/" + dir + "/expected.txt")) << e.dir;
  }
}

TEST(TriageCli, JsonAndFilters) {
  const std::string args =
      "triage examples/triage/undeclared_write/recording.json examples/triage/undeclared_write/trace.json "
      "--api vulkan --format json";
  const RunResult all = run_baton(args);
  ASSERT_EQ(all.exit_code, 1) << all.err;
  const auto j = nlohmann::json::parse(all.out);
  EXPECT_EQ(j["count"], 3);
  EXPECT_EQ(j["explanations"][0]["mistake"], "undeclared write");
  EXPECT_EQ(j["explanations"][0]["op"], 1);
  const RunResult by_id = run_baton(args + " --id 100011");
  EXPECT_EQ(nlohmann::json::parse(by_id.out)["count"], 1);
  const RunResult none = run_baton(args + " --resource color");
  EXPECT_EQ(none.exit_code, 0);
  EXPECT_EQ(nlohmann::json::parse(none.out)["count"], 0);
}

TEST(TriageCli, BadInput) {
  expect_bad_input(run_baton("triage examples/triage/nope.json --api d3d12"), "nope.json");
  // A frame graph is no longer bad input (issue 13: every command takes both inputs): its own plan
  // has nothing to explain. tests/cli/frame_input_test.cpp explains a mutated graph trace.
  const RunResult graph = run_baton("triage examples/deferred.json --api d3d12");
  EXPECT_EQ(graph.exit_code, 0) << graph.err;
  EXPECT_EQ(graph.out, "0 messages explained\n");
  expect_bad_input(
      run_baton("triage examples/minimal.json tests/cli/bad/trace_unknown_state.json --api d3d12"),
      "trace_unknown_state.json");
  expect_bad_input(run_baton("triage examples/minimal.json tests/cli/bad/trace_truncated.json --api d3d12"),
                   "trace_truncated.json");
  expect_bad_input(run_baton("triage examples/triage/undeclared_write/recording.json "
                             "examples/triage/undeclared_write/trace.json --api d3d12"),
                   "vulkan trace");
  expect_bad_input(run_baton("triage examples/minimal.json --api metal"), "--api");
}

}  // namespace
}  // namespace baton::test
