// Swapchain acquire and present in traces (docs/trace-format.md, "Swapchains"; docs/replay.md): each
// stream is judged by Baton's validator and played on lavapipe (an X11 window's surface under Xvfb; a
// headless surface where the device has one) and a swapchain under the Khronos layer, and both verdicts are
// pinned. The hazards are canaries: the layer must report them, which proves its presentation checks are
// live.
#ifdef BATON_HAVE_TRACE_PLAYER

#include <gtest/gtest.h>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "baton/trace_player.hpp"
#include "baton/validate.hpp"
#include "differential.hpp"
#include "exec_fixture.hpp"

namespace baton::exec::test {
namespace {

// An X server for the X11 surface: where DISPLAY is unset and Xvfb is installed (Debian: xvfb, in
// scripts/packages.txt), the first presenting test starts `Xvfb -displayfd` (it picks a free display
// number itself, so parallel test processes never collide) and the environment stops it at the end.
pid_t& xvfb_pid() {
  static pid_t pid = -1;
  return pid;
}
// "" when there is a display to use (DISPLAY set, or an Xvfb started), else why not.
std::string& x_server_missing() {
  static std::string why = "not looked for";
  return why;
}
void ensure_x_server() {
  if (const char* d = std::getenv("DISPLAY"); d != nullptr && *d != '\0') {
    x_server_missing().clear();
    return;
  }
  int fds[2];
  if (pipe(fds) != 0) {
    x_server_missing() = "pipe failed";
    return;
  }
  const pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);  // never outlive a crashed test process
    close(fds[0]);
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    const std::string fd = std::to_string(fds[1]);
    execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "64x64x24", "-nolisten", "tcp",
           static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  std::string number;
  pollfd p{fds[0], POLLIN, 0};
  char ch = 0;
  while (poll(&p, 1, 20000) == 1 && read(fds[0], &ch, 1) == 1 && ch != '\n') number += ch;
  close(fds[0]);
  if (number.empty()) {
    if (pid > 0) {
      kill(pid, SIGTERM);
      waitpid(pid, nullptr, 0);
    }
    x_server_missing() = "DISPLAY is not set and Xvfb could not be started (apt-get install xvfb)";
    return;
  }
  xvfb_pid() = pid;
  setenv("DISPLAY", (":" + number).c_str(), 1);
  x_server_missing().clear();
}
void stop_x_server() {
  if (xvfb_pid() <= 0) return;
  kill(xvfb_pid(), SIGTERM);
  waitpid(xvfb_pid(), nullptr, 0);
  xvfb_pid() = -1;
  unsetenv("DISPLAY");
}

// A context with presentation, made on first use and dropped by the test environment; nullptr (with the
// reason in presenting_error()) where there is none. Its surface is VK_EXT_headless_surface where the
// implementation has it (the NVIDIA driver), else an X11 window (lavapipe of Mesa 22.3, Debian 12, has
// no headless surface): docs/replay.md, "Swapchains".
std::string& presenting_error() {
  static std::string why;
  return why;
}
std::unique_ptr<VulkanContext>& presenting_slot() {
  static std::unique_ptr<VulkanContext> ctx;
  return ctx;
}
VulkanContext* presenting() {
  auto& ctx = presenting_slot();
  if (!ctx && presenting_error().empty()) {
    ensure_x_server();
    ContextOptions o{test_device(), true};
    o.presentation = true;
    try {
      ctx = std::make_unique<VulkanContext>(o);
    } catch (const Error& e) {
      presenting_error() = e.what();
    }
  }
  return ctx.get();
}
class PresentingEnvironment : public ::testing::Environment {
 public:
  void TearDown() override {
    presenting_slot().reset();  // closes its X connection before the server goes
    stop_x_server();
  }
};
[[maybe_unused]] ::testing::Environment* const kEnv =
    ::testing::AddGlobalTestEnvironment(new PresentingEnvironment);

// Skips only where presentation cannot exist here: no X server to reach (no DISPLAY, no Xvfb) or a build
// without libxcb, on a device without VK_EXT_headless_surface. With an X server and libxcb, a context
// that still fails is a failure: the canaries must not go quiet by skipping.
#define REQUIRE_PRESENTATION()                                                                               \
  do {                                                                                                       \
    if (presenting() == nullptr) {                                                                           \
      if (x_server_missing().empty() &&                                                                      \
          presenting_error().find("built without libxcb") == std::string::npos)                              \
        FAIL() << "an X server is reachable, yet no presenting context: " << presenting_error();             \
      GTEST_SKIP() << "no presentation on this device (" << presenting_error() << "; " << x_server_missing() \
                   << "): the verdicts need VK_EXT_headless_surface or an X server (docs/replay.md)";        \
    }                                                                                                        \
  } while (false)

struct Both {
  validate::ValidationResult v;
  ReplayReport r;
};
Both judge(const std::string& json) {
  const validate::Trace t = validate::load_trace(json, "t");
  TracePlayer player(*presenting());
  Both b{validate::validate(t), player.play(t)};
  return b;
}
std::string layer_text(const ReplayReport& r) {
  std::string s;
  for (const auto& [id, text] : r.log.texts) s += id + ": " + text.substr(0, 500) + "\n";
  return s;
}
std::string validator_text(const validate::ValidationResult& v) {
  std::string s;
  for (const validate::Message& m : v.messages) s += m.text + "\n";
  return s;
}
// Both sides report the hazard: the validator `id` once, the layer `layer_id` once, with the same kinds.
void expect_one_hazard(const Both& b, validate::MessageId id, const std::string& layer_id) {
  EXPECT_EQ(b.v.count(id), 1u) << validator_text(b.v);
  EXPECT_EQ(b.r.log.counts.count(layer_id), 1u) << layer_text(b.r);
  EXPECT_EQ(kinds_of(b.r.log), kinds_of(b.v)) << layer_text(b.r);
}

// One frame on image `bb`: acquire (semaphore `acquired`), a transition out of UNDEFINED whose first scope
// is `first` (the wait's stage must be in it to chain), a clear, the transition to `final_layout`, a
// submission waiting `acquired` at `wait_stage` ("" no wait) and signalling `rendered`, and a present
// waiting `present_wait` ("" none).
std::string frame(const std::string& first, const std::string& wait_stage, const std::string& present_wait,
                  const std::string& final_layout = "PRESENT_SRC_KHR", const std::string& final_dst = "ALL_COMMANDS") {
  const std::string wait =
      wait_stage.empty() ? "" : R"("wait":[{"semaphore":"acquired","stage":")" + wait_stage + R"("}],)";
  const std::string pwait = present_wait.empty() ? "" : R"(,"wait":[")" + present_wait + R"("])";
  return R"({"api":"vulkan","resources":[{"name":"bb","type":"texture","swapchain":"sc"}],
    "lists":[{"name":"L","commands":[
      {"barrier":[{"type":"image","resource":"bb","src_stage":")" +
         first + R"(","dst_stage":"CLEAR","dst_access":"TRANSFER_WRITE",
                   "old_layout":"UNDEFINED","new_layout":"TRANSFER_DST_OPTIMAL"}]},
      {"use":{"resource":"bb","subresource":0,"as":{"stage":"CLEAR","access":"TRANSFER_WRITE","layout":"TRANSFER_DST_OPTIMAL"}}},
      {"barrier":[{"type":"image","resource":"bb","src_stage":"CLEAR","src_access":"TRANSFER_WRITE",
                   "dst_stage":")" + final_dst + R"(","old_layout":"TRANSFER_DST_OPTIMAL","new_layout":")" +
         final_layout + R"("}]}]}],
    "submissions":[{"acquire":{"image":"bb","semaphore":"acquired"}},
      {"queue":"g","lists":["L"],)" +
         wait + R"("signal":["rendered"]},
      {"present":{"queue":"g","image":"bb")" +
         pwait + R"(}}]})";
}

// The frame an engine submits: the transition out of UNDEFINED chains with the acquire wait (both at
// CLEAR), the present waits the semaphore the rendering signalled. Clean on both sides.
TEST(Swapchain, AcquireRenderPresentIsCleanOnBothSides) {
  REQUIRE_PRESENTATION();
  const Both b = judge(frame("CLEAR", "CLEAR", "rendered"));
  EXPECT_TRUE(b.v.clean()) << validator_text(b.v);
  EXPECT_TRUE(b.r.log.empty()) << layer_text(b.r);
  EXPECT_EQ(b.r.acquires, 1u);
  EXPECT_EQ(b.r.presents, 1u);
}

// Spec, vkAcquireNextImageKHR: "the application must use semaphore and/or fence to ensure that the image
// layout and contents are not modified until the presentation engine reads have completed". A transition
// whose first scope (NONE) does not chain with the acquire wait writes the image unordered.
// The wait imported the acquire as the presentation engine's read: the unordered transition is a
// write-after-read (layer 1.3.239 on an X11 swapchain: scripts/probes/swapchain_probe.cpp).
TEST(Swapchain, TransitionNotChainedWithTheAcquireWaitIsWriteAfterRead) {
  REQUIRE_PRESENTATION();
  const Both b = judge(frame("NONE", "CLEAR", "rendered"));
  expect_one_hazard(b, validate::MessageId::vk_hazard_write_after_read, "SYNC-HAZARD-WRITE-AFTER-READ");
  EXPECT_EQ(b.v.messages.size(), 1u) << validator_text(b.v);
}

// The same with no wait on the acquire semaphore at all, on an image presented before (a clean first
// frame, then the image acquired again): the write races the presentation engine's read of the first
// present. (On a never-presented image layer 1.3.239 has no present to race and reports nothing; the
// presentation engine returns the same image: the lowest one not held, headless and on lavapipe's X11.)
TEST(Swapchain, FirstUseWithoutTheAcquireWaitIsWriteAfterPresent) {
  REQUIRE_PRESENTATION();
  std::string two = frame("CLEAR", "", "rendered");
  const std::string first_frame = R"({"acquire":{"image":"bb","semaphore":"acquired"}},
      {"queue":"g","lists":["L"],"wait":[{"semaphore":"acquired","stage":"CLEAR"}],"signal":["rendered"]},
      {"present":{"queue":"g","image":"bb","wait":["rendered"]}},)";
  const size_t at = two.find(R"("submissions":[)");
  ASSERT_NE(at, std::string::npos);
  two.insert(at + std::string(R"("submissions":[)").size(), first_frame);
  const Both b = judge(two);
  EXPECT_EQ(b.r.acquires, 2u);
  EXPECT_EQ(b.r.presents, 2u);
  expect_one_hazard(b, validate::MessageId::vk_hazard_write_after_present, "SYNC-HAZARD-WRITE-AFTER-PRESENT");
}

// Spec, vkQueuePresentKHR: "semaphores must be used to ensure that prior rendering and other commands in
// the specified queue complete before the presentation begins". Without the wait on `rendered`, the
// presentation engine reads what the transition to PRESENT_SRC_KHR wrote, unordered.
TEST(Swapchain, PresentWithoutTheRenderingSemaphoreIsPresentAfterWrite) {
  REQUIRE_PRESENTATION();
  const Both b = judge(frame("CLEAR", "CLEAR", ""));
  expect_one_hazard(b, validate::MessageId::vk_hazard_present_after_write, "SYNC-HAZARD-PRESENT-AFTER-WRITE");
  EXPECT_EQ(b.v.messages.size(), 1u) << validator_text(b.v);
}

// VUID-VkPresentInfoKHR-pImageIndices-01430: the presented image must be in PRESENT_SRC_KHR (layer 1.3.239
// reports it as 01296, the statement's former id).
TEST(Swapchain, PresentOutsidePresentSrcIsALayoutError) {
  REQUIRE_PRESENTATION();
  const Both b = judge(frame("CLEAR", "CLEAR", "rendered", "TRANSFER_SRC_OPTIMAL"));
  EXPECT_EQ(b.v.count(validate::MessageId::vk_present_layout), 1u) << validator_text(b.v);
  // Layer 1.3.239 names the statement by its former id, 01296 (its message quotes 01430's text).
  EXPECT_EQ(b.r.log.counts.count("VUID-VkPresentInfoKHR-pImageIndices-01430") +
                b.r.log.counts.count("VUID-VkPresentInfoKHR-pImageIndices-01296"),
            1u)
      << layer_text(b.r);
  EXPECT_EQ(kinds_of(b.r.log), kinds_of(b.v)) << layer_text(b.r);
}

// D14 (docs/replay.md): layer 1.3.239 does not count a layout transition whose barrier has dstStageMask
// NONE into a semaphore signal's first scope (ALL_COMMANDS): the present after it is its
// PRESENT-AFTER-WRITE. The spec's signal scope holds every command before it (Baton: clean); with any
// destination stage (ALL_COMMANDS above, BOTTOM_OF_PIPE, CLEAR) the layer agrees.
TEST(Swapchain, DocumentedDifferenceD14TransitionToPresentWithNoDestinationStage) {
  REQUIRE_PRESENTATION();
  const Both b = judge(frame("CLEAR", "CLEAR", "rendered", "PRESENT_SRC_KHR", "NONE"));
  EXPECT_TRUE(b.v.clean()) << validator_text(b.v);
  EXPECT_EQ(b.r.log.counts.count("SYNC-HAZARD-PRESENT-AFTER-WRITE"), 1u) << layer_text(b.r);
}

// Without presentation the player refuses a swapchain trace with a named error, never plays it without
// its acquires and presents: on a context made without ContextOptions::presentation (the suite's), and a
// presenting context on a device without VK_EXT_headless_surface is refused at creation, naming it.
TEST(Swapchain, RefusedByNameWithoutPresentation) {
  TracePlayer player(lavapipe());
  try {
    (void)player.play(validate::load_trace(frame("CLEAR", "CLEAR", "rendered"), "t"));
    FAIL() << "played a swapchain trace on a context without presentation";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("ContextOptions::presentation"), std::string::npos) << e.what();
  }
  if (presenting() == nullptr) {
    EXPECT_NE(presenting_error().find("VK_EXT_headless_surface"), std::string::npos) << presenting_error();
  }
}

// Where the device has no VK_EXT_headless_surface (lavapipe of Mesa 22.3) the presenting context uses an
// X11 window; without an X server to reach it is refused at creation, naming both what is missing.
TEST(Swapchain, X11SurfaceNeedsADisplayAndSaysSo) {
  REQUIRE_PRESENTATION();
  if (presenting()->present_surface() != PresentSurface::xcb)
    GTEST_SKIP() << "the device presents through " << to_string(presenting()->present_surface())
                 << ": no X11 fallback to check";
  const std::string display = std::getenv("DISPLAY");
  unsetenv("DISPLAY");
  std::string why;
  try {
    ContextOptions o{test_device(), true};
    o.presentation = true;
    VulkanContext ctx(o);
  } catch (const Error& e) {
    why = e.what();
  }
  setenv("DISPLAY", display.c_str(), 1);
  EXPECT_NE(why.find("lacks VK_EXT_headless_surface"), std::string::npos) << why;
  EXPECT_NE(why.find("DISPLAY is not set"), std::string::npos) << why;
}

// The player's own refusals: an acquire the presentation engine would not make (headless: it returns
// the lowest image not held) and dispatches on swapchain images.
TEST(Swapchain, DispatchOnASwapchainImageIsBadInput) {
  const std::string t = R"({"api":"vulkan","resources":[{"name":"bb","type":"texture","swapchain":"sc"}],
    "lists":[{"name":"L","commands":[
      {"use":{"resource":"bb","subresource":0,"as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_WRITE","layout":"GENERAL"}}}]}],
    "submissions":[{"acquire":{"image":"bb","fence":"f"}},{"queue":"g","lists":["L"]}]})";
  try {
    check_playable(validate::load_trace(t, "t"));
    FAIL() << "a dispatch on a swapchain image was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("swapchain images are not played"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace baton::exec::test

#endif  // BATON_HAVE_TRACE_PLAYER
