// Swapchain acquire and present (issue 14; docs/trace-format.md, "Swapchains"). Each case cites the spec
// paragraph it is written from:
// - vkAcquireNextImageKHR: "The presentation engine may not have finished reading from the image at the
//   time it is acquired, so the application must use semaphore and/or fence to ensure that the image
//   layout and contents are not modified until the presentation engine reads have completed." (the
//   Khronos layer: SYNC-HAZARD-WRITE-AFTER-PRESENT / READ-AFTER-PRESENT);
// - vkQueuePresentKHR: "semaphores must be used to ensure that prior rendering and other commands in the
//   specified queue complete before the presentation begins" (the layer: SYNC-HAZARD-PRESENT-AFTER-WRITE /
//   PRESENT-AFTER-READ);
// - VUID-VkPresentInfoKHR-pImageIndices-01430: the presented image is in PRESENT_SRC_KHR.
// The same frames are played against the layer by tests/exec/swapchain_test.cpp.
#include <baton/core.hpp>
#include <string>

#include "cases.hpp"

namespace baton::validate::testing {
namespace {

using M = MessageId;

const std::string kImage = R"({"name":"bb","type":"texture","swapchain":"sc"})";
std::string to_dst(std::string_view first) {
  return fmt::format(
      R"({{"barrier":[{{"type":"image","resource":"bb","src_stage":"{}","dst_stage":"CLEAR","dst_access":"TRANSFER_WRITE","old_layout":"UNDEFINED","new_layout":"TRANSFER_DST_OPTIMAL"}}]}})",
      first);
}
const std::string kClear =
    R"({"use":{"resource":"bb","subresource":0,"as":{"stage":"CLEAR","access":"TRANSFER_WRITE","layout":"TRANSFER_DST_OPTIMAL"}}})";
std::string to_present(std::string_view dst_stage = "NONE", std::string_view layout = "PRESENT_SRC_KHR") {
  return fmt::format(
      R"({{"barrier":[{{"type":"image","resource":"bb","src_stage":"CLEAR","src_access":"TRANSFER_WRITE","dst_stage":"{}","old_layout":"TRANSFER_DST_OPTIMAL","new_layout":"{}"}}]}})",
      dst_stage, layout);
}
// One trace: lists (name -> commands) and the submissions array's entries.
std::string trace(std::initializer_list<std::pair<std::string, std::string>> lists,
                  std::initializer_list<std::string> steps) {
  std::string l, s;
  for (const auto& [name, commands] : lists)
    l += fmt::format(R"({}{{"name":"{}","commands":[{}]}})", l.empty() ? "" : ",", name, commands);
  for (const std::string& step : steps) s += (s.empty() ? "" : ",") + step;
  return fmt::format(R"({{"api":"vulkan","resources":[{}],"lists":[{}],"submissions":[{}]}})", kImage, l, s);
}
const std::string kAcquire = R"({"acquire":{"image":"bb","semaphore":"acquired"}})";
std::string submit(std::string_view list, std::string_view wait_stage,
                   std::string_view signal = R"(["rendered"])") {
  const std::string wait =
      wait_stage.empty() ? ""
                         : fmt::format(R"("wait":[{{"semaphore":"acquired","stage":"{}"}}],)", wait_stage);
  return fmt::format(R"({{"queue":"g","lists":["{}"],{}"signal":{}}})", list, wait, signal);
}
const std::string kPresent = R"({"present":{"queue":"g","image":"bb","wait":["rendered"]}})";
const std::string kFrame = to_dst("CLEAR") + "," + kClear + "," + to_present();
// Two frames on one image: the first frame (kFrame) in list L, the second in list M, whose transition out
// of PRESENT_SRC_KHR has first scope `first` (it chains with the second acquire's wait at CLEAR or not).
std::string two_frames(std::string_view first) {
  const std::string second = fmt::format(
      R"({{"barrier":[{{"type":"image","resource":"bb","src_stage":"{}","dst_stage":"CLEAR","dst_access":"TRANSFER_WRITE","old_layout":"PRESENT_SRC_KHR","new_layout":"TRANSFER_DST_OPTIMAL"}}]}},)",
      first);
  return trace({{"L", kFrame}, {"M", second + kClear + "," + to_present()}},
               {kAcquire, submit("L", "CLEAR"), kPresent, kAcquire, submit("M", "CLEAR"), kPresent});
}

class VulkanSwapchain : public ::testing::TestWithParam<Case> {};
TEST_P(VulkanSwapchain, Counts) {
  check_case(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Sync2, VulkanSwapchain,
    ::testing::Values(
        // The frame an engine submits: the transition out of UNDEFINED chains with the acquire wait (both
        // at CLEAR), the present waits what the rendering signalled.
        Case{"AcquireRenderPresent", trace({{"L", kFrame}}, {kAcquire, submit("L", "CLEAR"), kPresent}), {}},
        // vkAcquireNextImageKHR: the first write (the transition) is not ordered after the presentation
        // engine's reads: its first scope (NONE) does not chain with the wait. The wait imported the acquire,
        // a read of the engine's: write-after-read (the layer's name for it; without any wait below, the
        // layer's WRITE-AFTER-PRESENT).
        Case{"TransitionNotChainedWithTheAcquireWait",
             trace({{"L", to_dst("NONE") + "," + kClear + "," + to_present()}},
                   {kAcquire, submit("L", "CLEAR"), kPresent}),
             ids({{M::vk_hazard_write_after_read, 1}})},
        // ... nor is it with no wait on the acquire semaphore at all.
        Case{"NoWaitOnTheAcquireSemaphore", trace({{"L", kFrame}}, {kAcquire, submit("L", ""), kPresent}),
             ids({{M::vk_hazard_write_after_present, 1}})},
        // A read as the first access after the acquire, unordered (and in the wrong layout: the image is
        // UNDEFINED after its creation).
        Case{
            "FirstReadWithoutTheAcquireWait",
            trace(
                {{"L",
                  R"({"use":{"resource":"bb","subresource":0,"as":{"stage":"COPY","access":"TRANSFER_READ","layout":"TRANSFER_SRC_OPTIMAL"}}})"}},
                {kAcquire, submit("L", "", "[]")}),
            ids({{M::vk_hazard_read_after_present, 1}, {M::vk_invalid_image_layout, 1}})},
        // A read after a waited acquire is no hazard (the engine only reads): here only the layout error.
        Case{"ReadAfterAWaitedAcquire",
             trace({{"L",
                     R"({"use":{"resource":"bb","subresource":0,"as":{"stage":"COPY","access":"TRANSFER_READ","layout":"TRANSFER_SRC_OPTIMAL"}}})"}},
                   {kAcquire, submit("L", "COMPUTE_SHADER", "[]")}),
             ids({{M::vk_invalid_image_layout, 1}})},
        // "semaphore and/or fence": a host wait on the acquire's fence orders the presentation engine's
        // reads before every later submission.
        Case{"AcquireFenceWaitedOnTheHost",
             trace({{"L", kFrame}},
                   {R"({"acquire":{"image":"bb","fence":"f"}})",
                    R"({"queue":"g","lists":["L"],"signal":["rendered"],"host_wait":[{"fence":"f"}]})",
                    kPresent}),
             {}},
        // vkQueuePresentKHR: without a wait on the semaphore the rendering signalled, the presentation
        // engine reads what the transition to PRESENT_SRC_KHR wrote, unordered (queue order does not order
        // a present).
        Case{"PresentWithoutTheRenderingSemaphore",
             trace({{"L", kFrame}},
                   {kAcquire, submit("L", "CLEAR", "[]"), R"({"present":{"queue":"g","image":"bb"}})"}),
             ids({{M::vk_hazard_present_after_write, 1}})},
        // A signal stage mask (COPY) whose first scope misses the transition (destination NONE): the wait
        // does not order it before the present.
        Case{
            "SignalScopeMissesTheTransition",
            trace({{"L", kFrame}},
                  {kAcquire, submit("L", "CLEAR", R"([{"semaphore":"rendered","stage":"COPY"}])"), kPresent}),
            ids({{M::vk_hazard_present_after_write, 1}})},
        // A read in a later submission the present does not wait for: present-after-read (the read itself
        // is not made visible after the transition either: read-after-write).
        Case{
            "ReadAfterTheSignalIsPresentAfterRead",
            trace(
                {{"L", kFrame},
                 {"M",
                  R"({"use":{"resource":"bb","subresource":0,"as":{"stage":"COPY","access":"TRANSFER_READ","layout":"PRESENT_SRC_KHR"}}})"}},
                {kAcquire, submit("L", "CLEAR"), R"({"queue":"g","lists":["M"]})", kPresent}),
            ids({{M::vk_hazard_present_after_read, 1}, {M::vk_hazard_read_after_write, 1}})},
        // VUID-VkPresentInfoKHR-pImageIndices-01430: presented outside PRESENT_SRC_KHR.
        Case{"PresentOutsidePresentSrc",
             trace({{"L", to_dst("CLEAR") + "," + kClear + "," + to_present("NONE", "TRANSFER_SRC_OPTIMAL")}},
                   {kAcquire, submit("L", "CLEAR"), kPresent}),
             ids({{M::vk_present_layout, 1}})},
        // Two frames on one image: the second acquire hands the image back after the first present.
        Case{"TwoFramesOnOneImage", two_frames("CLEAR"), {}},
        // ... and the second frame's transition without the wait's chain races the first present's read.
        Case{"SecondFrameNotOrderedAfterTheAcquire", two_frames("NONE"), ids({{M::vk_hazard_write_after_read, 1}})}),
    case_name);

// Bad input (exit 2): one line naming the JSON pointer.
struct Bad {
  std::string name, trace, pointer;
};
void PrintTo(const Bad& b, std::ostream* os) {
  *os << b.name;
}
class SwapchainLoad : public ::testing::TestWithParam<Bad> {};
TEST_P(SwapchainLoad, IsBadInputNamingTheEntry) {
  try {
    (void)load_trace(GetParam().trace, "t");
    FAIL() << "accepted";
  } catch (const baton::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("t:" + GetParam().pointer + ":"), std::string::npos) << what;
  }
}
INSTANTIATE_TEST_SUITE_P(
    Swapchain, SwapchainLoad,
    ::testing::Values(
        Bad{"PresentNotAcquired", trace({{"L", kFrame}}, {submit("L", "", "[\"rendered\"]"), kPresent}),
            "/submissions/0/lists/0"},
        Bad{"PresentWithoutAcquire", trace({}, {R"({"present":{"queue":"g","image":"bb"}})"}),
            "/submissions/0/present/image"},
        Bad{"AcquiredTwice", trace({}, {kAcquire, R"({"acquire":{"image":"bb","fence":"f"}})"}),
            "/submissions/1/acquire/image"},
        Bad{"AcquireSignalsNothing", trace({}, {R"({"acquire":{"image":"bb"}})"}), "/submissions/0/acquire"},
        Bad{"AcquireUnknownKey", trace({}, {R"({"acquire":{"image":"bb","fence":"f","timeout":1}})"}),
            "/submissions/0/acquire"},
        Bad{"PresentWaitsATimelineSemaphore",
            R"({"api":"vulkan","resources":[{"name":"bb","swapchain":"sc"}],"lists":[],"submissions":[
              {"queue":"g","lists":[],"signal":[{"semaphore":"t","value":1}]},{"acquire":{"image":"bb","fence":"f"}},
              {"present":{"queue":"g","image":"bb","wait":["t"]}}]})",
            "/submissions/2/wait/0"},
        Bad{"NotASwapchainImage",
            R"({"api":"vulkan","resources":[{"name":"x"}],"lists":[],"submissions":[{"acquire":{"image":"x","fence":"f"}}]})",
            "/submissions/0/acquire/image"},
        Bad{"SwapchainImageWithMips",
            R"({"api":"vulkan","resources":[{"name":"bb","mips":2,"swapchain":"sc"}],"lists":[],"submissions":[]})",
            "/resources/0/swapchain"},
        Bad{"SwapchainImageStartsUndefined",
            R"({"api":"vulkan","resources":[{"name":"bb","initial":"GENERAL","swapchain":"sc"}],"lists":[],"submissions":[]})",
            "/resources/0/initial"},
        Bad{"D3D12HasNoSwapchainSteps",
            R"({"api":"d3d12","resources":[{"name":"bb"}],"lists":[],"submissions":[{"acquire":{"image":"bb","fence":"f"}}]})",
            "/submissions/0/acquire"}),
    [](const ::testing::TestParamInfo<Bad>& i) { return i.param.name; });

}  // namespace
}  // namespace baton::validate::testing
