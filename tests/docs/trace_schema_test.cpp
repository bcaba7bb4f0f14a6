// docs/trace.schema.json describes what src/validate/trace_load.cpp accepts: every example trace
// validates against it, and so do the submission forms of docs/trace-format.md (semaphore wait stage
// masks, timeline values, fences, host waits), which the loader loads too.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "baton/core.hpp"
#include "baton/validate.hpp"
#include "mini_schema.hpp"

namespace baton {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

using docs_test::read_json;
std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += x + "\n";
  return s;
}
const docs_test::MiniSchema& schema() {
  static const docs_test::MiniSchema s(read_json(fs::path(BATON_SOURCE_DIR) / "docs" / "trace.schema.json"));
  return s;
}

TEST(TraceSchema, ExampleTracesValidate) {
  int checked = 0;
  for (const auto& e : fs::directory_iterator(fs::path(BATON_SOURCE_DIR) / "examples" / "traces")) {
    if (e.path().extension() != ".json") continue;
    const std::vector<std::string> errors = schema().validate(read_json(e.path()));
    EXPECT_TRUE(errors.empty()) << e.path() << "\n" << joined(errors);
    ++checked;
  }
  EXPECT_GE(checked, 7);
}

TEST(TraceSchema, SubmissionSynchronizationFormsValidateAndLoad) {
  const Json doc = Json::parse(R"({"api":"vulkan","resources":[],"lists":[],"submissions":[
    {"queue":"g","signal":["s",{"semaphore":"t","value":2}],"fence":"f"},
    {"queue":"c","wait":["s",{"semaphore":"t","value":1,"stage":"COPY|COMPUTE_SHADER"}]},
    {"queue":"g","host_wait":[{"fence":"f"},{"queue":"c"},{"semaphore":"t","value":2},"device"]}]})");
  EXPECT_TRUE(schema().validate(doc).empty()) << joined(schema().validate(doc));
  const validate::Trace t = validate::load_trace(doc.dump(), "t");
  ASSERT_EQ(t.submissions.size(), 3u);
  EXPECT_EQ(t.submissions[0].signal_value_of(1), std::optional<uint64_t>(2));
  EXPECT_EQ(t.submissions[0].fence, "f");
  EXPECT_EQ(t.submissions[1].wait_stage_of(0), validate::kVkAllCommands);
  EXPECT_EQ(t.submissions[1].wait_stage_of(1),
            uint64_t{0x100000000} | 0x800);  // VK_PIPELINE_STAGE_2_COPY_BIT | COMPUTE_SHADER
  EXPECT_EQ(t.submissions[1].wait_value_of(1), std::optional<uint64_t>(1));
  ASSERT_EQ(t.submissions[2].host_wait.size(), 4u);
  EXPECT_EQ(t.submissions[2].host_wait[2].kind, validate::HostWait::Kind::semaphore);
  EXPECT_EQ(t.submissions[2].host_wait[2].value, 2u);
  EXPECT_EQ(t.submissions[2].host_wait[3].kind, validate::HostWait::Kind::device);
  // What the schema refuses, the loader refuses too (a signal names a semaphore, a stage and a value).
  const Json bad = Json::parse(R"({"api":"vulkan","resources":[],"lists":[],"submissions":[
    {"queue":"g","signal":[{"semaphore":"s","stage":"COPY","when":1}]}]})");
  EXPECT_FALSE(schema().validate(bad).empty());
  EXPECT_THROW((void)validate::load_trace(bad.dump(), "t"), Error);
}

// Issue 14's last forms: signal stage masks, host signals, secondary lists and execute, dynamic rendering.
TEST(TraceSchema, SignalsSecondariesAndRenderingValidateAndLoad) {
  const Json doc = Json::parse(R"({"api":"vulkan","resources":[{"name":"rt","type":"texture"}],"lists":[
    {"name":"P","commands":[{"execute":["S"]},
      {"begin_rendering":{"color":[{"resource":"rt","subresource":0,"layout":"GENERAL","load":"CLEAR","store":"STORE"}]}},
      {"end_rendering":{}}]},
    {"name":"S","level":"secondary","commands":[]}],"submissions":[
    {"queue":"g","lists":["P"],"signal":[{"semaphore":"s","stage":"COPY"}],"host_signal":[{"semaphore":"t","value":3}]}]})");
  EXPECT_TRUE(schema().validate(doc).empty()) << joined(schema().validate(doc));
  const validate::Trace t = validate::load_trace(doc.dump(), "t");
  EXPECT_EQ(t.submissions[0].signal_stage_of(0), uint64_t{0x100000000});  // VK_PIPELINE_STAGE_2_COPY_BIT
  ASSERT_EQ(t.submissions[0].host_signal.size(), 1u);
  EXPECT_EQ(t.submissions[0].host_signal[0].value, 3u);
  EXPECT_TRUE(t.lists[1].secondary);
  ASSERT_EQ(t.lists[0].commands.size(), 3u);
  EXPECT_EQ(std::get<validate::ExecuteCmd>(t.lists[0].commands[0]).lists, std::vector<int>{1});
  EXPECT_EQ(std::get<validate::BeginRenderingCmd>(t.lists[0].commands[1]).attachments.size(), 1u);
  for (
      const char* refused :
      {R"({"name":"S","level":"tertiary","commands":[]})",
       R"({"name":"P","commands":[{"end_rendering":{"x":1}}]})",
       R"({"name":"P","commands":[{"begin_rendering":{"color":[{"resource":"rt","subresource":0,"layout":"GENERAL","load":"KEEP","store":"STORE"}]}},{"end_rendering":{}}]})"}) {
    const Json one =
        Json::parse(std::string(R"({"api":"vulkan","resources":[{"name":"rt","type":"texture"}],"lists":[)") +
                    refused + R"(],"submissions":[]})");
    EXPECT_FALSE(schema().validate(one).empty()) << refused;
    EXPECT_THROW((void)validate::load_trace(one.dump(), "t"), Error) << refused;
  }
}

// Swapchains (docs/trace-format.md, "Swapchains"): swapchain images, acquire and present steps.
TEST(TraceSchema, SwapchainStepsValidateAndLoad) {
  const Json doc =
      Json::parse(R"({"api":"vulkan","resources":[{"name":"bb","type":"texture","swapchain":"sc"}],
    "lists":[{"name":"L","commands":[]}],"submissions":[
    {"acquire":{"image":"bb","semaphore":"a","fence":"f"}},
    {"queue":"g","lists":["L"],"wait":[{"semaphore":"a","stage":"CLEAR"}],"signal":["r"]},
    {"present":{"queue":"g","image":"bb","wait":["r"]}}]})");
  EXPECT_TRUE(schema().validate(doc).empty()) << joined(schema().validate(doc));
  const validate::Trace t = validate::load_trace(doc.dump(), "t");
  ASSERT_EQ(t.submissions.size(), 3u);
  EXPECT_EQ(t.submissions[0].step, validate::Step::acquire);
  EXPECT_EQ(t.submissions[2].step, validate::Step::present);
  EXPECT_EQ(t.resources[0].swapchain, 0);
  EXPECT_EQ(t.swapchains, std::vector<std::string>{"sc"});
  for (const char* refused :
       {R"({"acquire":{"image":"bb"}})", R"({"acquire":{"image":"bb","fence":"f","x":1}})",
        R"({"present":{"image":"bb","wait":[{"semaphore":"r"}]}})"}) {
    const Json one = Json::parse(
        std::string(
            R"({"api":"vulkan","resources":[{"name":"bb","swapchain":"sc"}],"lists":[],"submissions":[)") +
        refused + "]}");
    EXPECT_FALSE(schema().validate(one).empty()) << refused;
    EXPECT_THROW((void)validate::load_trace(one.dump(), "t"), Error) << refused;
  }
}

}  // namespace
}  // namespace baton
