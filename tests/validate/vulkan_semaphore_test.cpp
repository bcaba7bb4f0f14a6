// Vulkan semaphore wait stage masks, timeline semaphores and host waits (issue 14): what a wait orders
// (Vulkan spec, "Semaphore Waiting": the second synchronization scope is limited to the stages of
// VkSemaphoreSubmitInfo::stageMask and the logically later ones; "Semaphore Signaling": the signal's
// first scope is every command earlier in submission order; "Host Synchronization" / "Fences": a host
// wait orders the waited work before everything submitted after it). Where the spec leaves room, the
// cases follow the Khronos layer's model (it applies a wait as a barrier on the imported accesses:
// its write_barriers name the accesses of the wait's stages only), checked on lavapipe by
// tests/exec/trace_player_test.cpp (TracePlayer.Wait*, TracePlayer.Host*).
#include <baton/core.hpp>

#include "cases.hpp"

namespace baton::validate::testing {
namespace {

using M = MessageId;

constexpr const char* kShared = R"({"name":"buf","type":"buffer","flags":["concurrent"]})";
const std::string kWrite = R"({"use":{"resource":"buf","as":{"stage":"COPY","access":"TRANSFER_WRITE"}}})";
const std::string kRead =
    R"({"use":{"resource":"buf","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ"}}})";
const std::string kFragmentRead =
    R"({"use":{"resource":"buf","as":{"stage":"FRAGMENT_SHADER","access":"SHADER_STORAGE_READ"}}})";

std::string memory(std::string_view src, std::string_view dst, std::string_view dst_access) {
  return fmt::format(
      R"({{"barrier":[{{"type":"memory","src_stage":"{}","dst_stage":"{}","dst_access":"{}"}}]}})", src, dst,
      dst_access);
}

std::string memory_from_copy_write(std::string_view dst) {
  return fmt::format(
      R"({{"barrier":[{{"type":"memory","src_stage":"COPY","src_access":"TRANSFER_WRITE","dst_stage":"{}"}}]}})",
      dst);
}

// Submissions, each {queue, its commands, the rest of its JSON object}; queue "c" is a compute queue
// (family 1), the others direct (family 0).
struct Sub {
  std::string queue, commands, extra;
};
std::string trace(std::string_view resources, std::initializer_list<Sub> subs) {
  std::string lists, submissions;
  int i = 0;
  for (const Sub& s : subs) {
    const char* type = s.queue == "c" ? "compute" : "direct";
    lists +=
        fmt::format(R"({}{{"name":"L{}","type":"{}","commands":[{}]}})", i ? "," : "", i, type, s.commands);
    submissions += fmt::format(R"({}{{"queue":"{}","type":"{}","lists":["L{}"]{}}})", i ? "," : "", s.queue,
                               type, i, s.extra.empty() ? "" : "," + s.extra);
    ++i;
  }
  return fmt::format(R"({{"api":"vulkan","resources":[{}],"lists":[{}],"submissions":[{}]}})", resources,
                     lists, submissions);
}
std::string wait_on(std::string_view stage, std::string_view sem = "s") {
  return fmt::format(R"("wait":[{{"semaphore":"{}","stage":"{}"}}])", sem, stage);
}

class VulkanSemaphores : public ::testing::TestWithParam<Case> {};
TEST_P(VulkanSemaphores, Counts) {
  check_case(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Sync2, VulkanSemaphores,
    ::testing::Values(
        // Stage masks. A wait on COMPUTE_SHADER orders the other queue's copy before a compute read.
        Case{"WaitOnTheReadsStageOrdersIt",
             trace(kShared, {{"g", kWrite, R"("signal":["s"])"}, {"c", kRead, wait_on("COMPUTE_SHADER")}}),
             {}},
        // COMPUTE_SHADER is not COPY nor logically later than it (spec, "Pipeline Stages": COPY is in the
        // transfer pipeline): the read is outside the wait's second scope.
        Case{"WaitOnAnotherStageDoesNotOrderTheRead",
             trace(kShared, {{"g", kWrite, R"("signal":["s"])"}, {"c", kRead, wait_on("COPY")}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{"WaitOnAFragmentStageDoesNotOrderACompute",
             trace(kShared, {{"g", kWrite, R"("signal":["s"])"}, {"c", kRead, wait_on("FRAGMENT_SHADER")}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // A barrier whose first execution scope meets the wait's second scope chains with it (spec,
        // "Execution Dependencies"): its second access scope makes the write visible to the read.
        Case{"BarrierChainsWithTheWait",
             trace(kShared, {{"g", kWrite, R"("signal":["s"])"},
                             {"c", memory("COPY", "COMPUTE_SHADER", "SHADER_STORAGE_READ") + "," + kRead,
                              wait_on("COPY")}}),
             {}},
        // The chain orders the read but with no destination access it makes nothing visible.
        Case{"ChainWithoutAccessMakesNothingVisible",
             trace(kShared, {{"g", kWrite, R"("signal":["s"])"},
                             {"c", memory("COPY", "COMPUTE_SHADER", "NONE") + "," + kRead, wait_on("COPY")}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // A barrier whose first scope misses the wait's (compute before a copy wait) does not chain.
        Case{"BarrierOutsideTheWaitDoesNotChain",
             trace(kShared,
                   {{"g", kWrite, R"("signal":["s"])"},
                    {"c", memory("COMPUTE_SHADER", "COMPUTE_SHADER", "SHADER_STORAGE_READ") + "," + kRead,
                     wait_on("COPY")}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // The wait's access scope holds the accesses of its stages only (the layer's model: a wait on
        // VERTEX_SHADER orders a fragment read, logically later, but makes the write visible to vertex
        // shader accesses only).
        Case{"WaitMakesTheWriteVisibleToItsStagesOnly",
             trace(kShared,
                   {{"g", kWrite, R"("signal":["s"])"}, {"g2", kFragmentRead, wait_on("VERTEX_SHADER")}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{"WaitOnTheFragmentStageMakesItVisible",
             trace(kShared,
                   {{"g", kWrite, R"("signal":["s"])"}, {"g2", kFragmentRead, wait_on("FRAGMENT_SHADER")}}),
             {}},
        // What a wait ordered stays ordered for later submissions of the waiting queue, with its stages.
        Case{"LaterSubmissionKeepsTheWaitsStages",
             trace(kShared,
                   {{"g", kWrite, R"("signal":["s"])"}, {"c", "", wait_on("COPY")}, {"c", kRead, ""}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{"LaterSubmissionKeepsTheWait",
             trace(kShared, {{"g", kWrite, R"("signal":["s"])"},
                             {"c", "", wait_on("COMPUTE_SHADER")},
                             {"c", kRead, ""}}),
             {}},
        // The signal's first scope is every command before it in its queue's submission order: work of
        // an earlier submission of the signaling queue is ordered too.
        Case{
            "SignalCoversEarlierSubmissionsOfItsQueue",
            trace(kShared,
                  {{"g", kWrite, ""}, {"g", "", R"("signal":["s"])"}, {"c", kRead, wait_on("ALL_COMMANDS")}}),
            {}},
        // Transitively: what the signaling submission waited for (its work is after it, the signal after
        // all its work).
        Case{"WaitCoversWhatTheSignalerWaitedFor",
             trace(kShared, {{"g", kWrite, R"("signal":["a"])"},
                             {"g2", "", R"("wait":["a"],"signal":["b"])"},
                             {"c", kRead, wait_on("COMPUTE_SHADER", "b")}}),
             {}},
        // Timeline semaphores: a wait for value V is satisfied by the first signal to V or more.
        Case{"TimelineWaitForALowerValue",
             trace(kShared, {{"g", kWrite, R"("signal":[{"semaphore":"t","value":5}])"},
                             {"c", kRead, R"("wait":[{"semaphore":"t","value":3}])"}}),
             {}},
        Case{"TimelineWaitWithAStageMask",
             trace(kShared, {{"g", kWrite, R"("signal":[{"semaphore":"t","value":1}])"},
                             {"c", kRead, R"("wait":[{"semaphore":"t","value":1,"stage":"COPY"}])"}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // The wait for 1 is the first queue's signal; the write of the second queue (its signal to 2)
        // is not ordered by it. Waiting for 2 orders it.
        Case{"TimelineWaitIsForTheSignalThatReachedTheValue",
             trace(kShared, {{"g", "", R"("signal":[{"semaphore":"t","value":1}])"},
                             {"g2", kWrite, R"("signal":[{"semaphore":"t","value":2}])"},
                             {"c", kRead, R"("wait":[{"semaphore":"t","value":1}])"}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{"TimelineWaitForTheHigherValue",
             trace(kShared, {{"g", "", R"("signal":[{"semaphore":"t","value":1}])"},
                             {"g2", kWrite, R"("signal":[{"semaphore":"t","value":2}])"},
                             {"c", kRead, R"("wait":[{"semaphore":"t","value":2}])"}}),
             {}},
        // A wait for the initial value (0) orders nothing.
        Case{"TimelineWaitForZeroOrdersNothing",
             trace(kShared, {{"g", kWrite, R"("signal":[{"semaphore":"t","value":1}])"},
                             {"c", kRead, R"("wait":[{"semaphore":"t","value":0}])"}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // Host waits: the waited work is done before every later submission, any queue, every stage.
        Case{"NoHostWaitNoOrder", trace(kShared, {{"g", kWrite, R"("fence":"f")"}, {"c", kRead, ""}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{
            "HostWaitOnTheFence",
            trace(kShared, {{"g", kWrite, R"("fence":"f")"}, {"c", kRead, R"("host_wait":[{"fence":"f"}])"}}),
            {}},
        Case{"HostWaitOnAnotherFence",
             trace(kShared, {{"g", kWrite, ""},
                             {"g2", "", R"("fence":"f")"},
                             {"c", kRead, R"("host_wait":[{"fence":"f"}])"}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // The fence's first scope holds the earlier submissions of its queue.
        Case{"HostWaitOnTheFenceCoversEarlierSubmissionsOfItsQueue",
             trace(kShared, {{"g", kWrite, ""},
                             {"g", "", R"("fence":"f")"},
                             {"c", kRead, R"("host_wait":[{"fence":"f"}])"}}),
             {}},
        Case{"HostWaitCoversWhatTheFencedSubmissionWaitedFor",
             trace(kShared, {{"g", kWrite, R"("signal":["s"])"},
                             {"g2", "", R"("wait":["s"],"fence":"f")"},
                             {"c", kRead, R"("host_wait":[{"fence":"f"}])"}}),
             {}},
        Case{"HostWaitOrdersAllLaterSubmissions",
             trace(kShared, {{"g", kWrite, R"("fence":"f")"},
                             {"c", "", R"("host_wait":[{"fence":"f"}])"},
                             {"g2", kFragmentRead, ""}}),
             {}},
        Case{"HostWaitOnATimelineValue",
             trace(kShared, {{"g", kWrite, R"("signal":[{"semaphore":"t","value":2}])"},
                             {"c", kRead, R"("host_wait":[{"semaphore":"t","value":2}])"}}),
             {}},
        Case{"QueueWaitIdle",
             trace(kShared, {{"g", kWrite, ""}, {"c", kRead, R"("host_wait":[{"queue":"g"}])"}}),
             {}},
        Case{"QueueWaitIdleOfAnotherQueue",
             trace(kShared,
                   {{"g", kWrite, ""}, {"g2", "", ""}, {"c", kRead, R"("host_wait":[{"queue":"g2"}])"}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{"DeviceWaitIdle",
             trace(kShared, {{"g", kWrite, ""}, {"g2", "", ""}, {"c", kRead, R"("host_wait":["device"])"}}),
             {}},
        // Signal stage masks (spec, "Semaphore Signaling": the first synchronization scope is limited to
        // the stages of VkSemaphoreSubmitInfo::stageMask and the logically earlier ones). The Khronos layer
        // agrees on the one-queue forms (tests/exec: TracePlayer.SignalStageMaskLimitsTheFirstScope).
        Case{"SignalOnTheWritesStageOrdersIt",
             trace(kShared, {{"g", kWrite, R"("signal":[{"semaphore":"s","stage":"COPY"}])"},
                             {"c", kRead, R"("wait":["s"])"}}),
             {}},
        // BOTTOM_OF_PIPE in a first scope is ALL_COMMANDS with no access (spec, "Pipeline Stages"): it
        // orders every earlier read (execution) but makes no write available (the layer agrees).
        Case{"SignalOnBottomOfPipeMakesNoWriteAvailable",
             trace(kShared, {{"g", kWrite, R"("signal":[{"semaphore":"s","stage":"BOTTOM_OF_PIPE"}])"},
                             {"c", kRead, R"("wait":["s"])"}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{"SignalOnBottomOfPipeOrdersEveryRead",
             trace(kShared, {{"g", kRead, R"("signal":[{"semaphore":"s","stage":"BOTTOM_OF_PIPE"}])"},
                             {"c", kWrite, R"("wait":["s"])"}}),
             {}},
        // A read in a stage logically earlier than the signal's is in its (execution) scope.
        Case{"SignalOnALaterStageOrdersAnEarlierRead",
             trace(kShared,
                   {{"g", kFragmentRead, R"("signal":[{"semaphore":"s","stage":"COLOR_ATTACHMENT_OUTPUT"}])"},
                    {"c", kWrite, R"("wait":["s"])"}}),
             {}},
        Case{"SignalOnAnEarlierStageDoesNotOrderALaterRead",
             trace(kShared, {{"g", kFragmentRead, R"("signal":[{"semaphore":"s","stage":"VERTEX_SHADER"}])"},
                             {"c", kWrite, R"("wait":["s"])"}}),
             ids({{M::vk_hazard_write_after_read, 1}})},
        Case{"SignalOnAnotherStageDoesNotHoldTheWrite",
             trace(kShared, {{"g", kWrite, R"("signal":[{"semaphore":"s","stage":"COMPUTE_SHADER"}])"},
                             {"c", kRead, R"("wait":["s"])"}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // COPY is not logically earlier than FRAGMENT_SHADER (spec, "Pipeline Stages").
        Case{"SignalOnAStageOfAnotherPipelineDoesNotHoldTheWrite",
             trace(kShared,
                   {{"g", kWrite, R"("signal":[{"semaphore":"t","value":1,"stage":"FRAGMENT_SHADER"}])"},
                    {"c", kRead, R"("wait":[{"semaphore":"t","value":1}])"}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // A barrier of the signaling queue whose first scope holds the write and orders it before
        // COMPUTE_SHADER brings it into the signal's first scope (a dependency chain, spec "Execution
        // Dependencies"). As for barriers, a write chains only through a barrier whose source access
        // scope holds it (the Khronos layer's write dependency chain); an execution-only barrier does not.
        Case{"SignalHoldsAWriteChainedToItsStage",
             trace(kShared, {{"g", kWrite + "," + memory_from_copy_write("COMPUTE_SHADER"),
                              R"("signal":[{"semaphore":"s","stage":"COMPUTE_SHADER"}])"},
                             {"c", kRead, R"("wait":["s"])"}}),
             {}},
        Case{"SignalDoesNotHoldAWriteChainedByExecutionOnly",
             trace(kShared, {{"g", kWrite + "," + memory("COPY", "COMPUTE_SHADER", "NONE"),
                              R"("signal":[{"semaphore":"s","stage":"COMPUTE_SHADER"}])"},
                             {"c", kRead, R"("wait":["s"])"}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // What the signaling queue waited for is in the signal's scope only where that wait's second
        // scope reaches the signal's stages: a wait on COMPUTE_SHADER and a signal on COPY do not chain.
        Case{
            "SignalChainsWithTheSignalersWaitOnlyThroughItsStages",
            trace(
                kShared,
                {{"g", kWrite, R"("signal":["a"])"},
                 {"c", "",
                  R"("wait":[{"semaphore":"a","stage":"COMPUTE_SHADER"}],"signal":[{"semaphore":"b","stage":"COPY"}])"},
                 {"g2", kRead, R"("wait":["b"])"}}),
            ids({{M::vk_hazard_read_after_write, 1}})},
        Case{
            "SignalChainsWithTheSignalersWaitThroughItsStages",
            trace(
                kShared,
                {{"g", kWrite, R"("signal":["a"])"},
                 {"c", "",
                  R"("wait":[{"semaphore":"a","stage":"COMPUTE_SHADER"}],"signal":[{"semaphore":"b","stage":"COMPUTE_SHADER"}])"},
                 {"g2", kRead, R"("wait":["b"])"}}),
            {}},
        // The signal's scope is decided when its submission ends: a barrier of the same queue recorded
        // after the signal (in the waiting submission) orders the write by itself, but does not bring it
        // into the signal's scope (seed 1948 of the submission-sync differential run, reduced; the layer
        // reports the read-after-write).
        Case{
            "ABarrierAfterAPartialSignalDoesNotBringAWriteIn",
            trace(
                kShared,
                {{"g", kWrite, R"("signal":[{"semaphore":"s","stage":"BOTTOM_OF_PIPE"}])"},
                 {"g",
                  R"({"barrier":[{"type":"buffer","resource":"buf","src_stage":"COPY","src_access":"TRANSFER_WRITE","dst_stage":"CLEAR"}]},)"
                  R"({"use":{"resource":"buf","as":{"stage":"COPY","access":"TRANSFER_READ"}}})",
                  R"("wait":[{"semaphore":"s","stage":"COPY"}])"}}),
            ids({{M::vk_hazard_read_after_write, 1}})},
        // A host wait on a timeline value waits for that signal's first scope only.
        Case{"HostWaitOnAStageMaskedSignal",
             trace(kShared,
                   {{"g", kWrite, R"("signal":[{"semaphore":"t","value":1,"stage":"COMPUTE_SHADER"}])"},
                    {"c", kRead, R"("host_wait":[{"semaphore":"t","value":1}])"}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // Host signals (vkSignalSemaphore: its first scope is host work; spec, "Semaphore Signaling"):
        // a device wait on a value the host reached orders no device work, so the read is still a hazard.
        Case{"HostSignalOrdersNoDeviceWork",
             trace(kShared,
                   {{"g", kWrite, ""},
                    {"c", kRead,
                     R"("host_signal":[{"semaphore":"t","value":1}],"wait":[{"semaphore":"t","value":1}])"}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // A wait is satisfied by the first signal that reaches its value: here the host's, made before the
        // write was submitted, so a later device signal to a higher value orders nothing for it.
        Case{"AWaitSatisfiedByAnEarlierHostSignalOrdersNothingLater",
             trace(kShared, {{"g", "", R"("host_signal":[{"semaphore":"t","value":1}])"},
                             {"g", kWrite, R"("signal":[{"semaphore":"t","value":2}])"},
                             {"c", kRead, R"("wait":[{"semaphore":"t","value":1}])"}}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // The same wait on the writer's signal orders it; the host's later signal changes nothing.
        Case{
            "HostSignalAfterTheDevicesSignalWasWaitedFor",
            trace(
                kShared,
                {{"g", kWrite, R"("signal":[{"semaphore":"t","value":1}])"},
                 {"c", kRead, R"("wait":[{"semaphore":"t","value":1}])"},
                 {"c", kRead,
                  R"("host_wait":[{"semaphore":"t","value":1}],"host_signal":[{"semaphore":"t","value":2}],"wait":[{"semaphore":"t","value":2}])"}}),
            {}}),
    case_name);

// A transition after a stage-masked wait happens after the barrier's first execution scope, which
// must chain with the wait (spec, "Image Layout Transitions"; docs/replay.md's first bug).
std::string transition_after_wait(std::string_view src_stage, std::string_view wait_stage) {
  const std::string clear =
      R"({"use":{"resource":"img","as":{"stage":"CLEAR","access":"TRANSFER_WRITE","layout":"TRANSFER_DST_OPTIMAL"}}})";
  const std::string barrier = fmt::format(
      R"({{"barrier":[{{"type":"image","resource":"img","src_stage":"{}","dst_stage":"COMPUTE_SHADER",)"
      R"("dst_access":"SHADER_STORAGE_READ","old_layout":"TRANSFER_DST_OPTIMAL","new_layout":"GENERAL"}}]}})",
      src_stage);
  return trace(R"({"name":"img","flags":["concurrent"],"initial":"TRANSFER_DST_OPTIMAL"})",
               {{"g", clear, R"("signal":["s"])"}, {"c", barrier, wait_on(wait_stage)}});
}

TEST(VulkanSemaphores, TransitionChainsWithAStageMaskedWait) {
  const Trace chained = load_trace(transition_after_wait("CLEAR", "CLEAR"), "t");
  EXPECT_EQ(validate(chained).counts, (std::map<uint32_t, uint32_t>{}));
  const Trace unchained = load_trace(transition_after_wait("COMPUTE_SHADER", "CLEAR"), "t");
  EXPECT_EQ(validate(unchained).counts, ids({{M::vk_hazard_write_after_write, 1}}));
  const Trace other = load_trace(transition_after_wait("CLEAR", "COMPUTE_SHADER"), "t");
  EXPECT_EQ(validate(other).counts, ids({{M::vk_hazard_write_after_write, 1}}));
}

// Found by the differential run of submission synchronization (docs/replay.md), each agreeing with layer
// 1.3.239 on lavapipe.
TEST(VulkanSemaphores, RulesFromTheDifferentialRun) {
  // A buffer barrier that chains with a wait makes its own buffer visible, not every buffer of the
  // waited submission (the wait on TOP_OF_PIPE orders everything, makes nothing visible).
  const std::string two =
      R"({"name":"a","type":"buffer","flags":["concurrent"]},{"name":"b","type":"buffer","flags":["concurrent"]})";
  const std::string write_both =
      R"({"use":{"resource":"a","as":{"stage":"COPY","access":"TRANSFER_WRITE"}}},)"
      R"({"use":{"resource":"b","as":{"stage":"COPY","access":"TRANSFER_WRITE"}}})";
  const std::string barrier_a_read_both =
      R"({"barrier":[{"type":"buffer","resource":"a","src_stage":"COMPUTE_SHADER","dst_stage":"COMPUTE_SHADER",)"
      R"("dst_access":"SHADER_STORAGE_READ"}]},)"
      R"({"use":{"resource":"a","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ"}}},)"
      R"({"use":{"resource":"b","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ"}}})";
  const ValidationResult own =
      validate(load_trace(trace(two, {{"g", write_both, R"("signal":["s"])"},
                                      {"c", barrier_a_read_both, wait_on("TOP_OF_PIPE")}}),
                          "t"));
  ASSERT_EQ(own.counts, ids({{M::vk_hazard_read_after_write, 1}})) << to_text(own);
  EXPECT_EQ(own.messages[0].resource, "b");
  // A read ordered after an earlier read by a wait is not checked against the write again (the layer
  // applies the wait as a barrier on the earlier read, as Read::own: x_top of the investigation): the
  // copy read was made visible by the transition's barrier, the compute read after the wait follows it.
  const std::string img = R"({"name":"i","flags":["concurrent"]})";
  const std::string transition_and_copy_read =
      R"({"barrier":[{"type":"image","resource":"i","src_stage":"NONE","dst_stage":"COPY","dst_access":"TRANSFER_READ",)"
      R"("old_layout":"UNDEFINED","new_layout":"GENERAL"}]},)"
      R"({"use":{"resource":"i","as":{"stage":"COPY","access":"TRANSFER_READ","layout":"GENERAL"}}})";
  const std::string compute_read =
      R"({"use":{"resource":"i","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ","layout":"GENERAL"}}})";
  EXPECT_TRUE(validate(load_trace(trace(img, {{"g", transition_and_copy_read, R"("signal":["s"])"},
                                              {"g", compute_read, wait_on("TOP_OF_PIPE")}}),
                                  "t"))
                  .clean());
  EXPECT_EQ(
      validate(load_trace(trace(img, {{"g", transition_and_copy_read, ""}, {"g", compute_read, ""}}), "t"))
          .counts,
      ids({{M::vk_hazard_read_after_write, 1}}));
  // A host wait finishes the waited work before the submission exists: a transition with no first scope
  // after it is ordered (a semaphore wait would not order it).
  const std::string clear =
      R"({"use":{"resource":"i","as":{"stage":"CLEAR","access":"TRANSFER_WRITE","layout":"TRANSFER_DST_OPTIMAL"}}})";
  const std::string to_general =
      R"({"barrier":[{"type":"image","resource":"i","src_stage":"NONE","dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ",)"
      R"("old_layout":"TRANSFER_DST_OPTIMAL","new_layout":"GENERAL"}]})";
  const std::string dst = R"({"name":"i","flags":["concurrent"],"initial":"TRANSFER_DST_OPTIMAL"})";
  EXPECT_TRUE(validate(load_trace(trace(dst, {{"g", clear, R"("fence":"f")"},
                                              {"c", to_general, R"("host_wait":[{"fence":"f"}])"}}),
                                  "t"))
                  .clean());
  EXPECT_EQ(validate(load_trace(trace(dst, {{"g", clear, R"("signal":["s"])"},
                                            {"c", to_general, wait_on("ALL_COMMANDS")}}),
                                "t"))
                .counts,
            ids({{M::vk_hazard_write_after_write, 1}}));
}

// A long chain of submissions over two queues, each waiting on the one before: the first write is
// ordered before the last read through the whole chain; without the waits nothing orders them. The orderings
// are grants over queue prefixes (vulkan_replay.hpp), so this is linear: kept per submission, 5,000
// submissions took 1.5 GB and 32 s.
TEST(VulkanSemaphores, LongChainsStaySmall) {
  auto chain = [](int n, bool waits) {
    std::string subs;
    for (int i = 0; i < n; ++i) {
      const bool compute = i % 2 == 1;
      subs += fmt::format(R"({}{{"queue":"{}","type":"{}","lists":["{}"],"signal":["s{}"]{}}})", i ? "," : "",
                          compute ? "c" : "g", compute ? "compute" : "direct",
                          i == 0       ? "W"
                          : i == n - 1 ? "R"
                          : compute    ? "C"
                                       : "G",
                          i, i > 0 && waits ? fmt::format(R"(,"wait":["s{}"])", i - 1) : "");
    }
    return fmt::format(
        R"({{"api":"vulkan","resources":[{}],"lists":[{{"name":"W","commands":[{}]}},{{"name":"G","commands":[]}},)"
        R"({{"name":"C","type":"compute","commands":[]}},{{"name":"R","type":"{}","commands":[{}]}}],"submissions":[{}]}})",
        kShared, kWrite, (n - 1) % 2 == 1 ? "compute" : "direct", kRead, subs);
  };
  EXPECT_TRUE(validate(load_trace(chain(2000, true), "t")).clean());
  EXPECT_EQ(validate(load_trace(chain(2000, false), "t")).counts, ids({{M::vk_hazard_read_after_write, 1}}));
}

// Bad input: each with the JSON pointer of the entry.
void bad(const std::string& json, const std::string& pointer_and_text) {
  try {
    (void)load_trace(json, "t");
    ADD_FAILURE() << "accepted: " << json;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(pointer_and_text), std::string::npos) << e.what();
  }
}

// VK_DEPENDENCY_BY_REGION_BIT (spec, "Framebuffer Regions"): a framebuffer-local dependency. Baton
// models no render pass, so every access is full-screen and a by-region barrier orders what the same
// barrier without the flag orders.
TEST(VulkanDependencyFlags, ByRegionOrdersWhatTheBarrierOrders) {
  const std::string write =
      R"({"use":{"resource":"buf","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_WRITE"}}})";
  auto call = [&](std::string_view dst_access) {
    return fmt::format(
        R"({{"barrier":{{"dependency_flags":"BY_REGION","barriers":[{{"type":"buffer","resource":"buf",)"
        R"("src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_WRITE","dst_stage":"COMPUTE_SHADER",)"
        R"("dst_access":"{}"}}]}}}})",
        dst_access);
  };
  const Trace ok = load_trace(
      trace(
          kShared,
          {{"g",
            write + "," + call("SHADER_STORAGE_READ") + "," +
                R"({"use":{"resource":"buf","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ"}}})",
            ""}}),
      "t");
  ASSERT_EQ(ok.lists[0].commands.size(), 3u);
  EXPECT_TRUE(std::get<BarrierCmd>(ok.lists[0].commands[1]).by_region);
  EXPECT_TRUE(validate(ok).clean());
  const Trace missing = load_trace(
      trace(
          kShared,
          {{"g",
            write + "," + call("NONE") + "," +
                R"({"use":{"resource":"buf","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ"}}})",
            ""}}),
      "t");
  EXPECT_EQ(validate(missing).counts, ids({{M::vk_hazard_read_after_write, 1}}));
  bad(trace(kShared, {{"g", R"({"barrier":{"dependency_flags":"VIEW_LOCAL","barriers":[]}})", ""}}),
      "t:/lists/0/commands/0/barrier/dependency_flags: unknown or unmodelled dependency flags 'VIEW_LOCAL'");
  bad(trace(kShared, {{"g", R"({"barrier":{"flags":"BY_REGION","barriers":[]}})", ""}}),
      "t:/lists/0/commands/0/barrier: unknown key");
  bad(R"({"api":"d3d12","resources":[],"lists":[{"name":"L","commands":[{"barrier":{"barriers":[]}}]}],"submissions":[]})",
      "t:/lists/0/commands/0/barrier: dependency flags are Vulkan only");
  // vkCmdSetEvent2 / vkCmdWaitEvents2 take no dependency flags (VUID-vkCmdSetEvent2-dependencyFlags-03825).
  bad(trace(kShared,
            {{"g", R"({"set_event":{"event":"e","dependency_flags":"BY_REGION","barriers":[]}})", ""}}),
      "t:/lists/0/commands/0/set_event: unknown key");
}

TEST(VulkanSemaphores, LoaderRefusesWhatCannotHappen) {
  bad(trace(kShared, {{"g", kWrite, R"("signal":[{"semaphore":"t","value":1}])"},
                      {"c", kRead, R"("wait":[{"semaphore":"t","value":2}])"}}),
      "t:/submissions/1/wait/0: value 2 of timeline semaphore 't' is not signaled by an earlier submission");
  bad(trace(kShared, {{"g", "", R"("signal":[{"semaphore":"t","value":2}])"},
                      {"g", "", R"("signal":[{"semaphore":"t","value":2}])"}}),
      "t:/submissions/1/signal/0: timeline semaphore 't' signaled to 2, not above its value 2");
  bad(trace(kShared, {{"g", "", R"("signal":[{"semaphore":"t","value":2}])"}, {"c", "", R"("wait":["t"])"}}),
      "t:/submissions/1/wait/0: semaphore 't' is a timeline semaphore elsewhere");
  bad(trace(kShared, {{"g", "", R"("wait":[{"semaphore":"s","stage":"COPY","value":1,"when":1}])"}}),
      "t:/submissions/0/wait/0: unknown key");
  bad(trace(kShared, {{"g", "", R"("signal":[{"semaphore":"s","stage":"COPY","when":1}])"}}),
      "t:/submissions/0/signal/0: unknown key");
  bad(trace(kShared, {{"g", "", R"("signal":[{"semaphore":"s","stage":"COPPY"}])"}}),
      "t:/submissions/0/signal/0/stage: unknown");
  // Host signals: timeline semaphores only, raising the value (VUID-VkSemaphoreSignalInfo-value-03258),
  // below every pending signal (-03259: a device signal not yet known complete on the host).
  bad(trace(kShared,
            {{"g", "", R"("signal":["s"])"}, {"g", "", R"("host_signal":[{"semaphore":"s","value":1}])"}}),
      "t:/submissions/1/host_signal/0: semaphore 's' is a binary semaphore elsewhere");
  bad(trace(kShared,
            {{"g", "", R"("host_signal":[{"semaphore":"t","value":2},{"semaphore":"t","value":2}])"}}),
      "t:/submissions/0/host_signal/1: timeline semaphore 't' signaled to 2 on the host, not above its value "
      "2");
  bad(trace(kShared, {{"g", "", R"("signal":[{"semaphore":"t","value":2}])"},
                      {"g", "", R"("host_signal":[{"semaphore":"t","value":3}])"}}),
      "t:/submissions/1/host_signal/0: timeline semaphore 't' may still have a pending signal to 2");
  bad(trace(kShared,
            {{"g", "", R"("signal":[{"semaphore":"t","value":2}])"},
             {"g", "",
              R"("host_wait":[{"semaphore":"t","value":1}],"host_signal":[{"semaphore":"t","value":3}])"}}),
      "t:/submissions/1/host_signal/0: timeline semaphore 't' may still have a pending signal to 2");
  bad(trace(kShared, {{"g", "", R"("host_signal":[{"semaphore":"t"}])"}}),
      "t:/submissions/0/host_signal/0: missing");
  bad(trace(kShared, {{"g", "", R"("host_signal":[{"semaphore":"t","value":1,"stage":"COPY"}])"}}),
      "t:/submissions/0/host_signal/0: unknown key");
  // A host signal after vkDeviceWaitIdle may pass the device's signals (they are complete).
  EXPECT_NO_THROW((void)load_trace(
      trace(kShared, {{"g", "", R"("signal":[{"semaphore":"t","value":2}])"},
                      {"g", "", R"("host_wait":["device"],"host_signal":[{"semaphore":"t","value":3}])"}}),
      "t"));
  bad(trace(kShared, {{"g", "", R"("wait":[{"semaphore":"s","stage":"COPPY"}])"}}),
      "t:/submissions/0/wait/0/stage: unknown");
  bad(trace(kShared, {{"g", "", R"("host_wait":[{"fence":"f"}])"}}),
      "t:/submissions/0/host_wait/0: fence 'f' is not signaled by an earlier submission");
  bad(trace(kShared, {{"g", "", R"("fence":"f")"}, {"g", "", R"("fence":"f")"}}),
      "t:/submissions/1/fence: fence 'f' is still signaled");
  bad(trace(kShared, {{"g", "", R"("fence":"f")"},
                      {"c", "", R"("host_wait":[{"fence":"f"}])"},
                      {"c", "", R"("host_wait":[{"fence":"f"}])"}}),
      "t:/submissions/2/host_wait/0: fence 'f' is not signaled");
  bad(trace(kShared, {{"g", "", R"("host_wait":[{"queue":"c"}])"}}),
      "t:/submissions/0/host_wait/0: no earlier submission on queue 'c'");
  bad(trace(kShared, {{"g", "", R"("host_wait":["host"])"}}),
      "t:/submissions/0/host_wait/0: unknown host wait");
  bad(trace(kShared, {{"g", "", R"("host_wait":[{"event":"e"}])"}}),
      "t:/submissions/0/host_wait/0: unknown key");
  bad(trace(kShared, {{"g", "", R"("signal":[{"semaphore":"t","value":1}])"},
                      {"c", "", R"("host_wait":[{"semaphore":"t","value":4}])"}}),
      "t:/submissions/1/host_wait/0: value 4 of timeline semaphore 't' is not signaled");
  const std::string d3d12 =
      R"({"api":"d3d12","resources":[],"lists":[{"name":"L","commands":[]}],"submissions":[{"lists":["L"],EXTRA}]})";
  auto with = [&](std::string_view extra) {
    std::string s = d3d12;
    return s.replace(s.find("EXTRA"), 5, extra);
  };
  bad(with(R"("fence":"f")"), "t:/submissions/0/fence: fences of a submission are Vulkan only");
  bad(with(R"("host_wait":["device"])"), "t:/submissions/0/host_wait: host waits are Vulkan only");
  bad(with(R"("signal":[{"semaphore":"s"}])"), "t:/submissions/0/signal/0: expected a string");
  bad(with(R"("host_signal":[{"semaphore":"t","value":1}])"),
      "t:/submissions/0/host_signal: host signals are Vulkan only");
}

}  // namespace
}  // namespace baton::validate::testing
