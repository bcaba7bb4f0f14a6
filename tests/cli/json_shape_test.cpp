// One JSON shape for both inputs (issue 13): `baton compile --format json` of a recording and of a
// frame graph have the same keys (a graph's passes are lists of the one planner), the graph adds
// only what it alone has; every dump honours --format json, and --dot refuses it.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "run_baton.hpp"

namespace baton::test {
namespace {

using Json = nlohmann::json;

Json compile_json(const std::string& file, const std::string& api) {
  const RunResult r = run_baton("compile " + file + " --api " + api + " --format json");
  EXPECT_EQ(r.exit_code, 0) << file << " " << api << ": " << r.err;
  return Json::parse(r.out);
}

void expect_keys(const Json& j, std::initializer_list<const char*> keys, const std::string& what) {
  for (const char* k : keys) EXPECT_TRUE(j.contains(k)) << what << " lacks '" << k << "': " << j.dump();
}

void expect_common_shape(const Json& j, const std::string& what) {
  expect_keys(j, {"api", "input", "groups", "lists", "summary"}, what);
  const std::set<std::string> queues = {"graphics", "compute", "copy"};
  size_t lists = 0, barriers = 0;
  for (const Json& g : j["groups"]) {
    expect_keys(g, {"name", "queue", "lists"}, what + " group");
    EXPECT_TRUE(queues.contains(g["queue"].get<std::string>())) << what << ": " << g["queue"];
    // The group names its lists, which follow in `lists` in the same order.
    for (const Json& name : g["lists"]) {
      ASSERT_LT(lists, j["lists"].size()) << what;
      EXPECT_EQ(j["lists"][lists]["name"], name) << what;
      EXPECT_EQ(j["lists"][lists]["group"], g["name"]) << what;
      ++lists;
    }
  }
  EXPECT_EQ(lists, j["lists"].size()) << what;
  for (const Json& l : j["lists"]) {
    expect_keys(l, {"name", "group", "queue", "points"}, what + " list");
    EXPECT_TRUE(queues.contains(l["queue"].get<std::string>())) << what << ": " << l["queue"];
    for (const Json& p : l["points"]) {
      expect_keys(p, {"op", "kind", "where", "call", "barriers"}, what + " point");
      for (const Json& b : p["barriers"]) {
        expect_keys(b, {"resource", "range", "before", "after", "reason", "omitted", "api_barriers"},
                    what + " barrier");
        EXPECT_TRUE(b["omitted"].is_boolean()) << what;
        if (!b["omitted"].get<bool>()) barriers += b["api_barriers"].get<size_t>();
      }
    }
  }
  EXPECT_EQ(j["summary"]["barriers"].get<size_t>(), barriers) << what;
}

TEST(OneJsonShape, RecordingsAndGraphsShareGroupsListsPointsAndSummary) {
  for (const char* api : {"d3d12", "d3d12-legacy", "vulkan"}) {
    const Json rec = compile_json("examples/minimal.json", api);
    expect_common_shape(rec, std::string("minimal ") + api);
    EXPECT_EQ(rec["input"], "recording");
    EXPECT_EQ(rec["groups"][0]["queue"], "graphics");  // the recording says "direct": one vocabulary
    for (const char* key : {"culled", "numbers", "memory"}) EXPECT_FALSE(rec.contains(key)) << key;
    for (const char* graph : {"examples/deferred.json", "examples/async.json"}) {
      const Json g = compile_json(graph, api);
      expect_common_shape(g, std::string(graph) + " " + api);
      EXPECT_EQ(g["input"], "graph");
      expect_keys(g, {"culled", "numbers", "memory"}, graph);
      // The summary and the numbers count the one lowering alike.
      EXPECT_EQ(g["summary"]["barriers"], g["numbers"]["apis"][api]["barriers"]) << graph << " " << api;
      EXPECT_EQ(g["summary"]["calls"], g["numbers"]["apis"][api]["calls"]) << graph << " " << api;
      for (const Json& gr : g["groups"]) expect_keys(gr, {"waits", "wait_groups", "signal"}, graph);
      for (const Json& l : g["lists"]) {
        expect_keys(l, {"pass", "aliasing"}, graph);
        if (l["pass"].is_null()) {
          EXPECT_TRUE(l["name"] == "frame_start" || l["name"] == "frame_end") << l["name"];
        } else {
          EXPECT_EQ(l["pass"], l["name"]) << graph;
        }
      }
    }
  }
}

TEST(OneJsonShape, GraphExtrasNameCulledPassesWaitsAliasingAndPlacements) {
  const Json g = compile_json("examples/async.json", "vulkan");
  ASSERT_EQ(g["culled"].size(), 1u);
  EXPECT_EQ(g["culled"][0]["pass"], "debug_depth");
  bool compute_waits = false;
  for (const Json& gr : g["groups"])
    if (gr["queue"] == "compute" && !gr["waits"].empty()) compute_waits = true;
  EXPECT_TRUE(compute_waits);
  size_t aliasing = 0;
  for (const Json& l : g["lists"]) aliasing += l["aliasing"].size();
  EXPECT_EQ(aliasing, g["numbers"]["aliasing_barriers"].get<size_t>());
  EXPECT_FALSE(g["memory"]["placements"].empty());
  for (const Json& p : g["memory"]["placements"])
    EXPECT_LE(p["offset"].get<uint64_t>() + p["size"].get<uint64_t>(),
              g["memory"]["heap_bytes"].get<uint64_t>())
        << p;
}

TEST(OneJsonShape, DumpHonoursFormatJsonWithTheTextsLines) {
  for (const char* phase : {"cull", "schedule", "transitions", "checks"}) {
    const RunResult t = run_baton(std::string("compile examples/deferred.json --dump ") + phase);
    const RunResult j =
        run_baton(std::string("compile examples/deferred.json --dump ") + phase + " --format json");
    ASSERT_EQ(t.exit_code, 0) << t.err;
    ASSERT_EQ(j.exit_code, 0) << j.err;
    const Json d = Json::parse(j.out);
    EXPECT_EQ(d["phase"], phase);
    std::string joined;
    for (const Json& line : d["lines"]) joined += line.get<std::string>() + "\n";
    EXPECT_EQ(joined, t.out) << phase;
  }
}

TEST(OneJsonShape, DotWithFormatJsonIsAnErrorNamingTheConflict) {
  const RunResult r = run_baton("compile examples/deferred.json --dot --format json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty()) << r.out;
  const Json e = Json::parse(r.err);
  EXPECT_EQ(e["error"]["id"], "bad_input") << r.err;
  EXPECT_NE(e["error"]["message"].get<std::string>().find("--dot prints Graphviz"), std::string::npos)
      << r.err;
}

// `demo --format json`: the three plans in the one shape, and the summary the text table prints.
TEST(OneJsonShape, DemoFormatJsonHasThePlansAndTheTextTablesNumbers) {
  const RunResult t = run_baton("demo");
  const RunResult r = run_baton("demo --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json j = Json::parse(r.out);
  ASSERT_EQ(j["plans"].size(), 3u);
  ASSERT_EQ(j["summary"].size(), 3u);
  EXPECT_EQ(j["demo"]["groups"], 2);
  EXPECT_EQ(j["demo"]["lists"], 8);
  for (size_t i = 0; i < 3; ++i) {
    const Json& plan = j["plans"][i];
    const Json& row = j["summary"][i];
    expect_common_shape(plan, "demo " + row["api"].get<std::string>());
    EXPECT_EQ(plan["api"], row["api"]);
    EXPECT_EQ(plan["input"], "recording");
    for (const char* k : {"barriers", "calls", "omitted"}) EXPECT_EQ(plan["summary"][k], row[k]) << k;
    char line[128];
    std::snprintf(line, sizeof line, "%-14s%10zu%8zu%9zu\n", row["api"].get<std::string>().c_str(),
                  row["barriers"].get<size_t>(), row["calls"].get<size_t>(), row["omitted"].get<size_t>());
    EXPECT_NE(t.out.find(line), std::string::npos) << line << t.out;
  }
}

// emit-trace's output is JSON already; --format json is accepted (errors become JSON), text is not.
TEST(OneJsonShape, EmitTraceTakesFormatJsonAndItsErrorsAreJson) {
  const RunResult a = run_baton("emit-trace examples/minimal.json --api vulkan");
  const RunResult b = run_baton("emit-trace examples/minimal.json --api vulkan --format json");
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_EQ(a.out, b.out);
  const RunResult e = run_baton("emit-trace examples/no_such_file.json --format json");
  EXPECT_EQ(e.exit_code, 2);
  const Json err = Json::parse(e.err);
  EXPECT_EQ(err["error"]["file"], "examples/no_such_file.json") << e.err;
  EXPECT_EQ(run_baton("emit-trace examples/minimal.json --format text").exit_code, 2);
}

}  // namespace
}  // namespace baton::test
