// Bad input never crashes and never prints partial output: exit code 2, exactly one line on
// stderr naming the file position (line:column or JSON path), group, list, op and resource, and
// nothing on stdout. One case per file in tests/cli/bad/.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

#include "run_baton.hpp"

namespace baton::test {
namespace {

struct BadCase {
  const char* file;
  std::vector<std::string> fragments;  // each must appear in the error line
};

const std::vector<BadCase>& bad_cases() {
  static const std::vector<BadCase> cases = {
      {"malformed.json", {"malformed.json:3:27:", "JSON syntax error", "expected '}'"}},
      {"truncated.json", {"truncated.json:10:3:", "unexpected end of input"}},
      {"empty.json", {"empty.json:1:1:", "JSON syntax error"}},
      {"invalid_utf8.json", {"invalid_utf8.json:1:26:", "ill-formed UTF-8"}},
      {"duplicate_key.json", {"duplicate_key.json:/groups:", "key 'groups' appears twice"}},
      {"not_an_object.json", {"not_an_object.json:/:", "expected an object, found array"}},
      {"unknown_resource.json",
       {"/groups/0/lists/0/ops/1/uses/0/resource:", "group 'frame'", "list 'main'", "op 1 (dispatch)",
        "resource 'colour'", "unknown resource"}},
      {"range_out_of_bounds.json",
       {"/groups/0/lists/0/ops/1/uses/0:", "op 1 (dispatch)", "resource 'color'",
        "mip range [2, 6) is out of bounds"}},
      {"illegal_access_on_queue.json",
       {"/ops/0/uses/0/access:", "group 'frame'", "list 'main'", "op 0 (draw)", "resource 'color'",
        "render_target is illegal on a compute queue"}},
      {"illegal_stage_on_queue.json",
       {"resource 'color'", "in stages pixel,compute is illegal on a compute queue"}},
      {"conflicting_writes.json",
       {"/ops/0/uses/1:", "op 0 (draw)", "resource 'color'", "conflicting writes in one op",
        "use 0 (render_target)", "use 1 (unordered_access)"}},
      {"write_read_conflict.json",
       {"op 0 (dispatch)", "resource 'color'", "conflicting write and read in one op",
        "use 0 (shader_resource)", "use 1 (unordered_access)"}},
      {"duplicate_resource.json", {"/resources/2/name:", "resource 'buf'", "declared twice"}},
      {"duplicate_group.json", {"/groups/1/name:", "group 'frame'", "group name used twice"}},
      {"list_named_twice.json",
       {"/groups/1/lists/0/name:", "group 'frame_b'", "list 'main'", "already used in group 'frame_a'"}},
      {"wrong_type.json", {"/resources/0/width:", "resource 'color'", "expected an integer", "found string"}},
      {"unknown_access.json", {"/uses/0/access:", "op 0 (draw)", "unknown access 'render-target'"}},
      {"unknown_kind.json", {"/ops/0/kind:", "list 'main'", "unknown op kind 'blit'"}},
      {"unknown_queue.json", {"/groups/0/queue:", "group 'frame'", "unknown queue 'graphics'"}},
      {"unknown_key.json", {"/uses/0/mip:", "resource 'color'", "unknown key 'mip'"}},
      {"negative_size.json", {"/resources/1/size:", "resource 'buf'", "negative number -1024"}},
      {"huge_count.json", {"/resources/0/layers:", "resource 'color'", "2147483648 is out of range"}},
      {"missing_stages.json", {"op 0 (dispatch)", "resource 'buf'", "needs \"stages\""}},
      {"buffer_access_on_texture.json", {"resource 'color'", "vertex_buffer is for buffers"}},
  };
  return cases;
}

void expect_one_error_line(const RunResult& r, const std::vector<std::string>& fragments) {
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "") << "stdout must stay empty on error";
  ASSERT_FALSE(r.err.empty());
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.back(), '\n');
  EXPECT_EQ(r.err.rfind("baton: error: ", 0), 0u) << r.err;
  for (const std::string& f : fragments)
    EXPECT_NE(r.err.find(f), std::string::npos) << "missing '" << f << "' in: " << r.err;
}

class BadInput : public ::testing::TestWithParam<BadCase> {};

TEST_P(BadInput, ExitsWithCodeTwoAndOneNamedErrorLine) {
  const BadCase& c = GetParam();
  const std::string path = std::string("tests/cli/bad/") + c.file;
  for (const char* api : {"d3d12", "d3d12-legacy", "vulkan"}) {
    SCOPED_TRACE(api);
    const RunResult r = run_baton("compile " + path + " --api " + api);
    std::vector<std::string> fragments = c.fragments;
    fragments.push_back("baton: error: " + path + ":");
    expect_one_error_line(r, fragments);
  }
}

INSTANTIATE_TEST_SUITE_P(Files, BadInput, ::testing::ValuesIn(bad_cases()),
                         [](const ::testing::TestParamInfo<BadCase>& param_info) {
                           std::string name = param_info.param.file;
                           name = name.substr(0, name.find('.'));
                           return name;
                         });

TEST(BadInputFiles, EveryFileHasACaseAndEveryCaseAFile) {
  std::set<std::string> files, cases;
  for (const auto& e :
       std::filesystem::directory_iterator(std::filesystem::path(BATON_SOURCE_DIR) / "tests/cli/bad"))
    files.insert(e.path().filename().string());
  for (const BadCase& c : bad_cases()) cases.insert(c.file);
  EXPECT_EQ(files, cases);
  EXPECT_GE(cases.size(), 15u);
}

TEST(BadUsage, MissingFileIsOneLine) {
  expect_one_error_line(run_baton("compile tests/cli/bad/does_not_exist.json"),
                        {"tests/cli/bad/does_not_exist.json:", "cannot read"});
}

TEST(BadUsage, DirectoryIsOneLine) {
  expect_one_error_line(run_baton("compile tests/cli"), {"tests/cli:", "cannot read"});
}

TEST(BadUsage, UnknownApiIsOneLine) {
  expect_one_error_line(run_baton("compile examples/minimal.json --api metal"), {"--api", "metal"});
}

TEST(BadUsage, UnknownFormatIsOneLine) {
  expect_one_error_line(run_baton("compile examples/minimal.json --format yaml"), {"--format", "yaml"});
}

TEST(BadUsage, MissingFileArgumentIsOneLine) {
  expect_one_error_line(run_baton("compile"), {"file"});
}

TEST(BadUsage, UnknownSubcommandIsOneLine) {
  expect_one_error_line(run_baton("frobnicate"), {"frobnicate"});
}

TEST(BadUsage, BadInputOnStdinIsOneLine) {
  expect_one_error_line(
      run_baton("compile -", std::string(BATON_SOURCE_DIR) + "/tests/cli/bad/unknown_resource.json"),
      {"<stdin>:/groups/0/lists/0/ops/1/uses/0/resource:", "resource 'colour'"});
}

TEST(Help, GoesToStdoutWithExitCodeZero) {
  const RunResult r = run_baton("--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("compile"), std::string::npos);
  EXPECT_EQ(r.err, "");
}

}  // namespace
}  // namespace baton::test
