// What `baton` prints for good input: the demo, the text and JSON plans, and that every output is
// deterministic (invariant 8: the same input gives byte-identical plans).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <vector>

#include "run_baton.hpp"

namespace baton::test {
namespace {

using Json = nlohmann::json;

const std::vector<std::string> kApis = {"d3d12", "d3d12-legacy", "vulkan"};

// Recordings in examples/ are the JSON files that do not name another format's schema (the
// frame-graph examples there declare docs/graph.schema.json).
bool is_recording(const std::filesystem::path& p) {
  std::ifstream in(p);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object() || !j.contains("$schema")) return true;
  const std::string schema = j["$schema"].is_string() ? j["$schema"].get<std::string>() : "";
  return schema.ends_with("recording.schema.json");
}

std::vector<std::string> examples() {
  std::vector<std::string> out;
  for (const auto& e :
       std::filesystem::directory_iterator(std::filesystem::path(BATON_SOURCE_DIR) / "examples"))
    if (e.path().extension() == ".json" && is_recording(e.path()))
      out.push_back("examples/" + e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

RunResult ok(const std::string& args) {
  RunResult r = run_baton(args);
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  EXPECT_EQ(r.err, "") << args;
  return r;
}

TEST(Demo, NoArgumentsPlansAllThreeApisWithASummary) {
  const RunResult r = ok("");
  for (const std::string& api : kApis) {
    EXPECT_NE(r.out.find("plan for " + api + "\n"), std::string::npos) << api;
    EXPECT_TRUE(std::regex_search(r.out, std::regex("\n" + api + " +[0-9]+ +[0-9]+ +[0-9]+\n"))) << api;
  }
  for (const char* list : {"list shadow", "list gbuffer", "list ssao", "list lighting", "list particles",
                           "list taa", "list bloom", "list composite"})
    EXPECT_NE(r.out.find(list), std::string::npos) << list;
  EXPECT_NE(r.out.find("bloom_chain[mip 2]"), std::string::npos) << "bloom barriers are per mip";
  EXPECT_EQ(r.out, ok("demo").out) << "`baton demo` is the same as no arguments";
}

TEST(Demo, RecordingFlagPrintsTheExampleFile) {
  EXPECT_EQ(ok("demo --recording").out,
            slurp(std::filesystem::path(BATON_SOURCE_DIR) / "examples/demo.json"));
}

// The summary line of the text plan must agree with the JSON summary.
TEST(Compile, TextAndJsonAgreeOnTheSummary) {
  for (const std::string& file : examples()) {
    for (const std::string& api : kApis) {
      SCOPED_TRACE(file + " " + api);
      const std::string text = ok("compile " + file + " --api " + api).out;
      const Json j = Json::parse(ok("compile " + file + " --api " + api + " --format json").out);
      EXPECT_EQ(j["api"], api);
      size_t barriers = 0;
      for (const Json& l : j["lists"])
        for (const Json& p : l["points"])
          for (const Json& b : p["barriers"])
            if (!b["omitted"].get<bool>()) barriers += b["api_barriers"].get<size_t>();
      EXPECT_EQ(j["summary"]["barriers"].get<size_t>(), barriers);
      const std::string line = "summary: " + std::to_string(barriers) + " barriers in " +
                               std::to_string(j["summary"]["calls"].get<size_t>()) + " calls";
      EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
    }
  }
}

TEST(Compile, JsonHasTheDocumentedShape) {
  const Json j = Json::parse(ok("compile examples/minimal.json --format json --api vulkan").out);
  ASSERT_TRUE(j["lists"].is_array());
  ASSERT_FALSE(j["lists"].empty());
  const Json& l = j["lists"][0];
  EXPECT_EQ(l["name"], "main");
  EXPECT_EQ(l["group"], "frame");
  ASSERT_FALSE(l["points"].empty());
  const Json& p = l["points"][0];
  EXPECT_TRUE(p["op"].is_number_unsigned());
  EXPECT_TRUE(p["where"] == "before" || p["where"] == "after");
  ASSERT_FALSE(p["barriers"].empty());
  for (const char* key : {"resource", "range", "before", "after", "reason", "omitted"})
    EXPECT_TRUE(p["barriers"][0].contains(key)) << key;
  EXPECT_TRUE(j["summary"]["calls"].is_number_unsigned());
}

TEST(Compile, DefaultApiIsD3d12AndDefaultFormatIsText) {
  EXPECT_EQ(ok("compile examples/minimal.json").out,
            ok("compile examples/minimal.json --api d3d12 --format text").out);
}

TEST(Compile, ReadsStdin) {
  const RunResult r =
      run_baton("compile - --api vulkan", std::string(BATON_SOURCE_DIR) + "/examples/minimal.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, ok("compile examples/minimal.json --api vulkan").out);
}

TEST(Determinism, DemoAndEveryExampleGiveByteIdenticalOutputTwice) {
  const std::string demo = ok("").out;
  EXPECT_FALSE(demo.empty());
  EXPECT_EQ(demo, ok("").out);
  for (const std::string& file : examples()) {
    for (const std::string& api : kApis) {
      for (const char* format : {"text", "json"}) {
        SCOPED_TRACE(file + " " + api + " " + format);
        const std::string args = "compile " + file + " --api " + api + " --format " + format;
        const std::string first = ok(args).out;
        EXPECT_FALSE(first.empty());
        EXPECT_EQ(first, ok(args).out);
      }
    }
  }
}

}  // namespace
}  // namespace baton::test
