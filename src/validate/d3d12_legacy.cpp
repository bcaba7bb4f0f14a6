// Legacy ResourceBarrier: transitions (with split halves) and aliasing barriers.
#include <fmt/format.h>

#include "d3d12_replay.hpp"

namespace baton::validate::d3d12 {

void Replay::legacy_transition(const LegacyTransition& b, std::map<int, IntervalSet>& seen) {
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
    // report() takes a run index: the one subresource named, converted (RunOrder is a bijection on
    // whole mips x layers slices, so an index past the resource comes back unchanged); all: -1.
    out_.report(MessageId::barrier_matching_states, b.resource,
                b.subresource < 0 || b.subresource > int64_t{0xffffffff}
                    ? b.subresource
                    : run_order(r).run(static_cast<uint32_t>(b.subresource)),
                "", state_name(b.before));
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
  auto one = [&](uint32_t sub, uint32_t n, Shadow& sh) {
    out_.visit(b.resource, sub, n);
    enter_copy_queue(b.resource, sub, n, sh);
    sh.touched = true;
    if (sh.enhanced) {
      // 1350: an enhanced layout must reach COMMON before a legacy barrier touches the subresource.
      if (!r.buffer && sh.layout != ly::common)
        out_.report(MessageId::barrier_interop_invalid_layout, b.resource, sub, "COMMON",
                    layout_name(sh.layout), n);
      sh.enhanced = false;
      sh.state = st::common;
      sh.promoted = false;
    }
    if (b.split == Split::end_only) {
      if (!sh.pending || sh.pending_is_enhanced) {
        out_.report(MessageId::barrier_unmatched_end, b.resource, sub, "", change, n);
      } else if (sh.pending_legacy.before != b.before || sh.pending_legacy.after != b.after) {
        out_.report(MessageId::barrier_mismatching_begin_end, b.resource, sub,
                    fmt::format("{} -> {}", state_name(sh.pending_legacy.before),
                                state_name(sh.pending_legacy.after)),
                    change, n);
      }
      sh.pending = false;
      sh.state = b.after;
      sh.promoted = false;
      return;
    }
    if (sh.pending) {
      out_.report(MessageId::barrier_invalid_split_barrier, b.resource, sub,
                  "only its END_ONLY half may come next", fmt::format("transition {}", change), n);
      sh.pending = false;
    }
    // StateBefore must be the current state; a subresource really in COMMON may also be named by
    // any state it could be promoted to.
    const bool matches =
        sh.state == b.before || (sh.state == st::common && !sh.promoted && promotable(cls, b.before));
    if (!matches)
      out_.report(MessageId::barrier_before_after_mismatch, b.resource, sub, state_name(b.before),
                  state_name(sh.state), n);
    sh.promoted = false;
    if (b.split == Split::begin_only) {
      sh.pending = true;
      sh.pending_is_enhanced = false;
      sh.pending_legacy = b;
    } else {
      sh.state = b.after;
    }
  };
  const auto [lo, hi] = intervals(r, target).front();  // one index or all: one interval
  IntervalSet& done = seen[b.resource];
  touch(b.resource, lo, hi);
  done.split(lo, hi, [&](uint32_t first, uint32_t n, bool duplicate) {
    if (duplicate)
      out_.report(MessageId::barrier_duplicate_subresource_transitions, b.resource, first, "", change, n);
    else
      shadows(b.resource).update(first, first + n, one);
  });
  done.add(lo, hi);
  shadows(b.resource).coalesce(lo, hi);
}

void Replay::legacy_aliasing(const LegacyAliasing& b) {
  if (b.split != Split::none)
    out_.report(MessageId::barrier_invalid_split_barrier, b.after, -1, "split flags are for transitions only",
                "an aliasing barrier with a split flag");
  if (b.after == kNoResource) return;
  // The newly active resource's contents are garbage: RT/DS textures need initializing (1422).
  const TraceResource& r = res(b.after);
  if (r.buffer || (r.flags & (flag::render_target | flag::depth_stencil)) == 0) return;
  shadows(b.after).for_all([](uint32_t, uint32_t, Shadow& sh) { sh.needs_init = true; });
  shadows(b.after).coalesce();
}

}  // namespace baton::validate::d3d12
