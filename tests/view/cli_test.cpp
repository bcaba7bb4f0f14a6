// `baton view` and `baton compile --dot` as commands: exit codes, one-line errors, and no partial
// output file when anything fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "view_support.hpp"

namespace baton::view {
namespace {

namespace fs = std::filesystem;
using test::Result;

std::string cli() {
  return BATON_CLI;
}
std::string src(const std::string& rel) {
  return (fs::path(BATON_SOURCE_DIR) / rel).string();
}

size_t lines(const std::string& s) {
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

TEST(ViewCli, WritesOnePageAndNothingElse) {
  const auto dir = test::scratch("ok");
  const Result r = test::run(
      cli() + " view " + src("examples/deferred.json") + " -o " + (dir / "f.html").string() + " --api vulkan",
      dir);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const std::string page = test::read_text(dir / "f.html");
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find(R"("api":"vulkan")"), std::string::npos);
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir))
    files += e.path().extension() == ".html" || e.path().string().find(".tmp-") != std::string::npos;
  EXPECT_EQ(files, 1u) << "no temporary file left behind";
}

// --api picks the one lowering the page embeds (only it is computed); --api all embeds the three.
TEST(ViewCli, LowersOnlyTheApiAskedFor) {
  const auto dir = test::scratch("one_api");
  const auto lowerings = [&](const std::string& api) {
    const Result r = test::run(cli() + " view " + src("examples/deferred.json") + " -o " +
                                   (dir / "f.html").string() + " --api " + api,
                               dir);
    EXPECT_EQ(r.code, 0) << r.err;
    const std::string page = test::read_text(dir / "f.html");
    const std::string open = R"(<script type="application/json" id="baton-data">)";
    const size_t a = page.find(open), b = page.find("</script", a);
    const nlohmann::json data = nlohmann::json::parse(page.substr(a + open.size(), b - a - open.size()));
    std::vector<std::string> names;
    for (const auto& [k, v] : data["lowerings"].items()) names.push_back(k);
    return names;
  };
  EXPECT_EQ(lowerings("d3d12-legacy"), std::vector<std::string>{"d3d12-legacy"});
  EXPECT_EQ(lowerings("vulkan"), std::vector<std::string>{"vulkan"});
  EXPECT_EQ(lowerings("all"), (std::vector<std::string>{"d3d12", "d3d12-legacy", "vulkan"}));
}

TEST(ViewCli, BadInputExitsTwoWithOneLineAndNoFile) {
  const auto dir = test::scratch("bad");
  std::ofstream(dir / "broken.json") << "{\"groups\": [{\"name\": \"g\", \"queue\": \"direct\", \"lists\": [";
  const auto out = dir / "f.html";
  for (const std::string& input : {(dir / "broken.json").string(), (dir / "missing.json").string(),
                                   src("tests/cli/bad/unknown_access.json")}) {
    const Result r = test::run(cli() + " view " + input + " -o " + out.string(), dir);
    EXPECT_EQ(r.code, 2) << input;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_EQ(r.err.rfind("baton: error: ", 0), 0u) << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(fs::exists(out)) << input;
  }
}

TEST(ViewCli, AFailedWriteKeepsTheOldFileAndLeavesNoTemporary) {
  const auto dir = test::scratch("keep");
  const auto out = dir / "f.html";
  std::ofstream(out) << "old";
  // An output in a folder that does not exist cannot be written: exit 2, nothing created.
  const Result r = test::run(
      cli() + " view " + src("examples/minimal.json") + " -o " + (dir / "nope" / "f.html").string(), dir);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(lines(r.err), 1u) << r.err;
  EXPECT_FALSE(fs::exists(dir / "nope"));
  // Bad input over an existing page leaves the page as it was.
  const Result bad =
      test::run(cli() + " view " + (dir / "missing.json").string() + " -o " + out.string(), dir);
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(test::read_text(out), "old");
}

// -o never replaces the input (by its own path, another path or a hard link) and never writes
// through a symbolic link: not into the file it names, not over the link itself.
TEST(ViewCli, OutputNeverReplacesTheInputOrFollowsALink) {
  const auto dir = test::scratch("guard");
  const std::string rec = test::example("minimal.json");
  std::ofstream(dir / "rec.json") << rec;
  std::ofstream(dir / "victim.txt") << "victim";
  fs::create_hard_link(dir / "rec.json", dir / "hard.json");
  fs::create_symlink(dir / "victim.txt", dir / "link.html");
  struct Case {
    std::string out, why;
  };
  const std::vector<Case> cases = {
      {(dir / "rec.json").string(), "it is the input file"},
      {(dir / "." / "rec.json").string(), "it is the input file"},
      {(dir / "hard.json").string(), "it is the input file"},
      {(dir / "link.html").string(), "a symbolic link"},
      {dir.string(), "not a regular file"},
  };
  for (const Case& c : cases) {
    const Result r = test::run(cli() + " view " + (dir / "rec.json").string() + " -o " + c.out, dir);
    EXPECT_EQ(r.code, 2) << c.out;
    EXPECT_EQ(lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(c.out + ": cannot write: " + c.why), std::string::npos) << r.err;
  }
  EXPECT_EQ(test::read_text(dir / "rec.json"), rec);
  EXPECT_EQ(test::read_text(dir / "victim.txt"), "victim");
  EXPECT_TRUE(fs::is_symlink(dir / "link.html"));
  // A regular file that is not the input is replaced, and no temporary is left.
  std::ofstream(dir / "page.html") << "old";
  const Result ok =
      test::run(cli() + " view " + (dir / "rec.json").string() + " -o " + (dir / "page.html").string(), dir);
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(test::read_text(dir / "page.html").rfind("<!DOCTYPE html>", 0), 0u);
  for (const auto& e : fs::directory_iterator(dir))
    EXPECT_EQ(e.path().string().find(".tmp-"), std::string::npos) << e.path();
}

TEST(ViewCli, UsageErrorsExitTwo) {
  const auto dir = test::scratch("usage");
  const Result no_out = test::run(cli() + " view " + src("examples/minimal.json"), dir);
  EXPECT_EQ(no_out.code, 2);
  EXPECT_EQ(lines(no_out.err), 1u) << no_out.err;
  const Result bad_api =
      test::run(cli() + " view " + src("examples/minimal.json") + " -o x.html --api metal", dir);
  EXPECT_EQ(bad_api.code, 2);
  EXPECT_EQ(lines(bad_api.err), 1u) << bad_api.err;
}

TEST(DotCli, PrintsADigraphOnStdout) {
  const auto dir = test::scratch("dot_cli");
  const Result r =
      test::run(cli() + " compile " + src("examples/minimal.json") + " --dot --api d3d12-legacy", dir);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("digraph frame {", 0), 0u);
  EXPECT_NE(r.out.find("RENDER_TARGET -> COMMON"), std::string::npos) << "the legacy present transition";
  EXPECT_EQ(r.err, "");
  const Result both =
      test::run(cli() + " compile " + src("examples/deferred.json") + " --dot --dump schedule", dir);
  EXPECT_EQ(both.code, 2);
  EXPECT_EQ(lines(both.err), 1u);
}

}  // namespace
}  // namespace baton::view
