// Buffer byte ranges end to end (issue 13 item 4): a recording's "bytes" reach the planner, which
// orders only overlapping ranges; Vulkan barriers carry offset/size, D3D12 ones stay whole; the plan's
// trace names the ranges, validates clean, and a dropped barrier between overlapping ranges is caught.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "baton/rules.hpp"

#include <baton/frame.hpp>
#include <baton/lower_vulkan.hpp>
#include <baton/recording.hpp>
#include <baton/validate.hpp>
#include <baton/validated_compile.hpp>
#include <nlohmann/json.hpp>

namespace baton {
namespace {

// One compute list over a 64 KiB buffer: op 0 writes `a`, op 1 writes `b` ("" = the whole buffer).
std::string two_writes(std::string_view a, std::string_view b) {
  auto use = [](std::string_view bytes) {
    return fmt::format(R"({{"resource": "objects", "access": "unordered_access", "stages": "compute"{}}})",
                       bytes.empty() ? "" : fmt::format(R"(, "bytes": {})", bytes));
  };
  return fmt::format(R"({{"resources": [{{"name": "objects", "type": "buffer", "size": 65536,
      "usage": ["unordered_access"]}}],
    "groups": [{{"name": "frame", "queue": "compute", "lists": [{{"name": "main", "ops": [
      {{"kind": "dispatch", "uses": [{}]}}, {{"kind": "dispatch", "uses": [{}]}}]}}]}}]}})",
                     use(a), use(b));
}

CompileResult compile_text(Recording& rec) {
  const std::vector<CommandListGroup*> g = rec.group_ptrs();
  return compile_all(rec.resources, g, fresh_history(rec.resources));
}

TEST(BytePlan, DisjointWritesOfOneBufferNeedNoBarrier) {
  Recording rec = load_recording(two_writes("[0, 32768]", "[32768, 32768]"));
  const CompileResult r = compile_text(rec);
  EXPECT_EQ(r.groups.at(0).barrier_count(), 0u);
}

TEST(BytePlan, OverlappingWritesGetAUavBarrierOnTheOverlap) {
  Recording rec = load_recording(two_writes("[0, 32768]", "[16384, 32768]"));
  const CompileResult r = compile_text(rec);
  ASSERT_EQ(r.groups.at(0).barrier_count(), 1u);
  const Barrier& b = r.groups[0].lists[0].barriers[0];
  EXPECT_EQ(b.reason, Reason::uav_order);
  EXPECT_EQ(b.byte_offset, 16384u);
  EXPECT_EQ(b.byte_size, 16384u);
  EXPECT_EQ(r.groups[0].lists[0].points[0].op, 1u);
  // Vulkan: the buffer barrier names those bytes.
  const VulkanPlan vp = lower_vulkan(rec.resources, r.groups);
  const VkBufferMemoryBarrier2& bb = vp.groups.at(0).lists.at(0).points.at(0).buffers.at(0);
  EXPECT_EQ(bb.offset, 16384u);
  EXPECT_EQ(bb.size, 16384u);
}

TEST(BytePlan, AWholeBufferUseOverlapsEveryRange) {
  for (const auto& [a, b] : {std::pair{"[40000, 16]", ""}, std::pair{"", "[0, 1]"}}) {
    Recording rec = load_recording(two_writes(a, b));
    const CompileResult r = compile_text(rec);
    ASSERT_EQ(r.groups.at(0).barrier_count(), 1u) << a << " then " << b;
    const Barrier& x = r.groups[0].lists[0].barriers[0];
    EXPECT_EQ(x.reason, Reason::uav_order);
    // The barrier covers what the two share: the range.
    EXPECT_EQ(x.byte_offset, std::string(a).empty() ? 0u : 40000u);
    EXPECT_EQ(x.byte_size, std::string(a).empty() ? 1u : 16u);
  }
}

// The plan's trace validates clean for every API, with and without a barrier between the ranges.
TEST(BytePlan, TracesOfRangedPlansValidateClean) {
  for (const auto& [a, b] : {std::pair{"[0, 32768]", "[32768, 32768]"}, std::pair{"[0, 32768]", "[16384, 32768]"},
                             std::pair{"[100, 28]", ""}})
    for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) {
      Recording rec = load_recording(two_writes(a, b));
      const std::string trace = trace_of_recording(rec, api);
      const validate::ValidationResult v = validate::validate(validate::load_trace(trace));
      EXPECT_TRUE(v.clean()) << a << " " << b << " " << to_string(api) << "\n" << trace;
    }
}

// Mutation: the Vulkan trace of overlapping writes without its one barrier is a read-after-write hazard (a UAV reads and writes);
// the trace of disjoint writes names the bytes of its uses.
TEST(BytePlan, DroppingTheBarrierBetweenOverlappingRangesIsCaught) {
  Recording rec = load_recording(two_writes("[0, 32768]", "[16384, 32768]"));
  nlohmann::json t = nlohmann::json::parse(trace_of_recording(rec, Api::vulkan));
  nlohmann::json& cmds = t["lists"][0]["commands"];
  size_t dropped = 0;
  for (size_t i = cmds.size(); i-- > 0;)
    if (cmds[i].contains("barrier")) {
      EXPECT_EQ(cmds[i]["barrier"][0]["offset"], 16384);
      EXPECT_EQ(cmds[i]["barrier"][0]["size"], 16384);
      cmds.erase(i);
      ++dropped;
    }
  ASSERT_EQ(dropped, 1u);
  const validate::ValidationResult v = validate::validate(validate::load_trace(t.dump()));
  ASSERT_EQ(v.messages.size(), 1u) << validate::to_text(v);
  EXPECT_EQ(v.messages[0].id, validate::MessageId::vk_hazard_read_after_write) << validate::to_text(v);

  Recording disjoint = load_recording(two_writes("[0, 32768]", "[32768, 32768]"));
  const nlohmann::json d = nlohmann::json::parse(trace_of_recording(disjoint, Api::vulkan));
  const nlohmann::json& uses = d["lists"][0]["commands"];
  ASSERT_EQ(uses.size(), 2u);
  EXPECT_EQ(uses[1]["use"]["offset"], 32768);
  EXPECT_EQ(uses[1]["use"]["size"], 32768);
}

// A frame graph's byte ranges reach its trace too (trace_of), which validates clean for every API; the
// Vulkan trace's barrier on the overlap of the two writes names its bytes.
TEST(BytePlan, GraphTracesNameTheBytesAndValidateClean) {
  const std::string g = R"({"resources":[{"name":"objects","type":"buffer","size":65536,"imported":true},
      {"name":"out","type":"buffer","size":256,"imported":true}],
    "passes":[{"name":"first","queue":"compute","uses":[{"resource":"objects","access":"unordered_access","stages":"compute","bytes":[0,32768]}]},
      {"name":"second","queue":"compute","uses":[{"resource":"objects","access":"unordered_access","stages":"compute","bytes":[16384,32768]}]},
      {"name":"read","queue":"compute","uses":[{"resource":"objects","access":"shader_resource","stages":"compute"},
        {"resource":"out","access":"unordered_access","stages":"compute"}]}],
    "outputs":["out"]})";
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) {
    const CompiledFrame f = compile_frame(parse_frame_input(g, "g.json"));
    ASSERT_TRUE(f.findings.empty());
    const std::string trace = trace_of(f, api);
    const validate::ValidationResult v = validate::validate(validate::load_trace(trace));
    EXPECT_TRUE(v.clean()) << to_string(api) << "\n" << validate::to_text(v);
    if (api != Api::vulkan) continue;
    size_t overlap = 0;
    const nlohmann::json parsed = nlohmann::json::parse(trace);
    for (const nlohmann::json& l : parsed["lists"])
      for (const nlohmann::json& c : l["commands"])
        if (c.contains("barrier"))
          for (const nlohmann::json& b : c["barrier"])
            overlap += b.value("offset", uint64_t{0}) == 16384 && b.contains("size") && b["size"] == 16384;
    EXPECT_EQ(overlap, 1u) << trace;
  }
}

// Two barriers of one buffer in one point, for different bytes with the same scopes, are one whole-buffer
// barrier on D3D12: the enhanced trace has it once (twice is INCOMPATIBLE_BARRIER_SYNC), and the frame
// graph keeps the async pass that writes the first half (a partial write keeps the other bytes).
TEST(BytePlan, AsyncPartialWritesValidateCleanForEveryApi) {
  const std::string g = R"({"resources":[{"name":"objects","type":"buffer","size":1024,"imported":true},{"name":"out","type":"buffer","size":256,"imported":true}], "passes":[  {"name":"a","queue":"copy","async":true,"uses":[{"resource":"objects","access":"copy_dest","bytes":[0,512]}]},  {"name":"b","queue":"graphics","uses":[{"resource":"objects","access":"copy_dest","bytes":[512,512]}]},  {"name":"read","queue":"compute","uses":[{"resource":"objects","access":"shader_resource","stages":"compute"},{"resource":"out","access":"unordered_access","stages":"compute"}]}], "outputs":["out"]})";
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) {
    const CompiledFrame f = compile_frame(parse_frame_input(g, "g.json"));
    ASSERT_TRUE(f.findings.empty());
    const std::string trace = trace_of(f, api);
    EXPECT_NE(trace.find("\"a\""), std::string::npos) << "pass 'a' culled";
    const validate::ValidationResult v = validate::validate(validate::load_trace(trace));
    EXPECT_TRUE(v.clean()) << to_string(api) << "\n" << validate::to_text(v);
  }
}

// D3D12 legacy holds one state per buffer: disjoint bytes of one buffer used in different states in one
// group (a copy writes the first half, a dispatch reads the second, another writes a quarter) are planned
// as one whole buffer, so each change of state gets its barrier, and the traces of every API validate
// clean (with byte ranges kept, the legacy trace was #538: NON_PIXEL_SHADER_RESOURCE needed, COPY_DEST
// held). Uses in one state keep their ranges (DisjointWritesOfOneBufferNeedNoBarrier).
TEST(BytePlan, DisjointBytesInDifferentStatesArePlannedAsOneBuffer) {
  const std::string text = R"({"resources": [{"name": "objects", "type": "buffer", "size": 1024,
      "usage": ["copy_dest", "shader_resource", "unordered_access"]}],
    "groups": [{"name": "frame", "queue": "direct", "lists": [{"name": "main", "ops": [
      {"kind": "copy", "uses": [{"resource": "objects", "access": "copy_dest", "bytes": [0, 512]}]},
      {"kind": "dispatch", "uses": [{"resource": "objects", "access": "shader_resource", "stages": "compute", "bytes": [512, 512]}]},
      {"kind": "dispatch", "uses": [{"resource": "objects", "access": "unordered_access", "stages": "compute", "bytes": [0, 256]}]}]}]}]})";
  Recording rec = load_recording(text);
  const CompileResult r = compile_text(rec);
  const CompiledList& l = r.groups.at(0).lists.at(0);
  ASSERT_EQ(l.barriers.size(), 2u);
  ASSERT_EQ(l.points.size(), 2u);
  EXPECT_EQ(l.points[0].op, 1u);
  EXPECT_EQ(l.points[1].op, 2u);
  for (const Barrier& b : l.barriers) {
    EXPECT_EQ(b.reason, Reason::state_change);
    EXPECT_TRUE(b.whole_bytes());
  }
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) {
    Recording again = load_recording(text);
    const validate::ValidationResult v = validate::validate(validate::load_trace(trace_of_recording(again, api)));
    EXPECT_TRUE(v.clean()) << to_string(api) << "\n" << validate::to_text(v);
  }
}

// Load errors: each names the file and the JSON pointer of the bad range.
TEST(BytePlan, BadRangesAreLoadErrors) {
  const auto error_of = [](const std::string& text) {
    try {
      (void)load_recording(text, "r.json");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string past = error_of(two_writes("[0, 32768]", "[65000, 1000]"));
  EXPECT_NE(past.find("r.json"), std::string::npos) << past;
  EXPECT_NE(past.find("/groups/0/lists/0/ops/1/uses/0/bytes"), std::string::npos) << past;
  EXPECT_NE(past.find("bytes [65000, 66000) are out of range for the buffer (65536 bytes)"), std::string::npos)
      << past;
  const std::string empty = error_of(two_writes("[0, 0]", ""));
  EXPECT_NE(empty.find("/groups/0/lists/0/ops/0/uses/0/bytes/1"), std::string::npos) << empty;
  EXPECT_NE(empty.find("a byte range has size 0"), std::string::npos) << empty;
  const std::string texture = error_of(R"({"resources": [{"name": "t", "type": "texture", "width": 4, "height": 4,
      "usage": ["unordered_access"]}], "groups": [{"name": "g", "queue": "compute", "lists": [{"name": "l",
      "ops": [{"kind": "dispatch", "uses": [{"resource": "t", "access": "unordered_access", "stages": "compute",
      "bytes": [0, 16]}]}]}]}]})");
  EXPECT_NE(texture.find("/groups/0/lists/0/ops/0/uses/0/bytes"), std::string::npos) << texture;
  EXPECT_NE(texture.find("\"bytes\" applies only to buffers"), std::string::npos) << texture;
  // Bytes are tracked on 32-bit axes: a range of a larger buffer must end below 2^32.
  const std::string far = error_of(R"({"resources": [{"name": "big", "type": "buffer", "size": 8589934592,
      "usage": ["copy_dest"]}], "groups": [{"name": "g", "queue": "copy", "lists": [{"name": "l",
      "ops": [{"kind": "copy", "uses": [{"resource": "big", "access": "copy_dest", "bytes": [4294967000, 1000]}]}]}]}]})");
  EXPECT_NE(far.find("/groups/0/lists/0/ops/0/uses/0"), std::string::npos) << far;
  EXPECT_NE(far.find("bytes [4294967000, 4294968000) end past 4294967295"), std::string::npos) << far;
}

// One operation with many uses of one buffer (past the pairwise scan, through the per-cell table, which
// is then indexed by bytes): reads of disjoint ranges and a write of other bytes are fine; a write
// overlapping one of the reads is a conflict naming the bytes.
TEST(BytePlan, ManyUsesOfOneBufferConflictOnlyWhereTheirBytesOverlap) {
  auto op = [](uint64_t write_offset) {
    std::string uses;
    for (int i = 0; i < 40; ++i)
      uses += fmt::format(R"({{"resource": "objects", "access": "shader_resource", "stages": "compute", "bytes": [{}, 16]}},)",
                          i * 16);
    uses += fmt::format(R"({{"resource": "objects", "access": "unordered_access", "stages": "compute", "bytes": [{}, 16]}})",
                        write_offset);
    return fmt::format(R"({{"resources": [{{"name": "objects", "type": "buffer", "size": 4096,
        "usage": ["unordered_access", "shader_resource"]}}],
      "groups": [{{"name": "frame", "queue": "compute", "lists": [{{"name": "main", "ops": [
        {{"kind": "dispatch", "uses": [{}]}}]}}]}}]}})",
                       uses);
  };
  Recording ok = load_recording(op(1024));
  EXPECT_EQ(compile_text(ok).groups.at(0).barrier_count(), 0u);
  try {
    (void)load_recording(op(320));
    ADD_FAILURE() << "no conflict";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/groups/0/lists/0/ops/0/uses/40"), std::string::npos) << e.what();
    // The rules catalog's conflict (R0302), naming both uses and the overlapping bytes.
    EXPECT_NE(std::string(e.what()).find("use 20 (shader_resource) and use 40 (unordered_access)"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("(bytes 320..335)"), std::string::npos) << e.what();
    EXPECT_EQ(rule_id_of(e.what()), "R0302") << e.what();
  }
}

// Saving keeps the bytes.
TEST(BytePlan, SaveRecordingKeepsTheBytes) {
  Recording rec = load_recording(two_writes("[0, 32768]", "[32768, 32768]"));
  Recording again = load_recording(save_recording(rec));
  ASSERT_GE(again.lists.at(0)->ops().size(), 2u);
  ASSERT_FALSE(again.lists.at(0)->ops()[1].uses.empty());
  const Use& u = again.lists.at(0)->ops()[1].uses[0];
  EXPECT_EQ(u.range.byte_offset, 32768u);
  EXPECT_EQ(u.range.byte_size, 32768u);
}

}  // namespace
}  // namespace baton
