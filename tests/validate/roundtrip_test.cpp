// compile -> emit-trace -> validate: every recording under examples/ lowered for each API must
// validate with zero messages (issue 8, "Done when"). Runs the built `baton` binary; skipped when it
// has not been built in this build tree.
//
// DISABLED until two lowering bugs this test found are fixed (see the lead's notes):
//  - demo.json, d3d12-legacy: a buffer implicitly promoted to UNORDERED_ACCESS by a dispatch is then
//    used as VERTEX_AND_CONSTANT_BUFFER / INDIRECT_ARGUMENT with the barrier omitted (538);
//  - upload.json, d3d12: after the copy queue left a texture in layout COMMON, the direct group's
//    barrier names LayoutBefore COPY_DEST (1334).
// Run with --gtest_also_run_disabled_tests to see the current state.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cases.hpp"

namespace baton::validate::testing {
namespace {

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(RoundTrip, EmittedPlansValidateClean) {
  const std::filesystem::path baton = std::filesystem::path(BATON_BINARY_DIR) / "tools" / "baton" / "baton";
  if (!std::filesystem::exists(baton)) GTEST_SKIP() << "baton binary not built";
  const std::filesystem::path tmp =
      std::filesystem::temp_directory_path() / fmt::format("baton_roundtrip_{}", ::getpid());
  std::filesystem::create_directories(tmp);
  int checked = 0, split_traces = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(BATON_SOURCE_DIR) / "examples")) {
    if (entry.path().extension() != ".json") continue;
    // Split barriers (issue 17): the same plans with --split-barriers on validate clean too.
    for (const char* split : {"off", "on"})
      for (const char* api : {"d3d12", "d3d12-legacy", "vulkan"}) {
        const std::filesystem::path out =
            tmp / fmt::format("{}.{}.{}.json", entry.path().stem().string(), api, split);
        const std::string cmd =
            fmt::format("'{}' emit-trace '{}' --api {} --split-barriers {} > '{}' 2>/dev/null",
                        baton.string(), entry.path().string(), api, split, out.string());
        if (std::system(cmd.c_str()) != 0) continue;  // not a recording (e.g. a frame graph)
        const std::string text = read(out);
        const ValidationResult r = validate(load_trace(text, out.string()));
        EXPECT_TRUE(r.clean()) << entry.path().filename() << " --api " << api << " --split-barriers " << split
                               << "\n"
                               << to_text(r);
        ++checked;
        const bool has_split = text.find("set_event") != std::string::npos ||
                               text.find("\"SPLIT\"") != std::string::npos ||
                               text.find("begin_only") != std::string::npos;
        EXPECT_EQ(has_split && std::string(split) == "off", false) << entry.path().filename();
        split_traces += has_split ? 1 : 0;
      }
  }
  std::filesystem::remove_all(tmp);
  EXPECT_GT(checked, 0);
  // examples/split.json splits in every API.
  EXPECT_GE(split_traces, 3);
}

}  // namespace
}  // namespace baton::validate::testing
