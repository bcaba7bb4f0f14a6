// Bad input: every rejection is a baton::Error of one line naming the pass and the resource.
#include <gtest/gtest.h>

#include "baton/graph.hpp"
#include "baton/rules.hpp"

namespace baton::graph {
namespace {

std::string error_of(std::string_view json) {
  try {
    compile_graph(load_graph_text(json));
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

constexpr std::string_view kTex = R"({"name":"a","type":"texture","width":64,"height":64})";

std::string graph(std::string_view passes, std::string_view extra_resources = "", std::string_view outputs = "[]") {
  return "{\"resources\":[" + std::string(kTex) +
         R"(,{"name":"b","type":"texture","width":64,"height":64},{"name":"t","type":"texture","transient":true,"width":64,"height":64})" +
         std::string(extra_resources) + "],\"passes\":[" + std::string(passes) + "],\"outputs\":" + std::string(outputs) + "}";
}

void expect_one_line(const std::string& e) {
  EXPECT_FALSE(e.empty());
  EXPECT_EQ(e.find('\n'), std::string::npos) << e;
}

// Reads on two queues with two accesses: only a depth test on direct plus compute sampling has a shared
// read state (tests/exec/mixed_read_test.cpp); a copy source on direct plus compute sampling has none.
TEST(GraphErrors, ReadsOnTwoQueuesWithNoSharedStateAreRejected) {
  const std::string e = error_of(
      R"({"resources":[{"name":"a","type":"texture","width":64,"height":64,"usage":["render_target","shader_resource","copy_source"]},
         {"name":"c","type":"texture","width":64,"height":64,"usage":["copy_dest"]},
         {"name":"u","type":"texture","width":64,"height":64,"usage":["unordered_access"]}],
         "passes":[{"name":"draw","uses":[{"resource":"a","access":"render_target"}]},
         {"name":"sample","queue":"compute","async":true,"uses":[{"resource":"a","access":"shader_resource","stages":"compute"},{"resource":"u","access":"unordered_access","stages":"compute"}]},
         {"name":"copy","uses":[{"resource":"a","access":"copy_source"},{"resource":"c","access":"copy_dest"}]}],
         "outputs":["c","u"]})");
  expect_one_line(e);
  EXPECT_NE(e.find("read on several queues with no one read state"), std::string::npos) << e;
  EXPECT_NE(e.find("resource 'a'"), std::string::npos) << e;
}

TEST(GraphErrors, CycleNamesThePassesAndTheResource) {
  const std::string e = error_of(graph(
      R"({"name":"p1","side_effect":true,"after":["p2"],"uses":[{"resource":"a","access":"render_target"}]},
         {"name":"p2","side_effect":true,"uses":[{"resource":"a","access":"shader_resource","stages":"pixel"}]})"));
  expect_one_line(e);
  EXPECT_NE(e.find("cycle"), std::string::npos) << e;
  EXPECT_NE(e.find("'p1'"), std::string::npos) << e;
  EXPECT_NE(e.find("'p2'"), std::string::npos) << e;
  EXPECT_NE(e.find("'a'"), std::string::npos) << e;
}

TEST(GraphErrors, UnknownResourceNamesPassAndResource) {
  const std::string e = error_of(graph(R"({"name":"p","uses":[{"resource":"nope","access":"render_target"}]})"));
  expect_one_line(e);
  EXPECT_NE(e.find("pass 'p'"), std::string::npos) << e;
  EXPECT_NE(e.find("'nope'"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown resource"), std::string::npos) << e;
}

TEST(GraphErrors, OutputNobodyWritesWouldBeCulled) {
  const std::string e =
      error_of(graph(R"({"name":"p","side_effect":true,"uses":[{"resource":"a","access":"render_target"}]})", "", R"(["b"])"));
  expect_one_line(e);
  EXPECT_NE(e.find("'b'"), std::string::npos) << e;
  EXPECT_NE(e.find("culled"), std::string::npos) << e;
}

TEST(GraphErrors, PassOnAQueueThatCannotPerformItsAccess) {
  const std::string e = error_of(graph(R"({"name":"sim","queue":"compute","async":true,"side_effect":true,
                                          "uses":[{"resource":"a","access":"render_target"}]})"));
  expect_one_line(e);
  EXPECT_NE(e.find("pass 'sim'"), std::string::npos) << e;
  EXPECT_NE(e.find("'a'"), std::string::npos) << e;
  EXPECT_NE(e.find("compute queue"), std::string::npos) << e;
  EXPECT_EQ(rule_id_of(e), "R0209") << e;
}

TEST(GraphErrors, TwoIncompatibleAccessesInOnePass) {
  const std::string e = error_of(graph(R"({"name":"p","side_effect":true,"uses":[
      {"resource":"a","access":"render_target"},{"resource":"a","access":"shader_resource","stages":"pixel"}]})"));
  expect_one_line(e);
  EXPECT_NE(e.find("pass 'p'"), std::string::npos) << e;
  EXPECT_NE(e.find("'a'"), std::string::npos) << e;
  EXPECT_EQ(rule_id_of(e), "R0302") << e;
}

TEST(GraphErrors, TransientReadBeforeAnyWrite) {
  const std::string e = error_of(graph(R"({"name":"p","side_effect":true,
      "uses":[{"resource":"t","access":"shader_resource","stages":"pixel"},{"resource":"a","access":"render_target"}]})"));
  expect_one_line(e);
  EXPECT_NE(e.find("pass 'p'"), std::string::npos) << e;
  EXPECT_NE(e.find("'t'"), std::string::npos) << e;
  EXPECT_NE(e.find("read before"), std::string::npos) << e;
}

TEST(GraphErrors, AmbiguousWriteOrderNeedsAPath) {
  const std::string e = error_of(graph(R"({"name":"w1","side_effect":true,"uses":[{"resource":"a","access":"copy_dest"}]},
                                          {"name":"w2","side_effect":true,"uses":[{"resource":"a","access":"copy_dest"}]})"));
  expect_one_line(e);
  EXPECT_NE(e.find("ambiguous write order"), std::string::npos) << e;
  EXPECT_NE(e.find("'w1'"), std::string::npos) << e;
  EXPECT_NE(e.find("'w2'"), std::string::npos) << e;
  // The same two writes ordered by "after" are fine.
  EXPECT_EQ(error_of(graph(R"({"name":"w1","side_effect":true,"uses":[{"resource":"a","access":"copy_dest"}]},
                              {"name":"w2","side_effect":true,"after":["w1"],"uses":[{"resource":"a","access":"copy_dest"}]})")),
            "");
}

TEST(GraphErrors, LoaderNamesTheJsonPath) {
  const std::string e = error_of(graph(R"({"name":"p","uses":[{"resource":"a","access":"sideways"}]})"));
  expect_one_line(e);
  EXPECT_NE(e.find("/passes/0/uses/0/access"), std::string::npos) << e;
}

}  // namespace
}  // namespace baton::graph
