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
        // Enhanced Barriers spec, "Sequential Barriers": "Any barrier subsequent to another barrier on
        // the same subresource in the same ExecuteCommandLists scope must use a SyncBefore value that
        // fully-contains the preceding barrier SyncAfter scope bits" -- uses in between included.
        Case{"SyncBeforeMustCoverPreviousSyncAfterAcrossUses",
             d3d(kTex, {tb("NONE", "DRAW", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET"),
                        use("tex", "RENDER_TARGET"),
                        tb("RENDER_TARGET", "COPY", "RENDER_TARGET", "COPY_SOURCE", "RENDER_TARGET",
                           "COPY_SOURCE")}),
             ids({{M::incompatible_barrier_sync, 1}})},
        Case{"SyncBeforeCoveringPreviousSyncAfterAcrossUses",
             d3d(kTex, {tb("NONE", "RENDER_TARGET", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET"),
                        use("tex", "RENDER_TARGET"),
                        tb("RENDER_TARGET", "COPY", "RENDER_TARGET", "COPY_SOURCE", "RENDER_TARGET",
                           "COPY_SOURCE")}),
             {}},
        // The rule is per ExecuteCommandLists: the next one starts afresh.
        Case{"SequentialBarriersEndWithTheEcl",
             two_ecls(kTex, tb("NONE", "DRAW", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET"),
                      tb("RENDER_TARGET", "COPY", "RENDER_TARGET", "COPY_SOURCE", "RENDER_TARGET",
                         "COPY_SOURCE")),
             {}},
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
        // Enhanced Barriers spec, D3D12_BARRIER_SUBRESOURCE_RANGE: "NumMipLevels: ... or zero to indicate
        // IndexOrFirstMipLevel is a subresource index"; FirstArraySlice, NumArraySlices, FirstPlane and
        // NumPlanes are "Ignored if NumMipLevels is zero". In a trace: "mips": [index, 0].
        Case{"NumMipLevelsZeroIsASubresourceIndex",
             d3d(R"({"name":"tex","mips":2,"layers":2,"flags":["render_target"]})",
                 {tb("NONE", "RENDER_TARGET", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET",
                     R"(,"range":{"mips":[3,0],"layers":[7,9]})"),
                  R"({"use":{"resource":"tex","subresource":3,"as":"RENDER_TARGET"}})"}),
             {}},
        // Only that one subresource is transitioned: subresource 2 is still COMMON.
        Case{"NumMipLevelsZeroTouchesOneSubresource",
             d3d(R"({"name":"tex","mips":2,"layers":2,"flags":["render_target"]})",
                 {tb("NONE", "RENDER_TARGET", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET",
                     R"(,"range":{"mips":[3,0]})"),
                  R"({"use":{"resource":"tex","subresource":2,"as":"RENDER_TARGET"}})"}),
             ids({{M::invalid_subresource_state, 1}})},
        Case{"NumMipLevelsZeroIndexOutOfBounds",
             d3d(R"({"name":"tex","mips":2,"layers":2,"flags":["render_target"]})",
                 {tb("NONE", "RENDER_TARGET", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET",
                     R"(,"range":{"mips":[4,0]})")}),
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
        // Enhanced Barriers spec, D3D12_BARRIER_LAYOUT_DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE:
        // "Usable in both direct and compute command lists ... only direct queues can transition
        // resources into or out of" it; its accesses (spec, "Layout Access Compatibility"): SHADER_RESOURCE,
        // COPY_SOURCE, DEPTH_STENCIL_READ, SHADING_RATE_SOURCE, RESOLVE_SOURCE.
        Case{"ComputeAccessibleLayoutOnDirectList",
             d3d(kTex, {tb("NONE", "PIXEL_SHADING", "NO_ACCESS", "SHADER_RESOURCE", "COMMON",
                           "DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE"),
                        use("tex", "PIXEL_SHADER_RESOURCE")}),
             {}},
        Case{"ComputeAccessibleLayoutTransitionOnComputeList",
             d3d(kTex,
                 {tb("NONE", "COMPUTE_SHADING", "NO_ACCESS", "SHADER_RESOURCE", "COMMON",
                     "DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE")},
                 "compute"),
             ids({{M::unsupported_barrier_layout, 1}})},
        Case{"ComputeAccessibleLayoutTransitionOutOnComputeList",
             R"({"api":"d3d12","resources":[{"name":"tex","flags":["render_target"],)"
             R"("initial_layout":"DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE"}],"lists":[)"
             R"({"name":"L","type":"compute","commands":[)" +
                 tb("NONE", "COMPUTE_SHADING", "NO_ACCESS", "UNORDERED_ACCESS",
                    "DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE", "UNORDERED_ACCESS") +
                 R"(]}],"submissions":[{"queue":"q","type":"compute","lists":["L"]}]})",
             ids({{M::unsupported_barrier_layout, 1}})},
        // A compute list reads in it, and may name it on both sides (no transition).
        Case{"ComputeListReadsInComputeAccessibleLayout",
             R"({"api":"d3d12","resources":[{"name":"tex","flags":["render_target"],)"
             R"("initial_layout":"DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE"}],"lists":[)"
             R"({"name":"L","type":"compute","commands":[)" +
                 tb("NONE", "COMPUTE_SHADING", "NO_ACCESS", "SHADER_RESOURCE",
                    "DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE",
                    "DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE") +
                 "," + use("tex", "NON_PIXEL_SHADER_RESOURCE") +
                 R"(]}],"submissions":[{"queue":"q","type":"compute","lists":["L"]}]})",
             {}},
        // ... but not write in it.
        Case{"ComputeAccessibleLayoutIsReadOnly",
             R"({"api":"d3d12","resources":[{"name":"tex","flags":["render_target"],)"
             R"("initial_layout":"DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE"}],"lists":[)"
             R"({"name":"L","type":"compute","commands":[)" +
                 use("tex", "UNORDERED_ACCESS") +
                 R"(]}],"submissions":[{"queue":"q","type":"compute","lists":["L"]}]})",
             ids({{M::invalid_subresource_state, 1}})},
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
        // Enhanced Barriers spec, "Split Barriers": "Split barriers across ExecuteCommandLists
        // boundaries are allowed ... cross-ExecuteCommandLists split barriers are layout-only
        // barriers." A texture's begun split may stay open at the end of its ECL (this case expected
        // 1329 before the rule was fixed).
        Case{"TextureSplitNotEndedInEcl",
             d3d(kTex, {tb("NONE", "SPLIT", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET")}),
             {}},
        Case{"TextureSplitAcrossEcls",
             two_ecls(kTex, tb("NONE", "SPLIT", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET"),
                      tb("SPLIT", "RENDER_TARGET", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET") +
                          "," + use("tex", "RENDER_TARGET")),
             {}},
        // The split is still pending in the next ECL until its end: a use before it is an error.
        Case{"TextureSplitAcrossEclsUsedBeforeEnd",
             two_ecls(kTex, tb("NONE", "SPLIT", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET"),
                      use("tex", "RENDER_TARGET")),
             ids({{M::invalid_subresource_state, 1}})},
        // Same paragraph: "An unmatched BEGIN or END split barrier on a buffer or simultaneous-access
        // texture in a given ExecuteCommandLists scope is effectively unused and the Debug Layer
        // produces a warning": 1329 for each half, and the END is a no-op (no 534).
        Case{
            "BufferSplitAcrossEclsWarnsTwice",
            two_ecls(
                kBuf,
                R"({"barrier":[{"type":"buffer","resource":"buf","sync_before":"NONE","sync_after":"SPLIT","access_before":"NO_ACCESS","access_after":"COPY_DEST"}]})",
                R"({"barrier":[{"type":"buffer","resource":"buf","sync_before":"SPLIT","sync_after":"COPY","access_before":"NO_ACCESS","access_after":"COPY_DEST"}]})"
                "," +
                    use("buf", "COPY_DEST")),
            ids({{M::unused_cross_execute_split_barrier, 2}})},
        Case{"SimultaneousTextureSplitNotEndedInEcl",
             d3d(R"({"name":"tex","flags":["render_target","simultaneous_access"]})",
                 {tb("NONE", "SPLIT", "NO_ACCESS", "RENDER_TARGET", "COMMON", "RENDER_TARGET")}),
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
