// Bad input never crashes and never prints partial output: exit code 2, exactly one line on
// stderr naming the file position (line:column or JSON path), group, list, op and resource, and
// nothing on stdout. One case per file in tests/cli/bad/: recordings and frame graphs go through
// `baton compile` (all three APIs), traces through `baton validate` (text and JSON). No command
// writes a file of its own (results go to stdout, built in memory and written only on success), so
// "no partial output file" is checked by redirecting stdout into a file in an empty directory: after
// the failure the directory holds that one file, empty.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <set>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_baton.hpp"

namespace baton::test {
namespace {

enum class Command { compile, validate };

struct BadCase {
  const char* file;
  std::vector<std::string> fragments;  // each must appear in the error line
  Command command = Command::compile;
};

constexpr Command kTrace = Command::validate;

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
        "[R0209]"}},
      {"illegal_stage_on_queue.json",
       {"resource 'color'", "(pixel,compute) cannot be performed on the compute queue [R0209]"}},
      {"conflicting_writes.json",
       {"/ops/0/uses/1:", "op 0 (draw)", "resource 'color'", "use 0 (render_target)",
        "use 1 (unordered_access)", "[R0302]"}},
      {"write_read_conflict.json",
       {"op 0 (dispatch)", "resource 'color'", "use 0 (shader_resource)", "use 1 (unordered_access)",
        "[R0302]"}},
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
      {"missing_stages.json", {"op 0 (dispatch)", "resource 'buf'", "[R0207]"}},
      {"buffer_access_on_texture.json", {"resource 'color'", "[R0202]"}},
      // The rules catalog (include/core/baton/rules.hpp), the same in the graph loader as in recordings.
      {"planes_on_color.json", {"/resources/0/planes:", "resource 'color'", "[R0105]"}},
      {"simultaneous_on_depth.json", {"/resources/0/simultaneous_access:", "resource 'depth'", "[R0106]"}},
      {"present_mixed_with_read.json", {"/ops/0/uses/1:", "resource 'backbuffer'", "[R0303]"}},
      {"graph_depth_resting_on_color.json", {"/resources/0/resting:", "resource 'color'", "[R0204]"}},
      {"graph_present_resting_not_swapchain.json", {"/resources/0/resting:", "resource 'color'", "[R0203]"}},
      {"graph_use_not_in_usage.json",
       {"/passes/0/uses/0/access:", "pass 'p'", "resource 'color'", "[R0206]"}},
      {"graph_planes_on_color.json", {"/resources/0/planes:", "resource 'color'", "[R0105]"}},
      {"graph_simultaneous_on_depth.json",
       {"/resources/0/simultaneous_access:", "resource 'depth'", "[R0106]"}},
      {"huge_mips.json", {"/resources/0/mips:", "resource 'color'", "2147483647 is out of range [1, 9]"}},
      {"range_overflow.json",
       {"/uses/0/layers/0:", "op 0 (dispatch)", "resource 'color'", "4294967295 is out of range"}},
      {"range_past_end_layers.json",
       {"/uses/0:", "op 0 (dispatch)", "resource 'color'", "layer range [3, 5) is out of bounds (it has 4)"}},
      {"zero_width.json", {"/resources/0/width:", "resource 'color'", "0 is out of range [1, 65536]"}},
      {"uses_not_array.json", {"/ops/0/uses:", "op 0 (draw)", "expected an array, found object"}},
      // The input gate (include/core/baton/input.hpp), the same for every format.
      {"nul_byte.json", {"nul_byte.json:4:2:", "NUL byte at offset 37"}},
      {"number_overflow.json",
       {"number_overflow.json:2:63:", "JSON syntax error", "number overflow parsing '1e400'"}},
      {"too_deep.json", {"too_deep.json:1:270:", "nested deeper than 256 arrays and objects"}},
      {"long_name.json", {"resource 'xxxxxxxx", "xxx...xxx", "xxxEND'", "unknown resource"}},
      // Frame graphs (docs/graph-format.md).
      {"graph_cycle.json",
       {"graph_cycle.json:/passes/0/after: pass 'p1'", "dependency cycle 'p1' -> 'p2' -> 'p1'",
        "resource 'a'"}},
      {"graph_unknown_resource.json",
       {"/passes/0/uses/0/resource:", "pass 'lighting'", "resource 'gbuffer'", "unknown resource"}},
      {"graph_culled_output.json",
       {"graph_culled_output.json:/outputs/0: output 'b'", "no pass writes it", "culled"}},
      {"graph_duplicate_pass.json", {"/passes/1/name:", "pass 'blur' declared twice"}},
      {"graph_transient_read_before_write.json",
       {"graph_transient_read_before_write.json:/passes/0/uses/0: pass 'p'", "resource 't'",
        "transient resource read before any pass writes it"}},
      {"graph_unknown_pass_in_after.json", {"/passes/0/after/0:", "pass 'p'", "unknown pass 'shadow'"}},
      {"graph_duplicate_key.json",
       {"graph_duplicate_key.json:/passes/0/name:",
        "key 'name' appears twice in one object (line 4, column 19)"}},
      {"graph_nul_byte.json", {"graph_nul_byte.json:3:14:", "NUL byte at offset 34"}},
      // The graph's own rules (R05xx), from the validator and the transitions phase: file, pointer, id.
      {"graph_ambiguous_write_order.json",
       {"graph_ambiguous_write_order.json:/passes/1: pass 'w2', resource 'a'", "ambiguous write order",
        "[R0503]"}},
      {"graph_transient_output.json",
       {"graph_transient_output.json:/outputs/0: pass 'p', output 't'", "[R0506]"}},
      {"graph_reads_on_two_queues.json",
       {"graph_reads_on_two_queues.json:/passes/", "/uses/0: pass '", "resource 'a'",
        "read on several queues", "[R0507]"}},
      {"graph_huge_count.json",
       {"/resources/0/count:", "resource 'emitters'", "2147483647 is outside [1, 4096]"}},
      // API-level traces (docs/trace-format.md).
      {"trace_unknown_resource.json",
       {"trace_unknown_resource.json:/lists/0/commands/0/use/resource:", "unknown resource 'lightz'"},
       kTrace},
      {"trace_unknown_state.json",
       {"/lists/0/commands/0/barrier/0/after:", "unknown D3D12_RESOURCE_STATES 'SHADER_RESOURCE'"},
       kTrace},
      {"trace_subresource_out_of_range.json",
       {"/lists/0/commands/0/use/subresource:",
        "subresource 4 out of range for resource 'tex' (4 subresources)"},
       kTrace},
      {"trace_range_past_end.json",
       {"/lists/0/commands/0/use/range/mips:", "out of range for resource 'img' (4 mips)"},
       kTrace},
      {"trace_duplicate_list.json",
       {"trace_duplicate_list.json:/lists/1/name:", "duplicate list 'L'"},
       kTrace},
      {"trace_unknown_list.json",
       {"trace_unknown_list.json:/submissions/0/lists/1:", "unknown list 'M'"},
       kTrace},
      {"trace_truncated.json",
       {"trace_truncated.json:6:1:", "JSON syntax error", "unexpected end of input"},
       kTrace},
      {"trace_huge_mips.json", {"trace_huge_mips.json:/resources/0:", "too many subresources"}, kTrace},
      {"trace_misspelt_subresource.json",
       {"/lists/0/commands/0/use: unknown key 'subresorce' (expected one of: resource, subresource, range, "
        "as)"},
       kTrace},
      {"trace_duplicate_key.json",
       {"trace_duplicate_key.json:/resources/0/initial:", "key 'initial' appears twice"},
       kTrace},
      {"trace_control_in_name.json",
       {"/resources/0/name: a name must not contain control characters"},
       kTrace},
      {"trace_number_overflow.json",
       {"trace_number_overflow.json:3:45:", "number overflow parsing '1e400'"},
       kTrace},
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

// The command lines a case runs: every API for compile, both formats for validate.
std::vector<std::string> command_lines(const BadCase& c, const std::string& path) {
  if (c.command == Command::validate) return {"validate " + path, "validate " + path + " --format json"};
  std::vector<std::string> lines;
  for (const char* api : {"d3d12", "d3d12-legacy", "vulkan"}) lines.push_back("compile " + path + " --api " + api);
  return lines;
}

TEST_P(BadInput, ExitsWithCodeTwoAndOneNamedErrorLine) {
  const BadCase& c = GetParam();
  const std::string path = std::string("tests/cli/bad/") + c.file;
  for (const std::string& line : command_lines(c, path)) {
    SCOPED_TRACE(line);
    const RunResult r = run_baton(line);
    if (line.find("--format json") != std::string::npos) {
      // With --format json the one error line is a JSON object (issue 13): the same message, and
      // the file it names.
      EXPECT_EQ(r.exit_code, 2);
      EXPECT_EQ(r.out, "") << "stdout must stay empty on error";
      ASSERT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
      const nlohmann::json j = nlohmann::json::parse(r.err);
      EXPECT_EQ(j["error"]["id"], "bad_input");
      EXPECT_EQ(j["error"]["file"], path) << r.err;
      const std::string m = j["error"]["message"];
      for (const std::string& f : c.fragments) EXPECT_NE(m.find(f), std::string::npos) << "missing '" << f << "' in: " << m;
      continue;
    }
    std::vector<std::string> fragments = c.fragments;
    fragments.push_back("baton: error: " + path + ":");
    expect_one_error_line(r, fragments);
  }
}

// A broken legality rule is reported with its catalog id as the JSON error's id (issue 13), from
// recordings and from frame graphs; other bad input keeps the class id.
TEST(BadInputJson, RuleIdIsTheErrorId) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"conflicting_writes.json", "R0302"},           {"illegal_access_on_queue.json", "R0209"},
      {"graph_depth_resting_on_color.json", "R0204"}, {"graph_use_not_in_usage.json", "R0206"},
      {"graph_ambiguous_write_order.json", "R0503"},  {"graph_reads_on_two_queues.json", "R0507"},
      {"duplicate_resource.json", "bad_input"},
  };
  for (const auto& [file, id] : cases) {
    const RunResult r = run_baton("compile tests/cli/bad/" + file + " --format json");
    ASSERT_EQ(r.exit_code, 2) << file;
    const nlohmann::json j = nlohmann::json::parse(r.err);
    EXPECT_EQ(j["error"]["id"], id) << r.err;
    EXPECT_EQ(j["error"]["file"], "tests/cli/bad/" + file) << r.err;
  }
}

// JSON errors name the JSON pointer or the line and column the message gives.
TEST(BadInputJson, PointerAndPosition) {
  const RunResult p = run_baton("compile tests/cli/bad/duplicate_resource.json --format json");
  ASSERT_EQ(p.exit_code, 2);
  const nlohmann::json jp = nlohmann::json::parse(p.err);
  EXPECT_EQ(jp["error"]["pointer"], "/resources/2/name") << p.err;
  const RunResult l = run_baton("compile tests/cli/bad/empty.json --format json");
  const nlohmann::json jl = nlohmann::json::parse(l.err);
  EXPECT_EQ(jl["error"]["line"], 1) << l.err;
  EXPECT_EQ(jl["error"]["column"], 1) << l.err;
  EXPECT_EQ(run_baton("compile tests/cli/bad/empty.json").err.rfind("baton: error: ", 0), 0u);
}

TEST_P(BadInput, LeavesNoPartialOutputFile) {
  const BadCase& c = GetParam();
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("baton_bad_output_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = std::string(BATON_SOURCE_DIR) + "/tests/cli/bad/" + c.file;
  const std::string line = command_lines(c, "'" + path + "'").front();
  const std::string cmd = "cd '" + dir.string() + "' && '" BATON_CLI "' " + line + " >out.txt 2>/dev/null";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << "killed by a signal: " << line;
  EXPECT_EQ(WEXITSTATUS(status), 2) << line;
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(dir)) left.push_back(e.path().filename().string());
  EXPECT_EQ(left, std::vector<std::string>{"out.txt"}) << "files left behind by: " << line;
  EXPECT_EQ(fs::file_size(dir / "out.txt"), 0u) << "partial output from: " << line;
  fs::remove_all(dir);
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
  EXPECT_GE(cases.size(), 30u);
}

TEST(BadUsage, MissingFileIsOneLine) {
  expect_one_error_line(run_baton("compile tests/cli/bad/does_not_exist.json"),
                        {"tests/cli/bad/does_not_exist.json:", "cannot read"});
}

TEST(BadUsage, DirectoryIsOneLine) {
  expect_one_error_line(run_baton("compile tests/cli"), {"tests/cli: cannot read: a directory"});
}

// Every command reads through the one input gate: a FIFO (which would block), a directory and the
// zero device (which never ends) are refused at once, naming the file, with exit code 2.
TEST(BadUsage, EveryCommandRefusesWhatIsNotARegularFile) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("baton_gate_cli_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string fifo = (dir / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::string rec = "examples/minimal.json";
  const RunResult help = run_baton("--help");
  const bool has_run = help.out.find("  run ") != std::string::npos;
  for (const std::string& bad : {fifo, dir.string(), std::string("/dev/zero")}) {
    const std::string why = bad == fifo          ? "a FIFO (named pipe)"
                            : bad == "/dev/zero" ? "a character device"
                                                 : "a directory";
    std::vector<std::string> lines = {
        "compile " + bad,    "compile " + bad + " --dot", "view " + bad + " -o " + (dir / "v.html").string(),
        "emit-trace " + bad, "validate " + bad,           "validate --compare " + bad + " " + bad,
        "triage " + bad,     "triage " + rec + " " + bad};
    if (has_run) lines.push_back("run " + bad);
    for (const std::string& line : lines) {
      SCOPED_TRACE(line);
      expect_one_error_line(run_baton("timeout 20 '" BATON_CLI "' " + line, "/dev/null", /*raw=*/true),
                            {bad + ": cannot read: " + why + ", only regular files are read"});
    }
  }
  fs::remove_all(dir);
}

// The 256 MiB limit holds for standard input too (it used to be checked on paths only).
TEST(BadUsage, StandardInputLargerThanTheLimitIsRefused) {
  for (const char* cmd : {"compile -", "validate -", "view - -o -"}) {
    SCOPED_TRACE(cmd);
    const RunResult r =
        run_baton(std::string("head -c 268435457 /dev/zero | '" BATON_CLI "' ") + cmd, "/dev/null",
                  /*raw=*/true);
    expect_one_error_line(r, {"<stdin>: cannot read: larger than 256 MiB"});
  }
}

TEST(BadUsage, StandardInputWorksForEveryFileArgument) {
  const std::string rec = std::string(BATON_SOURCE_DIR) + "/examples/minimal.json";
  EXPECT_EQ(run_baton("emit-trace -", rec).exit_code, 0);
  EXPECT_EQ(run_baton("triage - --api vulkan", rec).exit_code, 0);
}

// A name cannot make an error line huge: it is elided in the middle and the line bounded.
TEST(BadUsage, ErrorLinesAreBounded) {
  const RunResult r = run_baton("compile tests/cli/bad/long_name.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_LT(r.err.size(), 400u) << r.err;
  EXPECT_NE(r.err.find("END'"), std::string::npos) << r.err;  // the end of the name is kept
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
