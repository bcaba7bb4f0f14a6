// The frame lifecycle both runtimes share (docs/runtime.md): begin_frame, submit, completed, wait and
// sync, with the same watermark rules and the same errors-as-values boundary (nothing throws out of
// these calls), over each backend's Impl. An Impl provides: `mutex`, `frame` (the frame being built,
// and `frame_error(text)`, which the frame's submit reports), `pending` (the submitted frames, oldest first, each with its `ticket`),
// `opt.frames_in_flight`, `next_ticket`, `completed_ticket`, and `submit_frame()`,
// `retire_finished()` (retire what the GPU has finished), `wait_front()` (the CPU waits for the
// oldest frame and retires it), `retire_front()` and `wait_idle()` (every queue drained).
#pragma once

#include <fmt/format.h>

#include <exception>
#include <mutex>
#include <string>

#include "baton/runtime_common.hpp"

namespace baton::runtime::lifecycle {

// Starts a new frame: retires finished frames and waits for the frame frames_in_flight back. A failure
// here is reported by the frame's submit (the frame keeps it as an error).
template <class Impl>
auto& begin_frame(Impl& impl) {
  std::lock_guard lock(impl.mutex);
  impl.frame = {};
  try {
    impl.retire_finished();
    while (impl.pending.size() >= impl.opt.frames_in_flight) impl.wait_front();
  } catch (const std::exception& e) {
    impl.frame_error(std::string("retiring earlier frames: ") + e.what());
  }
  return impl.frame;
}

template <class Impl>
auto submit(Impl& impl) -> Result<decltype(impl.submit_frame())> {
  using R = Result<decltype(impl.submit_frame())>;
  std::lock_guard lock(impl.mutex);
  try {
    return impl.submit_frame();
  } catch (const std::exception& e) {
    return R::failure(e.what());
  }
}

// The watermark. A lost device shows in the next wait() or submit(); here the watermark just does
// not move.
template <class Impl>
uint64_t completed(Impl& impl) {
  std::lock_guard lock(impl.mutex);
  try {
    impl.retire_finished();
  } catch (const std::exception&) {
  }
  return impl.completed_ticket;
}

template <class Impl>
Status wait(Impl& impl, uint64_t ticket) {
  std::lock_guard lock(impl.mutex);
  try {
    if (ticket > impl.next_ticket) return Status::failure(fmt::format("wait({}): no such frame was submitted", ticket));
    while (!impl.pending.empty() && impl.pending.front().ticket <= ticket) impl.wait_front();
  } catch (const std::exception& e) {
    return Status::failure(e.what());
  }
  return Ok{};
}

template <class Impl>
Status sync(Impl& impl) {
  std::lock_guard lock(impl.mutex);
  try {
    impl.wait_idle();
    while (!impl.pending.empty()) impl.retire_front();
  } catch (const std::exception& e) {
    return Status::failure(e.what());
  }
  return Ok{};
}

}  // namespace baton::runtime::lifecycle
