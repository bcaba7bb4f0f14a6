// `baton compile --dot`: one node per pass, resource and barrier, waits as dashed edges, names
// quoted; Graphviz accepts it when it is installed.
#include <gtest/gtest.h>

#include <regex>

#include "baton/view.hpp"
#include "view_support.hpp"

namespace baton::view {
namespace {

using test::example;

size_t count(const std::string& s, const std::regex& re) {
  return static_cast<size_t>(
      std::distance(std::sregex_iterator(s.begin(), s.end(), re), std::sregex_iterator()));
}

TEST(Dot, OneNodePerPassResourceAndBarrier) {
  const Frame f = build_frame(example("deferred.json"), "deferred.json");
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) {
    const std::string dot = render_dot(f, api);
    EXPECT_EQ(dot.rfind("digraph frame {", 0), 0u);
    EXPECT_EQ(count(dot, std::regex(R"(\n  +p\d+ \[shape=box)")), f.passes.size());
    EXPECT_EQ(count(dot, std::regex(R"(\n  r\d+ \[shape=)")), f.resources.size());
    EXPECT_EQ(count(dot, std::regex(R"(\n  b\d+ \[shape=note)")), f.lowering(api).barriers.size())
        << to_string(api);
    EXPECT_EQ(count(dot, std::regex(R"(style=dashed, color=red)")), f.waits.size());
  }
}

TEST(Dot, QuotesNames) {
  const char* text = R"({"resources": [{"name": "a \"quoted\" \\ name", "type": "buffer", "size": 64}],
    "groups": [{"name": "g", "queue": "direct", "lists": [{"name": "l", "ops": [
      {"kind": "dispatch", "uses": [{"resource": "a \"quoted\" \\ name", "access": "unordered_access", "stages": "compute"}]}]}]}]})";
  const std::string dot = render_dot(build_frame(text, "q.json"), Api::vulkan);
  EXPECT_NE(dot.find(R"(label="a \"quoted\" \\ name"])"), std::string::npos) << dot;
}

#ifdef BATON_DOT
TEST(Dot, GraphvizAcceptsIt) {
  const auto dir = test::scratch("dot");
  for (const char* file : {"deferred.json", "demo.json", "async_compute.json"}) {
    const auto in = std::filesystem::path(BATON_SOURCE_DIR) / "examples" / file;
    const test::Result r = test::run(
        std::string(BATON_CLI) + " compile " + in.string() + " --api vulkan --dot | " + BATON_DOT + " -Tsvg",
        dir);
    EXPECT_EQ(r.code, 0) << file << ": " << r.err;
    EXPECT_NE(r.out.find("<svg"), std::string::npos) << file;
    EXPECT_EQ(r.err, "") << file;
  }
}
#endif

}  // namespace
}  // namespace baton::view
