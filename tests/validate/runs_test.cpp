// Shadow state as runs of equal values (src/validate/runs.hpp): a resource costs one run until a
// command touches part of it, and messages and coverage still count subresources, not runs.
#include "../../src/validate/runs.hpp"

#include <gtest/gtest.h>

#include <baton/core.hpp>
#include <string>

#include "cases.hpp"

namespace baton::validate::testing {
namespace {

TEST(Runs, SplitOnlyAtTheEdgesOfWhatIsTouchedAndMergeBack) {
  Runs<int> runs(1u << 20, 0);
  EXPECT_EQ(runs.run_count(), 1u);
  runs.update(5, 6, [](uint32_t first, uint32_t n, int& v) {
    EXPECT_EQ(first, 5u);
    EXPECT_EQ(n, 1u);
    v = 7;
  });
  EXPECT_EQ(runs.run_count(), 3u);
  int seen = 0;
  runs.for_each(0, 1u << 20, [&](uint32_t first, uint32_t n, int v) {
    if (v == 7) {
      EXPECT_EQ(first, 5u);
      EXPECT_EQ(n, 1u);
    }
    ++seen;
  });
  EXPECT_EQ(seen, 3);
  runs.update(0, 1u << 20, [](uint32_t, uint32_t, int& v) { v = 1; });
  runs.coalesce(0, 1u << 20);
  EXPECT_EQ(runs.run_count(), 1u);
}

TEST(Runs, SplitCallsTheHookForEveryNewRun) {
  Runs<int> runs(100, 0);
  int splits = 0;
  runs.update(
      10, 20, [](uint32_t, uint32_t, int&) {}, [&](int&) { ++splits; });
  EXPECT_EQ(splits, 2);
}

TEST(IntervalSet, PiecesInOrderWithMembership) {
  IntervalSet s;
  s.add(3, 5);
  s.add(8, 9);
  s.add(5, 6);  // merges with [3,5)
  EXPECT_EQ(s.total(), 4u);
  std::string pieces;
  s.split(0, 10, [&](uint32_t first, uint32_t n, bool in) {
    pieces += fmt::format("{}+{}{} ", first, n, in ? "*" : "");
  });
  EXPECT_EQ(pieces, "0+3 3+3* 6+2 8+1* 9+1 ");
}

// Shadows are kept by run index (RunOrder, mip-major): a box is at most one interval per mip and
// plane, whatever its layer count (before, in the subresource index, partial mips cost one interval
// per layer: 8 here, 65,536 at the format's limit).
TEST(Intervals, WholeIsOneIntervalABoxAtMostOnePerMipAndPlane) {
  TraceResource r;
  r.mips = 4;
  r.layers = 8;
  r.planes = 2;
  EXPECT_EQ(intervals(r, 0, 4, 0, 8, 0, 2).size(), 1u);
  EXPECT_EQ(intervals(r, 0, 4, 2, 3, 0, 2).size(), 8u);  // layer 2 of 4 mips x 2 planes
  const auto rows = intervals(r, 1, 2, 0, 8, 1, 1);       // mips 1-2 of every layer of plane 1
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0], std::make_pair(uint32_t{32 + 8}, uint32_t{32 + 24}));
  // One subresource by its subresource index (mip 1, layer 2, plane 1 = 1 + 2 * 4 + 32 = 41).
  Subresources one;
  one.index = 41;
  const auto i = intervals(r, one);
  ASSERT_EQ(i.size(), 1u);
  EXPECT_EQ(i[0].first, 32u + 1 * 8 + 2);
  EXPECT_EQ(run_order(r).subresource(i[0].first), 41u);
}

// A use of one subresource by its subresource index finds the state the barrier on that subresource's
// range left (the shadows are kept by run index: both must convert). Mip 0 of layer 1 is subresource 2.
TEST(RunIndex, OneSubresourceByIndexIsTheOneARangeNamed) {
  for (const char* api : {"vulkan", "d3d12"}) {
    const bool vk = std::string(api) == "vulkan";
    const std::string barrier =
        vk ? R"({"barrier":[{"type":"image","resource":"t","range":{"mips":[0,1],"layers":[1,1]},"dst_stage":"COMPUTE_SHADER",)"
             R"("dst_access":"SHADER_STORAGE_WRITE","old_layout":"UNDEFINED","new_layout":"GENERAL"}]},)"
           : R"({"barrier":[{"type":"texture","resource":"t","range":{"mips":[0,1],"layers":[1,1]},"sync_before":"NONE",)"
             R"("sync_after":"COMPUTE_SHADING","access_before":"NO_ACCESS","access_after":"UNORDERED_ACCESS",)"
             R"("layout_before":"UNDEFINED","layout_after":"UNORDERED_ACCESS"}]},)";
    const std::string use =
        vk ? R"({"use":{"resource":"t","subresource":2,"as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_WRITE","layout":"GENERAL"}}})"
           : R"({"use":{"resource":"t","subresource":2,"as":"UNORDERED_ACCESS"}})";
    const std::string res = vk ? R"({"name":"t","mips":2,"layers":2})"
                               : R"({"name":"t","mips":2,"layers":2,"initial_layout":"UNDEFINED"})";
    const ValidationResult ok = validate(load_trace(one_list(api, res, barrier + use)));
    EXPECT_TRUE(ok.messages.empty()) << api << "\n" << to_text(ok);
    // Subresource 1 (mip 1, layer 0) was not moved: its use is reported, naming subresource 1.
    std::string other = use;
    other.replace(other.find("\"subresource\":2"), 15, "\"subresource\":1");
    const ValidationResult bad = validate(load_trace(one_list(api, res, barrier + other)));
    ASSERT_FALSE(bad.messages.empty()) << api;
    EXPECT_EQ(bad.messages[0].subresource, 1) << api << "\n" << to_text(bad);
  }
}

// 2^20 subresources, the documented limit: one message per command and resource still names the
// first subresource and counts the others; coverage counts every subresource once.
constexpr const char* kHuge = R"({"name":"t","mips":16,"layers":65536})";

TEST(HugeResources, D3D12MessagesCountSubresourcesNotRuns) {
  const std::string trace = one_list(
      "d3d12", kHuge,
      R"({"barrier":[{"type":"transition","resource":"t","before":"COMMON","after":"RENDER_TARGET"}]},)"
      R"({"barrier":[{"type":"transition","resource":"t","subresource":5,"before":"RENDER_TARGET","after":"PIXEL_SHADER_RESOURCE"}]},)"
      R"({"use":{"resource":"t","as":"UNORDERED_ACCESS"}},)"
      R"({"use":{"resource":"t","range":{"mips":[1,1]},"as":"PIXEL_SHADER_RESOURCE"}})");
  const ValidationResult r = validate(load_trace(trace));
  ASSERT_EQ(r.messages.size(), 2u) << to_text(r);
  EXPECT_EQ(r.messages[0].id, MessageId::invalid_subresource_state);
  EXPECT_EQ(r.messages[0].command, 2);
  EXPECT_EQ(r.messages[0].subresource, 0);
  EXPECT_TRUE(r.messages[0].text.ends_with("(and 1048575 more like it)")) << r.messages[0].text;
  EXPECT_EQ(r.messages[1].command, 3);
  EXPECT_EQ(r.messages[1].subresource, 1);
  EXPECT_TRUE(r.messages[1].text.ends_with("(and 65535 more like it)")) << r.messages[1].text;
  EXPECT_EQ(r.subresources_visited, uint64_t{1} << 20);
}

TEST(HugeResources, D3D12DuplicateTransitionInOneCallIsReportedOnlyWhereItOverlaps) {
  const std::string trace = one_list(
      "d3d12", kHuge,
      R"({"barrier":[{"type":"transition","resource":"t","subresource":7,"before":"COMMON","after":"RENDER_TARGET"},)"
      R"({"type":"transition","resource":"t","before":"COMMON","after":"COPY_DEST"}]})");
  const ValidationResult r = validate(load_trace(trace));
  ASSERT_EQ(r.messages.size(), 1u) << to_text(r);
  EXPECT_EQ(r.messages[0].id, MessageId::barrier_duplicate_subresource_transitions);
  EXPECT_EQ(r.messages[0].subresource, 7);
  EXPECT_TRUE(r.messages[0].text.ends_with("(COMMON -> COPY_DEST)")) << r.messages[0].text;
}

TEST(HugeResources, VulkanLayoutsOfUntransitionedRowsAreCounted) {
  const std::string trace = one_list(
      "vulkan", kHuge,
      R"({"barrier":[{"type":"image","resource":"t","range":{"mips":[0,1]},"dst_stage":"FRAGMENT_SHADER",)"
      R"("dst_access":"SHADER_SAMPLED_READ","old_layout":"UNDEFINED","new_layout":"SHADER_READ_ONLY_OPTIMAL"}]},)"
      R"({"use":{"resource":"t","as":{"stage":"FRAGMENT_SHADER","access":"SHADER_SAMPLED_READ",)"
      R"("layout":"SHADER_READ_ONLY_OPTIMAL"}}})");
  const ValidationResult r = validate(load_trace(trace));
  ASSERT_EQ(r.messages.size(), 1u) << to_text(r);
  EXPECT_EQ(r.messages[0].id, MessageId::vk_invalid_image_layout);
  EXPECT_EQ(r.messages[0].subresource, 1);
  EXPECT_TRUE(r.messages[0].text.ends_with("(and 983039 more like it)")) << r.messages[0].text;
  EXPECT_EQ(r.subresources_visited, uint64_t{1} << 20);
}

}  // namespace
}  // namespace baton::validate::testing

namespace baton::validate::testing {
namespace {

// The hard limits: past them the replay stops with an error naming the trace and the command that
// crossed one (the defaults are kMaxReplayRuns and kMaxReplayVisits; lowered here to stay small).
std::string error_of(const std::string& trace, const ValidateOptions& o) {
  try {
    (void)validate(load_trace(trace, "t.json"), o);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Many runs take many commands: a range costs at most one interval per mip (RunOrder), so these
// traces touch every other layer of mip 0, one subresource per command (the subresource index of mip
// 0, layer 2k is 2k * mips). Before the run index they used one command on mip 0 of every layer.
std::string every_other_layer(uint32_t mips, size_t n, const std::string& as) {
  std::string cmds;
  for (size_t k = 0; k < n; ++k)
    cmds += fmt::format(R"({}{{"use":{{"resource":"t","subresource":{},"as":{}}}}})", k ? "," : "", 2 * k * mips, as);
  return cmds;
}
constexpr const char* kCopySource = R"("COPY_SOURCE")";
constexpr const char* kTransferRead = R"({"stage":"COPY","access":"TRANSFER_READ","layout":"UNDEFINED"})";

TEST(ReplayLimits, TooManyRunsAtOnceIsAnErrorAtTheCommand) {
  // After command c, subresources of layers 0, 2, ..., 2c promoted to COPY_SOURCE, the others still
  // COMMON: 2(c + 1) runs, over 1000 first after command 500.
  const std::string trace =
      one_list("d3d12", R"({"name":"t","mips":2,"layers":4096})", every_other_layer(2, 600, kCopySource));
  ValidateOptions o;
  EXPECT_EQ(error_of(trace, o), "");  // within the default limits
  o.max_runs = 1000;
  EXPECT_EQ(
      error_of(trace, o),
      "t.json:/lists/0/commands/500: the replay needs more than 1000 runs of subresource state at once (a "
      "hard limit of the validator: docs/trace-format.md, \"Cost and limits\")");
}

TEST(ReplayLimits, TooManyVisitsIsAnErrorAtTheCommand) {
  ValidateOptions o;
  o.max_visits = 100;
  const std::string t = R"({"name":"t","mips":2,"layers":4096})";
  const std::string e = error_of(one_list("vulkan", t, every_other_layer(2, 200, kTransferRead)), o);
  const std::string prefix = "t.json:/lists/0/commands/";
  ASSERT_EQ(e.rfind(prefix, 0), 0u) << e;
  EXPECT_TRUE(e.ends_with(": the replay needs more than 100 visits of subresource state (a hard limit of the "
                          "validator: docs/trace-format.md, \"Cost and limits\")"))
      << e;
  // The command named is the one that crossed the limit: the commands before it stay within it.
  const size_t k = std::stoul(e.substr(prefix.size()));
  ASSERT_GT(k, 0u) << e;
  EXPECT_EQ(error_of(one_list("vulkan", t, every_other_layer(2, k, kTransferRead)), o), "");
  EXPECT_EQ(error_of(one_list("vulkan", t, every_other_layer(2, k + 1, kTransferRead)), o), e);
}

// A Vulkan event's set keeps a copy of the shadow runs: they count into the run limit while it holds them.
TEST(ReplayLimits, AnEventsSnapshotCountsIntoTheRunLimit) {
  // 2,048 uses of every other layer of mip 0: 4,096 runs; the set's copy doubles them.
  const std::string uses = every_other_layer(2, 2048, kTransferRead);
  const std::string set = R"(,{"set_event":{"event":"e","barriers":[]}})";
  const std::string t = R"({"name":"t","mips":2,"layers":4096})";
  ValidateOptions o;
  o.max_runs = 6000;  // the 4,096 runs of t fit, twice that does not
  EXPECT_EQ(error_of(one_list("vulkan", t, uses), o), "");
  EXPECT_EQ(
      error_of(one_list("vulkan", t, uses + set), o),
      "t.json:/lists/0/commands/2048: the replay needs more than 6000 runs of subresource state at once (a "
      "hard limit of the validator: docs/trace-format.md, \"Cost and limits\")");
}

// What the run index is for: a range of some mips over every layer, at the format's limit (2^20
// subresources), costs a few runs and visits, not one per layer.
TEST(ReplayLimits, SomeMipsOfEveryLayerStayFarBelowTheLimits) {
  const std::string trace = one_list(
      "vulkan", kHuge,
      R"({"barrier":[{"type":"image","resource":"t","range":{"mips":[1,2]},"dst_stage":"FRAGMENT_SHADER",)"
      R"("dst_access":"SHADER_SAMPLED_READ","old_layout":"UNDEFINED","new_layout":"SHADER_READ_ONLY_OPTIMAL"}]},)"
      R"({"use":{"resource":"t","range":{"mips":[1,2]},"as":{"stage":"FRAGMENT_SHADER","access":"SHADER_SAMPLED_READ",)"
      R"("layout":"SHADER_READ_ONLY_OPTIMAL"}}})");
  ValidateOptions o;
  o.max_runs = 16;  // 3 runs: mip 0, mips 1-2, mips 3-15 (one run per layer would be 131,072)
  o.max_visits = 64;
  const std::string e = error_of(trace, o);
  EXPECT_EQ(e, "");
  const ValidationResult r = validate(load_trace(trace), o);
  EXPECT_TRUE(r.messages.empty()) << to_text(r);
  EXPECT_EQ(r.subresources_visited, uint64_t{2} * 65536);
}

}  // namespace
}  // namespace baton::validate::testing
