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
  // What the schema refuses, the loader refuses too (a signal has no stage mask in the format).
  const Json bad = Json::parse(R"({"api":"vulkan","resources":[],"lists":[],"submissions":[
    {"queue":"g","signal":[{"semaphore":"s","stage":"COPY"}]}]})");
  EXPECT_FALSE(schema().validate(bad).empty());
  EXPECT_THROW((void)validate::load_trace(bad.dump(), "t"), Error);
}

}  // namespace
}  // namespace baton
