// D3D12 legacy resource-state rules, one case per rule with its expected message id.
#include "cases.hpp"

namespace baton::validate::testing {
namespace {

using M = MessageId;

// Resources used below.
constexpr const char* kTex = R"({"name":"tex","mips":2})";
constexpr const char* kBuf = R"({"name":"buf","type":"buffer"})";
constexpr const char* kRt = R"({"name":"rt","flags":["render_target"]})";
constexpr const char* kPlacedRt = R"({"name":"rt","flags":["render_target","placed"]})";
constexpr const char* kSim = R"({"name":"sim","flags":["simultaneous_access"]})";

std::string tr(std::string_view r, std::string_view before, std::string_view after,
               std::string_view extra = "") {
  return fmt::format(
      R"({{"barrier":[{{"type":"transition","resource":"{}","before":"{}","after":"{}"{}}}]}})", r, before,
      after, extra);
}
std::string use(std::string_view r, std::string_view as, std::string_view sub = "\"all\"") {
  return fmt::format(R"({{"use":{{"resource":"{}","subresource":{},"as":"{}"}}}})", r, sub, as);
}
// Two submissions on one direct queue (or the given types), one list each.
std::string two_ecls(std::string_view resources, std::string_view first, std::string_view second,
                     std::string_view t1 = "direct", std::string_view t2 = "direct") {
  return fmt::format(
      R"({{"api":"d3d12","resources":[{}],"lists":[)"
      R"({{"name":"A","type":"{}","commands":[{}]}},{{"name":"B","type":"{}","commands":[{}]}}],)"
      R"("submissions":[{{"queue":"q{}","type":"{}","lists":["A"]}},{{"queue":"q{}","type":"{}","lists":["B"]}}]}})",
      resources, t1, first, t2, second, t1, t1, t2, t2);
}
// Two lists in ONE submission (one ExecuteCommandLists).
std::string one_ecl(std::string_view resources, std::string_view first, std::string_view second) {
  return fmt::format(R"({{"api":"d3d12","resources":[{}],"lists":[)"
                     R"({{"name":"A","commands":[{}]}},{{"name":"B","commands":[{}]}}],)"
                     R"("submissions":[{{"queue":"q","lists":["A","B"]}}]}})",
                     resources, first, second);
}
std::string d3d(std::string_view resources, std::initializer_list<std::string> cmds,
                std::string_view type = "direct") {
  std::string c;
  for (const std::string& s : cmds) c += (c.empty() ? "" : ",") + s;
  return one_list("d3d12", resources, c, type);
}

class Legacy : public ::testing::TestWithParam<Case> {};
TEST_P(Legacy, ExpectedIds) {
  check_case(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    D3D12, Legacy,
    ::testing::Values(
        // ---- implicit promotion per class ----
        Case{"TexturePromotesToShaderResource", d3d(kTex, {use("tex", "PIXEL_SHADER_RESOURCE")}), {}},
        Case{"TextureDoesNotPromoteToRenderTarget", d3d(kRt, {use("rt", "RENDER_TARGET")}),
             ids({{M::invalid_subresource_state, 1}})},
        Case{"BufferPromotesToUav", d3d(kBuf, {use("buf", "UNORDERED_ACCESS")}), {}},
        Case{"SimultaneousTexturePromotesToRenderTarget", d3d(kSim, {use("sim", "RENDER_TARGET")}), {}},
        Case{"DepthNeverPromotes", d3d(kBuf, {use("buf", "DEPTH_READ")}),
             ids({{M::invalid_subresource_state, 1}})},
        Case{"ReadsAccumulate",
             d3d(kTex, {use("tex", "PIXEL_SHADER_RESOURCE"), use("tex", "NON_PIXEL_SHADER_RESOURCE"),
                        use("tex", "COPY_SOURCE")}),
             {}},
        Case{"NoWriteAfterPromotedRead",
             d3d(kTex, {use("tex", "PIXEL_SHADER_RESOURCE"), use("tex", "COPY_DEST")}),
             ids({{M::invalid_subresource_state, 1}})},
        Case{"SingleWriteStateAfterPromotion",
             d3d(kBuf, {use("buf", "UNORDERED_ACCESS"), use("buf", "COPY_DEST")}),
             ids({{M::invalid_subresource_state, 1}})},
        Case{"UseOfExplicitStateIsClean",
             d3d(kRt, {tr("rt", "COMMON", "RENDER_TARGET"), use("rt", "RENDER_TARGET")}),
             {}},
        // ---- decay ----
        Case{"PromotedReadDecaysAtEcl",
             two_ecls(kTex, use("tex", "PIXEL_SHADER_RESOURCE"), tr("tex", "COMMON", "COPY_DEST")),
             {}},
        Case{"ExplicitTextureStateDoesNotDecay",
             two_ecls(kTex, tr("tex", "COMMON", "PIXEL_SHADER_RESOURCE"), tr("tex", "COMMON", "COPY_DEST")),
             ids({{M::barrier_before_after_mismatch, 1}})},
        Case{"TexturePromotedToCopyDestStays",
             two_ecls(kTex, use("tex", "COPY_DEST"), tr("tex", "COPY_DEST", "PIXEL_SHADER_RESOURCE")),
             {}},
        Case{"BufferDecaysEvenAfterExplicitTransition",
             two_ecls(kBuf, tr("buf", "COMMON", "UNORDERED_ACCESS"), tr("buf", "COMMON", "COPY_SOURCE")),
             {}},
        Case{"SimultaneousTextureDecays",
             two_ecls(kSim, tr("sim", "COMMON", "RENDER_TARGET"), use("sim", "COPY_SOURCE")),
             {}},
        Case{"CopyQueueDecaysEverything",
             two_ecls(kTex, use("tex", "COPY_DEST"), tr("tex", "COMMON", "PIXEL_SHADER_RESOURCE"), "copy",
                      "direct"),
             {}},
        Case{"NoDecayBetweenListsOfOneEcl",
             one_ecl(kTex, use("tex", "PIXEL_SHADER_RESOURCE"), tr("tex", "COMMON", "COPY_DEST")),
             ids({{M::barrier_before_after_mismatch, 1}})},
        Case{"PromotedStateCarriesToNextListOfOneEcl",
             one_ecl(kTex, use("tex", "PIXEL_SHADER_RESOURCE"),
                     tr("tex", "PIXEL_SHADER_RESOURCE", "COPY_DEST")),
             {}},
        // ---- queue classes ----
        Case{"CopyQueueNeedsCommon",
             two_ecls(kTex, tr("tex", "COMMON", "PIXEL_SHADER_RESOURCE"), use("tex", "COPY_SOURCE"), "direct",
                      "copy"),
             ids({{M::non_common_resource_in_copy_queue, 1}})},
        Case{"ComputeListRejectsPixelShaderResource",
             d3d(kTex, {tr("tex", "COMMON", "PIXEL_SHADER_RESOURCE")}, "compute"),
             ids({{M::barrier_invalid_command_list_type, 1}})},
        Case{"CopyListRejectsUav", d3d(kBuf, {tr("buf", "COMMON", "UNORDERED_ACCESS")}, "copy"),
             ids({{M::barrier_invalid_command_list_type, 1}})},
        Case{"ComputeListAcceptsUav", d3d(kBuf, {tr("buf", "COMMON", "UNORDERED_ACCESS")}, "compute"), {}},
        // ---- barrier values ----
        Case{"WriteCombinedWithRead", d3d(kTex, {tr("tex", "COMMON", "RENDER_TARGET|PIXEL_SHADER_RESOURCE")}),
             ids({{M::barrier_invalid_combination, 1}})},
        Case{"MatchingStates", d3d(kTex, {tr("tex", "COMMON", "COMMON")}),
             ids({{M::barrier_matching_states, 1}})},
        Case{"StateBeforeMismatch", d3d(kRt, {tr("rt", "RENDER_TARGET", "PIXEL_SHADER_RESOURCE")}),
             ids({{M::barrier_before_after_mismatch, 1}})},
        Case{"StateBeforeMayNamePromotableState",
             d3d(kTex, {tr("tex", "PIXEL_SHADER_RESOURCE", "COPY_DEST")}),
             {}},
        Case{"SubresourceOutOfRange", d3d(kTex, {tr("tex", "COMMON", "COPY_DEST", R"(,"subresource":5)")}),
             ids({{M::barrier_invalid_subresource, 1}})},
        Case{
            "DuplicateSubresourceTransitions",
            d3d(kTex,
                {R"({"barrier":[{"type":"transition","resource":"tex","subresource":0,"before":"COMMON","after":"COPY_DEST"},)"
                 R"({"type":"transition","resource":"tex","before":"COPY_DEST","after":"COPY_SOURCE"}]})"}),
            ids({{M::barrier_duplicate_subresource_transitions, 1}})},
        // ---- split barriers ----
        Case{"SplitBeginEnd",
             d3d(kRt,
                 {tr("rt", "COMMON", "RENDER_TARGET", R"(,"flags":"begin_only")"),
                  tr("rt", "COMMON", "RENDER_TARGET", R"(,"flags":"end_only")"), use("rt", "RENDER_TARGET")}),
             {}},
        Case{"SplitAcrossListsOfOneEcl",
             one_ecl(kRt, tr("rt", "COMMON", "RENDER_TARGET", R"(,"flags":"begin_only")"),
                     tr("rt", "COMMON", "RENDER_TARGET", R"(,"flags":"end_only")")),
             {}},
        Case{"UseWhileSplitPending",
             d3d(kRt,
                 {tr("rt", "COMMON", "RENDER_TARGET", R"(,"flags":"begin_only")"), use("rt", "RENDER_TARGET"),
                  tr("rt", "COMMON", "RENDER_TARGET", R"(,"flags":"end_only")")}),
             ids({{M::invalid_subresource_state, 1}})},
        Case{"SplitEndMismatch",
             d3d(kRt, {tr("rt", "COMMON", "RENDER_TARGET", R"(,"flags":"begin_only")"),
                       tr("rt", "COMMON", "COPY_DEST", R"(,"flags":"end_only")")}),
             ids({{M::barrier_mismatching_begin_end, 1}})},
        Case{"SplitEndWithoutBegin",
             d3d(kRt, {tr("rt", "COMMON", "RENDER_TARGET", R"(,"flags":"end_only")")}),
             ids({{M::barrier_unmatched_end, 1}})},
        Case{"SplitNeverEnded", d3d(kRt, {tr("rt", "COMMON", "RENDER_TARGET", R"(,"flags":"begin_only")")}),
             ids({{M::barrier_unmatched_begin, 1}})},
        Case{"OtherBarrierWhileSplitPending",
             d3d(kRt, {tr("rt", "COMMON", "RENDER_TARGET", R"(,"flags":"begin_only")"),
                       tr("rt", "COMMON", "COPY_DEST")}),
             ids({{M::barrier_invalid_split_barrier, 1}})},
        Case{"SplitFlagOnUavBarrier",
             d3d(kBuf, {R"({"barrier":[{"type":"uav","resource":"buf","flags":"begin_only"}]})"}),
             ids({{M::barrier_invalid_split_barrier, 1}})},
        // ---- UAV and aliasing barriers, initialization ----
        Case{"UavWritesNeedNoUavBarrier",
             d3d(kBuf, {use("buf", "UNORDERED_ACCESS"), use("buf", "UNORDERED_ACCESS"),
                        R"({"barrier":[{"type":"uav","resource":"buf"},{"type":"uav"}]})",
                        use("buf", "UNORDERED_ACCESS")}),
             {}},
        Case{"PlacedRenderTargetNeedsInitialization",
             d3d(kPlacedRt, {tr("rt", "COMMON", "RENDER_TARGET"), use("rt", "RENDER_TARGET")}),
             ids({{M::render_target_or_depth_stencil_not_initialized, 1}})},
        Case{"ClearInitializes",
             d3d(kPlacedRt,
                 {tr("rt", "COMMON", "RENDER_TARGET"), R"({"clear":{"resource":"rt","as":"RENDER_TARGET"}})",
                  use("rt", "RENDER_TARGET")}),
             {}},
        Case{"DiscardInitializes",
             d3d(kPlacedRt, {tr("rt", "COMMON", "RENDER_TARGET"), R"({"discard":{"resource":"rt"}})",
                             use("rt", "RENDER_TARGET")}),
             {}},
        Case{"AliasingActivationNeedsInitialization",
             d3d(kRt, {tr("rt", "COMMON", "RENDER_TARGET"), use("rt", "RENDER_TARGET"),
                       R"({"barrier":[{"type":"aliasing","before":null,"after":"rt"}]})",
                       use("rt", "RENDER_TARGET")}),
             ids({{M::render_target_or_depth_stencil_not_initialized, 1}})},
        Case{"DiscardNeedsRenderTargetState", d3d(kRt, {R"({"discard":{"resource":"rt"}})"}),
             ids({{M::invalid_subresource_state, 1}})},
        Case{"ClearNeedsItsState", d3d(kRt, {R"({"clear":{"resource":"rt","as":"RENDER_TARGET"}})"}),
             ids({{M::invalid_subresource_state, 1}})},
        // ---- heaps ----
        Case{"UploadHeapCannotTransition",
             d3d(R"({"name":"up","type":"buffer","heap":"upload","initial":"GENERIC_READ"})",
                 {tr("up", "GENERIC_READ", "COPY_DEST")}),
             ids({{M::barrier_invalid_heap, 1}})},
        Case{"UploadHeapReadsAreClean",
             d3d(R"({"name":"up","type":"buffer","heap":"upload","initial":"GENERIC_READ"})",
                 {use("up", "COPY_SOURCE")}),
             {}},
        Case{"UploadHeapIsNotWritable",
             d3d(R"({"name":"up","type":"buffer","heap":"upload","initial":"GENERIC_READ"})",
                 {use("up", "COPY_DEST")}),
             ids({{M::invalid_subresource_state, 1}})},
        Case{"ReadbackHeapIsCopyDest",
             d3d(R"({"name":"rb","type":"buffer","heap":"readback","initial":"COPY_DEST"})",
                 {use("rb", "COPY_DEST")}),
             {}},
        Case{"BufferInitialStateIgnored", d3d(R"({"name":"b","type":"buffer","initial":"COPY_DEST"})", {}),
             ids({{M::createresource_state_ignored, 1}})},
        // ---- present ----
        Case{"PresentAfterReturnToPresent",
             fmt::format(
                 R"({{"api":"d3d12","resources":[{{"name":"sc","flags":["swapchain","render_target"]}}],)"
                 R"("lists":[{{"name":"L","commands":[{},{},{}]}}],)"
                 R"("submissions":[{{"queue":"q","lists":["L"],"present":["sc"]}}]}})",
                 tr("sc", "PRESENT", "RENDER_TARGET"), use("sc", "RENDER_TARGET"),
                 tr("sc", "RENDER_TARGET", "PRESENT")),
             {}},
        Case{"PresentInRenderTarget",
             fmt::format(
                 R"({{"api":"d3d12","resources":[{{"name":"sc","flags":["swapchain","render_target"]}}],)"
                 R"("lists":[{{"name":"L","commands":[{},{}]}}],)"
                 R"("submissions":[{{"queue":"q","lists":["L"],"present":["sc"]}}]}})",
                 tr("sc", "PRESENT", "RENDER_TARGET"), use("sc", "RENDER_TARGET")),
             ids({{M::invalid_subresource_state, 1}})}),
    case_name);

// The counts aggregate per command: one message for a whole-resource use, naming the first
// subresource, however many subresources are wrong.
TEST(LegacyReport, OneMessagePerCommandAndResource) {
  const Trace t = load_trace(d3d(R"({"name":"tex","mips":4,"layers":2})", {use("tex", "RENDER_TARGET")}));
  const ValidationResult r = validate(t);
  ASSERT_EQ(r.messages.size(), 1u);
  EXPECT_EQ(r.messages[0].id, MessageId::invalid_subresource_state);
  EXPECT_EQ(r.messages[0].list, "L");
  EXPECT_EQ(r.messages[0].command, 0);
  EXPECT_EQ(r.messages[0].resource, "tex");
  EXPECT_EQ(r.messages[0].subresource, 0);
}

}  // namespace
}  // namespace baton::validate::testing
