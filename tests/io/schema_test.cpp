// docs/recording.schema.json must describe the vocabulary the loader accepts: its enumerations
// are compared with the names the code parses, so neither can drift from the other.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "baton/recording.hpp"

namespace baton {
namespace {

using Json = nlohmann::json;

Json schema() {
  std::ifstream in(std::filesystem::path(BATON_SOURCE_DIR) / "docs" / "recording.schema.json");
  return Json::parse(in);
}

std::set<std::string> strings(const Json& arr) {
  std::set<std::string> out;
  for (const Json& v : arr) out.insert(v.get<std::string>());
  return out;
}

TEST(RecordingSchema, AccessNamesMatchTheVocabulary) {
  std::set<std::string> code;
  for (int i = 0; i < kAccessCount; ++i) code.insert(std::string(to_string(static_cast<Access>(i))));
  EXPECT_EQ(strings(schema()["$defs"]["access"]["enum"]), code);
  for (const std::string& name : code) EXPECT_TRUE(parse_access(name).has_value()) << name;
}

TEST(RecordingSchema, StageKindQueueAndFormatNamesMatchTheCode) {
  const Json s = schema();
  for (const std::string& st : strings(s["$defs"]["stage"]["enum"]))
    EXPECT_TRUE(parse_stage(st).has_value()) << st;
  std::set<std::string> kinds;
  for (int k = 0; k <= static_cast<int>(OpKind::transition); ++k)  // transition is the last kind
    kinds.insert(std::string(to_string(static_cast<OpKind>(k))));
  EXPECT_EQ(strings(s["$defs"]["op"]["properties"]["kind"]["enum"]), kinds);
  std::set<std::string> queues;
  for (Queue q : {Queue::direct, Queue::compute, Queue::copy}) queues.insert(std::string(to_string(q)));
  EXPECT_EQ(strings(s["$defs"]["group"]["properties"]["queue"]["enum"]), queues);
  std::set<std::string> formats;
  for (FormatClass f : {FormatClass::color, FormatClass::depth, FormatClass::depth_stencil})
    formats.insert(std::string(to_string(f)));
  EXPECT_EQ(strings(s["$defs"]["resource"]["properties"]["format"]["enum"]), formats);
}

TEST(RecordingSchema, ShaderAccessesAreTheOnesThatNeedStages) {
  std::set<std::string> code;
  for (int i = 0; i < kAccessCount; ++i)
    if (is_shader_access(static_cast<Access>(i))) code.insert(std::string(to_string(static_cast<Access>(i))));
  EXPECT_EQ(strings(schema()["$defs"]["use"]["if"]["properties"]["access"]["enum"]), code);
}

// Every key the schema allows is a key the loader accepts: a recording using all of them loads.
TEST(RecordingSchema, EveryDocumentedKeyIsAccepted) {
  const Json s = schema();
  EXPECT_EQ(s["$defs"]["resource"]["properties"].size(), 14u);
  const char* text = R"({"$schema": "docs/recording.schema.json",
    "resources": [
      {"name": "t", "type": "texture", "width": 8, "height": 8, "mips": 2, "layers": 2, "planes": 1,
       "format": "color", "usage": ["render_target", "shader_resource"], "placed": true,
       "simultaneous_access": false, "swapchain": false, "resting": "shader_resource"},
      {"name": "b", "type": "buffer", "size": 64, "usage": ["unordered_access"], "placed": false}],
    "groups": [{"name": "g", "queue": "direct", "lists": [{"name": "l",
      "entry": [{"resource": "b", "access": "unordered_access", "stages": "compute"}],
      "ops": [{"kind": "draw", "label": "x", "full_barrier": true, "uses": [
        {"resource": "t", "access": "render_target", "mips": [0, 1], "layers": [1, 1], "planes": [0, 1]},
        {"resource": "b", "access": "unordered_access", "stages": ["vertex", "pixel"]}]}]}]}]})";
  const Recording rec = load_recording(text);
  const Operation& op = rec.groups[0]->lists()[0]->ops()[0];
  EXPECT_TRUE(op.full_barrier);
  EXPECT_EQ(op.label, "x");
  EXPECT_EQ(op.uses[1].stages, Stage::vertex | Stage::pixel);
  EXPECT_EQ(rec.resources[0].resting, Access::shader_resource);
  EXPECT_TRUE(rec.resources[0].placed);
}

}  // namespace
}  // namespace baton
