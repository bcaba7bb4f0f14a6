// `baton replay`: what the player cannot express is bad input (exit 2, one stderr line naming the
// trace entry, nothing on stdout), found before any device is made. The played cases (which need
// lavapipe) are in tests/exec/trace_player_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "run_baton.hpp"

namespace baton::test {
namespace {

RunResult replay(const std::string& trace, const std::string& extra = "") {
  const auto path =
      std::filesystem::temp_directory_path() / ("baton_replay_" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << trace;
  RunResult r = run_baton("replay '" + path.string() + "'" + extra);
  std::filesystem::remove(path);
  return r;
}

void expect_bad_input(const RunResult& r, const std::string& fragment) {
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("baton: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(fragment), std::string::npos) << r.err;
}

TEST(ReplayCli, UseThePlayerCannotExpressNamesTheEntry) {
  expect_bad_input(
      replay(R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"}],"lists":[{"name":"L","commands":[
      {"use":{"resource":"b","subresource":"all","as":{"stage":"FRAGMENT_SHADER","access":"SHADER_STORAGE_READ"}}}]}],
      "submissions":[{"queue":"g","lists":["L"]}]})"),
      "lists[0] 'L' commands[0]: the player cannot express this use of 'b'");
}

TEST(ReplayCli, UnknownKeyAndD3d12AreBadInput) {
  expect_bad_input(replay(R"({"api":"vulkan","resources":[],"lists":[],"submissions":[],"extra":1})"),
                   "extra");
  expect_bad_input(replay(R"({"api":"d3d12","resources":[],"lists":[],"submissions":[]})"),
                   "Vulkan traces only");
}

TEST(ReplayCli, UnknownDeviceIsUsage) {
  const RunResult r =
      replay(R"({"api":"vulkan","resources":[],"lists":[],"submissions":[]})", " --device d3d12");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace baton::test
