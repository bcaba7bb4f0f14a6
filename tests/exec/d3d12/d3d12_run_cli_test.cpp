// `baton run FILE --device d3d12`: the supported example runs clean with the canary live; what
// vkd3d cannot run here is rejected with exit 2 naming where, before any device exists.
#ifdef BATON_CLI
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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

// A frame graph runs on --device d3d12 from its compiled frame: non-transient resources start at rest
// (entered from COMMON before the first group, so the legacy plan's first barriers leave the resting
// state and none is left to promotion from COMMON), transients each in an allocation of their own,
// which the memory object says instead of leaving it silent.
TEST(D3D12Cli, CopyGraphRunsCleanWithItsTransientsInAllocationsOfTheirOwn) {
  const RunResult r = run_baton("run examples/copy_graph.json --device d3d12 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["canary_live"].get<bool>());
  EXPECT_EQ(j["hazards"], 0);
  EXPECT_TRUE(j["validation_messages"].empty()) << j["validation_messages"].dump();
  EXPECT_EQ(j["mismatches"], 0);
  EXPECT_EQ(j["groups"], 1);  // every pass on the graphics queue (see docs/d3d12.md for why not async)
  EXPECT_EQ(j["operations"], 5);
  EXPECT_EQ(j["omitted_by_promotion"], 0);
  EXPECT_GT(j["subresources_checked"].get<int>(), 0);
  const nlohmann::json& m = j["memory"];
  EXPECT_EQ(m["heaps"], 0);
  EXPECT_EQ(m["placed"], 0);
  EXPECT_EQ(m["planned_placed"], 3);  // staging, scratch_a, scratch_b
  EXPECT_EQ(m["own_allocations"], 3);
  EXPECT_GT(m["planned_heap_bytes"].get<uint64_t>(), 0u);
  EXPECT_FALSE(m["why"].get<std::string>().empty());
  const RunResult t = run_baton("run examples/copy_graph.json --device d3d12");
  ASSERT_EQ(t.exit_code, 0) << t.err;
  EXPECT_NE(t.out.find("memory: 3 transients in 3 resources of their own"), std::string::npos) << t.out;
}

// Every frame graph in examples/ runs clean on lavapipe (the Vulkan path) and on --device d3d12 runs
// clean too, or is refused with exit 2 naming the pass (a graph's list) whose draws or dispatches
// vkd3d 1.2 cannot run here (no HLSL compiler, no DXBC shipped).
TEST(D3D12Cli, EveryExampleGraphRunsCleanOnBothPathsOrD3D12NamesThePassItCannotRun) {
  std::vector<std::string> graphs;
  for (const auto& e : std::filesystem::directory_iterator(std::string(BATON_SOURCE_DIR) + "/examples")) {
    if (e.path().extension() != ".json") continue;
    std::ifstream in(e.path());
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_object() && j.contains("passes")) graphs.push_back("examples/" + e.path().filename().string());
  }
  std::sort(graphs.begin(), graphs.end());
  ASSERT_GE(graphs.size(), 3u);
  size_t ran = 0;
  for (const std::string& f : graphs) {
    const RunResult v = run_baton("run " + f + " --format json");
    ASSERT_EQ(v.exit_code, 0) << f << " on lavapipe: " << v.out << v.err;
    const RunResult r = run_baton("run " + f + " --device d3d12 --format json");
    if (r.exit_code == 0) {
      const nlohmann::json j = nlohmann::json::parse(r.out);
      EXPECT_EQ(j["hazards"], 0) << f;
      EXPECT_TRUE(j["validation_messages"].empty()) << f << ": " << j["validation_messages"].dump();
      EXPECT_EQ(j["mismatches"], 0) << f;
      ++ran;
      continue;
    }
    ASSERT_EQ(r.exit_code, 2) << f << ": " << r.out << r.err;
    const nlohmann::json e = nlohmann::json::parse(r.err);
    const std::string msg = e["error"]["message"];
    EXPECT_EQ(e["error"]["file"], f) << r.err;
    EXPECT_NE(msg.find("not runnable on --device d3d12: group '"), std::string::npos) << msg;
    EXPECT_TRUE(msg.find("(draw)") != std::string::npos || msg.find("(dispatch)") != std::string::npos) << msg;
    EXPECT_TRUE(msg.find("need shaders") != std::string::npos) << msg;
  }
  EXPECT_GE(ran, 1u);  // examples/copy_graph.json at least
}

}  // namespace
}  // namespace baton::test
#endif
