// The shipped example recordings and the built-in demo: every example loads, the demo survives a
// round trip through the file format, and examples/demo.json is exactly the demo written out.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "baton/plan.hpp"
#include "baton/recording.hpp"

namespace baton {
namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Recordings in examples/ are the JSON files that do not name another format's schema (the
// frame-graph examples there declare docs/graph.schema.json).
bool is_recording(const std::filesystem::path& p) {
  std::ifstream in(p);
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object() || !j.contains("$schema")) return true;
  const std::string schema = j["$schema"].is_string() ? j["$schema"].get<std::string>() : "";
  return schema.ends_with("recording.schema.json");
}

std::vector<std::filesystem::path> example_files() {
  std::vector<std::filesystem::path> out;
  for (const auto& e :
       std::filesystem::directory_iterator(std::filesystem::path(BATON_SOURCE_DIR) / "examples"))
    if (e.path().extension() == ".json" && is_recording(e.path())) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

size_t op_count(const Recording& r) {
  size_t n = 0;
  for (const auto& g : r.groups)
    for (const CommandList* l : g->lists()) n += l->ops().size();
  return n;
}

TEST(Examples, EveryExampleFileLoads) {
  const auto files = example_files();
  ASSERT_GE(files.size(), 2u) << "examples/ should hold the demo and at least one more recording";
  for (const auto& f : files) {
    SCOPED_TRACE(f.string());
    Recording rec;
    ASSERT_NO_THROW(rec = load_recording_file(f.string()));
    EXPECT_FALSE(rec.groups.empty());
    EXPECT_GT(op_count(rec), 0u);
  }
}

TEST(Examples, EveryExampleSurvivesSaveAndLoad) {
  for (const auto& f : example_files()) {
    SCOPED_TRACE(f.string());
    const Recording rec = load_recording_file(f.string());
    const std::string once = save_recording(rec);
    const std::string twice = save_recording(load_recording(once, "saved"));
    EXPECT_EQ(once, twice);
  }
}

TEST(Demo, HasTheFrameTheIssueAsksFor) {
  const Recording rec = demo_recording();
  ASSERT_EQ(rec.groups.size(), 2u);
  size_t lists = 0;
  for (const auto& g : rec.groups) lists += g->lists().size();
  EXPECT_GE(lists, 6u);
  for (const char* name : {"shadow_map", "gbuffer_albedo", "gbuffer_normal", "gbuffer_depth", "ssao",
                           "particles", "taa_history", "bloom_chain", "swapchain"})
    EXPECT_TRUE(rec.resources.find(name).has_value()) << name;
  // Bloom works per mip: some use of the bloom chain covers a single mip only.
  const ResourceId bloom = *rec.resources.find("bloom_chain");
  bool per_mip = false;
  for (const auto& g : rec.groups)
    for (const CommandList* l : g->lists())
      for (const Operation& op : l->ops())
        for (const Use& u : op.uses) per_mip |= u.resource == bloom && u.range.mip_count == 1;
  EXPECT_TRUE(per_mip);
  EXPECT_TRUE(rec.resources[*rec.resources.find("swapchain")].swapchain);
}

TEST(Demo, ExampleFileIsTheDemoWrittenOut) {
  // examples/demo.json is what `baton demo --recording` prints; regenerate it when the demo changes.
  const std::string file = read_file(std::filesystem::path(BATON_SOURCE_DIR) / "examples" / "demo.json");
  EXPECT_EQ(file, save_recording(demo_recording()));
}

// Compiled plans compared field by field: the loaded demo must plan exactly like the demo built in code.
void expect_same_plan(const std::vector<CompiledGroup>& a, const std::vector<CompiledGroup>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t g = 0; g < a.size(); ++g) {
    ASSERT_EQ(a[g].lists.size(), b[g].lists.size());
    for (size_t l = 0; l < a[g].lists.size(); ++l) {
      const CompiledList& x = a[g].lists[l];
      const CompiledList& y = b[g].lists[l];
      EXPECT_EQ(x.name, y.name);
      ASSERT_EQ(x.barriers.size(), y.barriers.size()) << x.name;
      for (size_t i = 0; i < x.barriers.size(); ++i) {
        EXPECT_EQ(x.barriers[i].resource, y.barriers[i].resource);
        EXPECT_EQ(x.barriers[i].box, y.barriers[i].box);
        EXPECT_EQ(x.barriers[i].before, y.barriers[i].before);
        EXPECT_EQ(x.barriers[i].after, y.barriers[i].after);
        EXPECT_EQ(x.barriers[i].reason, y.barriers[i].reason);
        EXPECT_EQ(x.barriers[i].discard, y.barriers[i].discard);
      }
      ASSERT_EQ(x.points.size(), y.points.size()) << x.name;
      for (size_t i = 0; i < x.points.size(); ++i) {
        EXPECT_EQ(x.points[i].op, y.points[i].op);
        EXPECT_EQ(x.points[i].where, y.points[i].where);
        EXPECT_EQ(x.points[i].count, y.points[i].count);
      }
    }
  }
}

std::vector<CompiledGroup> compile_recording(Recording& r) {
  return compile_all(r.resources, r.group_ptrs(), fresh_history(r.resources)).groups;
}

TEST(Demo, RoundTripThroughTheFileFormatKeepsThePlan) {
  Recording built = demo_recording();
  Recording loaded = load_recording(save_recording(built), "demo");
  EXPECT_EQ(op_count(built), op_count(loaded));
  const auto a = compile_recording(built);
  const auto b = compile_recording(loaded);
  size_t barriers = 0;
  for (const CompiledGroup& g : a) barriers += g.barrier_count();
  EXPECT_GT(barriers, 0u);
  expect_same_plan(a, b);
}

}  // namespace
}  // namespace baton
