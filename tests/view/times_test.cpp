// Measured times on the view (issue 17 item 5): `baton view --timestamps` reads the trace-event JSON
// of `baton run --timestamps`; every malformed or mismatched file is refused with the file and the
// JSON pointer of the event; `--trace-events` exports the frame for a standard timeline viewer.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "baton/view.hpp"
#include "view_support.hpp"

namespace baton::view {
namespace {

using test::example;

// A trace-event file with one operation per pass of `f` at [100 i, 100 i + 50), edited by `edit`.
std::string times_for(const Frame& f, const std::function<void(nlohmann::json&)>& edit = {}) {
  nlohmann::json events = nlohmann::json::array();
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 0}});
  for (size_t i = 0; i < f.passes.size(); ++i)
    for (uint32_t op = 0; op < f.passes[i].ops; ++op)
      events.push_back({{"name", f.passes[i].name + "/" + std::to_string(op)},
                        {"ph", "X"},
                        {"tid", f.passes[i].queue == Queue::direct ? "graphics" : "compute"},
                        {"ts", 100.0 * static_cast<double>(i) + op},
                        {"dur", 50.0}});
  nlohmann::json j{{"traceEvents", events}};
  if (edit) edit(j);
  return j.dump();
}

std::string error_of(Frame f, const std::string& text) {
  try {
    attach_times(f, text, "t.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(ViewTimes, AttachesOneTimePerOperation) {
  Frame f = build_frame(example("async.json"), "async.json");
  attach_times(f, times_for(f), "t.json");
  size_t ops = 0;
  for (const Pass& p : f.passes) ops += p.ops;
  ASSERT_EQ(f.times.size(), ops);
  EXPECT_EQ(f.times[0].pass, 0u);
  EXPECT_DOUBLE_EQ(f.times[0].end_us, 50.0);
  EXPECT_EQ(f.times_source, "t.json");
  // The page embeds them.
  const nlohmann::ordered_json j = frame_json(f, Api::d3d12);
  ASSERT_TRUE(j.contains("times"));
  EXPECT_EQ(j["times"]["ops"].size(), ops);
  // Without times the page has none (the x axis is submission order).
  EXPECT_FALSE(frame_json(build_frame(example("async.json"), "async.json"), Api::d3d12).contains("times"));
}

TEST(ViewTimes, RefusesWhatDoesNotMatchTheFrame) {
  const Frame f = build_frame(example("async.json"), "async.json");
  struct Case {
    std::function<void(nlohmann::json&)> edit;
    const char* expect;
  };
  const Case cases[] = {
      {[](nlohmann::json& j) { j = nlohmann::json::array(); }, "t.json: not trace-event JSON"},
      {[](nlohmann::json& j) { j["traceEvents"][1]["ph"] = "B"; }, "t.json:/traceEvents/1/ph: event kind 'B'"},
      {[](nlohmann::json& j) { j["traceEvents"][1]["name"] = "nosuchpass/0"; }, "t.json:/traceEvents/1/name: 'nosuchpass/0' names no pass"},
      {[](nlohmann::json& j) { j["traceEvents"][1]["name"] = "cull_first/7"; }, "t.json:/traceEvents/1/name: 'cull_first/7': 'cull_first' has operations 0..0"},
      {[](nlohmann::json& j) { j["traceEvents"][1]["tid"] = "compute"; }, "t.json:/traceEvents/1/tid: 'cull_first/0' ran on the 'compute' queue"},
      {[](nlohmann::json& j) { j["traceEvents"][2] = j["traceEvents"][1]; }, "t.json:/traceEvents/2: 'cull_first/0' has a time already"},
      {[](nlohmann::json& j) { j["traceEvents"][1]["dur"] = -1; }, "t.json:/traceEvents/1/dur: dur must be finite and not negative"},
      {[](nlohmann::json& j) { j["traceEvents"][1].erase("ts"); }, "t.json:/traceEvents/1: \"ts\" must be a number"},
      {[](nlohmann::json& j) { j["traceEvents"].erase(1); }, "t.json:/traceEvents: no time for operation 0 of 'cull_first'"},
  };
  for (const Case& c : cases) {
    const std::string e = error_of(f, times_for(f, c.edit));
    EXPECT_EQ(e.rfind(c.expect, 0), 0u) << "got: " << e << "\nexpected to start with: " << c.expect;
  }
  EXPECT_EQ(error_of(f, times_for(f)), "");
}

TEST(ViewTimes, TraceEventsHaveEveryOperationAndBarrier) {
  Frame f = build_frame(example("async.json"), "async.json", {}, std::array<Api, 1>{Api::vulkan});
  const auto count = [](const nlohmann::json& j, const char* ph) {
    size_t n = 0;
    for (const auto& e : j["traceEvents"]) n += e["ph"] == ph;
    return n;
  };
  const nlohmann::json synthetic = nlohmann::json::parse(trace_events(f, Api::vulkan));
  EXPECT_EQ(count(synthetic, "X"), f.passes.size());
  EXPECT_EQ(count(synthetic, "i"), f.lowering(Api::vulkan).barriers.size());
  EXPECT_EQ(synthetic["traceEvents"][1]["args"]["synthetic"], true);
  attach_times(f, times_for(f), "t.json");
  const nlohmann::json measured = nlohmann::json::parse(trace_events(f, Api::vulkan));
  EXPECT_FALSE(measured["traceEvents"][1].contains("args"));
  EXPECT_DOUBLE_EQ(measured["traceEvents"][2]["ts"].get<double>(), 100.0);
  // A barrier before an operation sits at its measured begin, one after it at its end.
  for (const auto& e : measured["traceEvents"]) {
    if (e["ph"] != "i") continue;
    const double ts = e["ts"].get<double>();
    const double frac = ts - 100.0 * std::floor(ts / 100.0);
    EXPECT_TRUE(frac == 0.0 || frac == 50.0) << e.dump();
  }
}

}  // namespace
}  // namespace baton::view
