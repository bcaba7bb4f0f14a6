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

// A use that breaks a rule is reported before a transient read before any write in an earlier use of
// the pass (every use is checked first, then the pass is applied), and the read's error names its use.
TEST(GraphErrors, RuleOfALaterUseComesBeforeATransientReadBeforeAnyWrite) {
  const std::string e = error_of(graph(R"({"name":"p","side_effect":true,"queue":"compute","async":true,
      "uses":[{"resource":"t","access":"shader_resource","stages":"compute"},{"resource":"a","access":"render_target"}]})"));
  expect_one_line(e);
  EXPECT_EQ(rule_id_of(e), "R0209") << e;
  EXPECT_NE(e.find("/passes/0/uses/1"), std::string::npos) << e;
  const std::string r = error_of(graph(R"({"name":"p","side_effect":true,
      "uses":[{"resource":"a","access":"render_target"},{"resource":"b","access":"render_target"},
              {"resource":"t","access":"shader_resource","stages":"pixel"}]})"));
  expect_one_line(r);
  EXPECT_NE(r.find("/passes/0/uses/2: pass 'p', resource 't'"), std::string::npos) << r;
  EXPECT_NE(r.find("read before"), std::string::npos) << r;
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

// Every phase's errors name the JSON pointer of the pass, use, output or resource they concern (and,
// for a broken rule, end with its id): one test per phase. The commands put the file name in front
// (tests/cli/bad_input_test.cpp); the loader names it itself.
std::string compile_error(std::string_view json, const CompileOptions& o = {}) {
  try {
    const GraphCompileResult r = compile_graph(load_graph_text(json, "frame.json"), o);
    return r.findings.empty() ? std::string() : r.findings.front();
  } catch (const Error& e) {
    return e.what();
  }
}
std::string id_in(const std::string& message) {
  const std::optional<std::string_view> id = rule_id_of(message);
  return id ? std::string(*id) : std::string("no id");
}
bool starts_with(const std::string& s, std::string_view prefix) { return s.rfind(prefix, 0) == 0; }

TEST(GraphErrorLocations, Load) {
  const std::string e = compile_error(R"({"resources":[{"name":"a","type":"texture","resting":"depth_read"}],
                                          "passes":[], "outputs":[]})");
  EXPECT_TRUE(starts_with(e, "frame.json:/resources/0/resting: resource 'a': ")) << e;
  EXPECT_EQ(id_in(e), "R0204") << e;
}

TEST(GraphErrorLocations, Validate) {
  const std::string e = compile_error(graph(R"({"name":"w1","side_effect":true,"uses":[{"resource":"a","access":"copy_dest"}]},
                                               {"name":"w2","side_effect":true,"uses":[{"resource":"a","access":"copy_dest"}]})"));
  EXPECT_TRUE(starts_with(e, "/passes/1: pass 'w2', resource 'a': ambiguous write order")) << e;
  EXPECT_EQ(id_in(e), "R0503") << e;
  const std::string o = compile_error(graph(R"({"name":"p","uses":[{"resource":"t","access":"render_target"}]})", "", R"(["t"])"));
  EXPECT_TRUE(starts_with(o, "/outputs/0: pass 'p', output 't': ")) << o;
  EXPECT_EQ(id_in(o), "R0506") << o;
}

TEST(GraphErrorLocations, Transitions) {
  const std::string e = compile_error(
      R"({"resources":[{"name":"a","type":"texture","width":64,"height":64}],
         "passes":[{"name":"draw","uses":[{"resource":"a","access":"render_target"}]},
         {"name":"sample","queue":"compute","async":true,"side_effect":true,"uses":[{"resource":"a","access":"shader_resource","stages":"compute"}]},
         {"name":"copy","side_effect":true,"uses":[{"resource":"a","access":"copy_source"}]}],
         "outputs":[]})");
  // The first reader of the run of reads (in submission order) and its use of the resource.
  EXPECT_TRUE(starts_with(e, "/passes/1/uses/0: pass 'sample', resource 'a': ") ||
              starts_with(e, "/passes/2/uses/0: pass 'copy', resource 'a': "))
      << e;
  EXPECT_EQ(id_in(e), "R0507") << e;
}

// The later phases' mistakes are the checks' findings (a finding is a bug of Baton's, so each test
// breaks the phase's result on purpose, as GraphChecks.* do): "<check>: <pointer>: ...".
TEST(GraphErrorLocations, Schedule) {
  CompileOptions o;
  o.before_checks = [](GraphCompileResult& r) { std::swap(r.sched.serial[0], r.sched.serial[1]); };
  const std::string e = compile_error(
      graph(R"({"name":"w","uses":[{"resource":"a","access":"render_target"}]},
               {"name":"r","uses":[{"resource":"a","access":"shader_resource","stages":"pixel"},{"resource":"b","access":"render_target"}]})",
            "", R"(["b"])"),
      o);
  EXPECT_TRUE(starts_with(e, "serial-order: /passes/1: pass 'r' is scheduled before pass 'w'")) << e;
}

TEST(GraphErrorLocations, Aliasing) {
  // Two transients, t written first, u second, both read by the last pass: live together, so they
  // may not share memory; the corruption places u on t.
  CompileOptions o;
  o.before_checks = [](GraphCompileResult& r) {
    r.aliasing.placements[r.aliasing.placement_of[3]].offset = r.aliasing.placements[r.aliasing.placement_of[2]].offset;
  };
  const std::string e = compile_error(
      graph(R"({"name":"w1","uses":[{"resource":"t","access":"render_target"}]},
               {"name":"w2","uses":[{"resource":"u","access":"render_target"}]},
               {"name":"r","uses":[{"resource":"t","access":"shader_resource","stages":"pixel"},
                                   {"resource":"u","access":"shader_resource","stages":"pixel"},
                                   {"resource":"b","access":"render_target"}]})",
            R"(,{"name":"u","type":"texture","transient":true,"width":64,"height":64})", R"(["b"])"),
      o);
  EXPECT_TRUE(starts_with(e, "aliasing: /resources/3: resources 't' and 'u' share memory")) << e;
}

TEST(GraphErrorLocations, Checks) {
  // The read's transition removed (it ends where it starts): the use is not covered.
  CompileOptions o;
  o.before_checks = [](GraphCompileResult& r) {
    for (CompiledGroup& cg : r.trans.compiled)
      for (size_t li = 0; li < cg.lists.size(); ++li)
        if (cg.lists[li].name == "r")
          for (Barrier& b : cg.barriers_of(li))
            if (r.trans.table[b.resource].name == "a") b.after = b.before;
  };
  const std::string e = compile_error(
      graph(R"({"name":"w","uses":[{"resource":"a","access":"render_target"}]},
               {"name":"r","uses":[{"resource":"b","access":"render_target"},{"resource":"a","access":"shader_resource","stages":"pixel"}]})",
            "", R"(["b"])"),
      o);
  EXPECT_TRUE(starts_with(e, "coverage: /passes/1/uses/1: pass 'r', resource 'a' ")) << e;
}

}  // namespace
}  // namespace baton::graph
