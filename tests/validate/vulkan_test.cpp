// Vulkan rules: image layouts, hazards between accesses not ordered by barriers or semaphores, and
// queue-family ownership, one case per rule with its expected id.
#include "cases.hpp"

namespace baton::validate::testing {
namespace {

using M = MessageId;

constexpr const char* kImg = R"({"name":"img","mips":2})";
constexpr const char* kBuf = R"({"name":"buf","type":"buffer"})";
constexpr const char* kShared = R"({"name":"buf","type":"buffer","flags":["concurrent"]})";

std::string use(std::string_view r, std::string_view stage, std::string_view access,
                std::string_view layout = "") {
  if (layout.empty())
    return fmt::format(R"({{"use":{{"resource":"{}","as":{{"stage":"{}","access":"{}"}}}}}})", r, stage,
                       access);
  return fmt::format(R"({{"use":{{"resource":"{}","as":{{"stage":"{}","access":"{}","layout":"{}"}}}}}})", r,
                     stage, access, layout);
}
std::string img(std::string_view ss, std::string_view sa, std::string_view ds, std::string_view da,
                std::string_view ol, std::string_view nl, std::string_view extra = "") {
  return fmt::format(
      R"({{"barrier":[{{"type":"image","resource":"img","src_stage":"{}","src_access":"{}","dst_stage":"{}",)"
      R"("dst_access":"{}","old_layout":"{}","new_layout":"{}"{}}}]}})",
      ss, sa, ds, da, ol, nl, extra);
}
std::string buf(std::string_view ss, std::string_view sa, std::string_view ds, std::string_view da,
                std::string_view extra = "") {
  return fmt::format(
      R"({{"barrier":[{{"type":"buffer","resource":"buf","src_stage":"{}","src_access":"{}","dst_stage":"{}",)"
      R"("dst_access":"{}"{}}}]}})",
      ss, sa, ds, da, extra);
}
std::string vk(std::string_view resources, std::initializer_list<std::string> cmds) {
  std::string c;
  for (const std::string& s : cmds) c += (c.empty() ? "" : ",") + s;
  return one_list("vulkan", resources, c);
}
// Two queues: list A on "gfx" (family 0), list B on "comp" (family 1); `sem` adds a semaphore.
std::string two_queues(std::string_view resources, std::string_view a, std::string_view b, bool sem) {
  return fmt::format(
      R"({{"api":"vulkan","resources":[{}],"lists":[)"
      R"({{"name":"A","type":"direct","commands":[{}]}},{{"name":"B","type":"compute","commands":[{}]}}],)"
      R"("submissions":[{{"queue":"gfx","type":"direct","lists":["A"]{}}},)"
      R"({{"queue":"comp","type":"compute","lists":["B"]{}}}]}})",
      resources, a, b, sem ? R"(,"signal":["s"])" : "", sem ? R"(,"wait":["s"])" : "");
}

const std::string kWriteBuf = use("buf", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE");
const std::string kReadBuf = use("buf", "COMPUTE_SHADER", "SHADER_STORAGE_READ");

class Vulkan : public ::testing::TestWithParam<Case> {};
TEST_P(Vulkan, ExpectedIds) {
  check_case(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Sync2, Vulkan,
    ::testing::Values(
        Case{"RenderThenSample",
             vk(kImg,
                {img("NONE", "NONE", "COLOR_ATTACHMENT_OUTPUT", "COLOR_ATTACHMENT_WRITE", "UNDEFINED",
                     "COLOR_ATTACHMENT_OPTIMAL"),
                 use("img", "COLOR_ATTACHMENT_OUTPUT", "COLOR_ATTACHMENT_WRITE", "COLOR_ATTACHMENT_OPTIMAL"),
                 img("COLOR_ATTACHMENT_OUTPUT", "COLOR_ATTACHMENT_WRITE", "FRAGMENT_SHADER",
                     "SHADER_SAMPLED_READ", "COLOR_ATTACHMENT_OPTIMAL", "SHADER_READ_ONLY_OPTIMAL"),
                 use("img", "FRAGMENT_SHADER", "SHADER_SAMPLED_READ", "SHADER_READ_ONLY_OPTIMAL")}),
             {}},
        // ---- layouts ----
        Case{"OldLayoutMismatch",
             vk(kImg, {img("NONE", "NONE", "FRAGMENT_SHADER", "SHADER_SAMPLED_READ", "TRANSFER_DST_OPTIMAL",
                           "SHADER_READ_ONLY_OPTIMAL")}),
             ids({{M::vk_barrier_old_layout, 1}})},
        Case{"UseInWrongLayout",
             vk(kImg, {img("NONE", "NONE", "COPY", "TRANSFER_WRITE", "UNDEFINED", "TRANSFER_DST_OPTIMAL"),
                       use("img", "FRAGMENT_SHADER", "SHADER_SAMPLED_READ", "SHADER_READ_ONLY_OPTIMAL")}),
             ids({{M::vk_invalid_image_layout, 1}, {M::vk_hazard_read_after_write, 1}})},
        Case{
            "PresentNeedsPresentSrc",
            R"({"api":"vulkan","resources":[{"name":"sc","flags":["swapchain"],"initial":"COLOR_ATTACHMENT_OPTIMAL"}],)"
            R"("lists":[{"name":"L","commands":[]}],"submissions":[{"queue":"q","lists":["L"],"present":["sc"]}]})",
            // Vulkan spec, VkPresentInfoKHR: VUID-VkPresentInfoKHR-pImageIndices-01430 (the presented
            // subresource "must be in the VK_IMAGE_LAYOUT_PRESENT_SRC_KHR or
            // VK_IMAGE_LAYOUT_SHARED_PRESENT_KHR layout"); this case expected the submit-time
            // UNASSIGNED-CoreValidation-DrawState-InvalidImageLayout (100011) before.
            ids({{M::vk_present_layout, 1}})},
        // ---- hazards ----
        Case{"ReadAfterWriteWithoutBarrier", vk(kBuf, {kWriteBuf, kReadBuf}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{"ReadAfterWriteWithBarrier",
             vk(kBuf, {kWriteBuf,
                       buf("COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "COMPUTE_SHADER", "SHADER_STORAGE_READ"),
                       kReadBuf}),
             {}},
        Case{"BarrierWithWrongDstAccess",
             vk(kBuf,
                {kWriteBuf, buf("COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "COMPUTE_SHADER", "UNIFORM_READ"),
                 kReadBuf}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{
            "BarrierWithWrongSrcStage",
            vk(kBuf, {kWriteBuf,
                      buf("FRAGMENT_SHADER", "SHADER_STORAGE_WRITE", "COMPUTE_SHADER", "SHADER_STORAGE_READ"),
                      kReadBuf}),
            ids({{M::vk_hazard_read_after_write, 1}})},
        Case{
            "MemoryBarrierOrdersEverything",
            vk(kBuf,
               {kWriteBuf,
                R"({"barrier":[{"type":"memory","src_stage":"ALL_COMMANDS","src_access":"MEMORY_WRITE","dst_stage":"ALL_COMMANDS","dst_access":"MEMORY_READ|MEMORY_WRITE"}]})",
                kReadBuf}),
            {}},
        Case{"WriteAfterReadWithoutBarrier", vk(kBuf, {kReadBuf, kWriteBuf}),
             ids({{M::vk_hazard_write_after_read, 1}})},
        Case{"WriteAfterReadNeedsOnlyExecutionDependency",
             vk(kBuf, {kReadBuf, buf("COMPUTE_SHADER", "NONE", "COMPUTE_SHADER", "NONE"), kWriteBuf}),
             {}},
        Case{"WriteAfterWriteWithoutBarrier", vk(kBuf, {kWriteBuf, kWriteBuf}),
             ids({{M::vk_hazard_write_after_write, 1}})},
        // A write after a read it is not ordered after races that read (WAR) and, when it is not ordered
        // after the write before the read either, that write too (WAW): the spec's scopes know no "reads
        // stand in for the write" when the reads are not ordered before it. Seed 345 of the
        // submission-sync run, reduced: the layer reports the write-after-write at vkQueueSubmit2 (the
        // write came from an earlier submission); Baton reported only the write-after-read.
        Case{"WriteAfterAnUnorderedReadAndAnUnorderedWrite",
             vk(kBuf, {use("buf", "COPY", "TRANSFER_WRITE"),
                       buf("COPY", "TRANSFER_WRITE", "COMPUTE_SHADER", "SHADER_STORAGE_READ"), kReadBuf,
                       use("buf", "COPY", "TRANSFER_WRITE")}),
             ids({{M::vk_hazard_write_after_read, 1}, {M::vk_hazard_write_after_write, 1}})},
        Case{"TransitionAfterAnUnorderedReadAndAnUnorderedWrite",
             vk(kImg, {img("NONE", "NONE", "CLEAR", "TRANSFER_WRITE", "UNDEFINED", "GENERAL"),
                       use("img", "CLEAR", "TRANSFER_WRITE", "GENERAL"),
                       img("CLEAR", "TRANSFER_WRITE", "COMPUTE_SHADER", "SHADER_SAMPLED_READ", "GENERAL", "GENERAL"),
                       use("img", "COMPUTE_SHADER", "SHADER_SAMPLED_READ", "GENERAL"),
                       img("NONE", "NONE", "COPY", "TRANSFER_READ", "GENERAL", "TRANSFER_SRC_OPTIMAL")}),
             ids({{M::vk_hazard_write_after_read, 1}, {M::vk_hazard_write_after_write, 1}})},
        // Ordered after the read that is ordered after the write: only the read is checked (no WAW).
        Case{"WriteOrderedAfterTheReadsIsOrderedAfterTheWrite",
             vk(kBuf, {use("buf", "COPY", "TRANSFER_WRITE"),
                       buf("COPY", "TRANSFER_WRITE", "COMPUTE_SHADER", "SHADER_STORAGE_READ"), kReadBuf,
                       buf("COMPUTE_SHADER", "NONE", "COPY", "NONE"), use("buf", "COPY", "TRANSFER_WRITE")}),
             {}},
        Case{"ReadsDoNotHazard", vk(kBuf, {kReadBuf, kReadBuf, use("buf", "COPY", "TRANSFER_READ")}), {}},
        // The read-after-read rule (trace-format.md, "Vulkan rules"): a read ordered after an earlier read of
        // the same write by that read's own barrier is not checked against the write again, and that stays
        // so when a later read of the same stage replaces the earlier one (one read per stage is kept; the
        // Khronos layer's read_execution_barriers last until the next write). Seed 1806 of the
        // multi-submission differential run, reduced: the second storage read was reported.
        Case{"ReadAfterReadSurvivesAReadOfTheSameStage",
             vk(kBuf, {kWriteBuf,
                       buf("COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "COMPUTE_SHADER", "SHADER_SAMPLED_READ"),
                       use("buf", "COMPUTE_SHADER", "SHADER_SAMPLED_READ"),
                       buf("COMPUTE_SHADER", "NONE", "COMPUTE_SHADER", "NONE"), kReadBuf, kReadBuf}),
             {}},
        Case{"ReadAfterReadNeedsTheEarlierReadsBarrier",
             vk(kBuf, {kWriteBuf,
                       buf("COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "COMPUTE_SHADER", "SHADER_SAMPLED_READ"),
                       use("buf", "COMPUTE_SHADER", "SHADER_SAMPLED_READ"), kReadBuf, kReadBuf}),
             ids({{M::vk_hazard_read_after_write, 2}})},
        Case{"DependencyChain",
             vk(kBuf, {kWriteBuf, buf("COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "COPY", "NONE"),
                       buf("COPY", "NONE", "FRAGMENT_SHADER", "SHADER_SAMPLED_READ"),
                       use("buf", "FRAGMENT_SHADER", "SHADER_SAMPLED_READ")}),
             {}},
        Case{"BrokenChain",
             vk(kBuf, {kWriteBuf, buf("COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "COPY", "NONE"),
                       buf("BLIT", "NONE", "FRAGMENT_SHADER", "SHADER_SAMPLED_READ"),
                       use("buf", "FRAGMENT_SHADER", "SHADER_SAMPLED_READ")}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{"EarlierStagesAreInTheFirstScope",
             vk(kBuf, {use("buf", "VERTEX_SHADER", "SHADER_STORAGE_READ"),
                       buf("FRAGMENT_SHADER", "NONE", "COPY", "NONE"), use("buf", "COPY", "TRANSFER_WRITE")}),
             {}},
        Case{"LayoutTransitionAfterUnorderedRead",
             vk(kImg, {img("NONE", "NONE", "FRAGMENT_SHADER", "SHADER_SAMPLED_READ", "UNDEFINED",
                           "SHADER_READ_ONLY_OPTIMAL"),
                       use("img", "FRAGMENT_SHADER", "SHADER_SAMPLED_READ", "SHADER_READ_ONLY_OPTIMAL"),
                       img("COMPUTE_SHADER", "NONE", "COPY", "TRANSFER_WRITE", "SHADER_READ_ONLY_OPTIMAL",
                           "TRANSFER_DST_OPTIMAL")}),
             ids({{M::vk_hazard_write_after_read, 1}})},
        Case{"LayoutTransitionAfterUnorderedWrite",
             vk(kImg, {img("NONE", "NONE", "COPY", "TRANSFER_WRITE", "UNDEFINED", "TRANSFER_DST_OPTIMAL"),
                       use("img", "COPY", "TRANSFER_WRITE", "TRANSFER_DST_OPTIMAL"),
                       img("FRAGMENT_SHADER", "NONE", "FRAGMENT_SHADER", "SHADER_SAMPLED_READ",
                           "TRANSFER_DST_OPTIMAL", "SHADER_READ_ONLY_OPTIMAL")}),
             ids({{M::vk_hazard_write_after_write, 1}})},
        Case{"TransitionIsVisibleToDstScope",
             vk(kImg, {img("NONE", "NONE", "COPY", "TRANSFER_WRITE", "UNDEFINED", "TRANSFER_DST_OPTIMAL"),
                       use("img", "COPY", "TRANSFER_WRITE", "TRANSFER_DST_OPTIMAL")}),
             {}},
        Case{"TransitionNotVisibleOutsideDstScope",
             vk(kImg, {img("NONE", "NONE", "COPY", "TRANSFER_WRITE", "UNDEFINED", "GENERAL"),
                       use("img", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "GENERAL")}),
             ids({{M::vk_hazard_write_after_write, 1}})},
        // ---- barriers of one call are independent ----
        // Vulkan spec, vkCmdPipelineBarrier2: "The first synchronization scope and access scope of
        // each memory dependency defined by pDependencyInfo are applied to operations that occurred
        // earlier in submission order" (and the second ones to operations later in submission order):
        // every dependency of the call is between commands before and after it, none is inside another
        // one's scope. The Khronos layer keeps them as pending barriers and applies them together
        // (ResourceAccessState::ApplyPendingBarriers). So the memory barrier below does not chain with
        // the buffer barrier of its own call: the write is not visible to the fragment read.
        Case{
            "BarriersOfOneCallDoNotChain",
            vk(kBuf,
               {kWriteBuf,
                R"({"barrier":[{"type":"buffer","resource":"buf","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_WRITE","dst_stage":"COPY","dst_access":"NONE"},)"
                R"({"type":"memory","src_stage":"COPY","src_access":"NONE","dst_stage":"FRAGMENT_SHADER","dst_access":"SHADER_SAMPLED_READ"}]})",
                use("buf", "FRAGMENT_SHADER", "SHADER_SAMPLED_READ")}),
            ids({{M::vk_hazard_read_after_write, 1}})},
        // The same two barriers in two calls do chain (spec, "Execution Dependencies": dependency chain).
        Case{
            "BarriersOfTwoCallsChain",
            vk(kBuf,
               {kWriteBuf,
                R"({"barrier":[{"type":"buffer","resource":"buf","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_WRITE","dst_stage":"COPY","dst_access":"NONE"}]})",
                R"({"barrier":[{"type":"memory","src_stage":"COPY","src_access":"NONE","dst_stage":"FRAGMENT_SHADER","dst_access":"SHADER_SAMPLED_READ"}]})",
                use("buf", "FRAGMENT_SHADER", "SHADER_SAMPLED_READ")}),
            {}},
        // ---- access scopes name stages exactly ----
        // Vulkan spec, "Pipeline Stages": "Its second access scope only includes memory accesses
        // performed by pipeline stages explicitly specified in the destination stage mask" (logically
        // later stages join only the second *synchronization* scope). Khronos layer: the access scope is
        // built from the expanded stage mask, not the one with later stages (SyncExecScope::MakeDst).
        Case{"DstAccessScopeIsOnlyTheNamedStages",
             vk(kBuf, {kWriteBuf,
                       buf("COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "VERTEX_SHADER", "SHADER_STORAGE_READ"),
                       use("buf", "FRAGMENT_SHADER", "SHADER_STORAGE_READ")}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // Vulkan spec, VkPipelineStageFlagBits2: "VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT is equivalent to
        // VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT with VkAccessFlags2 set to 0 when specified in the second
        // synchronization scope": the access mask makes nothing visible.
        Case{"DstTopOfPipeMakesNothingVisible",
             vk(kBuf, {kWriteBuf,
                       buf("COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "TOP_OF_PIPE", "SHADER_STORAGE_READ"),
                       kReadBuf}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // Same paragraph for the source: "Its first access scope only includes memory accesses performed
        // by pipeline stages explicitly specified in the source stage mask". The vertex-shader write is
        // in the execution scope of a FRAGMENT_SHADER source, not in its access scope.
        Case{"SrcAccessScopeIsOnlyTheNamedStages",
             vk(kBuf,
                {use("buf", "VERTEX_SHADER", "SHADER_STORAGE_WRITE"),
                 buf("FRAGMENT_SHADER", "SHADER_STORAGE_WRITE", "FRAGMENT_SHADER", "SHADER_STORAGE_READ"),
                 use("buf", "FRAGMENT_SHADER", "SHADER_STORAGE_READ")}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // ---- a buffer/image barrier is an execution dependency for all work in its stages ----
        // Vulkan spec, VkBufferMemoryBarrier2 / VkImageMemoryBarrier2: only the *access* scopes are
        // "limited to access to the memory backing the specified buffer range / image subresource
        // range"; the synchronization scopes are the stage masks (spec, "Execution and Memory
        // Dependencies"). Khronos layer: a write after reads in the source execution scope is not a
        // WAR hazard, whatever resource the barrier named.
        Case{
            "BufferBarrierOrdersReadsOfOtherResources",
            vk(std::string(kBuf) + R"(,{"name":"other","type":"buffer"})",
               {kReadBuf,
                R"({"barrier":[{"type":"buffer","resource":"other","src_stage":"COMPUTE_SHADER","src_access":"NONE","dst_stage":"COMPUTE_SHADER","dst_access":"NONE"}]})",
                kWriteBuf}),
            {}},
        // ... but it makes no other resource's write visible: RAW / WAW still need a memory dependency.
        Case{
            "BufferBarrierMakesNoOtherWriteVisible",
            vk(std::string(kBuf) + R"(,{"name":"other","type":"buffer"})",
               {kWriteBuf,
                R"({"barrier":[{"type":"buffer","resource":"other","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_WRITE","dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ|SHADER_STORAGE_WRITE"}]})",
                kReadBuf}),
            ids({{M::vk_hazard_read_after_write, 1}})},
        Case{
            "BufferBarrierOrdersNoOtherWriteForWrites",
            vk(std::string(kBuf) + R"(,{"name":"other","type":"buffer"})",
               {kWriteBuf,
                R"({"barrier":[{"type":"buffer","resource":"other","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_WRITE","dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ|SHADER_STORAGE_WRITE"}]})",
                kWriteBuf}),
            ids({{M::vk_hazard_write_after_write, 1}})},
        // An image barrier orders the earlier reads of another image too (its layout transition then
        // needs no other barrier for them).
        Case{"ImageBarrierOrdersReadsOfOtherResources",
             vk(std::string(kImg) + "," + kBuf,
                {kReadBuf,
                 img("COMPUTE_SHADER", "NONE", "COPY", "TRANSFER_WRITE", "UNDEFINED", "TRANSFER_DST_OPTIMAL"),
                 use("buf", "COPY", "TRANSFER_WRITE")}),
             {}},
        // An earlier read that another resource's barrier orders before this access does not stand in
        // for the write: the write was made visible to the fragment read only, and the execution
        // dependency that orders the copy after that read makes nothing visible (Vulkan spec,
        // "Availability, Visibility, and Domain Operations": a visibility operation only affects the
        // accesses in its second access scope). Read-after-write.
        Case{
            "OtherResourcesBarrierDoesNotMakeAWriteVisibleThroughARead",
            vk(std::string(kBuf) + R"(,{"name":"other","type":"buffer"})",
               {kWriteBuf,
                buf("COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "FRAGMENT_SHADER", "SHADER_STORAGE_READ"),
                use("buf", "FRAGMENT_SHADER", "SHADER_STORAGE_READ"),
                R"({"barrier":[{"type":"buffer","resource":"other","src_stage":"FRAGMENT_SHADER","src_access":"NONE","dst_stage":"COPY","dst_access":"NONE"}]})",
                use("buf", "COPY", "TRANSFER_READ")}),
            ids({{M::vk_hazard_read_after_write, 1}})},
        // Same for a write after such a read: no write-after-read, but the earlier write is not ordered
        // for it either (write-after-write).
        Case{
            "OtherResourcesBarrierDoesNotOrderAWriteAfterWriteThroughARead",
            vk(std::string(kBuf) + R"(,{"name":"other","type":"buffer"})",
               {kWriteBuf,
                buf("COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "FRAGMENT_SHADER", "SHADER_STORAGE_READ"),
                use("buf", "FRAGMENT_SHADER", "SHADER_STORAGE_READ"),
                R"({"barrier":[{"type":"buffer","resource":"other","src_stage":"FRAGMENT_SHADER","src_access":"NONE","dst_stage":"COPY","dst_access":"NONE"}]})",
                use("buf", "COPY", "TRANSFER_WRITE")}),
            ids({{M::vk_hazard_write_after_write, 1}})},
        // With the buffer's own barrier ordering the copy after the read, the layer checks only
        // write-after-read and the read stands in for the write (ResourceAccessState::IsRAWHazard:
        // only "if it doesn't happen-after any other read"): clean, as before.
        Case{
            "OwnBarrierAfterAReadStandsInForTheWrite",
            vk(kBuf, {kWriteBuf,
                      buf("COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "FRAGMENT_SHADER", "SHADER_STORAGE_READ"),
                      use("buf", "FRAGMENT_SHADER", "SHADER_STORAGE_READ"),
                      buf("FRAGMENT_SHADER", "NONE", "COPY", "NONE"), use("buf", "COPY", "TRANSFER_WRITE")}),
            {}},
        // ---- layout transitions are ordered among themselves ----
        // Vulkan spec, "Image Layout Transitions": "Layout transitions that are performed via image
        // memory barriers execute in their entirety in submission order, relative to other image layout
        // transitions submitted to the same queue". Two transitions in a row with NONE scopes: no WAW.
        Case{"ConsecutiveLayoutTransitionsAreOrdered",
             vk(kImg, {img("NONE", "NONE", "NONE", "NONE", "UNDEFINED", "TRANSFER_DST_OPTIMAL"),
                       img("NONE", "NONE", "FRAGMENT_SHADER", "SHADER_SAMPLED_READ", "TRANSFER_DST_OPTIMAL",
                           "SHADER_READ_ONLY_OPTIMAL"),
                       use("img", "FRAGMENT_SHADER", "SHADER_SAMPLED_READ", "SHADER_READ_ONLY_OPTIMAL")}),
             {}},
        // ... but only on one queue: a transition on another queue is ordered by a semaphore only.
        Case{"LayoutTransitionsOfTwoQueuesAreNot",
             R"({"api":"vulkan","resources":[{"name":"img","flags":["concurrent"]}],"lists":[)"
             R"({"name":"A","type":"direct","commands":[)" +
                 img("NONE", "NONE", "NONE", "NONE", "UNDEFINED", "GENERAL") +
                 R"(]},{"name":"B","type":"compute","commands":[)" +
                 img("NONE", "NONE", "NONE", "NONE", "GENERAL", "TRANSFER_DST_OPTIMAL") +
                 R"(]}],"submissions":[{"queue":"gfx","type":"direct","lists":["A"]},)"
                 R"({"queue":"comp","type":"compute","lists":["B"]}]})",
             ids({{M::vk_hazard_write_after_write, 1}})},
        // ---- queues ----
        Case{"CrossQueueWithoutSemaphore", two_queues(kShared, kWriteBuf, kReadBuf, false),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{"CrossQueueWithSemaphore", two_queues(kShared, kWriteBuf, kReadBuf, true), {}},
        // A semaphore wait orders the signaling submission before a layout transition only through a
        // dependency chain: the barrier's first execution scope must overlap the wait's stage mask
        // (spec, "Semaphore Waiting" and "Image Layout Transitions"). With srcStageMask NONE the
        // transition may run before the wait: WAW with the other queue's write. Found by the
        // differential test (docs/replay.md); layer 1.3.239 reports the same
        // (tests/exec/trace_player_test.cpp, SemaphoreThenTransitionWithNoFirstScope).
        Case{"SemaphoreDoesNotOrderATransitionWithNoFirstScope",
             two_queues(R"({"name":"img","flags":["concurrent"]})",
                        img("NONE", "NONE", "CLEAR", "TRANSFER_WRITE", "UNDEFINED", "TRANSFER_DST_OPTIMAL") +
                            "," + use("img", "CLEAR", "TRANSFER_WRITE", "TRANSFER_DST_OPTIMAL"),
                        img("NONE", "NONE", "COMPUTE_SHADER", "SHADER_STORAGE_READ", "TRANSFER_DST_OPTIMAL",
                            "GENERAL"),
                        true),
             ids({{M::vk_hazard_write_after_write, 1}})},
        Case{"SemaphoreOrdersATransitionThatChainsWithTheWait",
             two_queues(R"({"name":"img","flags":["concurrent"]})",
                        img("NONE", "NONE", "CLEAR", "TRANSFER_WRITE", "UNDEFINED", "TRANSFER_DST_OPTIMAL") +
                            "," + use("img", "CLEAR", "TRANSFER_WRITE", "TRANSFER_DST_OPTIMAL"),
                        img("COMPUTE_SHADER", "NONE", "COMPUTE_SHADER", "SHADER_STORAGE_READ",
                            "TRANSFER_DST_OPTIMAL", "GENERAL"),
                        true),
             {}},
        Case{"ExclusiveUsedOnOtherFamily", two_queues(kBuf, kWriteBuf, kReadBuf, true),
             ids({{M::vk_queue_family_not_owner, 1}})},
        Case{"OwnershipTransfer",
             two_queues(kBuf,
                        kWriteBuf + "," +
                            buf("COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "NONE", "NONE",
                                R"(,"src_queue_family":0,"dst_queue_family":1)"),
                        buf("NONE", "NONE", "COMPUTE_SHADER", "SHADER_STORAGE_READ",
                            R"(,"src_queue_family":0,"dst_queue_family":1)") +
                            "," + kReadBuf,
                        true),
             {}},
        Case{"AcquireWithoutRelease",
             two_queues(kBuf, kWriteBuf,
                        buf("NONE", "NONE", "COMPUTE_SHADER", "SHADER_STORAGE_READ",
                            R"(,"src_queue_family":0,"dst_queue_family":1)") +
                            "," + kReadBuf,
                        true),
             ids({{M::vk_queue_family_unmatched_acquire, 1}})},
        Case{"ReleaseFromNonOwner",
             two_queues(kBuf, kWriteBuf,
                        buf("COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "NONE", "NONE",
                            R"(,"src_queue_family":1,"dst_queue_family":0)"),
                        true),
             ids({{M::vk_queue_family_release_not_owner, 1}})}),
    case_name);

}  // namespace
}  // namespace baton::validate::testing
