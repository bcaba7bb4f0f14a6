// Golden plans of every example: `baton compile` of each examples/*.json in each API, with split
// barriers, and every phase's dump of each frame graph, compared byte for byte with
// tests/cli/golden/plans/. Performance work must leave plans byte-identical (issue 16); the small
// golden plans of tests/plan pin the invariants, these pin what users see on real frames.
// BATON_UPDATE_GOLDEN=1 rewrites the files instead (review the diff).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "run_baton.hpp"

namespace baton::test {
namespace {

namespace fs = std::filesystem;

const fs::path kGolden = fs::path(BATON_SOURCE_DIR) / "tests/cli/golden/plans";

std::vector<fs::path> examples() {
  std::vector<fs::path> v;
  for (const auto& e : fs::directory_iterator(fs::path(BATON_SOURCE_DIR) / "examples"))
    if (e.is_regular_file() && e.path().extension() == ".json") v.push_back(e.path());
  std::sort(v.begin(), v.end());
  return v;
}

// The first line where `got` and `want` differ, for a readable failure.
std::string first_difference(const std::string& got, const std::string& want) {
  size_t line = 1, i = 0;
  for (; i < got.size() && i < want.size() && got[i] == want[i]; ++i)
    if (got[i] == '\n') ++line;
  auto line_at = [](const std::string& s, size_t at) {
    const size_t b = s.rfind('\n', at == 0 ? 0 : at - 1);
    const size_t start = b == std::string::npos || at == 0 ? 0 : b + 1;
    return s.substr(start, s.find('\n', start) - start);
  };
  return "line " + std::to_string(line) + ":\n  got:  " + line_at(got, i) + "\n  want: " + line_at(want, i);
}

// Compares one `baton` command's stdout with the golden file `name`.txt.
void expect_golden_output(const std::string& args, const std::string& name) {
  const RunResult r = run_baton(args);
  ASSERT_EQ(r.exit_code, 0) << "baton " << args << ": " << r.err;
  const fs::path path = kGolden / (name + ".txt");
  if (std::getenv("BATON_UPDATE_GOLDEN")) {
    fs::create_directories(kGolden);
    std::ofstream(path, std::ios::binary) << r.out;
    return;
  }
  ASSERT_TRUE(fs::exists(path)) << "missing golden file " << path
                                << "; run with BATON_UPDATE_GOLDEN=1 and review the diff";
  const std::string want = slurp(path);
  EXPECT_TRUE(r.out == want) << "baton " << args << " differs from " << path << " at "
                             << first_difference(r.out, want);
}

bool is_graph(const fs::path& f) {
  // A frame graph has "passes"; a recording has "groups" (docs/graph-format.md).
  const std::string text = slurp(f);
  return text.find("\"passes\"") != std::string::npos;
}

TEST(ExamplePlans, EveryExampleInEveryApiIsTheGoldenPlan) {
  const auto files = examples();
  ASSERT_GE(files.size(), 10u);
  for (const fs::path& f : files)
    for (const char* api : {"d3d12", "d3d12-legacy", "vulkan"})
      expect_golden_output("compile examples/" + f.filename().string() + " --api " + api,
                           f.stem().string() + "." + api);
}

TEST(ExamplePlans, EveryExampleWithSplitBarriersIsTheGoldenPlan) {
  for (const fs::path& f : examples())
    for (const char* api : {"d3d12", "vulkan"})
      expect_golden_output("compile examples/" + f.filename().string() + " --api " + api + " --split-barriers on",
                           f.stem().string() + "." + api + ".split");
}

TEST(ExamplePlans, EveryPhaseOfEveryExampleGraphIsTheGoldenDump) {
  size_t graphs = 0;
  for (const fs::path& f : examples()) {
    if (!is_graph(f)) continue;
    ++graphs;
    for (const char* phase :
         {"validate", "cull", "schedule", "lifetimes", "aliasing", "transitions", "restores", "checks"})
      expect_golden_output("compile examples/" + f.filename().string() + " --dump " + phase,
                           f.stem().string() + ".dump." + phase);
  }
  EXPECT_GE(graphs, 3u) << "examples/ holds at least deferred, async and copy_graph as frame graphs";
}

}  // namespace
}  // namespace baton::test
