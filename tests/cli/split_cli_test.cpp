// `--split-barriers on|off` (issue 17): off is the default and changes no byte of any plan; on shows
// each split barrier with its reason in the text and JSON plans, the trace and the view.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "run_baton.hpp"

namespace baton::test {
namespace {

TEST(SplitBarriersCli, OffIsTheDefaultAndByteIdentical) {
  for (const char* file : {"examples/demo.json", "examples/split.json", "examples/deferred.json"})
    for (const char* api : {"d3d12", "d3d12-legacy", "vulkan"}) {
      SCOPED_TRACE(std::string(file) + " " + api);
      const RunResult plain = run_baton(std::string("compile ") + file + " --api " + api);
      const RunResult off =
          run_baton(std::string("compile ") + file + " --api " + api + " --split-barriers off");
      EXPECT_EQ(plain.exit_code, 0) << plain.err;
      EXPECT_EQ(plain.out, off.out);
      EXPECT_EQ(plain.out.find("split:"), std::string::npos);
    }
}

TEST(SplitBarriersCli, TextAndJsonShowTheReason) {
  const RunResult text = run_baton("compile examples/split.json --api vulkan --split-barriers on");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find(
                "particles[all] COMPUTE_SHADER SHADER_STORAGE_READ|SHADER_STORAGE_WRITE -> COMPUTE_SHADER "
                "SHADER_SAMPLED_READ|SHADER_STORAGE_READ (state change; split: begins after op 0, op 1 "
                "between does not touch it)"),
            std::string::npos)
      << text.out;
  // Four split barriers: one ordinary call for each first touch, a begin and an end per split group.
  EXPECT_NE(text.out.find("summary: 6 barriers in 6 calls, 0 omitted"), std::string::npos) << text.out;
  const RunResult json =
      run_baton("compile examples/split.json --api d3d12 --split-barriers on --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  int splits = 0;
  for (const auto& l : j["lists"])
    for (const auto& p : l["points"])
      for (const auto& b : p["barriers"])
        if (b.contains("split")) {
          ++splits;
          EXPECT_EQ(b["split"]["begin_after_op"].get<int>() + 2, p["op"].get<int>());
          EXPECT_EQ(b["split"]["reason"].get<std::string>().rfind("split: begins after op ", 0), 0u);
        }
  EXPECT_EQ(splits, 4);
}

TEST(SplitBarriersCli, TraceHasEventsAndHalvesAndValidatesClean) {
  const RunResult vk = run_baton("emit-trace examples/split.json --api vulkan --split-barriers on");
  ASSERT_EQ(vk.exit_code, 0) << vk.err;
  EXPECT_NE(vk.out.find("\"set_event\""), std::string::npos);
  EXPECT_NE(vk.out.find("\"wait_events\""), std::string::npos);
  const RunResult en = run_baton("emit-trace examples/split.json --api d3d12 --split-barriers on");
  EXPECT_NE(en.out.find("\"sync_after\": \"SPLIT\""), std::string::npos) << en.out;
  const RunResult lg = run_baton("emit-trace examples/split.json --api d3d12-legacy --split-barriers on");
  EXPECT_NE(lg.out.find("\"begin_only\""), std::string::npos) << lg.out;
  EXPECT_NE(lg.out.find("\"end_only\""), std::string::npos);
  for (const char* api : {"d3d12", "d3d12-legacy", "vulkan"}) {
    const RunResult v =
        run_baton(std::string("validate examples/split.json --split-barriers on --api ") + api);
    EXPECT_EQ(v.exit_code, 0) << api << "\n" << v.out << v.err;
  }
}

TEST(SplitBarriersCli, ViewNotesTheSplit) {
  const RunResult v = run_baton("view examples/split.json -o - --split-barriers on");
  ASSERT_EQ(v.exit_code, 0) << v.err;
  EXPECT_NE(v.out.find("split: begins after op 0, op 1 between does not touch it"), std::string::npos);
}

}  // namespace
}  // namespace baton::test
