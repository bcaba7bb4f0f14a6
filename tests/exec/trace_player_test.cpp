// The trace player (docs/replay.md): known streams give the layer's ids, what it cannot express is
// bad input naming the entry, and the documented differences of layer 1.3.239 are still there.
#ifdef BATON_HAVE_TRACE_PLAYER

#include "baton/trace_player.hpp"

#include <gtest/gtest.h>

#include "exec_fixture.hpp"

namespace baton::exec::test {
namespace {

ReplayReport play(const std::string& json) {
  VulkanContext& ctx = lavapipe();
  TracePlayer player(ctx);
  return player.play(validate::load_trace(json, "t"));
}

// A buffer written by a copy, then read by a dispatch; `barrier` in between (or nothing).
std::string copy_then_read(const std::string& barrier) {
  return R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"}],"lists":[{"name":"L","commands":[
    {"use":{"resource":"b","subresource":"all","as":{"stage":"COPY","access":"TRANSFER_WRITE"}}},)" +
         barrier + R"(
    {"use":{"resource":"b","subresource":"all","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ"}}}]}],
    "submissions":[{"queue":"g","lists":["L"]}]})";
}

TEST(TracePlayer, MissingBarrierIsTheLayersReadAfterWrite) {
  const ReplayReport r = play(copy_then_read(""));
  EXPECT_EQ(r.log.total(), 1u);
  EXPECT_EQ(r.log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  EXPECT_EQ(r.submissions, 1u);
  EXPECT_EQ(r.commands, 2u);
}

TEST(TracePlayer, BarrierAsWrittenIsClean) {
  const ReplayReport r = play(copy_then_read(
      R"({"barrier":[{"type":"buffer","resource":"b","src_stage":"COPY","src_access":"TRANSFER_WRITE",
          "dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ"}]},)"));
  EXPECT_TRUE(r.log.empty()) << r.log.texts.size();
  EXPECT_EQ(r.barriers, 1u);
}

TEST(TracePlayer, DestinationStageLaterThanTheReadHidesNothing) {
  // The barrier names FRAGMENT_SHADER: the compute read is outside its second scope.
  const ReplayReport r = play(copy_then_read(
      R"({"barrier":[{"type":"buffer","resource":"b","src_stage":"COPY","src_access":"TRANSFER_WRITE",
          "dst_stage":"FRAGMENT_SHADER","dst_access":"SHADER_STORAGE_READ"}]},)"));
  EXPECT_EQ(r.log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
}

TEST(TracePlayer, UseInTheWrongLayoutIsALayoutMessage) {
  const ReplayReport r =
      play(R"({"api":"vulkan","resources":[{"name":"i","type":"texture","initial":"GENERAL"}],
    "lists":[{"name":"L","commands":[
      {"use":{"resource":"i","subresource":0,"as":{"stage":"COPY","access":"TRANSFER_READ","layout":"TRANSFER_SRC_OPTIMAL"}}}]}],
    "submissions":[{"queue":"g","lists":["L"]}]})");
  // The image is GENERAL from a set-up submission: the layer finds the mismatch at submit time.
  EXPECT_EQ(r.log.counts.count("UNASSIGNED-CoreValidation-DrawState-InvalidImageLayout"), 1u);
  EXPECT_EQ(r.log.total(), 1u);
}

TEST(TracePlayer, WaitedSemaphoreOrdersTheSubmissions) {
  const ReplayReport r = play(R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"}],
    "lists":[{"name":"L","commands":[{"use":{"resource":"b","subresource":"all","as":{"stage":"COPY","access":"TRANSFER_WRITE"}}}]},
             {"name":"M","commands":[{"use":{"resource":"b","subresource":"all","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ"}}}]}],
    "submissions":[{"queue":"g","lists":["L"],"signal":["s"]},{"queue":"g","lists":["M"],"wait":["s"]}]})");
  EXPECT_TRUE(r.log.empty());
  EXPECT_EQ(r.submissions, 2u);
}

// The layer agrees with the validator fix of docs/replay.md ("Bugs found"): a transition with
// srcStageMask NONE is not ordered after a semaphore wait, so it races the signaler's write.
const std::string kSemaphoreThenTransition =
    R"({"api":"vulkan","resources":[{"name":"i","type":"texture","initial":"TRANSFER_DST_OPTIMAL"}],
    "lists":[{"name":"L","commands":[
      {"use":{"resource":"i","subresource":"all","as":{"stage":"CLEAR","access":"TRANSFER_WRITE","layout":"TRANSFER_DST_OPTIMAL"}}}]},
             {"name":"M","commands":[
      {"barrier":[{"type":"image","resource":"i","range":"all","src_stage":"NONE","dst_stage":"COMPUTE_SHADER",
                   "dst_access":"SHADER_STORAGE_READ","old_layout":"TRANSFER_DST_OPTIMAL","new_layout":"GENERAL"}]},
      {"use":{"resource":"i","subresource":"all","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ","layout":"GENERAL"}}}]}],
    "submissions":[{"queue":"g","lists":["L"],"signal":["s"]},{"queue":"g","lists":["M"],"wait":["s"]}]})";

TEST(TracePlayer, SemaphoreThenTransitionWithNoFirstScope) {
  const ReplayReport r = play(kSemaphoreThenTransition);
  EXPECT_EQ(r.log.total(), 1u);
  EXPECT_EQ(r.log.counts.count("SYNC-HAZARD-WRITE-AFTER-WRITE"), 1u);
  const validate::ValidationResult v =
      validate::validate(validate::load_trace(kSemaphoreThenTransition, "t"));
  EXPECT_EQ(v.count(validate::MessageId::vk_hazard_write_after_write), 1u);
  EXPECT_EQ(v.messages.size(), 1u);
}

// D4 of docs/replay.md: with srcStageMask BOTTOM_OF_PIPE the barrier chains with the wait, whose
// memory dependency covers the write: no hazard by the spec (Baton's validator is clean), but layer
// 1.3.239 still reports a write-after-write at submit time.
TEST(TracePlayer, DocumentedDifferenceD4TransitionAfterWait) {
  std::string t = kSemaphoreThenTransition;
  t.replace(t.find(R"("src_stage":"NONE")"), 18, R"("src_stage":"BOTTOM_OF_PIPE")");
  const ReplayReport r = play(t);
  EXPECT_EQ(r.log.counts.count("SYNC-HAZARD-WRITE-AFTER-WRITE"), 1u);
  EXPECT_TRUE(validate::validate(validate::load_trace(t, "t")).clean());
}

// D1 of docs/replay.md: layer 1.3.239 does not report a write-after-write between two dispatches
// writing the same storage image. When this fails, the layer changed: update docs/replay.md.
TEST(TracePlayer, DocumentedDifferenceD1SameAccessWriteAfterWrite) {
  const ReplayReport r =
      play(R"({"api":"vulkan","resources":[{"name":"i","type":"texture","initial":"GENERAL"}],
    "lists":[{"name":"L","commands":[
      {"use":{"resource":"i","subresource":0,"as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_WRITE","layout":"GENERAL"}}},
      {"use":{"resource":"i","subresource":0,"as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_WRITE","layout":"GENERAL"}}}]}],
    "submissions":[{"queue":"g","lists":["L"]}]})");
  EXPECT_TRUE(r.log.empty());
}

// D5 of docs/replay.md (seed 920 of the multi-submission run, reduced): a copy reads what the
// previous submission's copy wrote, no barrier: read-after-write, which Baton reports; layer 1.3.239
// reports it too, but not when a later barrier of the reading command buffer transitions an image.
TEST(TracePlayer, DocumentedDifferenceD5HiddenByALaterTransition) {
  const std::string base = R"({"api":"vulkan","resources":[{"name":"r0","type":"texture","initial":"GENERAL"},
      {"name":"r1","type":"buffer"}],
    "lists":[{"name":"L0","commands":[{"use":{"resource":"r1","subresource":"all","as":{"stage":"COPY","access":"TRANSFER_WRITE"}}}]},
             {"name":"L1","commands":[{"use":{"resource":"r1","subresource":"all","as":{"stage":"COPY","access":"TRANSFER_READ"}}},
      {"barrier":[{"type":"image","resource":"r0","range":"all","src_stage":"NONE","dst_stage":"NONE",
                   "old_layout":"GENERAL","new_layout":"NEW"}]}]}],
    "submissions":[{"queue":"g","lists":["L0"]},{"queue":"g","lists":["L1"]}]})";
  auto with = [&](const char* layout) {
    std::string t = base;
    t.replace(t.find("NEW"), 3, layout);
    return t;
  };
  const std::string transition = with("TRANSFER_DST_OPTIMAL"), none = with("GENERAL");
  EXPECT_EQ(play(none).log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  EXPECT_TRUE(play(transition).log.empty());
  EXPECT_EQ(validate::validate(validate::load_trace(transition, "t"))
                .count(validate::MessageId::vk_hazard_read_after_write),
            1u);
}

// Events (split barriers, issue 17): set in list A, waited in list B of the same submission (one
// command buffer each). The layer follows the event across command buffers, as Baton's validator does:
// with the wait the read is ordered, without it it is the layer's (and the validator's) hazard.
std::string event_across_lists(bool wait) {
  const std::string dep =
      R"({"type":"buffer","resource":"b","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_WRITE",
          "dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ"})";
  return R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"},{"name":"o","type":"buffer"}],"lists":[
    {"name":"A","commands":[
      {"use":{"resource":"b","subresource":"all","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_WRITE"}}},
      {"set_event":{"event":"e","barriers":[)" +
         dep + R"(]}}]},
    {"name":"B","commands":[
      {"use":{"resource":"o","subresource":"all","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_WRITE"}}},)" +
         (wait ? R"({"wait_events":[{"event":"e","barriers":[)" + dep + R"(]}]},)" : std::string()) + R"(
      {"use":{"resource":"b","subresource":"all","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ"}}}]}],
    "submissions":[{"queue":"g","lists":["A","B"]}]})";
}

TEST(TracePlayer, EventSetAndWaitedAcrossCommandBuffersIsClean) {
  const std::string t = event_across_lists(true);
  const ReplayReport r = play(t);
  EXPECT_TRUE(r.log.empty()) << r.log.texts.size();
  EXPECT_EQ(r.command_buffers, 2u);
  EXPECT_TRUE(validate::validate(validate::load_trace(t, "t")).clean());
}

TEST(TracePlayer, EventWithoutItsWaitIsTheLayersReadAfterWrite) {
  const std::string t = event_across_lists(false);
  const ReplayReport r = play(t);
  EXPECT_EQ(r.log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  const validate::ValidationResult v = validate::validate(validate::load_trace(t, "t"));
  EXPECT_EQ(v.counts.count(validate::number(validate::MessageId::vk_hazard_read_after_write)), 1u);
}

// Semaphore wait stage masks, timeline semaphores and host waits (issue 14; the rules in
// tests/validate/vulkan_semaphore_test.cpp): a copy writes in one submission, a dispatch reads in the
// next (one queue here: lavapipe has one), `first` / `second` the rest of each submission. The layer's
// verdict and the validator's must agree: `hazard` says whether both report the read-after-write.
std::string write_then_read(const std::string& first, const std::string& second,
                            const std::string& between = "") {
  return R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"}],
    "lists":[{"name":"L","commands":[{"use":{"resource":"b","subresource":"all","as":{"stage":"COPY","access":"TRANSFER_WRITE"}}}]},
             {"name":"M","commands":[)" +
         between +
         R"({"use":{"resource":"b","subresource":"all","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ"}}}]}],
    "submissions":[{"queue":"g","lists":["L"])" +
         (first.empty() ? "" : "," + first) + R"(},{"queue":"g","lists":["M"])" +
         (second.empty() ? "" : "," + second) + "}]}";
}
void agree(const std::string& t, bool hazard) {
  SCOPED_TRACE(t);
  const ReplayReport r = play(t);
  EXPECT_EQ(r.log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), hazard ? 1u : 0u);
  EXPECT_EQ(r.log.total(), hazard ? 1u : 0u);
  const validate::ValidationResult v = validate::validate(validate::load_trace(t, "t"));
  EXPECT_EQ(v.count(validate::MessageId::vk_hazard_read_after_write), hazard ? 1u : 0u);
  EXPECT_EQ(v.messages.size(), hazard ? 1u : 0u);
}
const std::string kBarrierCopyToCompute =
    R"({"barrier":[{"type":"memory","src_stage":"COPY","dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ"}]},)";

TEST(TracePlayer, WaitStageMaskOrdersItsStagesOnly) {
  agree(write_then_read(R"("signal":["s"])", R"("wait":[{"semaphore":"s","stage":"COMPUTE_SHADER"}])"),
        false);
  agree(write_then_read(R"("signal":["s"])", R"("wait":[{"semaphore":"s","stage":"COPY"}])"), true);
  agree(write_then_read(R"("signal":["s"])", R"("wait":[{"semaphore":"s","stage":"FRAGMENT_SHADER"}])"),
        true);
  agree(write_then_read("", ""), true);  // no wait: queue order alone orders nothing
}

TEST(TracePlayer, WaitStageMaskChainedByABarrier) {
  agree(write_then_read(R"("signal":["s"])", R"("wait":[{"semaphore":"s","stage":"COPY"}])",
                        kBarrierCopyToCompute),
        false);
  const std::string no_access =
      R"({"barrier":[{"type":"memory","src_stage":"COPY","dst_stage":"COMPUTE_SHADER"}]},)";
  agree(write_then_read(R"("signal":["s"])", R"("wait":[{"semaphore":"s","stage":"COPY"}])", no_access),
        true);
}

TEST(TracePlayer, TimelineSemaphoreWaits) {
  agree(
      write_then_read(R"("signal":[{"semaphore":"t","value":1}])", R"("wait":[{"semaphore":"t","value":1}])"),
      false);
  agree(
      write_then_read(R"("signal":[{"semaphore":"t","value":3}])", R"("wait":[{"semaphore":"t","value":2}])"),
      false);
  agree(write_then_read(R"("signal":[{"semaphore":"t","value":3}])",
                        R"("wait":[{"semaphore":"t","value":3,"stage":"COPY"}])"),
        true);
}

TEST(TracePlayer, HostWaitsOnFencesAndIdleQueues) {
  agree(write_then_read(R"("fence":"f")", R"("host_wait":[{"fence":"f"}])"), false);
  agree(write_then_read(R"("fence":"f")", ""), true);
  agree(write_then_read("", R"("host_wait":[{"queue":"g"}])"), false);
  agree(write_then_read("", R"("host_wait":["device"])"), false);
  const ReplayReport r = play(write_then_read(R"("fence":"f")", R"("host_wait":[{"fence":"f"},"device"])"));
  EXPECT_EQ(r.host_waits, 2u);
}

// D6 of docs/replay.md: layer 1.3.239's synchronization validation does not follow vkWaitSemaphores (a
// host wait on a timeline value): the read after it is still its read-after-write, where the spec (and
// Baton) order it; core validation adds UNASSIGNED-VkSemaphore-state-timeout when the value waited for
// is below the one signaled. When this fails, the layer changed: update docs/replay.md.
TEST(TracePlayer, DocumentedDifferenceD6HostWaitOnATimelineValue) {
  const std::string t = write_then_read(R"("signal":[{"semaphore":"t","value":3}])",
                                        R"("host_wait":[{"semaphore":"t","value":3}])");
  const ReplayReport r = play(t);
  EXPECT_EQ(r.log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  EXPECT_EQ(r.host_waits, 1u);
  EXPECT_TRUE(validate::validate(validate::load_trace(t, "t")).clean());
}

// D7 of docs/replay.md: layer 1.3.239 chains a first scope of TOP_OF_PIPE with an earlier second scope
// that held TOP_OF_PIPE (a barrier to TOP_OF_PIPE, or a semaphore wait on it); synchronization2 makes
// TOP_OF_PIPE in a first scope NONE (spec, "Pipeline Stages"), so nothing chains and the read is not
// made visible: Baton reports the read-after-write. When this fails, the layer changed.
TEST(TracePlayer, DocumentedDifferenceD7TopOfPipeFirstScopeChains) {
  const std::string t =
      R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"}],"lists":[{"name":"L","commands":[
      {"use":{"resource":"b","subresource":"all","as":{"stage":"COPY","access":"TRANSFER_WRITE"}}},
      {"barrier":[{"type":"memory","src_stage":"COPY","src_access":"TRANSFER_WRITE","dst_stage":"TOP_OF_PIPE"}]},
      {"barrier":[{"type":"memory","src_stage":"TOP_OF_PIPE","dst_stage":"COPY","dst_access":"TRANSFER_READ"}]},
      {"use":{"resource":"b","subresource":"all","as":{"stage":"COPY","access":"TRANSFER_READ"}}}]}],
      "submissions":[{"queue":"g","lists":["L"]}]})";
  EXPECT_TRUE(play(t).log.empty());
  EXPECT_EQ(
      validate::validate(validate::load_trace(t, "t")).count(validate::MessageId::vk_hazard_read_after_write),
      1u);
}

// D8 of docs/replay.md (seed 1288 of the submission-sync run, reduced): a wait on COMPUTE_SHADER, then a
// compute read (ordered and visible) and a copy read (outside the wait's scope) of what the first
// submission wrote. Baton reports the copy read; layer 1.3.239 checks only the command buffer's first
// read against the earlier submission. Read in the other order, the layer reports it too.
TEST(TracePlayer, DocumentedDifferenceD8OnlyTheFirstReadIsCheckedAtSubmit) {
  const std::string compute = R"("stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ")";
  const std::string copy = R"("stage":"COPY","access":"TRANSFER_READ")";
  auto reads = [](const std::string& first, const std::string& second) {
    return R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"}],"lists":[
      {"name":"L","commands":[{"use":{"resource":"b","subresource":"all","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_WRITE"}}}]},
      {"name":"M","commands":[{"use":{"resource":"b","subresource":"all","as":{)" +
           first + R"(}}},{"use":{"resource":"b","subresource":"all","as":{)" + second + R"(}}}]}],
      "submissions":[{"queue":"g","lists":["L"],"signal":["s"]},
                     {"queue":"g","lists":["M"],"wait":[{"semaphore":"s","stage":"COMPUTE_SHADER"}]}]})";
  };
  EXPECT_EQ(play(reads(copy, compute)).log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  const std::string t = reads(compute, copy);
  EXPECT_TRUE(play(t).log.empty());
  const validate::ValidationResult v = validate::validate(validate::load_trace(t, "t"));
  EXPECT_EQ(v.count(validate::MessageId::vk_hazard_read_after_write), 1u);
  EXPECT_EQ(v.messages.size(), 1u);
}

// BY_REGION (VkDependencyInfo::dependencyFlags) outside a render pass: the layer's verdict is the one of
// the barrier without it, as the validator's is.
TEST(TracePlayer, ByRegionBarrierAgrees) {
  auto with = [](const char* dst_access) {
    return copy_then_read(
        std::string(R"({"barrier":{"dependency_flags":"BY_REGION","barriers":[{"type":"buffer","resource":"b",
        "src_stage":"COPY","src_access":"TRANSFER_WRITE","dst_stage":"COMPUTE_SHADER","dst_access":")") +
        dst_access + R"("}]}},)");
  };
  agree(with("SHADER_STORAGE_READ"), false);
  agree(with("NONE"), true);
}

TEST(TracePlayer, WhatItCannotExpressIsBadInputNamingTheEntry) {
  const auto expect_error = [](const std::string& json, const std::string& where) {
    try {
      check_playable(validate::load_trace(json, "t"));
      FAIL() << "accepted: " << json;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(where), std::string::npos) << e.what();
    }
  };
  // A fragment-shader read has no one command in the player.
  expect_error(R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"}],"lists":[{"name":"L","commands":[
      {"use":{"resource":"b","subresource":"all","as":{"stage":"FRAGMENT_SHADER","access":"SHADER_STORAGE_READ"}}}]}],
      "submissions":[{"queue":"g","lists":["L"]}]})",
               "t: lists[0] 'L' commands[0]: the player cannot express this use of 'b'");
  // A storage image must be GENERAL.
  expect_error(
      R"({"api":"vulkan","resources":[{"name":"i","type":"texture"}],"lists":[{"name":"L","commands":[
      {"use":{"resource":"i","subresource":0,"as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_WRITE","layout":"TRANSFER_DST_OPTIMAL"}}}]}],
      "submissions":[{"queue":"g","lists":["L"]}]})",
      "t: lists[0] 'L' commands[0]");
  expect_error(
      R"({"api":"vulkan","resources":[{"name":"i","type":"texture","flags":["render_target"]}],"lists":[],
      "submissions":[]})",
      "t: resources[0] 'i': attachments are not played");
  expect_error(
      R"({"api":"vulkan","resources":[{"name":"i","type":"texture","flags":["swapchain"]}],"lists":[],
      "submissions":[{"queue":"g","lists":[],"present":["i"]}]})",
      "t: resources[0] 'i'");
  expect_error(R"({"api":"d3d12","resources":[],"lists":[],"submissions":[]})", "Vulkan traces only");
  expect_error(
      R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"}],"lists":[{"name":"L","commands":[]}],
      "submissions":[{"queue":"a","lists":["L"]},{"queue":"b","family":1,"lists":["L"]},
                     {"queue":"c","family":2,"lists":["L"]}]})",
      "t: submissions[2]: a third queue 'c'");
  expect_error(
      R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"}],"lists":[{"name":"L","commands":[]}],
      "submissions":[{"queue":"a","lists":["L"],"signal":["s"]},{"queue":"a","lists":["L"],"wait":["s"]},
                     {"queue":"a","lists":["L"],"wait":["s"]}]})",
      "t: submissions[2]: waits on binary semaphore 's' with no pending signal");
  // Mesh, task, ray tracing and acceleration-structure stages (validated, not played: lavapipe here has
  // none of those extensions), in a barrier and in a semaphore wait.
  expect_error(
      R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"}],"lists":[{"name":"L","commands":[
      {"barrier":[{"type":"buffer","resource":"b","src_stage":"RAY_TRACING_SHADER_KHR","dst_stage":"COPY"}]}]}],
      "submissions":[{"queue":"g","lists":["L"]}]})",
      "t: lists[0] 'L' commands[0]: mesh/task shader, ray tracing and acceleration-structure stages and "
      "accesses are not played");
  expect_error(
      R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"}],"lists":[{"name":"L","commands":[]}],
      "submissions":[{"queue":"g","lists":["L"],"signal":["s"]},
                     {"queue":"g","lists":["L"],"wait":[{"semaphore":"s","stage":"MESH_SHADER_EXT"}]}]})",
      "t: submissions[1].wait[0]: mesh/task shader");
  expect_error(R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"}],"lists":[{"name":"L","commands":[
      {"use":{"resource":"b","subresource":"all","as":{"stage":"TASK_SHADER_EXT","access":"SHADER_STORAGE_READ"}}}]}],
      "submissions":[{"queue":"g","lists":["L"]}]})",
               "t: lists[0] 'L' commands[0]: the player cannot express this use of 'b'");
  // Memory aliasing and buffer byte ranges are validated (docs/trace-format.md) but not played yet.
  expect_error(
      R"({"api":"vulkan","heaps":[{"name":"h","bytes":1024}],"resources":[{"name":"b","type":"buffer",
      "placement":{"heap":"h","offset":0,"bytes":1024}}],"lists":[],"submissions":[]})",
      "t: resources[0] 'b': resources placed in heaps are not played");
  expect_error(R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"}],"lists":[{"name":"L","commands":[
      {"use":{"resource":"b","offset":64,"size":64,"as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ"}}}]}],
      "submissions":[{"queue":"g","lists":["L"]}]})",
               "t: lists[0] 'L' commands[0]: buffer byte ranges are not played yet");
}

}  // namespace
}  // namespace baton::exec::test

#endif  // BATON_HAVE_TRACE_PLAYER
