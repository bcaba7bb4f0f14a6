// Vulkan replay, swapchain steps (docs/trace-format.md, "Swapchains"): the presentation engine's accesses
// to a swapchain image at vkAcquireNextImageKHR and vkQueuePresentKHR.
//
// Spec, "WSI Swapchain" (vkAcquireNextImageKHR): "The presentation engine may not have finished reading
// from the image at the time it is acquired, so the application must use semaphore and/or fence to ensure
// that the image layout and contents are not modified until the presentation engine reads have completed."
// So the acquire is an access of the presentation engine that only the acquire's semaphore (a wait on it)
// or fence (a host wait) orders before the application's first use of the image; the Khronos layer
// records it as SYNC_PRESENT_ENGINE_SYNCVAL_PRESENT_ACQUIRE_READ_SYNCVAL and reports an unordered first
// use as SYNC-HAZARD-WRITE-AFTER-PRESENT / READ-AFTER-PRESENT when the acquire was not waited for at all;
// once a wait imported it, the acquire is the engine's read (SYNC_PRESENT_ENGINE_SYNCVAL_PRESENT_ACQUIRE_READ):
// a write not ordered after it is SYNC-HAZARD-WRITE-AFTER-READ, a read no hazard (layer 1.3.239 on lavapipe
// with an X11 swapchain under Xvfb, scripts/probes/swapchain_probe.cpp).
//
// vkQueuePresentKHR: "the presentation engine's read ... happens after the semaphore wait operations"
// (pWaitSemaphores); it is not ordered after earlier work of its queue by submission order ("semaphores
// must be used to ensure that prior rendering and other commands in the specified queue complete before
// the presentation begins"). So the last write of the image (usually the transition to PRESENT_SRC_KHR)
// must be in the first scope of a semaphore signal the present waits on, and so must the reads since;
// otherwise SYNC-HAZARD-PRESENT-AFTER-WRITE / PRESENT-AFTER-READ. The image must be in PRESENT_SRC_KHR
// (VUID-VkPresentInfoKHR-pImageIndices-01430).
#include <fmt/format.h>

#include "names.hpp"
#include "vulkan_replay.hpp"

namespace baton::validate::vulkan {

namespace {
constexpr uint32_t kPresentSrc = 1000001002;  // VK_IMAGE_LAYOUT_PRESENT_SRC_KHR
}  // namespace

bool Replay::acquire_waited(const Write& w) const {
  return w.valid && w.stage == kPresentEngine && w.where.list < 0 && w.where.submission >= 0 &&
         trace_.submissions[static_cast<size_t>(w.where.submission)].step == Step::acquire &&
         ordered(w.where, Reach{w.signaled}) != nullptr;
}

MessageId Replay::against(const Write& w, MessageId id) const {
  if (!w.valid || w.stage != kPresentEngine) return id;
  if (acquire_waited(w)) return id == MessageId::vk_hazard_write_after_write ? MessageId::vk_hazard_write_after_read : id;
  if (id == MessageId::vk_hazard_read_after_write) return MessageId::vk_hazard_read_after_present;
  if (id == MessageId::vk_hazard_write_after_write) return MessageId::vk_hazard_write_after_present;
  return id;
}

// vkAcquireNextImageKHR: host-side, so it runs on a queue of its own (a wait on its semaphore orders it
// exactly: no other work precedes it there; a host wait on its fence finds it as the fence's signaler).
// The image's earlier accesses are the presentation engine's business (it read the image after the
// present's waits): the acquire replaces them as the image's last write.
void Replay::acquire_image(int submission) {
  const TraceSubmission& sub = trace_.submissions[static_cast<size_t>(submission)];
  const std::string own = fmt::format("\x01vkAcquireNextImageKHR {}", submission);  // no trace name has \x01
  const int q = queues_.try_emplace(own, static_cast<int>(queues_.size())).first->second;
  if (logs_.size() <= static_cast<size_t>(q)) logs_.resize(static_cast<size_t>(q) + 1);
  sub_queue_[static_cast<size_t>(submission)] = q;
  ordered_end_[static_cast<size_t>(submission)].clear();
  out_.at_submission(submission);
  Where at;
  at.queue = q;
  at.submission = submission;
  at.seq = ++now_.seq;
  Runs<Shadow>& runs = shadows_[static_cast<size_t>(sub.image)];
  runs.for_all([&](uint32_t, uint32_t, Shadow& sh) {
    sh.reads.clear();
    sh.write = Write{true, kPresentEngine, kPresentEngine, false, at, {}, 0, 0};
  });
  runs.coalesce();
}

// vkQueuePresentKHR's read of the image, on the present's queue after its waits (execute granted them to
// the presentation engine's pseudo stage only).
void Replay::present_image(int submission) {
  const TraceSubmission& sub = trace_.submissions[static_cast<size_t>(submission)];
  const int r = sub.image;
  now_.list = now_.command = -1;
  out_.at_submission(submission);
  const std::string me = describe(now_, kPresentEngine, kPresentEngine, false);
  // Ordered (and, for a write, made available) by a semaphore the present waits on, or done before a
  // host wait: queue order and barriers do not order the presentation engine.
  const auto waited = [&](const Where& w, const Reach& from) {
    const Ordered* o = ordered(w, from);
    return o != nullptr && (o->host || (o->exec & kPresentEngine) != 0);
  };
  Runs<Shadow>& runs = shadows_[static_cast<size_t>(r)];
  runs.for_all([&](uint32_t s, uint32_t n, Shadow& sh) {
    out_.visit(r, s, n);
    if (sh.layout != kPresentSrc)
      out_.report(MessageId::vk_present_layout, r, s, names::format_enum(names::vk_layouts(), kPresentSrc),
                  names::format_enum(names::vk_layouts(), sh.layout), n);
    catch_up(sh);
    bool war = false;
    for (const Read& rd : sh.reads) {
      if (waited(rd.where, Reach{rd.signaled})) continue;
      hazard(MessageId::vk_hazard_present_after_read, r, s, n, rd.where,
             describe(rd.where, rd.stage, rd.access, false), me);
      war = true;
      break;
    }
    const Write& w = sh.write;
    if (!war && w.valid && !waited(w.where, Reach{w.signaled}))
      hazard(MessageId::vk_hazard_present_after_write, r, s, n, w.where,
             describe(w.where, w.stage, w.access, w.layout_transition), me);
    sh.reads.clear();
    sh.write = Write{true, kPresentEngine, kPresentEngine, false, now_, {}, 0, log_now()};
  });
  runs.coalesce();
}

}  // namespace baton::validate::vulkan
