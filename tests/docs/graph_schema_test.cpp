// docs/graph.schema.json describes what src/graph/load_graph.cpp accepts: the examples validate
// against it, its enumerations are the names the code parses, every key it documents loads, and
// what it rejects the loader rejects too.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "baton/graph.hpp"
#include "mini_schema.hpp"

namespace baton {
namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

using docs_test::read_json;
Json schema() {
  return read_json(fs::path(BATON_SOURCE_DIR) / "docs" / "graph.schema.json");
}
Json example(const char* name) {
  return read_json(fs::path(BATON_SOURCE_DIR) / "examples" / name);
}

std::set<std::string> strings(const Json& arr) {
  std::set<std::string> out;
  for (const Json& v : arr) out.insert(v.get<std::string>());
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += x + "\n";
  return s;
}

TEST(GraphSchema, ExamplesValidate) {
  const docs_test::MiniSchema s(schema());
  for (const char* name : {"deferred.json", "async.json", "copy_graph.json"}) {
    const Json doc = example(name);
    EXPECT_TRUE(graph::is_graph_json(doc)) << name;
    const std::vector<std::string> errors = s.validate(doc);
    EXPECT_TRUE(errors.empty()) << name << ":\n" << joined(errors);
    EXPECT_NO_THROW((void)graph::load_graph(doc, name)) << name;
  }
}

// The validator is live: each of these breaks the schema, and the loader refuses each one as well.
TEST(GraphSchema, SchemaAndLoaderRejectTheSameMistakes) {
  const docs_test::MiniSchema s(schema());
  const Json base = example("deferred.json");
  std::vector<std::pair<std::string, Json>> bad;
  auto mutate = [&](std::string what, auto&& f) {
    Json j = base;
    f(j);
    bad.emplace_back(std::move(what), std::move(j));
  };
  mutate("unknown top-level key", [](Json& j) { j["extra"] = 1; });
  mutate("unknown resource key", [](Json& j) { j["resources"][0]["colour"] = "red"; });
  mutate("unknown pass key", [](Json& j) { j["passes"][0]["priority"] = 1; });
  mutate("unknown use key", [](Json& j) { j["passes"][0]["uses"][0]["slice"] = 0; });
  mutate("unknown access", [](Json& j) { j["passes"][0]["uses"][0]["access"] = "sample"; });
  mutate("unknown queue", [](Json& j) { j["passes"][0]["queue"] = "direct"; });
  mutate("buffer with a width", [](Json& j) {
    j["resources"].push_back({{"name", "odd"}, {"type", "buffer"}, {"size", 64}, {"width", 4}});
  });
  mutate("texture with a size", [](Json& j) {
    j["resources"].push_back({{"name", "odd"}, {"type", "texture"}, {"size", 64}});
  });
  mutate("transient and imported", [](Json& j) {
    j["resources"].push_back(
        {{"name", "odd"}, {"type", "buffer"}, {"size", 64}, {"transient", true}, {"imported", true}});
  });
  mutate("count out of range", [](Json& j) {
    j["resources"].push_back({{"name", "odd"}, {"type", "buffer"}, {"size", 64}, {"count", 5000}});
  });
  mutate("pass without uses", [](Json& j) { j["passes"][0].erase("uses"); });
  mutate("range of three numbers", [](Json& j) { j["passes"][0]["uses"][0]["mips"] = {0, 1, 2}; });
  for (const auto& [what, doc] : bad) {
    EXPECT_FALSE(s.validate(doc).empty()) << what << ": the schema accepts it";
    EXPECT_THROW((void)graph::load_graph(doc, "mutated"), Error) << what << ": the loader accepts it";
  }
}

TEST(GraphSchema, NamesMatchTheCode) {
  const Json s = schema();
  std::set<std::string> code;
  for (int i = 0; i < kAccessCount; ++i) code.insert(std::string(to_string(static_cast<Access>(i))));
  EXPECT_EQ(strings(s["$defs"]["access"]["enum"]), code);
  for (const std::string& st : strings(s["$defs"]["stage"]["enum"]))
    EXPECT_TRUE(parse_stage(st).has_value()) << st;
  EXPECT_EQ(strings(s["$defs"]["pass"]["properties"]["queue"]["enum"]),
            (std::set<std::string>{"graphics", "compute", "copy"}));
  std::set<std::string> formats;
  for (FormatClass f : {FormatClass::color, FormatClass::depth, FormatClass::depth_stencil})
    formats.insert(std::string(to_string(f)));
  EXPECT_EQ(strings(s["$defs"]["resource"]["properties"]["format"]["enum"]), formats);
}

// Every key the schema documents is one the loader accepts: a graph that uses all of them loads.
TEST(GraphSchema, EveryDocumentedKeyIsAccepted) {
  const Json s = schema();
  EXPECT_EQ(s["$defs"]["resource"]["properties"].size(), 18u);
  EXPECT_EQ(s["$defs"]["pass"]["properties"].size(), 6u);
  EXPECT_EQ(s["$defs"]["use"]["properties"].size(), 7u);
  const Json doc = Json::parse(R"({"$schema": "docs/graph.schema.json",
    "resources": [
      {"name": "t", "type": "texture", "width": 8, "height": 8, "mips": 2, "layers": 2, "planes": 1, "format": "color",
       "usage": ["render_target", "shader_resource"], "placed": false, "simultaneous_access": false, "swapchain": false,
       "resting": "shader_resource", "transient": true, "imported": false, "count": 2, "texel_bytes": 8},
      {"name": "b", "type": "buffer", "size": 64, "usage": ["unordered_access"], "placed": false, "imported": true}],
    "passes": [
      {"name": "fill", "queue": "graphics", "async": false, "side_effect": false, "uses": [
        {"resource": "t", "access": "render_target", "mips": [0, 1], "layers": [0, 2], "planes": [0, 1]}]},
      {"name": "use", "queue": "compute", "async": true, "side_effect": true, "after": ["fill"], "uses": [
        {"resource": "t", "access": "shader_resource", "stages": ["compute"], "mips": [0, 1]},
        {"resource": "b", "access": "unordered_access", "stages": "compute", "bytes": [16, 32]}]}],
    "outputs": ["b"]})");
  EXPECT_TRUE(docs_test::MiniSchema(s).validate(doc).empty())
      << joined(docs_test::MiniSchema(s).validate(doc));
  const graph::Graph g = graph::load_graph(doc);
  EXPECT_EQ(g.resources[0].count, 2u);
  EXPECT_EQ(g.resources[0].texel_bytes, 8u);
  EXPECT_TRUE(g.resources[0].transient);
  EXPECT_TRUE(g.resources[1].imported);
  EXPECT_TRUE(g.passes[1].async);
  EXPECT_EQ(g.passes[1].after, std::vector<uint32_t>{0});
  EXPECT_EQ(g.passes[1].uses[1].range.byte_offset, 16u);
  EXPECT_EQ(g.passes[1].uses[1].range.byte_size, 32u);
}

}  // namespace
}  // namespace baton
