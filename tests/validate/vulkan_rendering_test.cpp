// Vulkan dynamic rendering (issue 14): begin_rendering / end_rendering with attachments' layouts and
// load / store operations. Each case is written from the Vulkan spec: "Load Operations" (a load op is a
// read (LOAD) or write (CLEAR, DONT_CARE) of the attachment at COLOR_ATTACHMENT_OUTPUT, for depth at
// EARLY_FRAGMENT_TESTS; NONE accesses nothing), "Store Operations" (STORE and DONT_CARE write at
// COLOR_ATTACHMENT_OUTPUT, depth at LATE_FRAGMENT_TESTS; NONE accesses nothing; stores happen after the
// instance's other accesses), "Rasterization Order" (attachment accesses of one instance are ordered),
// "Image Layouts" (the attachment's imageLayout is the layout it is in). The one-image forms are
// checked against the Khronos layer on lavapipe by tests/exec/trace_player_test.cpp
// (TracePlayer.DynamicRendering*).
#include <baton/core.hpp>

#include "cases.hpp"

namespace baton::validate::testing {
namespace {

using M = MessageId;

constexpr const char* kRt = R"({"name":"rt","type":"texture","flags":["render_target"]})";
constexpr const char* kDepth =
    R"({"name":"z","type":"texture","flags":["depth_stencil"],"initial":"DEPTH_ATTACHMENT_OPTIMAL"})";
const std::string kToAttachment =
    R"({"barrier":[{"type":"image","resource":"rt","src_stage":"NONE","dst_stage":"COLOR_ATTACHMENT_OUTPUT",)"
    R"("dst_access":"COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE","old_layout":"UNDEFINED","new_layout":"COLOR_ATTACHMENT_OPTIMAL"}]})";
const std::string kToTransferSrc =
    R"({"barrier":[{"type":"image","resource":"rt","src_stage":"COLOR_ATTACHMENT_OUTPUT","src_access":"COLOR_ATTACHMENT_WRITE",)"
    R"("dst_stage":"COPY","dst_access":"TRANSFER_READ","old_layout":"COLOR_ATTACHMENT_OPTIMAL","new_layout":"TRANSFER_SRC_OPTIMAL"}]})";
const std::string kCopyRead =
    R"({"use":{"resource":"rt","as":{"stage":"COPY","access":"TRANSFER_READ","layout":"TRANSFER_SRC_OPTIMAL"}}})";
const std::string kEnd = R"({"end_rendering":{}})";

std::string begin(std::string_view load, std::string_view store,
                  std::string_view layout = "COLOR_ATTACHMENT_OPTIMAL") {
  return fmt::format(
      R"({{"begin_rendering":{{"color":[{{"resource":"rt","subresource":0,"layout":"{}","load":"{}","store":"{}"}}]}}}})",
      layout, load, store);
}
std::string list(std::initializer_list<std::string> commands, std::string_view resources = kRt) {
  std::string joined;
  for (const std::string& c : commands) joined += (joined.empty() ? "" : ",") + c;
  return one_list("vulkan", resources, joined);
}

class VulkanRendering : public ::testing::TestWithParam<Case> {};
TEST_P(VulkanRendering, Counts) {
  check_case(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Sync2, VulkanRendering,
    ::testing::Values(
        // The usual frame: a transition to the attachment layout whose second scope holds the load op's
        // access, a clear load, a store, a transition that makes the store visible to a copy.
        Case{"ClearStoreThenCopyOut",
             list({kToAttachment, begin("CLEAR", "STORE"), kEnd, kToTransferSrc, kCopyRead}),
             {}},
        // A copy right after the rendering, with no barrier: the store's write is not visible to it.
        Case{
            "StoreNotMadeVisible",
            list(
                {kToAttachment, begin("CLEAR", "STORE"), kEnd,
                 R"({"use":{"resource":"rt","as":{"stage":"COPY","access":"TRANSFER_READ","layout":"COLOR_ATTACHMENT_OPTIMAL"}}})"}),
            ids({{M::vk_hazard_read_after_write, 1}})},
        // The load op's write after a transition whose second scope does not hold it (destination COPY):
        // write-after-write against the transition.
        Case{
            "LoadOpWriteNotOrderedAfterTheTransition",
            list(
                {R"({"barrier":[{"type":"image","resource":"rt","src_stage":"NONE","dst_stage":"COPY","old_layout":"UNDEFINED","new_layout":"COLOR_ATTACHMENT_OPTIMAL"}]})",
                 begin("CLEAR", "STORE"), kEnd}),
            ids({{M::vk_hazard_write_after_write, 1}})},
        // LOAD reads: after a transition without the read in its second access scope, read-after-write.
        Case{
            "LoadOpReadNotMadeVisible",
            list(
                {R"({"barrier":[{"type":"image","resource":"rt","src_stage":"NONE","dst_stage":"COLOR_ATTACHMENT_OUTPUT","dst_access":"COLOR_ATTACHMENT_WRITE","old_layout":"UNDEFINED","new_layout":"COLOR_ATTACHMENT_OPTIMAL"}]})",
                 begin("LOAD", "STORE"), kEnd}),
            ids({{M::vk_hazard_read_after_write, 1}})},
        // LOAD_OP_NONE and STORE_OP_NONE access nothing: no hazard even with no visibility at all.
        Case{
            "NoneLoadAndStoreAccessNothing",
            list(
                {R"({"barrier":[{"type":"image","resource":"rt","src_stage":"NONE","dst_stage":"NONE","old_layout":"UNDEFINED","new_layout":"COLOR_ATTACHMENT_OPTIMAL"}]})",
                 begin("NONE", "NONE"), kEnd}),
            {}},
        // DONT_CARE stores write (undefined values) like STORE: a copy after it without a barrier is a
        // read-after-write.
        Case{
            "DontCareStoreWrites",
            list(
                {kToAttachment, begin("CLEAR", "DONT_CARE"), kEnd,
                 R"({"use":{"resource":"rt","as":{"stage":"COPY","access":"TRANSFER_READ","layout":"COLOR_ATTACHMENT_OPTIMAL"}}})"}),
            ids({{M::vk_hazard_read_after_write, 1}})},
        // The attachment's layout is the layout it is in (like any use of a layout).
        Case{"AttachmentInAnotherLayout", list({begin("CLEAR", "STORE") + "," + kEnd}),
             ids({{M::vk_invalid_image_layout, 1}})},
        Case{
            "AttachmentInGeneral",
            list(
                {R"({"barrier":[{"type":"image","resource":"rt","src_stage":"NONE","dst_stage":"COLOR_ATTACHMENT_OUTPUT","dst_access":"COLOR_ATTACHMENT_WRITE","old_layout":"UNDEFINED","new_layout":"GENERAL"}]})",
                 begin("CLEAR", "STORE", "GENERAL"), kEnd}),
            {}},
        // Within one instance the store is ordered after the load and the draws' attachment accesses.
        Case{
            "DrawsBetweenLoadAndStoreAreOrdered",
            list(
                {kToAttachment, begin("LOAD", "STORE"),
                 R"({"use":{"resource":"rt","as":{"stage":"COLOR_ATTACHMENT_OUTPUT","access":"COLOR_ATTACHMENT_WRITE","layout":"COLOR_ATTACHMENT_OPTIMAL"}}})",
                 kEnd}),
            {}},
        // A second instance's load is not ordered after the first one's store without a barrier.
        Case{"TwoInstancesNeedABarrier",
             list({kToAttachment, begin("CLEAR", "STORE"), kEnd, begin("LOAD", "STORE"), kEnd}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{
            "TwoInstancesWithABarrier",
            list(
                {kToAttachment, begin("CLEAR", "STORE"), kEnd,
                 R"({"barrier":[{"type":"memory","src_stage":"COLOR_ATTACHMENT_OUTPUT","src_access":"COLOR_ATTACHMENT_WRITE","dst_stage":"COLOR_ATTACHMENT_OUTPUT","dst_access":"COLOR_ATTACHMENT_READ|COLOR_ATTACHMENT_WRITE"}]})",
                 begin("LOAD", "STORE"), kEnd}),
            {}},
        // Depth: the load at EARLY_FRAGMENT_TESTS, the store at LATE_FRAGMENT_TESTS. A barrier into
        // LATE_FRAGMENT_TESTS only does not order the clear load (EARLY is logically earlier).
        Case{
            "DepthLoadAtEarlyFragmentTests",
            list(
                {R"({"barrier":[{"type":"image","resource":"z","src_stage":"NONE","dst_stage":"LATE_FRAGMENT_TESTS","dst_access":"DEPTH_STENCIL_ATTACHMENT_WRITE","old_layout":"UNDEFINED","new_layout":"DEPTH_ATTACHMENT_OPTIMAL"}]})",
                 R"({"begin_rendering":{"depth":{"resource":"z","subresource":0,"layout":"DEPTH_ATTACHMENT_OPTIMAL","load":"CLEAR","store":"STORE"}}})",
                 kEnd},
                kDepth),
            ids({{M::vk_hazard_write_after_write, 1}})},
        Case{
            "DepthLoadOrderedByEarlyFragmentTests",
            list(
                {R"({"barrier":[{"type":"image","resource":"z","src_stage":"NONE","dst_stage":"EARLY_FRAGMENT_TESTS","dst_access":"DEPTH_STENCIL_ATTACHMENT_WRITE","old_layout":"UNDEFINED","new_layout":"DEPTH_ATTACHMENT_OPTIMAL"}]})",
                 R"({"begin_rendering":{"depth":{"resource":"z","subresource":0,"layout":"DEPTH_ATTACHMENT_OPTIMAL","load":"CLEAR","store":"STORE"}}})",
                 kEnd},
                kDepth),
            {}}),
    case_name);

void bad(const std::string& json, const std::string& pointer_and_text) {
  try {
    (void)load_trace(json, "t");
    ADD_FAILURE() << "accepted: " << json;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(pointer_and_text), std::string::npos) << e.what();
  }
}

TEST(VulkanRendering, LoaderRefusesWhatIsNotModelled) {
  bad(list({begin("CLEAR", "STORE")}), "t:/lists/0: the list ends inside a render pass instance");
  bad(list({kEnd}), "t:/lists/0/commands/0/end_rendering: no render pass instance is active");
  bad(list({begin("CLEAR", "STORE"), begin("CLEAR", "STORE"), kEnd}),
      "t:/lists/0/commands/1/begin_rendering: a render pass instance is already active");
  // Only a graphics queue's command buffer renders (VUID-vkCmdBeginRendering-commandBuffer-cmdpool).
  bad(one_list("vulkan", kRt, std::string(begin("CLEAR", "STORE")) + "," + kEnd, "compute"),
      "t:/lists/0/commands/0/begin_rendering: a render pass instance in a compute list");
  bad(one_list("vulkan", kRt, std::string(begin("CLEAR", "STORE")) + "," + kEnd, "copy"),
      "t:/lists/0/commands/0/begin_rendering: a render pass instance in a copy list");
  bad(list({begin("CLEAR", "STORE"), kToAttachment, kEnd}),
      "t:/lists/0/commands/1: only uses (draws) are modelled inside a render pass instance");
  bad(list({begin("CLEAR", "STORE", "TRANSFER_DST_OPTIMAL"), kEnd}),
      "t:/lists/0/commands/0/begin_rendering/color/0/layout: color attachments are not rendered in layout");
  bad(list({begin("LOADD", "STORE"), kEnd}),
      "t:/lists/0/commands/0/begin_rendering/color/0/load: unknown load op");
  bad(list({begin("LOAD", "KEEP"), kEnd}),
      "t:/lists/0/commands/0/begin_rendering/color/0/store: unknown store op");
  bad(list(
          {R"({"begin_rendering":{"color":[{"resource":"rt","layout":"GENERAL","load":"LOAD","store":"STORE"}]}})",
           kEnd}),
      "t:/lists/0/commands/0/begin_rendering/color/0: missing \"subresource\"");
  bad(list(
          {R"({"begin_rendering":{"color":[{"resource":"rt","subresource":1,"layout":"GENERAL","load":"LOAD","store":"STORE"}]}})",
           kEnd}),
      "t:/lists/0/commands/0/begin_rendering/color/0/subresource: out of range");
  bad(list({R"({"begin_rendering":{"stencil":{}}})", kEnd}),
      "t:/lists/0/commands/0/begin_rendering: unknown key");
  bad(list(
          {R"({"begin_rendering":{"depth":{"resource":"rt","subresource":0,"layout":"GENERAL","load":"LOAD","store":"STORE"}}})",
           kEnd}),
      "t:/lists/0/commands/0/begin_rendering/depth/resource: 'rt' is not a depth_stencil image");
  bad(list({R"({"end_rendering":{"x":1}})"}), "t:/lists/0/commands/0/end_rendering: unknown key");
  bad(one_list("d3d12", "", R"({"end_rendering":{}})"),
      "t:/lists/0/commands/0/end_rendering: end_rendering is a Vulkan command");
}

}  // namespace
}  // namespace baton::validate::testing
