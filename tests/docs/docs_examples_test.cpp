// Every example the documentation shows is a file under docs/examples/ (or examples/) that a test
// runs: a page marks a quoted block with `<!-- example: PATH -->` (whole file) or
// `<!-- example: PATH#region -->` (the lines between `// [region]` and `// [/region]`), and the block
// must be that text exactly. The JSON examples compile for every API, validate against the schema,
// and their emitted traces pass `baton validate`.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "mini_schema.hpp"

namespace baton {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = BATON_SOURCE_DIR;

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Result {
  int code = -1;
  std::string out, err;
};
Result run(const std::string& args) {
  const fs::path dir = fs::path(BATON_BINARY_DIR) / "tests" / "docs";
  fs::create_directories(dir);
  // Per process: ctest -j runs the tests of this file side by side.
  const std::string tag = std::to_string(::getpid());
  const fs::path out = dir / ("out_" + tag + ".txt"), err = dir / ("err_" + tag + ".txt");
  const std::string cmd = std::string(BATON_CLI) + " " + args + " >" + out.string() + " 2>" + err.string();
  const int status = std::system(cmd.c_str());
  Result r{WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(out), read_text(err)};
  fs::remove(out);
  fs::remove(err);
  return r;
}

std::vector<fs::path> json_examples() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kRoot / "docs" / "examples"))
    if (e.path().extension() == ".json" && e.path().filename().string().find("trace") == std::string::npos)
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The text of `// [region]` .. `// [/region]` (exclusive) in a file.
std::string region(const std::string& text, const std::string& name) {
  const std::string open = "// [" + name + "]\n", close = "// [/" + name + "]";
  const size_t a = text.find(open), b = text.find(close);
  if (a == std::string::npos || b == std::string::npos || b < a) return "(region '" + name + "' not found)";
  return text.substr(a + open.size(), b - a - open.size());
}

struct Quote {
  std::string page, path, block;
};
// Every marked block of every page in docs/.
std::vector<Quote> quotes() {
  std::vector<Quote> out;
  const std::regex marker(R"(<!-- example: ([^ ]+) -->\n```[a-z]*\n)");
  for (const auto& e : fs::directory_iterator(kRoot / "docs")) {
    if (e.path().extension() != ".md") continue;
    const std::string text = read_text(e.path());
    for (auto it = std::sregex_iterator(text.begin(), text.end(), marker); it != std::sregex_iterator();
         ++it) {
      const size_t start = static_cast<size_t>(it->position(0) + it->length(0));
      const size_t end = text.find("```", start);
      out.push_back({e.path().filename().string(), (*it)[1].str(), text.substr(start, end - start)});
    }
  }
  return out;
}

TEST(DocsExamples, QuotedBlocksAreTheFilesTheTestsRun) {
  const std::vector<Quote> q = quotes();
  EXPECT_GE(q.size(), 6u) << "escape-hatches.md, triage-guide.md and integration.md quote their examples";
  std::set<std::string> quoted;
  for (const Quote& x : q) {
    const size_t hash = x.path.find('#');
    const fs::path file = kRoot / x.path.substr(0, hash);
    ASSERT_TRUE(fs::exists(file)) << x.page << " quotes missing " << x.path;
    const std::string text = read_text(file);
    const std::string want = hash == std::string::npos ? text : region(text, x.path.substr(hash + 1));
    EXPECT_EQ(x.block, want) << x.page << " quotes " << x.path << " but the text differs";
    quoted.insert(x.path.substr(0, hash));
  }
  for (const fs::path& p : json_examples())
    EXPECT_TRUE(quoted.count(fs::relative(p, kRoot).string())) << p << " is not quoted by any page";
}

TEST(DocsExamples, JsonExamplesValidateAgainstTheRecordingSchema) {
  std::ifstream in(kRoot / "docs" / "recording.schema.json");
  const docs_test::MiniSchema schema(nlohmann::json::parse(in));
  for (const fs::path& p : json_examples()) {
    std::ifstream f(p);
    const std::vector<std::string> errors = schema.validate(nlohmann::json::parse(f));
    EXPECT_TRUE(errors.empty()) << p << ": " << (errors.empty() ? "" : errors.front());
  }
}

TEST(DocsExamples, JsonExamplesCompileForEveryApi) {
  ASSERT_FALSE(json_examples().empty());
  for (const fs::path& p : json_examples())
    for (const char* api : {"d3d12", "d3d12-legacy", "vulkan"}) {
      const Result r = run("compile " + p.string() + " --api " + api);
      EXPECT_EQ(r.code, 0) << p << " " << api << ": " << r.err;
    }
}

// What each escape hatch is for, seen in the plan (Vulkan).
TEST(DocsExamples, EachEscapeHatchShowsInThePlan) {
  const fs::path ex = kRoot / "docs" / "examples";
  const Result full = run("compile " + (ex / "full_barrier.json").string() + " --api vulkan");
  EXPECT_NE(
      full.out.find(
          "(global)[all] ALL_COMMANDS MEMORY_WRITE -> ALL_COMMANDS MEMORY_READ|MEMORY_WRITE (full barrier)"),
      std::string::npos)
      << full.out;
  const Result entry = run("compile " + (ex / "entry_state.json").string() + " --api vulkan");
  EXPECT_NE(
      entry.out.find("exposure[all] COMPUTE_SHADER SHADER_STORAGE_READ|SHADER_STORAGE_WRITE GENERAL -> "),
      std::string::npos)
      << entry.out;
  EXPECT_NE(entry.out.find("(entry state)"), std::string::npos) << entry.out;
  const Result rest = run("compile " + (ex / "resting.json").string() + " --api vulkan");
  EXPECT_EQ(rest.out.find("(restore"), std::string::npos) << rest.out;
  // The same frame without the override restores the histogram at the end of each group.
  std::string plain = read_text(ex / "resting.json");
  plain.replace(plain.find(", \"resting\": \"unordered_access\""),
                std::string(", \"resting\": \"unordered_access\"").size(), "");
  const fs::path tmp = fs::path(BATON_BINARY_DIR) / "tests" / "docs" / "resting_default.json";
  std::ofstream(tmp) << plain;
  const Result def = run("compile " + tmp.string() + " --api vulkan");
  EXPECT_NE(def.out.find("(restore"), std::string::npos) << def.out;
}

bool have_validate() {
  return run("validate --help").code == 0;
}

// The plans Baton emits for the examples are clean under Baton's own validator.
TEST(DocsExamples, EmittedTracesValidateClean) {
  if (!have_validate()) GTEST_SKIP() << "baton built without the validator";
  const fs::path dir = fs::path(BATON_BINARY_DIR) / "tests" / "docs";
  for (const fs::path& p : json_examples())
    for (const char* api : {"d3d12", "d3d12-legacy", "vulkan"}) {
      const fs::path trace = dir / (p.stem().string() + "." + api + ".trace.json");
      const Result e = run("emit-trace " + p.string() + " --api " + api);
      ASSERT_EQ(e.code, 0) << p << " " << api << ": " << e.err;
      std::ofstream(trace) << e.out;
      const Result v = run("validate " + trace.string());
      EXPECT_EQ(v.code, 0) << p << " " << api << ":\n" << v.out << v.err;
    }
}

// The triage guide's broken trace: the message it walks through is the one the validator prints.
TEST(DocsExamples, TriageGuideTraceGivesTheMessageItExplains) {
  if (!have_validate()) GTEST_SKIP() << "baton built without the validator";
  const Result v = run("validate " + (kRoot / "docs" / "examples" / "triage_trace.json").string());
  EXPECT_EQ(v.code, 1) << v.out << v.err;
  const std::string guide = read_text(kRoot / "docs" / "triage-guide.md");
  std::istringstream lines(v.out);
  std::string first;
  std::getline(lines, first);
  EXPECT_EQ(first.rfind("error #", 0), 0u) << v.out;
  EXPECT_NE(guide.find(first), std::string::npos) << "the guide quotes the validator's message:\n" << first;
}

}  // namespace
}  // namespace baton
