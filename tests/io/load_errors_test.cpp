// Every class of bad input the recording format rejects, each checked for the names the one-line
// message must carry (file position, group, list, op, resource). The recordings are a valid base
// with one mutation each, so every test shows exactly what is wrong.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "baton/recording.hpp"

namespace baton {
namespace {

using Json = nlohmann::json;

constexpr const char* kBase = R"({
  "resources": [
    {"name": "color", "type": "texture", "width": 64, "height": 64, "mips": 4,
     "usage": ["render_target", "shader_resource", "unordered_access"]},
    {"name": "depth", "type": "texture", "width": 64, "height": 64, "format": "depth",
     "usage": ["depth_write", "shader_resource"]},
    {"name": "buf", "type": "buffer", "size": 256, "usage": ["unordered_access", "vertex_buffer", "copy_dest"]},
    {"name": "backbuffer", "type": "texture", "width": 64, "height": 64, "swapchain": true,
     "usage": ["render_target"]}
  ],
  "groups": [
    {"name": "main", "queue": "direct", "lists": [
      {"name": "l0", "ops": [
        {"kind": "draw", "uses": [{"resource": "color", "access": "render_target"},
                                  {"resource": "depth", "access": "depth_write"}]},
        {"kind": "dispatch", "uses": [
          {"resource": "color", "access": "shader_resource", "stages": "compute", "mips": [0, 1]},
          {"resource": "color", "access": "unordered_access", "stages": ["compute"], "mips": [1, 3]}]},
        {"kind": "present", "uses": [{"resource": "backbuffer", "access": "present"}]}
      ]}
    ]},
    {"name": "async", "queue": "compute", "lists": [
      {"name": "c0", "entry": [{"resource": "buf", "access": "unordered_access", "stages": "compute"}],
       "ops": [{"kind": "dispatch", "uses": [{"resource": "buf", "access": "unordered_access",
                                              "stages": "compute"}]}]}
    ]}
  ]
})";

Json base() {
  return Json::parse(kBase);
}

// The error message of loading `text`, which must fail with a one-line baton::Error.
std::string error_of(const std::string& text) {
  try {
    load_recording(text, "rec.json");
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    EXPECT_EQ(msg.rfind("rec.json:", 0), 0u) << "message must start with the file name: " << msg;
    return msg;
  }
  ADD_FAILURE() << "loading succeeded but should have failed";
  return {};
}

std::string error_of(const Json& j) {
  return error_of(j.dump());
}
std::string error_of(const char* text) {
  return error_of(std::string(text));
}

Json with(const std::string& pointer, Json value) {
  Json j = base();
  j[Json::json_pointer(pointer)] = std::move(value);
  return j;
}

Json without(const std::string& pointer) {
  Json j = base();
  const Json::json_pointer p(pointer);
  j[p.parent_pointer()].erase(p.back());
  return j;
}

void expect_all(const std::string& msg, const std::vector<std::string>& fragments) {
  for (const std::string& f : fragments)
    EXPECT_NE(msg.find(f), std::string::npos) << "missing '" << f << "' in: " << msg;
}

constexpr const char* kUse0 = "/groups/0/lists/0/ops/0/uses/0";

TEST(LoadRecording, BaseRecordingLoads) {
  const Recording rec = load_recording(kBase, "rec.json");
  EXPECT_EQ(rec.resources.size(), 4u);
  ASSERT_EQ(rec.groups.size(), 2u);
  ASSERT_EQ(rec.groups[0]->lists().size(), 1u);
  const CommandList& l0 = *rec.groups[0]->lists()[0];
  ASSERT_EQ(l0.ops().size(), 3u);  // ops map 1:1, nothing merged
  EXPECT_EQ(l0.ops()[1].uses[1].range.mip_first, 1u);
  EXPECT_EQ(l0.ops()[1].uses[1].range.mip_count, 3u);
  EXPECT_EQ(l0.lifecycle(), CommandList::Lifecycle::closed);
  EXPECT_EQ(rec.groups[1]->lists()[0]->entry_states().size(), 1u);
}

TEST(LoadRecording, MalformedJsonNamesLineAndColumn) {
  const std::string msg = error_of("{\n  \"resources\": [\n    {\"name\": }\n  ]\n}");
  expect_all(msg, {"rec.json:3:14:", "JSON syntax error"});
}

TEST(LoadRecording, TruncatedJsonNamesEndPosition) {
  const std::string text = std::string(kBase).substr(0, 200);
  const std::string msg = error_of(text);
  expect_all(msg, {"JSON syntax error", "unexpected end of input"});
  EXPECT_NE(msg.find("rec.json:5:"), std::string::npos) << msg;
}

TEST(LoadRecording, EmptyFileIsASyntaxError) {
  expect_all(error_of(""), {"rec.json:1:1:", "JSON syntax error"});
}

TEST(LoadRecording, DuplicateKeyIsAnErrorNotLastWins) {
  expect_all(
      error_of(R"({"resources": [{"name": "a", "name": "b", "type": "buffer", "size": 4}], "groups": []})"),
      {"rec.json:/resources/0/name:", "key 'name' appears twice"});
}

TEST(LoadRecording, UnknownKeyIsAnError) {
  expect_all(error_of(with(std::string(kUse0) + "/mip", Json::array({0, 1}))),
             {std::string("rec.json:") + kUse0 + "/mip:", "group 'main'", "list 'l0'", "op 0 (draw)",
              "resource 'color'", "unknown key 'mip'"});
  expect_all(error_of(with("/group", Json::array())), {"unknown key 'group'"});
  expect_all(error_of(with("/resources/0/sise", 4)), {"resource 'color'", "unknown key 'sise'"});
}

TEST(LoadRecording, MissingRequiredKey) {
  expect_all(error_of(without("/groups")), {"missing required key 'groups'"});
  expect_all(error_of(without(std::string(kUse0) + "/access")),
             {"op 0 (draw)", "resource 'color'", "missing required key 'access'"});
}

TEST(LoadRecording, WrongTypes) {
  expect_all(error_of(with("/resources/0/width", "64")),
             {"/resources/0/width", "expected an integer", "string"});
  expect_all(error_of(with("/resources/1/format", 3)), {"expected a string"});
  expect_all(error_of(with("/resources/3/swapchain", "yes")), {"expected true or false"});
  expect_all(error_of(with("/groups/0/lists", Json::object())), {"/groups/0/lists:", "expected an array"});
  expect_all(error_of(with("/resources/0/mips", 1.5)), {"expected an integer", "1.5"});
}

TEST(LoadRecording, UnknownResourceNamesGroupListOpAndResource) {
  expect_all(error_of(with(std::string(kUse0) + "/resource", "colr")),
             {"/groups/0/lists/0/ops/0/uses/0/resource:", "group 'main'", "list 'l0'", "op 0 (draw)",
              "resource 'colr'", "unknown resource"});
}

TEST(LoadRecording, RangeOutOfBounds) {
  const std::string ptr = "/groups/0/lists/0/ops/1/uses/1";
  expect_all(
      error_of(with(ptr + "/mips", Json::array({3, 2}))),
      {"rec.json:" + ptr + ":", "op 1 (dispatch)", "resource 'color'", "mip range [3, 5) is out of bounds"});
  expect_all(error_of(with(ptr + "/layers", Json::array({1, 1}))), {"layer range", "out of bounds"});
  expect_all(error_of(with(ptr + "/mips", Json::array({0, 0}))), {"mips/1", "out of range"});
  expect_all(error_of(with(ptr + "/mips", Json::array({0}))), {"a range is an array [first, count]"});
}

TEST(LoadRecording, AccessIllegalOnTheListsQueue) {
  expect_all(
      error_of(with("/groups/1/lists/0/ops/0/uses/0",
                    Json{{"resource", "color"}, {"access", "shader_resource"}, {"stages", "pixel"}})),
      {"group 'async'", "list 'c0'", "op 0 (dispatch)", "resource 'color'", "/uses/0/access:", "[R0209]"});
  Json j = base();
  j["groups"][1]["lists"][0]["ops"][0] =
      Json{{"kind", "draw"}, {"uses", {{{"resource", "color"}, {"access", "render_target"}}}}};
  expect_all(error_of(j), {"op 0 (draw)", "resource 'color'", "[R0209]"});
}

TEST(LoadRecording, ConflictingWritesInOneOpNameBothUses) {
  Json j = base();
  j["groups"][0]["lists"][0]["ops"][0]["uses"].push_back(
      Json{{"resource", "color"}, {"access", "unordered_access"}, {"stages", "pixel"}, {"mips", {0, 1}}});
  expect_all(error_of(j), {"/groups/0/lists/0/ops/0/uses/2:", "op 0 (draw)", "resource 'color'",
                           "use 0 (render_target)", "use 2 (unordered_access)", "[R0302]"});
}

TEST(LoadRecording, WriteAndReadOfOverlappingSubresourcesInOneOp) {
  expect_all(error_of(with("/groups/0/lists/0/ops/1/uses/0/mips", Json::array({0, 2}))),
             {"op 1 (dispatch)", "resource 'color'", "use 0 (shader_resource)", "use 1 (unordered_access)",
              "[R0302]"});
}

TEST(LoadRecording, DisjointSubresourcesInOneOpAreFine) {
  // The base already reads mip 0 and writes mips 1..3 in one dispatch (a downsample).
  EXPECT_NO_THROW(load_recording(kBase));
}

TEST(LoadRecording, DuplicateNames) {
  Json j = base();
  j["resources"].push_back(Json{{"name", "buf"}, {"type", "buffer"}, {"size", 4}});
  expect_all(error_of(j), {"/resources/4/name:", "resource 'buf'", "resource declared twice"});

  j = base();
  j["groups"][1]["name"] = "main";
  expect_all(error_of(j), {"/groups/1/name:", "group 'main'", "group name used twice"});

  j = base();
  j["groups"][1]["lists"][0]["name"] = "l0";  // a list name is unique in the whole recording
  expect_all(error_of(j), {"group 'async'", "list 'l0'", "list name already used in group 'main'"});

  j = base();
  j["groups"][1]["lists"][0]["entry"].push_back(j["groups"][1]["lists"][0]["entry"][0]);
  expect_all(error_of(j), {"/entry/1:", "resource 'buf'", "entry state declared twice"});
}

TEST(LoadRecording, UnknownEnumerators) {
  expect_all(error_of(with(std::string(kUse0) + "/access", "render_targt")),
             {"unknown access 'render_targt'", "render_target"});
  expect_all(error_of(with("/groups/0/lists/0/ops/0/kind", "drawz")), {"unknown op kind 'drawz'"});
  expect_all(error_of(with("/groups/0/queue", "graphics")), {"group 'main'", "unknown queue 'graphics'"});
  expect_all(error_of(with("/resources/1/format", "d32")), {"resource 'depth'", "unknown format 'd32'"});
  expect_all(error_of(with("/resources/0/type", "image")), {"unknown resource type 'image'"});
  expect_all(error_of(with("/groups/0/lists/0/ops/1/uses/0/stages", "fragment")),
             {"unknown stage 'fragment'"});
  expect_all(error_of(with("/resources/0/usage/0", "rt")), {"/resources/0/usage/0:", "unknown access 'rt'"});
}

TEST(LoadRecording, NegativeAndHugeNumbers) {
  expect_all(error_of(with("/resources/2/size", -1)), {"resource 'buf'", "negative number -1"});
  expect_all(error_of(with("/resources/0/layers", 2147483648u)),
             {"resource 'color'", "2147483648 is out of range"});
  expect_all(error_of(with("/resources/0/width", 4294967296u)), {"out of range"});
  expect_all(error_of(with("/resources/2/size", 1e30)), {"expected an integer"});
  expect_all(error_of(with("/groups/0/lists/0/ops/1/uses/1/mips", Json::array({2147483647u, 2147483647u}))),
             {"out of bounds"});
  // A mip chain ends at 1x1: 64x64 has 7 levels.
  expect_all(error_of(with("/resources/0/mips", 8)), {"8 is out of range [1, 7]"});
}

TEST(LoadRecording, ShaderAccessNeedsStagesAndOthersMustNotHaveThem) {
  expect_all(error_of(without("/groups/0/lists/0/ops/1/uses/0/stages")),
             {"op 1 (dispatch)", "resource 'color'", "[R0207]"});
  expect_all(error_of(with(std::string(kUse0) + "/stages", "pixel")), {"/uses/0/stages:", "[R0208]"});
  expect_all(error_of(with("/groups/0/lists/0/ops/1/uses/0/stages", Json::array())), {"at least one stage"});
}

TEST(LoadRecording, AccessMustFitTheResource) {
  expect_all(error_of(with(std::string(kUse0) + "/resource", "buf")), {"resource 'buf'", "[R0201]"});
  Json j = base();
  j["groups"][0]["lists"][0]["ops"][0]["uses"][0] = Json{{"resource", "color"}, {"access", "vertex_buffer"}};
  expect_all(error_of(j), {"resource 'color'", "[R0202]"});
  j = base();
  j["groups"][0]["lists"][0]["ops"][0]["uses"][1]["resource"] = "color";
  expect_all(error_of(j), {"[R0204]"});
  j = base();
  j["groups"][0]["lists"][0]["ops"][0]["uses"][0]["resource"] = "depth";
  expect_all(error_of(j), {"[R0205]"});
  expect_all(error_of(with("/resources/0/usage", Json::array({"shader_resource"}))),
             {"resource 'color'", "[R0206]"});
  expect_all(error_of(with("/resources/3/swapchain", false)), {"resource 'backbuffer'", "[R0203]"});
  expect_all(error_of(with("/resources/2/usage/0", "render_target")), {"/resources/2/usage/0:", "[R0101]"});
  expect_all(error_of(with("/resources/2/width", 4)), {"\"width\" applies only to textures"});
}

TEST(LoadRecording, AccessMustFitTheOpKind) {
  Json j = base();
  j["groups"][0]["lists"][0]["ops"][0]["kind"] = "copy";
  expect_all(error_of(j), {"op 0 (copy)", "/uses/0/access:", "[R0301]"});
}

TEST(LoadRecording, NamesMustBePrintable) {
  expect_all(error_of(with("/resources/0/name", "a\nb")), {"control characters"});
  expect_all(error_of(with("/resources/0/name", "")), {"must not be empty"});
}

// Deep nesting is refused by the parser at input::kMaxDepth, at the bracket that goes one too deep
// (the root object is level 1, so the 256th '[' is level 257).
TEST(LoadRecording, DeepNestingDoesNotCrash) {
  const size_t depth = 100000;
  const std::string text =
      "{\"resources\": " + std::string(depth, '[') + std::string(depth, ']') + ", \"groups\": []}";
  expect_all(error_of(text), {"rec.json:1:270:", "nested deeper than 256 arrays and objects"});
}

TEST(LoadRecording, MissingFileIsAnError) {
  try {
    load_recording_file("/nonexistent/rec.json");
    FAIL() << "expected an error";
  } catch (const Error& e) {
    expect_all(e.what(), {"/nonexistent/rec.json:", "cannot read"});
  }
}

}  // namespace
}  // namespace baton
