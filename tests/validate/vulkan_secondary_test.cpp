// Vulkan secondary command buffers (issue 14): `"level": "secondary"` lists executed by an `execute`
// command (vkCmdExecuteCommands) of a primary list. Vulkan spec, "Secondary Command Buffer Execution"
// and "Submission Order": the executed commands are in submission order as if recorded at that point
// of the primary, so barriers and uses inside a secondary order and are ordered like the primary's own;
// no state is inherited beyond that (no render pass here). Each verdict below is checked against the
// Khronos layer on lavapipe by tests/exec/trace_player_test.cpp (TracePlayer.SecondaryCommandBuffers*).
#include <baton/core.hpp>

#include "cases.hpp"

namespace baton::validate::testing {
namespace {

using M = MessageId;

constexpr const char* kBuf = R"({"name":"buf","type":"buffer"})";
const std::string kWrite = R"({"use":{"resource":"buf","as":{"stage":"COPY","access":"TRANSFER_WRITE"}}})";
const std::string kRead =
    R"({"use":{"resource":"buf","as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ"}}})";
const std::string kBarrier =
    R"({"barrier":[{"type":"buffer","resource":"buf","src_stage":"COPY","src_access":"TRANSFER_WRITE",)"
    R"("dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ"}]})";

// A primary list "P" with `primary` commands, secondary lists S0, S1, ... with theirs, one submission of P.
std::string trace(std::string_view primary, std::initializer_list<std::string> secondaries,
                  std::string_view resources = kBuf) {
  std::string lists = fmt::format(R"({{"name":"P","type":"direct","commands":[{}]}})", primary);
  int i = 0;
  for (const std::string& s : secondaries)
    lists += fmt::format(R"(,{{"name":"S{}","type":"direct","level":"secondary","commands":[{}]}})", i++, s);
  return fmt::format(
      R"({{"api":"vulkan","resources":[{}],"lists":[{}],"submissions":[{{"queue":"q","lists":["P"]}}]}})",
      resources, lists);
}

class VulkanSecondary : public ::testing::TestWithParam<Case> {};
TEST_P(VulkanSecondary, Counts) {
  check_case(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Sync2, VulkanSecondary,
    ::testing::Values(
        // A write in the primary and a read in an executed secondary, nothing between: read-after-write.
        Case{"ReadInASecondaryAfterThePrimarysWrite", trace(kWrite + R"(,{"execute":["S0"]})", {kRead}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // A barrier in the secondary orders the primary's write before the secondary's read.
        Case{"BarrierInTheSecondaryOrdersThePrimarysWrite",
             trace(kWrite + R"(,{"execute":["S0"]})", {kBarrier + "," + kRead}),
             {}},
        // A barrier in one secondary orders a write of the primary before a read in the next secondary
        // of the same execute (pCommandBuffers run in order).
        Case{"BarrierInOneSecondaryOrdersForTheNext",
             trace(kWrite + R"(,{"execute":["S0","S1"]})", {kBarrier, kRead}),
             {}},
        // Write and read each in its own secondary, nothing between: the hazard crosses the secondaries.
        Case{"HazardAcrossTwoSecondaries", trace(R"({"execute":["S0","S1"]})", {kWrite, kRead}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // A write in a secondary and a barrier in the primary after the execute order it.
        Case{"BarrierInThePrimaryAfterTheExecute",
             trace(R"({"execute":["S0"]},)" + kBarrier + "," + kRead, {kWrite}),
             {}},
        // One secondary executed twice writes twice with nothing between: write-after-write.
        Case{"ASecondaryExecutedTwice", trace(R"({"execute":["S0"]},{"execute":["S0"]})", {kWrite}),
             ids({{M::vk_hazard_write_after_write, 1}})},
        // Layouts carry across: a secondary's transition is the layout the primary's next use sees.
        Case{
            "LayoutSetInASecondary",
            trace(
                R"({"execute":["S0"]},{"use":{"resource":"img","as":{"stage":"COPY","access":"TRANSFER_READ","layout":"TRANSFER_SRC_OPTIMAL"}}})",
                {R"({"barrier":[{"type":"image","resource":"img","src_stage":"NONE","dst_stage":"COPY","dst_access":"TRANSFER_READ","old_layout":"UNDEFINED","new_layout":"TRANSFER_SRC_OPTIMAL"}]})"},
                R"({"name":"img","type":"texture"})"),
            {}},
        Case{
            "LayoutNotSetInAnUnexecutedSecondary",
            trace(
                R"({"use":{"resource":"img","as":{"stage":"COPY","access":"TRANSFER_READ","layout":"TRANSFER_SRC_OPTIMAL"}}})",
                {R"({"barrier":[{"type":"image","resource":"img","src_stage":"NONE","dst_stage":"COPY","dst_access":"TRANSFER_READ","old_layout":"UNDEFINED","new_layout":"TRANSFER_SRC_OPTIMAL"}]})"},
                R"({"name":"img","type":"texture"})"),
            ids({{M::vk_invalid_image_layout, 1}})}),
    case_name);

// Messages name the secondary list and its command, where the access is recorded.
TEST(VulkanSecondary, MessagesNameTheSecondaryList) {
  const ValidationResult r =
      validate(load_trace(trace(kWrite + R"(,{"execute":["S0"]})", {kWrite + "," + kRead}), "t"));
  ASSERT_EQ(r.messages.size(), 2u) << to_text(r);
  EXPECT_EQ(r.messages[0].list, "S0");
  EXPECT_EQ(r.messages[0].command, 0);
  EXPECT_EQ(r.messages[0].id, M::vk_hazard_write_after_write);
  EXPECT_NE(r.messages[0].text.find("(list 'P' command 0)"), std::string::npos) << r.messages[0].text;
  EXPECT_EQ(r.messages[1].list, "S0");
  EXPECT_EQ(r.messages[1].command, 1);
}

void bad(const std::string& json, const std::string& pointer_and_text) {
  try {
    (void)load_trace(json, "t");
    ADD_FAILURE() << "accepted: " << json;
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(pointer_and_text), std::string::npos) << e.what();
  }
}

TEST(VulkanSecondary, LoaderRefusesWhatCannotHappen) {
  // Submitting a secondary (the layer's NegativeSecondaryCommandBuffer.AsPrimary:
  // VUID-VkSubmitInfo-pCommandBuffers-00075; for vkQueueSubmit2 VkCommandBufferSubmitInfo's).
  bad(R"({"api":"vulkan","resources":[],"lists":[{"name":"S","level":"secondary","commands":[]}],"submissions":[{"lists":["S"]}]})",
      "t:/submissions/0/lists/0: list 'S' is a secondary command buffer");
  bad(trace(R"({"execute":["P"]})", {}),
      "t:/lists/0/commands/0/execute/0: list 'P' is not a secondary command buffer");
  bad(trace(R"({"execute":["X"]})", {}), "t:/lists/0/commands/0/execute/0: unknown list 'X'");
  bad(trace(R"({"execute":[]})", {}), "t:/lists/0/commands/0/execute: expected a non-empty array");
  bad(trace(R"({"execute":"S0"})", {""}), "t:/lists/0/commands/0/execute: expected a non-empty array");
  bad(trace(R"({"execute":[1]})", {""}), "t:/lists/0/commands/0/execute/0: expected a list name");
  // vkCmdExecuteCommands needs a primary (VUID-vkCmdExecuteCommands-bufferlevel-00024).
  bad(trace(R"({"execute":["S0"]})", {R"({"execute":["S1"]})", ""}),
      "t:/lists/1/commands/0/execute: a secondary command buffer cannot execute others");
  bad(R"({"api":"vulkan","resources":[],"lists":[{"name":"P","commands":[{"execute":["S"]}]},{"name":"S","type":"compute","level":"secondary","commands":[]}],"submissions":[{"lists":["P"]}]})",
      "t:/lists/0/commands/0/execute/0: list 'S' has another type than the primary list 'P'");
  bad(R"({"api":"vulkan","resources":[],"lists":[{"name":"S","level":"tertiary","commands":[]}],"submissions":[]})",
      "t:/lists/0/level: unknown level 'tertiary'");
  bad(R"({"api":"d3d12","resources":[],"lists":[{"name":"S","level":"secondary","commands":[]}],"submissions":[]})",
      "t:/lists/0/level: secondary command buffers are Vulkan only");
  bad(R"({"api":"d3d12","resources":[],"lists":[{"name":"P","commands":[{"execute":["P"]}]}],"submissions":[]})",
      "t:/lists/0/commands/0/execute: execute is a Vulkan command");
}

}  // namespace
}  // namespace baton::validate::testing
