// One way in (include/frame/baton/frame.hpp): emit-trace and triage take frame graphs as well as
// recordings, and their traces validate clean (the compile -> emit-trace -> validate round trip);
// triage takes its API from the trace when --api is not given.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>
#include <vector>

#include "run_baton.hpp"

namespace baton::test {
namespace {

std::string temp_file(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / (std::to_string(::getpid()) + "_" + name);
  std::ofstream(p, std::ios::binary) << text;
  return p.string();
}

TEST(FrameInput, EmitTraceOfEveryExampleGraphValidatesCleanForEveryApi) {
  for (const char* graph : {"examples/deferred.json", "examples/async.json", "examples/copy_graph.json"})
    for (const char* api : {"d3d12", "d3d12-legacy", "vulkan"}) {
      const RunResult t = run_baton(std::string("emit-trace ") + graph + " --api " + api);
      ASSERT_EQ(t.exit_code, 0) << graph << " " << api << ": " << t.err;
      const auto j = nlohmann::json::parse(t.out);
      EXPECT_GT(j["lists"].size(), 3u) << graph;  // one list per live pass
      const std::string trace = temp_file("graph_trace.json", t.out);
      const RunResult v = run_baton("validate " + trace);
      EXPECT_EQ(v.exit_code, 0) << graph << " " << api << ": " << v.out << v.err;
      EXPECT_NE(v.out.find("summary: 0 error(s), 0 warning(s)"), std::string::npos) << v.out;
      std::filesystem::remove(trace);
    }
}

// A graph's trace with one barrier taken out: triage names the graph's pass (a list of the
// compiled frame) and blames a declaration; the API comes from the trace.
TEST(FrameInput, TriageExplainsAMutatedGraphTraceByPass) {
  const RunResult t = run_baton("emit-trace examples/deferred.json --api vulkan");
  ASSERT_EQ(t.exit_code, 0) << t.err;
  auto j = nlohmann::json::parse(t.out);
  bool removed = false;
  std::string list;
  for (auto& l : j["lists"]) {
    for (auto it = l["commands"].begin(); it != l["commands"].end() && !removed; ++it)
      if (it->contains("barrier")) {
        for (auto b = (*it)["barrier"].begin(); b != (*it)["barrier"].end(); ++b)
          if (b->value("old_layout", "") != "UNDEFINED" && b->value("old_layout", "") != "" &&
              b->value("old_layout", "") != b->value("new_layout", "")) {
            (*it)["barrier"].erase(b);
            removed = true;
            list = l["name"];
            break;
          }
      }
    if (removed) break;
  }
  ASSERT_TRUE(removed) << "no layout-changing barrier in the deferred trace";
  const std::string trace = temp_file("mutated.json", j.dump());
  const RunResult r = run_baton("triage examples/deferred.json " + trace + " --format json");
  std::filesystem::remove(trace);
  ASSERT_EQ(r.exit_code, 1) << r.out << r.err;
  const auto e = nlohmann::json::parse(r.out);
  ASSERT_GT(e["count"].get<int>(), 0);
  EXPECT_EQ(e["explanations"][0]["list"], list) << r.out.substr(0, 2000);
}

// validate and validate --compare take recordings and graphs too: compiled, traced for --api,
// checked (the same as emit-trace | validate -). A trace still validates as itself.
TEST(FrameInput, ValidateTakesRecordingsAndGraphs) {
  for (const char* file : {"examples/deferred.json", "examples/demo.json"})
    for (const char* api : {"d3d12", "d3d12-legacy", "vulkan"}) {
      const RunResult v = run_baton(std::string("validate ") + file + " --api " + api);
      EXPECT_EQ(v.exit_code, 0) << file << " " << api << ": " << v.out << v.err;
      EXPECT_NE(v.out.find("summary: 0 error(s), 0 warning(s)"), std::string::npos) << v.out;
    }
  const RunResult c = run_baton("validate --compare examples/minimal.json examples/deferred.json --api vulkan --format json");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto j = nlohmann::json::parse(c.out);
  EXPECT_FALSE(j.empty());
  // A graph whose plan does not lower for the API is bad input naming the file, not "clean".
  const RunResult bad = run_baton("validate tests/cli/bad/graph_cycle.json --api vulkan");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("graph_cycle.json"), std::string::npos) << bad.err;
}

TEST(FrameInput, TriageTakesTheApiFromTheTrace) {
  const std::string dir = "examples/triage/wrong_resting_layout";
  const RunResult with = run_baton("triage " + dir + "/recording.json " + dir + "/trace.json --api d3d12-legacy");
  const RunResult without = run_baton("triage " + dir + "/recording.json " + dir + "/trace.json");
  EXPECT_EQ(with.exit_code, 1) << with.err;
  EXPECT_EQ(without.exit_code, with.exit_code) << without.err;
  EXPECT_EQ(without.out, with.out);
}

// The plan `compile` prints is the plan that is traced (and run): per list, the D3D12 legacy
// transitions of `compile --format json` (omitted ones left out, one per API barrier) are those of
// `emit-trace`. A graph's non-transient textures start the frame at rest, so the printed legacy plan
// lowers from their resting states too (it used to start them in COMMON and print, e.g.,
// taa_history COMMON -> COPY_DEST as left to promotion where the trace issues PSR|NPSR -> COPY_DEST).
TEST(FrameInput, ThePrintedLegacyPlanOfEveryExampleGraphIsThePlanTraced) {
  auto norm = [](const std::string& s) {
    std::vector<std::string> parts;
    for (size_t at = 0; at <= s.size();) {
      const size_t bar = s.find('|', at);
      parts.push_back(s.substr(at, bar == std::string::npos ? std::string::npos : bar - at));
      at = bar == std::string::npos ? s.size() + 1 : bar + 1;
    }
    std::sort(parts.begin(), parts.end());
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : "|") + p;
    return out;
  };
  using Key = std::tuple<std::string, std::string, std::string>;
  for (const char* graph : {"examples/deferred.json", "examples/async.json", "examples/copy_graph.json"}) {
    const RunResult c = run_baton(std::string("compile ") + graph + " --api d3d12-legacy --format json");
    const RunResult t = run_baton(std::string("emit-trace ") + graph + " --api d3d12-legacy");
    ASSERT_EQ(c.exit_code, 0) << c.err;
    ASSERT_EQ(t.exit_code, 0) << t.err;
    std::map<std::string, std::vector<Key>> printed, traced;
    // Parsed into locals: a range-for over a member of a temporary would dangle.
    const nlohmann::json plan = nlohmann::json::parse(c.out), trace = nlohmann::json::parse(t.out);
    for (const auto& l : plan["lists"])
      for (const auto& p : l["points"])
        for (const auto& b : p["barriers"]) {
          if (b["omitted"].get<bool>() || b["before"].get<std::string>().starts_with("ALIASING")) continue;
          for (int i = 0; i < b["api_barriers"].get<int>(); ++i)
            printed[l["name"]].emplace_back(b["resource"], norm(b["before"]), norm(b["after"]));
        }
    for (const auto& l : trace["lists"])
      for (const auto& cmd : l["commands"])
        if (cmd.contains("barrier"))
          for (const auto& b : cmd["barrier"])
            if (b["type"] == "transition") traced[l["name"]].emplace_back(b["resource"], norm(b["before"]), norm(b["after"]));
    for (auto* m : {&printed, &traced})
      for (auto& [name, v] : *m) std::sort(v.begin(), v.end());
    std::erase_if(printed, [](const auto& x) { return x.second.empty(); });
    std::erase_if(traced, [](const auto& x) { return x.second.empty(); });
    EXPECT_EQ(printed, traced) << graph;
  }
}

}  // namespace
}  // namespace baton::test
