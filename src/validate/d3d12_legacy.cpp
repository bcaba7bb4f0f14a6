// Legacy ResourceBarrier: transitions (with split halves) and aliasing barriers.
#include <fmt/format.h>

#include "d3d12_replay.hpp"

namespace baton::validate::d3d12 {

void Replay::legacy_transition(const LegacyTransition& b, std::set<std::pair<int, uint32_t>>& seen) {
  const TraceResource& r = res(b.resource);
  const std::string change = fmt::format("{} -> {}", state_name(b.before), state_name(b.after));
  if (r.heap != Heap::default_heap) {  // 741: upload stays GENERIC_READ, readback COPY_DEST
    out_.report(MessageId::barrier_invalid_heap, b.resource, -1,
                r.heap == Heap::upload ? "GENERIC_READ" : "COPY_DEST",
                r.heap == Heap::upload ? "upload" : "readback");
    return;
  }
  for (uint32_t s : {b.before, b.after}) {
    if (!valid_combination(s))
      out_.report(MessageId::barrier_invalid_combination, b.resource, -1,
                  "at most one write state, never with a read state", state_name(s));
  }
  if (b.before == b.after) {
    out_.report(MessageId::barrier_matching_states, b.resource, b.subresource, "", state_name(b.before));
    return;
  }
  const uint32_t allowed = allowed_states(list_type_);
  if (((b.before | b.after) & ~allowed) != 0)
    out_.report(MessageId::barrier_invalid_command_list_type, b.resource, -1,
                state_name(allowed | st::common), state_name((b.before | b.after) & ~allowed));
  if (b.subresource != kAllSubresources && b.subresource >= r.subresource_count()) {
    out_.report(MessageId::barrier_invalid_subresource, b.resource, -1, std::to_string(r.subresource_count()),
                std::to_string(b.subresource));
    return;
  }
  Subresources target;
  target.index = b.subresource;
  const Class cls = class_of(r);
  for (uint32_t sub : subresources_of(b.resource, target)) {
    if (!seen.emplace(b.resource, sub).second) {
      out_.report(MessageId::barrier_duplicate_subresource_transitions, b.resource, sub, "", change);
      continue;
    }
    Shadow& sh = shadow(b.resource, sub);
    out_.visit(b.resource, sub);
    enter_copy_queue(b.resource, sub, sh);
    sh.touched = true;
    if (sh.enhanced) {
      // 1350: an enhanced layout must reach COMMON before a legacy barrier touches the subresource.
      if (!r.buffer && sh.layout != ly::common)
        out_.report(MessageId::barrier_interop_invalid_layout, b.resource, sub, "COMMON",
                    layout_name(sh.layout));
      sh.enhanced = false;
      sh.state = st::common;
      sh.promoted = false;
    }
    if (b.split == Split::end_only) {
      if (!sh.pending || sh.pending_is_enhanced) {
        out_.report(MessageId::barrier_unmatched_end, b.resource, sub, "", change);
      } else if (sh.pending_legacy.before != b.before || sh.pending_legacy.after != b.after) {
        out_.report(MessageId::barrier_mismatching_begin_end, b.resource, sub,
                    fmt::format("{} -> {}", state_name(sh.pending_legacy.before),
                                state_name(sh.pending_legacy.after)),
                    change);
      }
      sh.pending = false;
      sh.state = b.after;
      sh.promoted = false;
      continue;
    }
    if (sh.pending) {
      out_.report(MessageId::barrier_invalid_split_barrier, b.resource, sub,
                  "only its END_ONLY half may come next", fmt::format("transition {}", change));
      sh.pending = false;
    }
    // StateBefore must be the current state; a subresource really in COMMON may also be named by
    // any state it could be promoted to.
    const bool matches =
        sh.state == b.before || (sh.state == st::common && !sh.promoted && promotable(cls, b.before));
    if (!matches)
      out_.report(MessageId::barrier_before_after_mismatch, b.resource, sub, state_name(b.before),
                  state_name(sh.state));
    sh.promoted = false;
    if (b.split == Split::begin_only) {
      sh.pending = true;
      sh.pending_is_enhanced = false;
      sh.pending_legacy = b;
    } else {
      sh.state = b.after;
    }
  }
}

void Replay::legacy_aliasing(const LegacyAliasing& b) {
  if (b.split != Split::none)
    out_.report(MessageId::barrier_invalid_split_barrier, b.after, -1, "split flags are for transitions only",
                "an aliasing barrier with a split flag");
  if (b.after == kNoResource) return;
  // The newly active resource's contents are garbage: RT/DS textures need initializing (1422).
  const TraceResource& r = res(b.after);
  if (r.buffer || (r.flags & (flag::render_target | flag::depth_stencil)) == 0) return;
  for (Shadow& sh : shadows_[static_cast<size_t>(b.after)]) sh.needs_init = true;
}

}  // namespace baton::validate::d3d12
