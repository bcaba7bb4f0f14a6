// The trace player (docs/replay.md): known streams give the layer's ids, what it cannot express is
// bad input naming the entry, and the documented differences of layer 1.3.239 are still there.
#ifdef BATON_HAVE_TRACE_PLAYER

#include "baton/trace_player.hpp"

#include <gtest/gtest.h>

#include <regex>

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

// Semaphore signal stage masks (issue 14; spec, "Semaphore Signaling": the signal's first
// synchronization scope is limited to the stages of VkSemaphoreSubmitInfo::stageMask and the logically
// earlier ones; its access scope the accesses of the stages named): a signal on COMPUTE_SHADER or
// BOTTOM_OF_PIPE does not make the copy's write available, one on COPY or ALL_COMMANDS does, and a
// barrier chaining the copy to COMPUTE_SHADER brings it in.
TEST(TracePlayer, SignalStageMaskLimitsTheFirstScope) {
  agree(write_then_read(R"("signal":[{"semaphore":"s","stage":"COPY"}])", R"("wait":["s"])"), false);
  // BOTTOM_OF_PIPE in a first scope is ALL_COMMANDS with no access: no write made available.
  agree(write_then_read(R"("signal":[{"semaphore":"s","stage":"BOTTOM_OF_PIPE"}])", R"("wait":["s"])"), true);
  agree(write_then_read(R"("signal":[{"semaphore":"s","stage":"ALL_COMMANDS"}])", R"("wait":["s"])"), false);
  agree(write_then_read(R"("signal":[{"semaphore":"s","stage":"COMPUTE_SHADER"}])", R"("wait":["s"])"), true);
  agree(write_then_read(R"("signal":[{"semaphore":"t","value":1,"stage":"COMPUTE_SHADER"}])",
                        R"("wait":[{"semaphore":"t","value":1}])"),
        true);
  // A barrier after the write on the signaling side: with the write in its source access scope it chains
  // the write to COMPUTE_SHADER (in the signal's scope); execution-only, it does not (the layer's write
  // dependency chain, as Baton's).
  auto chained = [](const std::string& src_access) {
    std::string t =
        write_then_read(R"("signal":[{"semaphore":"s","stage":"COMPUTE_SHADER"}])", R"("wait":["s"])");
    const std::string write = R"(,"as":{"stage":"COPY","access":"TRANSFER_WRITE"}}})";
    t.insert(t.find(write) + write.size(),
             R"(,{"barrier":[{"type":"memory","src_stage":"COPY","src_access":")" + src_access +
                 R"(","dst_stage":"COMPUTE_SHADER"}]})");
    return t;
  };
  agree(chained("TRANSFER_WRITE"), false);
  agree(chained("NONE"), true);
}

// A host signal (vkSignalSemaphore; spec, "Semaphore Signaling": its first scope holds host operations
// only) satisfies a device wait but orders no device work: the read after it is still a hazard, where
// the same wait on the writer's signal orders it.
TEST(TracePlayer, HostSignalOrdersNoDeviceWork) {
  agree(write_then_read(
            "", R"("host_signal":[{"semaphore":"t","value":1}],"wait":[{"semaphore":"t","value":1}])"),
        true);
  agree(
      write_then_read(
          R"("signal":[{"semaphore":"t","value":1}])",
          R"("host_signal":[{"semaphore":"h","value":5}],"wait":[{"semaphore":"t","value":1},{"semaphore":"h","value":5}])"),
      false);
  const ReplayReport r =
      play(write_then_read("", R"("host_signal":[{"semaphore":"t","value":1},{"semaphore":"t","value":2}])"));
  EXPECT_EQ(r.host_signals, 2u);
}

// Secondary command buffers (issue 14; tests/validate/vulkan_secondary_test.cpp): the player records
// each executed secondary list into a VK_COMMAND_BUFFER_LEVEL_SECONDARY buffer and runs it with
// vkCmdExecuteCommands; the layer checks its accesses against the primary's when it is executed.
std::string with_secondaries(const std::string& primary, std::initializer_list<std::string> secondaries) {
  std::string lists = R"({"name":"P","commands":[)" + primary + "]}";
  int i = 0;
  for (const std::string& s : secondaries)
    lists += R"(,{"name":"S)" + std::to_string(i++) + R"(","level":"secondary","commands":[)" + s + "]}";
  return R"({"api":"vulkan","resources":[{"name":"b","type":"buffer"}],"lists":[)" + lists +
         R"(],"submissions":[{"queue":"g","lists":["P"]}]})";
}
const std::string kCopyWrite =
    R"({"use":{"resource":"b","subresource":"all","as":{"stage":"COPY","access":"TRANSFER_WRITE"}}})";
const std::string kComputeRead =
    R"({"use":{"resource":"b","subresource":"all","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ"}}})";
const std::string kCopyToCompute =
    R"({"barrier":[{"type":"buffer","resource":"b","src_stage":"COPY","src_access":"TRANSFER_WRITE","dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ"}]})";

TEST(TracePlayer, SecondaryCommandBuffersAgreeWithTheLayer) {
  agree(with_secondaries(R"({"execute":["S0"]},)" + kComputeRead, {kCopyWrite}), true);
  agree(with_secondaries(R"({"execute":["S0"]},)" + kComputeRead, {kCopyWrite + "," + kCopyToCompute}),
        false);
  agree(with_secondaries(R"({"execute":["S0","S1"]},)" + kComputeRead, {kCopyWrite, kCopyToCompute}), false);
  agree(with_secondaries(kCopyWrite + R"(,{"execute":["S0"]},)" + kComputeRead, {kCopyToCompute}), false);
  agree(with_secondaries(R"({"execute":["S0"]},)" + kCopyToCompute + "," + kComputeRead, {kCopyWrite}),
        false);
  const ReplayReport r =
      play(with_secondaries(R"({"execute":["S0","S1"]},{"execute":["S0"]})", {kCopyWrite, ""}));
  EXPECT_EQ(r.secondary_command_buffers, 3u);
  EXPECT_EQ(r.command_buffers, 1u);
}

// D10 of docs/replay.md: after vkCmdExecuteCommands, layer 1.3.239 does not report a read-after-write
// of a primary's command when the executed secondary read the same resource after the write (seed 1416
// of the differential run, reduced): a copy write made visible to copies only, a copy read in the
// secondary, then a compute read in the primary. The same stream recorded inline is the layer's
// read-after-write, as it is Baton's either way. When this fails, the layer changed: update docs/replay.md.
TEST(TracePlayer, DocumentedDifferenceD10ReadInASecondaryHidesALaterReadAfterWrite) {
  const std::string visible_to_copies =
      R"({"barrier":[{"type":"memory","src_stage":"COPY","src_access":"TRANSFER_WRITE","dst_stage":"COPY","dst_access":"TRANSFER_READ"}]})";
  const std::string copy_read =
      R"({"use":{"resource":"b","subresource":"all","as":{"stage":"COPY","access":"TRANSFER_READ"}}})";
  const std::string executed = with_secondaries(
      kCopyWrite + "," + visible_to_copies + R"(,{"execute":["S0"]},)" + kComputeRead, {copy_read});
  const std::string inlined =
      with_secondaries(kCopyWrite + "," + visible_to_copies + "," + copy_read + "," + kComputeRead, {});
  agree(inlined, true);
  const ReplayReport r = play(executed);
  EXPECT_EQ(r.log.total(), 0u);
  const validate::ValidationResult v = validate::validate(validate::load_trace(executed, "t"));
  EXPECT_EQ(v.count(validate::MessageId::vk_hazard_read_after_write), 1u);
  EXPECT_EQ(v.messages.size(), 1u);
}

// Also D10: the layer checks the image layouts each secondary of one vkCmdExecuteCommands expects against
// the primary's layouts before that call, not after the earlier secondaries of the call (seed 19251 of the
// multi-submission run, reduced): a transition in the first secondary, a clear in its new layout in the
// second is UNASSIGNED-vkCmdExecuteCommands-commandBuffer-00001; the same in two executes is clean, as it
// is for Baton either way.
TEST(TracePlayer, DocumentedDifferenceD10LayoutsOfOneExecuteCall) {
  const std::string image = R"({"api":"vulkan","resources":[{"name":"i","type":"texture"}],"lists":[LISTS],
    "submissions":[{"queue":"g","lists":["P"]}]})";
  const std::string secondaries =
      R"({"name":"S0","level":"secondary","commands":[{"barrier":[{"type":"image","resource":"i","src_stage":"NONE","dst_stage":"CLEAR","dst_access":"TRANSFER_WRITE","old_layout":"UNDEFINED","new_layout":"GENERAL"}]}]},)"
      R"({"name":"S1","level":"secondary","commands":[{"clear":{"resource":"i","subresource":"all","as":{"stage":"CLEAR","access":"TRANSFER_WRITE","layout":"GENERAL"}}}]})";
  auto with = [&](const std::string& primary) {
    std::string t = image;
    return t.replace(t.find("LISTS"), 5, R"({"name":"P","commands":[)" + primary + "]}," + secondaries);
  };
  const std::string first =
      R"({"barrier":[{"type":"image","resource":"i","src_stage":"NONE","dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_SAMPLED_READ","old_layout":"UNDEFINED","new_layout":"SHADER_READ_ONLY_OPTIMAL"}]},)";
  const std::string one_call = with(first + R"({"execute":["S0","S1"]})");
  const std::string two_calls = with(first + R"({"execute":["S0"]},{"execute":["S1"]})");
  const ReplayReport one = play(one_call);
  EXPECT_EQ(one.log.counts.count("UNASSIGNED-vkCmdExecuteCommands-commandBuffer-00001"), 1u);
  EXPECT_EQ(one.log.total(), 1u);
  EXPECT_EQ(play(two_calls).log.total(), 0u);
  EXPECT_TRUE(validate::validate(validate::load_trace(one_call, "t")).clean());
  EXPECT_TRUE(validate::validate(validate::load_trace(two_calls, "t")).clean());
}

// Lavapipe of Mesa 22.3 crashes (SIGSEGV in libvulkan_lvp) recording a compute dispatch into a secondary
// command buffer, so the player refuses dispatches there, naming the entry (copies and clears play).
TEST(TracePlayer, RefusesDispatchesInSecondaryCommandBuffers) {
  try {
    check_playable(validate::load_trace(with_secondaries(R"({"execute":["S0"]})", {kComputeRead}), "t"));
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "t: lists[1] 'S0' commands[0]: dispatches in secondary command buffers are not played"),
              std::string::npos)
        << e.what();
  }
}

// Dynamic rendering (issue 14; tests/validate/vulkan_rendering_test.cpp): the player begins a rendering
// with each attachment's view, layout and load / store operations and ends it, with no draws. `hazard`:
// the one SYNC-HAZARD-* name both sides must report (exactly one message each), or "" for clean.
std::string rendering(const std::vector<std::string>& commands) {
  std::string joined;
  for (const std::string& c : commands) joined += (joined.empty() ? "" : ",") + c;
  return R"({"api":"vulkan","resources":[{"name":"rt","type":"texture","flags":["render_target"]}],
    "lists":[{"name":"L","commands":[)" +
         joined + R"(]}],"submissions":[{"queue":"g","lists":["L"]}]})";
}
void agree_on(const std::string& t, const std::string& hazard) {
  SCOPED_TRACE(t);
  const ReplayReport r = play(t);
  const validate::ValidationResult v = validate::validate(validate::load_trace(t, "t"));
  if (hazard.empty()) {
    EXPECT_EQ(r.log.total(), 0u);
    EXPECT_TRUE(v.clean()) << validate::to_text(v);
    return;
  }
  EXPECT_EQ(r.log.counts.count(hazard), 1u);
  EXPECT_EQ(r.log.total(), 1u);
  ASSERT_EQ(v.messages.size(), 1u) << validate::to_text(v);
  EXPECT_EQ(validate::catalog_entry(v.messages[0].id).name, hazard);
}
std::string begin_rendering(const std::string& load, const std::string& store) {
  return R"({"begin_rendering":{"color":[{"resource":"rt","subresource":0,"layout":"COLOR_ATTACHMENT_OPTIMAL","load":")" +
         load + R"(","store":")" + store + R"("}]}})";
}
std::string to_attachment(const std::string& dst_stage, const std::string& dst_access) {
  return R"({"barrier":[{"type":"image","resource":"rt","src_stage":"NONE","dst_stage":")" + dst_stage +
         R"(","dst_access":")" + dst_access +
         R"(","old_layout":"UNDEFINED","new_layout":"COLOR_ATTACHMENT_OPTIMAL"}]})";
}
std::string to_copy_source(const std::string& src_stage, const std::string& src_access) {
  return R"({"barrier":[{"type":"image","resource":"rt","src_stage":")" + src_stage + R"(","src_access":")" +
         src_access +
         R"(","dst_stage":"COPY","dst_access":"TRANSFER_READ","old_layout":"COLOR_ATTACHMENT_OPTIMAL","new_layout":"TRANSFER_SRC_OPTIMAL"}]})";
}
const std::string kEndRendering = R"({"end_rendering":{}})";
const std::string kCopyOut =
    R"({"use":{"resource":"rt","subresource":0,"as":{"stage":"COPY","access":"TRANSFER_READ","layout":"TRANSFER_SRC_OPTIMAL"}}})";

// D9 of docs/replay.md: layer 1.3.239's synchronization validation records no access for dynamic
// rendering's load and store operations (support came with Vulkan-ValidationLayers PR #6860, 2023):
// each hazard below is Baton's alone, and the clean streams are clean on both sides. When this fails,
// the layer changed: update docs/replay.md (and make these agreements).
TEST(TracePlayer, DocumentedDifferenceD9DynamicRenderingLoadAndStoreOps) {
  const std::string ready =
      to_attachment("COLOR_ATTACHMENT_OUTPUT", "COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE");
  agree_on(rendering({ready, begin_rendering("CLEAR", "STORE"), kEndRendering,
                      to_copy_source("COLOR_ATTACHMENT_OUTPUT", "COLOR_ATTACHMENT_WRITE"), kCopyOut}),
           "");
  agree_on(rendering({ready, begin_rendering("LOAD", "NONE"), kEndRendering,
                      to_copy_source("COLOR_ATTACHMENT_OUTPUT", "NONE")}),
           "");
  const std::pair<std::string, const char*> baton_only[] = {
      // The clear load op writes: a transition whose second scope is COPY does not order it.
      {rendering({to_attachment("COPY", "NONE"), begin_rendering("CLEAR", "STORE"), kEndRendering}),
       "SYNC-HAZARD-WRITE-AFTER-WRITE"},
      // The LOAD load op reads: not made visible by a barrier naming only the write access.
      {rendering({to_attachment("COLOR_ATTACHMENT_OUTPUT", "COLOR_ATTACHMENT_WRITE"),
                  begin_rendering("LOAD", "STORE"), kEndRendering}),
       "SYNC-HAZARD-READ-AFTER-WRITE"},
      // The store writes: a transition with no first scope after it.
      {rendering({ready, begin_rendering("CLEAR", "STORE"), kEndRendering, to_copy_source("NONE", "NONE")}),
       "SYNC-HAZARD-WRITE-AFTER-WRITE"},
      // A second instance's LOAD after the first one's store, no barrier.
      {rendering({ready, begin_rendering("CLEAR", "STORE"), kEndRendering, begin_rendering("LOAD", "STORE"),
                  kEndRendering}),
       "SYNC-HAZARD-READ-AFTER-WRITE"},
      // After STORE (unlike NONE above), a transition ordering the load by execution alone misses the write.
      {rendering({ready, begin_rendering("LOAD", "STORE"), kEndRendering,
                  to_copy_source("COLOR_ATTACHMENT_OUTPUT", "NONE")}),
       "SYNC-HAZARD-WRITE-AFTER-WRITE"},
  };
  for (const auto& [t, hazard] : baton_only) {
    SCOPED_TRACE(t);
    const ReplayReport r = play(t);
    EXPECT_EQ(r.log.total(), 0u);  // D9
    const validate::ValidationResult v = validate::validate(validate::load_trace(t, "t"));
    ASSERT_EQ(v.messages.size(), 1u) << validate::to_text(v);
    EXPECT_EQ(validate::catalog_entry(v.messages[0].id).name, hazard);
  }
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
      R"({"api":"vulkan","resources":[{"name":"i","type":"texture","flags":["depth_stencil"]}],"lists":[],
      "submissions":[]})",
      "t: resources[0] 'i': depth/stencil images are not played");
  expect_error(rendering({begin_rendering("NONE", "STORE"), kEndRendering}),
               "t: lists[0] 'L' commands[0]: load op NONE is not played");
  expect_error(
      rendering(
          {begin_rendering("CLEAR", "STORE"),
           R"({"use":{"resource":"rt","subresource":0,"as":{"stage":"COLOR_ATTACHMENT_OUTPUT","access":"COLOR_ATTACHMENT_WRITE","layout":"COLOR_ATTACHMENT_OPTIMAL"}}})",
           kEndRendering}),
      "t: lists[0] 'L' commands[1]: draws inside a render pass instance are not played");
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

// The differences below were found by the multi-submission and submission-sync differential runs
// (docs/replay.md, D4 to D12). Each test pins what layer 1.3.239 does, next to Baton's verdict; when one
// fails, the layer changed: update docs/replay.md and the classifier in differential.hpp.
std::string vk_trace(const std::string& resources, const std::vector<std::string>& lists,
                     const std::string& submissions) {
  std::string l;
  for (size_t i = 0; i < lists.size(); ++i)
    l += (i ? "," : "") + std::string(R"({"name":"L)") + std::to_string(i) + R"(","commands":[)" + lists[i] + "]}";
  return R"({"api":"vulkan","resources":[)" + resources + R"(],"lists":[)" + l + R"(],"submissions":[)" +
         submissions + "]}";
}
std::string use_of(const std::string& r, const std::string& stage, const std::string& access,
                   const std::string& layout = "", const std::string& sub = R"("all")") {
  return R"({"use":{"resource":")" + r + R"(","subresource":)" + sub + R"(,"as":{"stage":")" + stage +
         R"(","access":")" + access + (layout.empty() ? "" : R"(","layout":")" + layout) + R"("}}})";
}
constexpr const char* kTwoSubmissions = R"({"queue":"g","lists":["L0"]},{"queue":"g","lists":["L1"]})";
uint32_t validator_count(const std::string& t, validate::MessageId id) {
  validate::ValidateOptions layer_1_3_239;
  layer_1_3_239.vk_barrier_orders_all_resources = false;
  return validate::validate(validate::load_trace(t, "t"), layer_1_3_239).count(id);
}

// D4 at record time (seed 14221 of the multi-submission run, reduced): a clear, a barrier that makes it
// available (and visible to clears), then a layout transition whose own source access scope is NONE but
// whose first execution scope chains with that barrier. The write is available and ordered before the
// transition (spec, "Image Layout Transitions"); layer 1.3.239 checks only the barrier's own access
// scope (fixed by Vulkan-ValidationLayers PR #6684, 2023): write-after-write.
TEST(TracePlayer, DocumentedDifferenceD4TransitionAfterAChainedAvailableWrite) {
  const std::string t = vk_trace(
      R"({"name":"i","type":"texture","initial":"GENERAL"})",
      {use_of("i", "CLEAR", "TRANSFER_WRITE", "GENERAL") +
       R"(,{"barrier":[{"type":"image","resource":"i","range":"all","src_stage":"CLEAR","src_access":"TRANSFER_WRITE",
            "dst_stage":"CLEAR","dst_access":"TRANSFER_WRITE","old_layout":"GENERAL","new_layout":"GENERAL"}]},
          {"barrier":[{"type":"image","resource":"i","range":"all","src_stage":"CLEAR","dst_stage":"COMPUTE_SHADER",
            "dst_access":"SHADER_SAMPLED_READ","old_layout":"GENERAL","new_layout":"SHADER_READ_ONLY_OPTIMAL"}]})"},
      R"({"queue":"g","lists":["L0"]})");
  const ReplayReport r = play(t);
  EXPECT_EQ(r.log.counts.count("SYNC-HAZARD-WRITE-AFTER-WRITE"), 1u);
  EXPECT_EQ(r.log.total(), 1u);
  EXPECT_TRUE(validate::validate(validate::load_trace(t, "t")).clean());
}

// D5 (seed 1041 of the multi-submission run, reduced): a copy reads what the previous submission's copy
// wrote, no barrier: read-after-write, reported by both; layer 1.3.239 misses it when the reading command
// buffer also uses an image, before the read as after it (the later transition of D5's first test).
TEST(TracePlayer, DocumentedDifferenceD5BufferHazardHiddenByAnImageUse) {
  const std::string res = R"({"name":"b","type":"buffer"},{"name":"i","type":"texture","initial":"GENERAL"})";
  const std::string write = use_of("b", "COPY", "TRANSFER_WRITE"), read = use_of("b", "COPY", "TRANSFER_READ");
  const std::string alone = vk_trace(res, {write, read}, kTwoSubmissions);
  const std::string with_image =
      vk_trace(res, {write, use_of("i", "COMPUTE_SHADER", "SHADER_STORAGE_READ", "GENERAL") + "," + read},
               kTwoSubmissions);
  EXPECT_EQ(play(alone).log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  EXPECT_TRUE(play(with_image).log.empty());
  EXPECT_EQ(validator_count(with_image, validate::MessageId::vk_hazard_read_after_write), 1u);
}

// D5, second form (seed 14031 of the multi-submission run, reduced): a sampled read of an image whose
// transition (previous submission) was made visible to storage reads only: read-after-write, reported by
// both; layer 1.3.239 misses it when the reading command buffer later transitions that image (another
// image's transition does not hide it).
TEST(TracePlayer, DocumentedDifferenceD5ReadHiddenByALaterWriteOfIt) {
  const std::string res = R"({"name":"r1","type":"texture"},{"name":"r2","type":"texture","initial":"GENERAL"})";
  const std::string first =
      R"({"barrier":[{"type":"image","resource":"r1","range":"all","src_stage":"NONE","dst_stage":"COMPUTE_SHADER",
          "dst_access":"SHADER_STORAGE_READ","old_layout":"UNDEFINED","new_layout":"GENERAL"}]})";
  const std::string read = use_of("r1", "COMPUTE_SHADER", "SHADER_SAMPLED_READ", "GENERAL");
  auto then_transition = [&](const char* r, const char* old_layout) {
    return vk_trace(res,
                    {first, read + R"(,{"barrier":[{"type":"image","resource":")" + r +
                                R"(","range":"all","src_stage":"COMPUTE_SHADER","dst_stage":"COMPUTE_SHADER",
                                "dst_access":"SHADER_STORAGE_WRITE","old_layout":")" +
                                old_layout + R"(","new_layout":"TRANSFER_DST_OPTIMAL"}]})"},
                    kTwoSubmissions);
  };
  const std::string own = then_transition("r1", "GENERAL"), other = then_transition("r2", "GENERAL");
  EXPECT_EQ(play(vk_trace(res, {first, read}, kTwoSubmissions)).log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  EXPECT_EQ(play(other).log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  EXPECT_TRUE(play(own).log.empty());
  EXPECT_EQ(validator_count(own, validate::MessageId::vk_hazard_read_after_write), 1u);
}

// D7 with a semaphore wait on ALL_COMMANDS (seed 9970 of the multi-submission run, reduced): a copy
// read, then after a wait on ALL_COMMANDS a layout transition with srcStageMask TOP_OF_PIPE. In a first
// scope synchronization2 makes TOP_OF_PIPE NONE, so the transition races the read (write-after-read);
// layer 1.3.239 chains it with the wait's second scope. With NONE, or a wait on COPY, it reports it.
TEST(TracePlayer, DocumentedDifferenceD7TopOfPipeChainsWithAnAllCommandsWait) {
  auto t = [](const char* src, const char* wait_stage) {
    return vk_trace(
        R"({"name":"r0","type":"texture","initial":"GENERAL"})",
        {R"({"barrier":[{"type":"image","resource":"r0","range":"all","src_stage":"NONE","dst_stage":"COPY",
             "dst_access":"TRANSFER_READ","old_layout":"GENERAL","new_layout":"TRANSFER_SRC_OPTIMAL"}]},)" +
             use_of("r0", "COPY", "TRANSFER_READ", "TRANSFER_SRC_OPTIMAL"),
         R"({"barrier":[{"type":"image","resource":"r0","range":"all","src_stage":")" + std::string(src) +
             R"(","dst_stage":"COPY","dst_access":"TRANSFER_WRITE","old_layout":"TRANSFER_SRC_OPTIMAL",
             "new_layout":"TRANSFER_DST_OPTIMAL"}]})"},
        R"({"queue":"g","lists":["L0"],"signal":["s"]},{"queue":"g","lists":["L1"],"wait":[{"semaphore":"s","stage":")" +
            std::string(wait_stage) + R"("}]})");
  };
  const std::string top = t("TOP_OF_PIPE", "ALL_COMMANDS");
  EXPECT_TRUE(play(top).log.empty());
  EXPECT_EQ(play(t("NONE", "ALL_COMMANDS")).log.counts.count("SYNC-HAZARD-WRITE-AFTER-READ"), 1u);
  EXPECT_EQ(play(t("TOP_OF_PIPE", "COPY")).log.counts.count("SYNC-HAZARD-WRITE-AFTER-READ"), 1u);
  EXPECT_EQ(validator_count(top, validate::MessageId::vk_hazard_write_after_read), 1u);
}

// D7, the second scope's mirror (seed 8022 of the submission-sync run, reduced): a copy write, then after
// a wait on BOTTOM_OF_PIPE a buffer barrier BOTTOM_OF_PIPE / NONE -> COPY / TRANSFER_READ and a copy read.
// Synchronization2 makes BOTTOM_OF_PIPE in a second scope NONE (spec, "Pipeline Stages"), so the wait
// orders nothing and the barrier (no first access scope) makes nothing visible: read-after-write. Layer
// 1.3.239 takes the wait's BOTTOM_OF_PIPE as a stage that a first scope of BOTTOM_OF_PIPE or ALL_COMMANDS
// holds, and chains: clean. With a first scope of COPY, or a wait on COPY, both agree.
TEST(TracePlayer, DocumentedDifferenceD7BottomOfPipeWaitChains) {
  auto t = [](const char* wait_stage, const char* src) {
    return vk_trace(R"({"name":"b","type":"buffer"})",
                    {use_of("b", "COPY", "TRANSFER_WRITE"),
                     R"({"barrier":[{"type":"buffer","resource":"b","src_stage":")" + std::string(src) +
                         R"(","dst_stage":"COPY","dst_access":"TRANSFER_READ"}]},)" + use_of("b", "COPY", "TRANSFER_READ")},
                    R"({"queue":"g","lists":["L0"],"signal":["s"]},{"queue":"g","lists":["L1"],"wait":[{"semaphore":"s","stage":")" +
                        std::string(wait_stage) + R"("}]})");
  };
  for (const char* src : {"BOTTOM_OF_PIPE", "ALL_COMMANDS"}) {
    const std::string bottom = t("BOTTOM_OF_PIPE", src);
    EXPECT_TRUE(play(bottom).log.empty()) << src;
    EXPECT_EQ(validator_count(bottom, validate::MessageId::vk_hazard_read_after_write), 1u) << src;
  }
  const std::string copy_first = t("BOTTOM_OF_PIPE", "COPY");
  EXPECT_EQ(play(copy_first).log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  EXPECT_EQ(validator_count(copy_first, validate::MessageId::vk_hazard_read_after_write), 1u);
  const std::string copy_wait = t("COPY", "BOTTOM_OF_PIPE");
  EXPECT_TRUE(play(copy_wait).log.empty());
  EXPECT_EQ(validator_count(copy_wait, validate::MessageId::vk_hazard_read_after_write), 0u);
}

// D15 (seeds 7235 and 3104 of the submission-sync run, reduced): in one command buffer, a dispatch reads layer 0
// of a two-layer image, an execution barrier orders it before a copy that writes the whole image, and a
// copy reads layer 1 with no barrier: read-after-write on layer 1 (spec: nothing orders the read after
// the write). Layer 1.3.239 reports nothing: after the access to layer 0, the whole-image copy's write is
// not recorded on layer 1. Without the first read, or on an image of two mips and one layer, it reports
// the read-after-write.
TEST(TracePlayer, DocumentedDifferenceD15WholeImageWriteAfterALayerAccess) {
  auto t = [](bool first_read, const char* image) {
    return vk_trace(image,
                    {std::string(first_read ? use_of("r0", "COMPUTE_SHADER", "SHADER_STORAGE_READ", "GENERAL", "0") + "," : "") +
                     R"({"barrier":[{"type":"image","resource":"r0","range":"all","src_stage":"COMPUTE_SHADER",
                         "dst_stage":"COPY","dst_access":"TRANSFER_WRITE","old_layout":"GENERAL","new_layout":"GENERAL"}]},)" +
                     use_of("r0", "COPY", "TRANSFER_WRITE", "GENERAL") + "," +
                     use_of("r0", "COPY", "TRANSFER_READ", "GENERAL", "1")},
                    R"({"queue":"g","lists":["L0"]})");
  };
  const char* layers = R"({"name":"r0","type":"texture","initial":"GENERAL","layers":2})";
  const char* mips = R"({"name":"r0","type":"texture","initial":"GENERAL","mips":2})";
  const std::string hidden = t(true, layers);
  EXPECT_TRUE(play(hidden).log.empty());
  EXPECT_EQ(validator_count(hidden, validate::MessageId::vk_hazard_read_after_write), 1u);
  EXPECT_EQ(play(t(false, layers)).log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  EXPECT_EQ(play(t(true, mips)).log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  EXPECT_EQ(validator_count(t(true, mips), validate::MessageId::vk_hazard_read_after_write), 1u);
  // A clear of the whole image instead (seed 3104): the same.
  auto c = [&](bool first_read) {
    std::string x = t(first_read, layers);
    for (std::string from : {R"("dst_stage":"COPY","dst_access":"TRANSFER_WRITE")", R"("stage":"COPY","access":"TRANSFER_WRITE")"}) {
      const std::string to = std::regex_replace(from, std::regex("COPY"), "CLEAR");
      x.replace(x.find(from), from.size(), to);
    }
    return x;
  };
  EXPECT_TRUE(play(c(true)).log.empty());
  EXPECT_EQ(validator_count(c(true), validate::MessageId::vk_hazard_read_after_write), 1u);
  EXPECT_EQ(play(c(false)).log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
}

// D16 (seed 3908 of the submission-sync run, reduced): an image of two mips and two layers; the first
// submission transitions it and copies to all of it; the second clears one subresource, transitions the
// whole image with a first scope of CLEAR (which does not reach the copy: write-after-write, both report
// it) and reads all of it, ordered after the transition. Layer 1.3.239 also checks the read at submit
// time against the copy's write (read-after-write), as if the transition were not the last write; the
// validator, like the layer at record time, checks the read against the transition. With one mip, or
// without the clear, the layer reports the transition only.
TEST(TracePlayer, DocumentedDifferenceD16AccessAfterAWholeTransitionAtSubmit) {
  auto t = [](bool clear, int mips) {
    return vk_trace(R"({"name":"r0","type":"texture","layers":2,"mips":)" + std::to_string(mips) + "}",
                    {R"({"barrier":[{"type":"image","resource":"r0","range":"all","src_stage":"NONE","dst_stage":"COPY",
                         "dst_access":"TRANSFER_WRITE","old_layout":"UNDEFINED","new_layout":"TRANSFER_DST_OPTIMAL"}]},)" +
                         use_of("r0", "COPY", "TRANSFER_WRITE", "TRANSFER_DST_OPTIMAL"),
                     std::string(clear ? use_of("r0", "CLEAR", "TRANSFER_WRITE", "TRANSFER_DST_OPTIMAL", "1") + "," : "") +
                         R"({"barrier":[{"type":"image","resource":"r0","range":"all","src_stage":"CLEAR","src_access":"TRANSFER_WRITE",
                             "dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_SAMPLED_READ","old_layout":"TRANSFER_DST_OPTIMAL",
                             "new_layout":"GENERAL"}]},)" +
                         use_of("r0", "COMPUTE_SHADER", "SHADER_SAMPLED_READ", "GENERAL")},
                    kTwoSubmissions);
  };
  const std::string both = t(true, 2);
  const ReplayReport r = play(both);
  EXPECT_EQ(r.log.counts.count("SYNC-HAZARD-WRITE-AFTER-WRITE"), 1u);
  EXPECT_EQ(r.log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  EXPECT_EQ(validator_count(both, validate::MessageId::vk_hazard_read_after_write), 0u);
  EXPECT_GE(validator_count(both, validate::MessageId::vk_hazard_write_after_write), 1u);
  for (const std::string& other : {t(true, 1), t(false, 2)}) {
    const ReplayReport o = play(other);
    EXPECT_EQ(o.log.counts.count("SYNC-HAZARD-WRITE-AFTER-WRITE"), 1u);
    EXPECT_EQ(o.log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 0u);
  }
}

// D11 (seed 13225 of the multi-submission run, reduced): the second submission reads the buffer (made
// visible), orders the read before a copy write by an execution barrier, then writes. Ordered after the
// read that is ordered after the first write, the write is ordered after that write (the layer's own
// record-time rule, and Baton's); layer 1.3.239 checks the command buffer's first write against the first
// submission's write at submit time anyway. Recorded in one command buffer, it reports nothing.
TEST(TracePlayer, DocumentedDifferenceD11FirstWriteAfterAnOrderedReadAtSubmit) {
  const std::string res = R"({"name":"b","type":"buffer"})";
  const std::string write = use_of("b", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE");
  const std::string read_then_write =
      R"({"barrier":[{"type":"buffer","resource":"b","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_WRITE",
          "dst_stage":"COPY","dst_access":"TRANSFER_READ"}]},)" +
      use_of("b", "COPY", "TRANSFER_READ") +
      R"(,{"barrier":[{"type":"buffer","resource":"b","src_stage":"COPY","dst_stage":"COPY"}]},)" +
      use_of("b", "COPY", "TRANSFER_WRITE");
  const std::string two = vk_trace(res, {write, read_then_write}, kTwoSubmissions);
  const ReplayReport r = play(two);
  EXPECT_EQ(r.log.counts.count("SYNC-HAZARD-WRITE-AFTER-WRITE"), 1u);
  EXPECT_EQ(r.log.total(), 1u);
  EXPECT_TRUE(play(vk_trace(res, {write + "," + read_then_write}, R"({"queue":"g","lists":["L0"]})")).log.empty());
  EXPECT_TRUE(validate::validate(validate::load_trace(two, "t")).clean());
}

// D12 (seeds 3677 and 12633 of the multi-submission run, merged onto lavapipe's one queue, reduced): a
// write, then (after a wait that makes it visible) a read in the next submission, then a write in a third
// with nothing ordering it after the read: write-after-read. Layer 1.3.239 reports nothing: the reading
// command buffer wrote nothing of the buffer, and its reads are dropped when its accesses join the
// queue's state over the earlier write. Without that earlier write it reports the write-after-read.
TEST(TracePlayer, DocumentedDifferenceD12ReadsDroppedAtSubmit) {
  auto t = [](bool first_write) {
    return vk_trace(R"({"name":"b","type":"buffer"})",
                    {first_write ? use_of("b", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE") : std::string(),
                     use_of("b", "COPY", "TRANSFER_READ"), use_of("b", "COPY", "TRANSFER_WRITE")},
                    R"({"queue":"g","lists":["L0"],"signal":["s"]},{"queue":"g","lists":["L1"],"wait":["s"]},
                       {"queue":"g","lists":["L2"]})");
  };
  EXPECT_TRUE(play(t(true)).log.empty());
  EXPECT_EQ(play(t(false)).log.counts.count("SYNC-HAZARD-WRITE-AFTER-READ"), 1u);
  EXPECT_EQ(validator_count(t(true), validate::MessageId::vk_hazard_write_after_read), 1u);
}

// D14, on a semaphore (seed 13104 of the multi-submission run, reduced): a transition whose barrier has
// dstStageMask NONE, a signal (ALL_COMMANDS), a wait (ALL_COMMANDS) and a copy write. By the spec the
// signal's first scope holds every command submitted before it, the transition included: clean (Baton).
// Layer 1.3.239 reports the copy's write-after-write against the transition; with a destination stage
// (ALL_COMMANDS) it reports nothing.
TEST(TracePlayer, DocumentedDifferenceD14TransitionWithNoDestinationStageBeforeASignal) {
  auto t = [](const std::string& dst) {
    return vk_trace(R"({"name":"i","type":"texture"})",
                    {R"({"barrier":[{"type":"image","resource":"i","src_stage":"NONE","dst_stage":")" + dst +
                         R"(","old_layout":"UNDEFINED","new_layout":"GENERAL"}]})",
                     use_of("i", "COPY", "TRANSFER_WRITE", "GENERAL")},
                    R"({"queue":"g","lists":["L0"],"signal":["s"]},{"queue":"g","lists":["L1"],"wait":["s"]})");
  };
  const ReplayReport none = play(t("NONE"));
  EXPECT_EQ(none.log.counts.count("SYNC-HAZARD-WRITE-AFTER-WRITE"), 1u);
  EXPECT_EQ(none.log.total(), 1u);
  EXPECT_TRUE(play(t("ALL_COMMANDS")).log.empty());
  EXPECT_TRUE(validate::validate(validate::load_trace(t("NONE"), "t")).clean());
  EXPECT_TRUE(validate::validate(validate::load_trace(t("ALL_COMMANDS"), "t")).clean());
}

// D13 (seed 12768 of the multi-submission run): two buffers written by the first submission, read and
// written by the second with no barrier: a read-after-write and a write-after-write, which Baton reports
// both; at submit time layer 1.3.239 reports the first hazard of each range between the command buffer's
// barriers: one, and two when a barrier separates the commands.
TEST(TracePlayer, DocumentedDifferenceD13OneHazardPerRangeAtSubmit) {
  auto t = [](bool barrier) {
    return vk_trace(R"({"name":"b1","type":"buffer"},{"name":"b2","type":"buffer"})",
                    {use_of("b1", "COPY", "TRANSFER_WRITE") + "," + use_of("b2", "COPY", "TRANSFER_WRITE"),
                     use_of("b1", "COPY", "TRANSFER_READ") +
                         (barrier ? R"(,{"barrier":[{"type":"memory","src_stage":"NONE","dst_stage":"NONE"}]})" : "") +
                         "," + use_of("b2", "COPY", "TRANSFER_WRITE")},
                    kTwoSubmissions);
  };
  const ReplayReport one = play(t(false));
  EXPECT_EQ(one.log.total(), 1u);
  EXPECT_EQ(one.log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  const ReplayReport two = play(t(true));
  EXPECT_EQ(two.log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  EXPECT_EQ(two.log.counts.count("SYNC-HAZARD-WRITE-AFTER-WRITE"), 1u);
  EXPECT_EQ(validator_count(t(false), validate::MessageId::vk_hazard_write_after_write), 1u);
  EXPECT_EQ(validator_count(t(false), validate::MessageId::vk_hazard_read_after_write), 1u);
}

// D12, layer side (seed 18590 of the multi-submission run, reduced): a clear, a sampled read it was made
// visible to (second submission), an execution barrier and a storage read (third). Ordered after the
// sampled read, the storage read is not checked against the clear again (the read-after-read rule of the
// layer at record time, and Baton's); layer 1.3.239 dropped the sampled read at submit and reports the
// storage read. In one command buffer it reports nothing.
TEST(TracePlayer, DocumentedDifferenceD12LaterReadCheckedAgainAtSubmit) {
  const std::string clear = use_of("i", "CLEAR", "TRANSFER_WRITE", "GENERAL");
  const std::string sampled =
      R"({"barrier":[{"type":"image","resource":"i","range":"all","src_stage":"CLEAR","src_access":"TRANSFER_WRITE",
          "dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_SAMPLED_READ","old_layout":"GENERAL","new_layout":"GENERAL"}]},)" +
      use_of("i", "COMPUTE_SHADER", "SHADER_SAMPLED_READ", "GENERAL");
  const std::string storage =
      R"({"barrier":[{"type":"image","resource":"i","range":"all","src_stage":"COMPUTE_SHADER","dst_stage":"COMPUTE_SHADER",
          "old_layout":"GENERAL","new_layout":"GENERAL"}]},)" +
      use_of("i", "COMPUTE_SHADER", "SHADER_STORAGE_READ", "GENERAL");
  const std::string res = R"({"name":"i","type":"texture","initial":"GENERAL"})";
  const std::string three = vk_trace(res, {clear, sampled, storage},
                                     R"({"queue":"g","lists":["L0"]},{"queue":"g","lists":["L1"]},{"queue":"g","lists":["L2"]})");
  const ReplayReport r = play(three);
  EXPECT_EQ(r.log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u);
  EXPECT_EQ(r.log.total(), 1u);
  EXPECT_TRUE(play(vk_trace(res, {clear + "," + sampled + "," + storage}, R"({"queue":"g","lists":["L0"]})")).log.empty());
  EXPECT_TRUE(validate::validate(validate::load_trace(three, "t")).clean());
}

}  // namespace
}  // namespace baton::exec::test

#endif  // BATON_HAVE_TRACE_PLAYER
