// Buffer byte ranges in frame graphs (issue 13 item 4): "bytes" on a pass's use reaches the planner
// (disjoint writes of one buffer get no barrier between them), the checks replay a buffer per byte
// (a barrier on some bytes orders only those, so dropping the one between overlapping writes is a
// coverage finding), and bad ranges are load errors naming the JSON pointer.
#include <gtest/gtest.h>

#include "baton/graph.hpp"

namespace baton::graph {
namespace {

// Two compute passes write `a` and `b` of one 64 KiB buffer, a third reads all of it.
std::string graph(std::string_view a, std::string_view b) {
  auto use = [](std::string_view bytes) {
    return std::string(R"({"resource":"objects","access":"unordered_access","stages":"compute")") +
           (bytes.empty() ? "" : R"(,"bytes":)" + std::string(bytes)) + "}";
  };
  return R"({"resources":[{"name":"objects","type":"buffer","size":65536,"imported":true},
      {"name":"out","type":"buffer","size":256,"imported":true}],
    "passes":[{"name":"first","queue":"compute","uses":[)" +
         use(a) + R"(]},{"name":"second","queue":"compute","uses":[)" + use(b) +
         R"(]},{"name":"read","queue":"compute","uses":[{"resource":"objects","access":"shader_resource","stages":"compute"},
      {"resource":"out","access":"unordered_access","stages":"compute"}]}],
    "outputs":["out"]})";
}

size_t barriers_on(const GraphCompileResult& r, std::string_view name) {
  size_t n = 0;
  for (const CompiledGroup& g : r.trans.compiled)
    for (const CompiledList& l : g.lists)
      for (const Barrier& b : l.barriers)
        if (b.resource != kGlobalResource && r.trans.table[b.resource].name == name) ++n;
  return n;
}

TEST(GraphBytes, DisjointWritesNeedNoBarrierBetweenThem) {
  const GraphCompileResult r = compile_graph(load_graph_text(graph("[0,32768]", "[32768,32768]")));
  EXPECT_TRUE(r.findings.empty());
  // Only the read of the whole buffer waits for the two writes: one barrier per written range at most.
  for (const CompiledGroup& g : r.trans.compiled)
    for (const CompiledList& l : g.lists)
      for (const Barrier& b : l.barriers)
        if (r.trans.table[b.resource].name == "objects") {
          EXPECT_NE(b.reason, Reason::uav_order);
        }
  EXPECT_GE(barriers_on(r, "objects"), 1u);
}

// Each pass has its own list: the barrier between the overlapping writes is a hand-off on the overlap.
TEST(GraphBytes, OverlappingWritesGetABarrierOnTheOverlap) {
  const GraphCompileResult r = compile_graph(load_graph_text(graph("[0,32768]", "[16384,32768]")));
  EXPECT_TRUE(r.findings.empty());
  size_t overlap = 0;
  for (const CompiledGroup& g : r.trans.compiled)
    for (const CompiledList& l : g.lists)
      for (const Barrier& b : l.barriers)
        if (r.trans.table[b.resource].name == "objects" && b.reason == Reason::hand_off &&
            (b.before.access & bit(Access::unordered_access)) && (b.after.access & bit(Access::unordered_access))) {
          ++overlap;
          EXPECT_EQ(b.byte_offset, 16384u);
          EXPECT_EQ(b.byte_size, 16384u);
        }
  EXPECT_EQ(overlap, 1u);
}

// The coverage check replays a buffer per byte: the read's barrier shrunk to part of what the writes
// left in UAV state leaves the rest uncovered (a whole-buffer replay would let the part stand for all).
TEST(GraphBytes, CoverageSeesABarrierOnTooFewBytes) {
  for (const bool shrink : {false, true}) {
    CompileOptions o;
    o.before_checks = [&](GraphCompileResult& r) {
      if (!shrink) return;
      for (CompiledGroup& g : r.trans.compiled)
        for (Barrier& b : g.barriers)
          if (r.trans.table[b.resource].name == "objects" &&
              (b.after.access & bit(Access::shader_resource)) && b.byte_offset == 0) {
            ASSERT_EQ(b.byte_size, 49152u);
            b.byte_size = 16384;
          }
    };
    const GraphCompileResult r = compile_graph(load_graph_text(graph("[0,32768]", "[16384,32768]")), o);
    if (!shrink) {
      EXPECT_TRUE(r.findings.empty());
      continue;
    }
    ASSERT_FALSE(r.findings.empty());
    EXPECT_EQ(r.findings[0].rfind("coverage: ", 0), 0u) << r.findings[0];
    EXPECT_NE(r.findings[0].find("pass 'read', resource 'objects'"), std::string::npos) << r.findings[0];
    EXPECT_NE(r.findings[0].find("use shader_resource"), std::string::npos) << r.findings[0];
  }
}

// A blind write of some bytes keeps the others, so it depends on the previous writer of the buffer: the
// async copy pass writing the first half is neither culled (the reader of the whole buffer needs it) nor
// unordered against the graphics pass writing the second half.
constexpr std::string_view kTwoQueues = R"({"resources":[{"name":"objects","type":"buffer","size":1024,"imported":true},{"name":"out","type":"buffer","size":256,"imported":true}], "passes":[  {"name":"a","queue":"copy","async":true,"uses":[{"resource":"objects","access":"copy_dest","bytes":[0,512]}]},  {"name":"b","queue":"graphics","uses":[{"resource":"objects","access":"copy_dest","bytes":[512,512]}]},  {"name":"read","queue":"compute","uses":[{"resource":"objects","access":"shader_resource","stages":"compute"},{"resource":"out","access":"unordered_access","stages":"compute"}]}], "outputs":["out"]})";

TEST(GraphBytes, APartialBlindWriteKeepsTheOtherBytesAlive) {
  const GraphCompileResult r = compile_graph(load_graph_text(kTwoQueues));
  EXPECT_TRUE(r.findings.empty());
  ASSERT_EQ(r.culled.live.size(), 3u);
  EXPECT_EQ(r.culled.live[0], 1u) << "pass 'a' was culled";
  bool edge = false;
  for (const auto& e : r.validated.edges) edge = edge || (e.from == 0 && e.to == 1);
  EXPECT_TRUE(edge) << "pass 'b' does not depend on pass 'a'";
}

std::string error_of(const std::string& text) {
  try {
    (void)compile_graph(load_graph_text(text, "g.json"));
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(GraphBytes, BadRangesAreLoadErrors) {
  const std::string past = error_of(graph("[0,32768]", "[65000,1000]"));
  EXPECT_NE(past.find("g.json"), std::string::npos) << past;
  EXPECT_NE(past.find("/passes/1/uses/0/bytes"), std::string::npos) << past;
  EXPECT_NE(past.find("bytes [65000, 66000) are out of range for the buffer (65536 bytes)"), std::string::npos)
      << past;
  const std::string empty = error_of(graph("[0,0]", ""));
  EXPECT_NE(empty.find("/passes/0/uses/0/bytes/1"), std::string::npos) << empty;
  EXPECT_NE(empty.find("a byte range has size 0"), std::string::npos) << empty;
  const std::string texture = error_of(
      R"({"resources":[{"name":"t","type":"texture","width":4,"height":4,"imported":true}],
        "passes":[{"name":"p","queue":"compute","side_effect":true,"uses":[{"resource":"t","access":"unordered_access",
        "stages":"compute","bytes":[0,16]}]}],"outputs":[]})");
  EXPECT_NE(texture.find("/passes/0/uses/0/bytes"), std::string::npos) << texture;
  EXPECT_NE(texture.find("\"bytes\" applies only to buffers"), std::string::npos) << texture;
}

}  // namespace
}  // namespace baton::graph
