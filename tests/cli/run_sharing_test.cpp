// `baton run --sharing concurrent|exclusive|automatic` (issue 12, item 4): the report says which
// mode ran, how many resources were created EXCLUSIVE and CONCURRENT, the ownership transfers, and
// for each CONCURRENT resource of automatic mode the reason. Lavapipe has one queue family: every
// object is EXCLUSIVE and nothing is transferred (the two-family pairs are checked by the runtime's
// Ownership.* tests and run on the H200, docs/h200-results.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_baton.hpp"

namespace baton::test {
namespace {

RunResult run_with(const std::string& args) {
  // The child runs lavapipe (see RunTimestamps: leaks of the unloaded driver cannot be named).
  return run_baton(std::string("ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" '") + BATON_CLI + "' " + args,
                   "/dev/null", true);
}

TEST(RunSharing, EveryModeRunsTheAsyncGraphCleanAndSaysSo) {
  for (const char* mode : {"concurrent", "exclusive", "automatic"}) {
    SCOPED_TRACE(mode);
    const RunResult r = run_with(std::string("run examples/async.json --format json --sharing ") + mode);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["hazards"], 0);
    EXPECT_EQ(j["mismatches"], 0);
    const nlohmann::json& s = j["sharing"];
    EXPECT_EQ(s["mode"], mode);
    EXPECT_EQ(s["exclusive"].get<int>() + s["concurrent"].get<int>(), 26) << s.dump();
    EXPECT_EQ(s["concurrent"].get<size_t>(), s["concurrent_resources"].size()) << s.dump();
    EXPECT_EQ(s["ownership_transfers"], 0) << "lavapipe has one family";
  }
  const RunResult text = run_with("run examples/async.json --sharing automatic");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("sharing: automatic: 26 resources exclusive, 0 concurrent, 0 ownership transfers"),
            std::string::npos)
      << text.out;
}

TEST(RunSharing, UnknownModesAndTheD3D12DeviceAreRefused) {
  const RunResult bad = run_baton("run examples/async.json --sharing sometimes");
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("--sharing"), std::string::npos) << bad.err;
  const RunResult d3d = run_baton("run examples/upload.json --device d3d12 --sharing exclusive");
  EXPECT_EQ(d3d.exit_code, 2) << d3d.out << d3d.err;
  EXPECT_NE(d3d.err.find("--sharing exclusive: Vulkan devices only"), std::string::npos) << d3d.err;
}

}  // namespace
}  // namespace baton::test
