// D3D12 enhanced-barrier rules, one case per rule with its expected message id.
#include "cases.hpp"

namespace baton::validate::testing {
namespace {

using M = MessageId;

constexpr const char* kTex = R"({"name":"tex","mips":2,"flags":["render_target"]})";
constexpr const char* kPlaced =
    R"({"name":"tex","flags":["render_target","placed"],"initial_layout":"UNDEFINED"})";
constexpr const char* kTexE = R"({"name":"tex","flags":["render_target"],"initial_layout":"COMMON"})";
constexpr const char* kBuf = R"({"name":"buf","type":"buffer"})";

// A texture barrier: sync, access, layout as "before>after".
std::string tb(std::string_view sb, std::string_view sa, std::string_view ab, std::string_view aa,
               std::string_view lb, std::string_view la, std::string_view extra = "",
               std::string_view r = "tex") {
  return fmt::format(
      R"({{"barrier":[{{"type":"texture","resource":"{}","sync_before":"{}","sync_after":"{}",)"
      R"("access_before":"{}","access_after":"{}","layout_before":"{}","layout_after":"{}"{}}}]}})",
      r, sb, sa, ab, aa, lb, la, extra);
}
std::string use(std::string_view r, std::string_view as) {
  return fmt::format(R"({{"use":{{"resource":"{}","as":"{}"}}}})", r, as);
}
std::string d3d(std::string_view resources, std::initializer_list<std::string> cmds,
                std::string_view type = "direct") {
  std::string c;
  for (const std::string& s : cmds) c += (c.empty() ? "" : ",") + s;
  return one_list("d3d12", resources, c, type);
}
std::string two_ecls(std::string_view resources, std::string_view first, std::string_view second) {
  return fmt::format(R"({{"api":"d3d12","resources":[{}],"lists":[)"
                     R"({{"name":"A","commands":[{}]}},{{"name":"B","commands":[{}]}}],)"
                     R"("submissions":[{{"queue":"q","lists":["A"]}},{{"queue":"q","lists":["B"]}}]}})",
                     resources, first, second);
}
// COMMON -> RENDER_TARGET, the usual first barrier of a render target.
const std::string kToRt =
    tb("NONE", "RENDER_TARGET", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET");
const std::string kRtToSrv = tb("RENDER_TARGET", "PIXEL_SHADING", "RENDER_TARGET", "SHADER_RESOURCE",
                                "RENDER_TARGET", "SHADER_RESOURCE");

class Enhanced : public ::testing::TestWithParam<Case> {};
TEST_P(Enhanced, ExpectedIds) {
  check_case(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    D3D12, Enhanced,
    ::testing::Values(
        Case{"RenderThenSample",
             d3d(kTex, {kToRt, use("tex", "RENDER_TARGET"), kRtToSrv, use("tex", "PIXEL_SHADER_RESOURCE")}),
             {}},
        Case{"DiscardFirstTouchOfPlacedTexture",
             d3d(kPlaced, {tb("NONE", "RENDER_TARGET", "NO_ACCESS", "RENDER_TARGET", "UNDEFINED",
                              "RENDER_TARGET", R"(,"discard":true)"),
                           use("tex", "RENDER_TARGET")}),
             {}},
        Case{"PlacedTextureWithoutDiscard",
             d3d(kPlaced,
                 {tb("NONE", "RENDER_TARGET", "NO_ACCESS", "RENDER_TARGET", "UNDEFINED", "RENDER_TARGET"),
                  use("tex", "RENDER_TARGET")}),
             ids({{M::render_target_or_depth_stencil_not_initialized, 1}})},
        // ---- compatibility ----
        Case{
            "LayoutBeforeMismatch",
            d3d(kTex, {tb("ALL", "ALL", "SHADER_RESOURCE", "COPY_SOURCE", "SHADER_RESOURCE", "COPY_SOURCE")}),
            ids({{M::incompatible_barrier_layout, 1}})},
        Case{"AccessNotAllowedByLayout",
             d3d(kTex,
                 {tb("NONE", "RENDER_TARGET", "NO_ACCESS", "RENDER_TARGET", "COMMON", "SHADER_RESOURCE")}),
             ids({{M::incompatible_barrier_access, 1}})},
        Case{"UndefinedLayoutNeedsNoAccess",
             d3d(kTex, {tb("NONE", "COPY", "NO_ACCESS", "COPY_DEST", "UNDEFINED", "UNDEFINED")}),
             {}},
        Case{"AccessNotCompatibleWithSync",
             d3d(kTex,
                 {tb("NONE", "COMPUTE_SHADING", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET")}),
             ids({{M::incompatible_barrier_sync, 1}})},
        Case{"SyncAllFitsAnyAccess",
             d3d(kTex, {tb("NONE", "ALL", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET")}),
             {}},
        Case{"SyncNoneNeedsNoAccess",
             d3d(kTex, {tb("NONE", "RENDER_TARGET", "SHADER_RESOURCE", "RENDER_TARGET", "COMMON",
                           "RENDER_TARGET")}),
             ids({{M::incompatible_barrier_values, 1}})},
        Case{"NoAccessStandsAlone",
             d3d(kTex, {tb("NONE", "RENDER_TARGET", "NO_ACCESS|SHADER_RESOURCE", "RENDER_TARGET", "COMMON",
                           "RENDER_TARGET")}),
             ids({{M::incompatible_barrier_values, 1}})},
        // ---- SyncBefore NONE and NO_ACCESS ----
        Case{"SyncNoneAfterEarlierUse",
             d3d(kTexE, {use("tex", "PIXEL_SHADER_RESOURCE"),
                         tb("NONE", "COPY", "NO_ACCESS", "COPY_SOURCE", "COMMON", "COPY_SOURCE")}),
             ids({{M::invalid_barrier_access, 1}})},
        Case{"SyncNoneFirstInNextEcl",
             two_ecls(kTex, kToRt,
                      tb("NONE", "COPY", "NO_ACCESS", "COPY_SOURCE", "RENDER_TARGET", "COPY_SOURCE")),
             {}},
        Case{"NoAccessNeedsAccessBeforeNoAccess",
             d3d(kTex, {tb("NONE", "NONE", "NO_ACCESS", "NO_ACCESS", "COMMON", "COMMON"),
                        tb("COPY", "COPY", "COPY_SOURCE", "COPY_DEST", "COMMON", "COPY_DEST")}),
             ids({{M::invalid_barrier_access, 1}})},
        Case{"SyncBeforeMustCoverPreviousSyncAfter",
             d3d(kTex, {tb("NONE", "DRAW", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET"),
                        tb("RENDER_TARGET", "COPY", "RENDER_TARGET", "COPY_SOURCE", "RENDER_TARGET",
                           "COPY_SOURCE")}),
             ids({{M::incompatible_barrier_sync, 1}})},
        // ---- discard, type, range ----
        Case{"DiscardNeedsUndefined",
             d3d(kTex, {tb("NONE", "RENDER_TARGET", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET",
                           R"(,"discard":true)")}),
             ids({{M::texture_barrier_invalid_flags, 1}})},
        Case{
            "BufferBarrierOnTexture",
            d3d(kTex,
                {R"({"barrier":[{"type":"buffer","resource":"tex","sync_before":"ALL","sync_after":"ALL","access_before":"COMMON","access_after":"COMMON"}]})"}),
            ids({{M::incompatible_barrier_type, 1}})},
        Case{"RangeOutOfBounds",
             d3d(kTex, {tb("NONE", "RENDER_TARGET", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET",
                           R"(,"range":{"mips":[1,2]})")}),
             ids({{M::texture_barrier_subresources_out_of_bounds, 1}})},
        Case{"RangeInsideBounds",
             d3d(kTex, {tb("NONE", "RENDER_TARGET", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET",
                           R"(,"range":{"mips":[1,1]})"),
                        R"({"use":{"resource":"tex","subresource":1,"as":"RENDER_TARGET"}})"}),
             {}},
        // ---- queue-specific layouts and syncs ----
        Case{"DirectQueueLayoutOnComputeList",
             d3d(kTex,
                 {tb("NONE", "COMPUTE_SHADING", "NO_ACCESS", "SHADER_RESOURCE", "COMMON",
                     "DIRECT_QUEUE_SHADER_RESOURCE")},
                 "compute"),
             ids({{M::unsupported_barrier_layout, 1}})},
        Case{"ComputeQueueLayoutOnComputeList",
             d3d(kTex,
                 {tb("NONE", "COMPUTE_SHADING", "NO_ACCESS", "SHADER_RESOURCE", "COMMON",
                     "COMPUTE_QUEUE_SHADER_RESOURCE")},
                 "compute"),
             {}},
        Case{"CopyListNeedsCommonLayout",
             d3d(kTex, {tb("NONE", "COPY", "NO_ACCESS", "COPY_DEST", "COMMON", "COPY_DEST")}, "copy"),
             ids({{M::unsupported_barrier_layout, 1}})},
        Case{"PixelSyncOnComputeList",
             d3d(kTex,
                 {tb("NONE", "PIXEL_SHADING", "NO_ACCESS", "SHADER_RESOURCE", "COMMON", "SHADER_RESOURCE")},
                 "compute"),
             ids({{M::incompatible_barrier_sync, 1}})},
        // ---- split barriers ----
        Case{"SplitHalves",
             d3d(kTex, {tb("NONE", "SPLIT", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET"),
                        tb("SPLIT", "RENDER_TARGET", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET"),
                        use("tex", "RENDER_TARGET")}),
             {}},
        Case{"SplitHalvesDiffer",
             d3d(kTex, {tb("NONE", "SPLIT", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET"),
                        tb("SPLIT", "COPY", "NO_ACCESS", "COPY_DEST", "COMMON", "COPY_DEST")}),
             ids({{M::barrier_mismatching_begin_end, 1}})},
        Case{"SplitSecondHalfAlone",
             d3d(kTex,
                 {tb("SPLIT", "RENDER_TARGET", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET")}),
             ids({{M::barrier_unmatched_end, 1}})},
        Case{"SplitNotEndedInEcl",
             d3d(kTex, {tb("NONE", "SPLIT", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET")}),
             ids({{M::unused_cross_execute_split_barrier, 1}})},
        // ---- legacy interop ----
        Case{
            "EnhancedAfterLegacyNonCommon",
            d3d(kTex,
                {R"({"barrier":[{"type":"transition","resource":"tex","before":"COMMON","after":"RENDER_TARGET"}]})",
                 kRtToSrv}),
            ids({{M::barrier_interop_invalid_state, 1}})},
        Case{
            "LegacyAfterEnhancedNonCommon",
            d3d(kTex,
                {kToRt,
                 R"({"barrier":[{"type":"transition","resource":"tex","before":"COMMON","after":"COPY_DEST"}]})"}),
            ids({{M::barrier_interop_invalid_layout, 1}})},
        Case{
            "InteropThroughCommon",
            d3d(kTex,
                {R"({"barrier":[{"type":"transition","resource":"tex","before":"COMMON","after":"RENDER_TARGET"}]})",
                 R"({"barrier":[{"type":"transition","resource":"tex","before":"RENDER_TARGET","after":"COMMON"}]})",
                 tb("ALL", "RENDER_TARGET", "COMMON", "RENDER_TARGET", "COMMON", "RENDER_TARGET"),
                 use("tex", "RENDER_TARGET")}),
            {}},
        // ---- layouts across ExecuteCommandLists, uses, present ----
        Case{"LayoutCarriesAcrossEcl",
             two_ecls(kTex, kToRt,
                      tb("RENDER_TARGET", "COPY", "RENDER_TARGET", "COPY_SOURCE", "RENDER_TARGET",
                         "COPY_SOURCE")),
             {}},
        Case{"LayoutCarriedIsChecked",
             two_ecls(kTex, kToRt, tb("ALL", "COPY", "COMMON", "COPY_SOURCE", "COMMON", "COPY_SOURCE")),
             ids({{M::incompatible_barrier_layout, 1}})},
        Case{"UseInIncompatibleLayout", d3d(kTex, {kToRt, use("tex", "PIXEL_SHADER_RESOURCE")}),
             ids({{M::invalid_subresource_state, 1}})},
        Case{
            "UseOfNoAccessSubresource",
            d3d(kBuf,
                {R"({"barrier":[{"type":"buffer","resource":"buf","sync_before":"NONE","sync_after":"NONE","access_before":"NO_ACCESS","access_after":"NO_ACCESS"}]})",
                 use("buf", "COPY_SOURCE")}),
            ids({{M::invalid_subresource_state, 1}})},
        Case{
            "PresentNeedsCommonNotDirectQueueCommon",
            R"({"api":"d3d12","resources":[{"name":"sc","flags":["swapchain","render_target"]}],"lists":[{"name":"L","commands":[)"
            R"({"barrier":[{"type":"texture","resource":"sc","sync_before":"NONE","sync_after":"NONE","access_before":"NO_ACCESS",)"
            R"("access_after":"NO_ACCESS","layout_before":"COMMON","layout_after":"DIRECT_QUEUE_COMMON"}]}]}],)"
            R"("submissions":[{"queue":"q","lists":["L"],"present":["sc"]}]})",
            ids({{M::invalid_subresource_state, 1}})}),
    case_name);

}  // namespace
}  // namespace baton::validate::testing
