// `baton run FILE --device d3d12`: the supported example runs clean with the canary live; what
// vkd3d cannot run here is rejected with exit 2 naming where, before any device exists.
#ifdef BATON_CLI
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_baton.hpp"

namespace baton::test {
namespace {

TEST(D3D12Cli, CopyFrameRunsCleanWithTheCanaryLive) {
  const RunResult r = run_baton("run examples/copy_frame.json --device d3d12 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["canary_live"].get<bool>());
  EXPECT_EQ(j["hazards"], 0);
  EXPECT_TRUE(j["validation_messages"].empty()) << j["validation_messages"].dump();
  EXPECT_EQ(j["mismatches"], 0);
  EXPECT_GT(j["subresources_checked"].get<int>(), 0);
  EXPECT_GT(j["barriers"].get<int>(), 0);
  EXPECT_GT(j["operations"].get<int>(), 0);
  // vkd3d prints its own "fixme:" notes (aliasing barriers, discards) on stderr; Baton adds nothing.
  EXPECT_EQ(r.err.find("baton:"), std::string::npos) << r.err;
}

TEST(D3D12Cli, TextReportNamesCanaryAndData) {
  const RunResult r = run_baton("run examples/copy_frame.json --device d3d12");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("canary: live"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("validation messages: 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" 0 mismatching"), std::string::npos) << r.out;
}

// The demo draws: exit 2, one line naming the group, list, op and resource; nothing on stdout.
TEST(D3D12Cli, DrawsAreRejectedNamingWhere) {
  const RunResult r = run_baton("run demo --device d3d12");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_NE(r.err.find("not runnable on --device d3d12"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("draw"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(D3D12Cli, EveryExampleEitherRunsCleanOrIsRejectedWithExit2) {
  for (const char* f : {"examples/minimal.json", "examples/upload.json", "examples/async_compute.json",
                        "examples/demo.json", "examples/copy_frame.json"}) {
    const RunResult r = run_baton(std::string("run ") + f + " --device d3d12 --format json");
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 2) << f << ": " << r.exit_code << " " << r.err;
    if (r.exit_code == 2) {
      EXPECT_NE(r.err.find(f), std::string::npos) << r.err;
    }
  }
}

}  // namespace
}  // namespace baton::test
#endif
