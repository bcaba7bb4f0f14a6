// D3D12 replay, common part: resource creation, the submission loop, uses, clears, discards,
// decay at the end of each ExecuteCommandLists, and present.
#include "d3d12_replay.hpp"

#include <fmt/format.h>

#include "names.hpp"

namespace baton::validate::d3d12 {

std::string state_name(uint32_t s) {
  return names::format_flags(names::d3d12_states(), s);
}
std::string layout_name(uint32_t l) {
  return names::format_enum(names::d3d12_layouts(), l);
}
std::string sync_name(uint32_t s) {
  return names::format_flags(names::d3d12_syncs(), s);
}
std::string access_name(uint32_t a) {
  return names::format_flags(names::d3d12_accesses(), a);
}

Replay::Replay(const Trace& t, Reporter& out) : trace_(t), out_(out), heaps_(t) {}

void Replay::run() {
  // The heap model's state only where there are heaps (the order is quadratic in submissions).
  if (!trace_.heaps.empty()) {
    order_ = submission_order(trace_);
    last_.assign(trace_.resources.size(), LastAccess{});
  }
  create_resources();
  for (size_t s = 0; s < trace_.submissions.size(); ++s) execute(static_cast<int>(s));
}

void Replay::create_resources() {
  out_.at_creation();
  shadows_.resize(trace_.resources.size());
  for (size_t i = 0; i < trace_.resources.size(); ++i) {
    const TraceResource& r = trace_.resources[i];
    const int ri = static_cast<int>(i);
    Shadow init;
    if (r.initial_is_layout) {
      init.enhanced = true;
      init.layout = r.buffer ? ly::common : r.initial;
    } else {
      init.state = r.initial;
    }
    // Heap resources have one state forever; buffers are created COMMON whatever was asked.
    const uint32_t forced = r.heap == Heap::upload     ? st::generic_read
                            : r.heap == Heap::readback ? st::copy_dest
                            : r.buffer                 ? st::common
                                                       : init.state;
    if (!r.initial_is_layout && forced != init.state) {
      out_.report(MessageId::createresource_state_ignored, ri, -1, state_name(forced),
                  state_name(init.state));
      init.state = forced;
    }
    if (r.heap != Heap::default_heap) {  // enhanced or not, heap resources stay in their state
      init.enhanced = false;
      init.state = forced;
    }
    init.needs_init = !r.buffer && (r.flags & flag::placed) != 0 &&
                      (r.flags & (flag::render_target | flag::depth_stencil)) != 0;
    shadows_[i] = Runs<Shadow>(r.subresource_count(), init);
    shadows_[i].count_into(out_.stats());
  }
}

void Replay::execute(int submission) {
  const TraceSubmission& sub = trace_.submissions[static_cast<size_t>(submission)];
  submission_ = submission;
  open_aliasing_.clear();
  for (int li : sub.lists) {
    const TraceList& list = trace_.lists[static_cast<size_t>(li)];
    list_type_ = list.type;
    for (size_t c = 0; c < list.commands.size(); ++c) {
      out_.at_command(li, static_cast<int>(c));
      const Command& cmd = list.commands[c];
      ++stamp_;
      heap_before(cmd);
      if (const auto* b = std::get_if<BarrierCmd>(&cmd)) {
        std::map<int, IntervalSet> seen;  // 1008: one transition per subresource per call
        for (const Barrier& barrier : b->barriers) {
          if (const auto* t = std::get_if<LegacyTransition>(&barrier))
            legacy_transition(*t, seen);
          else if (const auto* a = std::get_if<LegacyAliasing>(&barrier))
            legacy_aliasing(*a);
          else if (const auto* u = std::get_if<LegacyUav>(&barrier)) {
            // The debug layer requires no UAV barrier; a split flag on one is invalid.
            if (u->split != Split::none)
              out_.report(MessageId::barrier_invalid_split_barrier, u->resource, -1,
                          "split flags are for transitions only", "a UAV barrier with a split flag");
          } else if (const auto* e = std::get_if<EnhancedBarrier>(&barrier))
            enhanced_barrier(*e);
        }
      } else if (const auto* u = std::get_if<UseCmd>(&cmd)) {
        use(u->resource, u->subresources, u->as.d3d12_state, false);
      } else if (const auto* cl = std::get_if<ClearCmd>(&cmd)) {
        use(cl->resource, cl->subresources, cl->as.d3d12_state, true);
      } else if (const auto* d = std::get_if<DiscardCmd>(&cmd)) {
        discard(d->resource, d->subresources);
      }
      heap_after(cmd);
    }
  }
  out_.at_submission(submission);
  end_of_ecl(sub.type);
  for (int r : sub.present) present(r);
}

// A copy queue sees every resource in COMMON: the first touch in an ECL on a copy queue checks it
// (1431) and then treats it as COMMON so one mistake gives one message.
void Replay::enter_copy_queue(int resource, uint32_t sub, uint32_t n, Shadow& sh) {
  if (list_type_ != QueueType::copy || sh.touched || res(resource).heap != Heap::default_heap) return;
  // UNDEFINED is fine: the contents are garbage anyway, and a barrier from UNDEFINED brings it to COMMON.
  const bool common = sh.enhanced
                          ? (sh.layout == ly::common || sh.layout == ly::undefined || res(resource).buffer)
                          : sh.state == st::common;
  if (common) return;
  out_.report(MessageId::non_common_resource_in_copy_queue, resource, sub, "COMMON",
              sh.enhanced ? layout_name(sh.layout) : state_name(sh.state), n);
  sh.state = st::common;
  sh.layout = ly::common;
}

void Replay::use(int resource, const Subresources& s, uint32_t need, bool is_clear) {
  const TraceResource& r = res(resource);
  const Class cls = class_of(r);
  auto one = [&](uint32_t sub, uint32_t n, Shadow& sh) {
    out_.visit(resource, sub, n);
    enter_copy_queue(resource, sub, n, sh);
    sh.touched = true;  // (uses in between do not end the sequence of barriers: see enhanced_apply)
    if (sh.pending) {
      out_.report(MessageId::invalid_subresource_state, resource, sub, state_name(need),
                  "a split barrier still pending (begun, not ended)", n);
      return;
    }
    // 1422: a placed RT/DS texture must be initialized by a Clear, Discard or Copy first.
    if (sh.needs_init && !is_clear && (need & st::copy_dest) == 0) {
      out_.report(MessageId::render_target_or_depth_stencil_not_initialized, resource, sub,
                  "a full Clear, DiscardResource or Copy", state_name(need), n);
    }
    if (is_clear || (need & st::copy_dest) != 0) sh.needs_init = false;
    if (r.heap != Heap::default_heap) {
      const uint32_t fixed = r.heap == Heap::upload ? st::generic_read : st::copy_dest;
      if ((need & ~fixed) != 0)
        out_.report(MessageId::invalid_subresource_state, resource, sub, state_name(need), state_name(fixed),
                    n);
      return;
    }
    if (sh.enhanced) {
      // Under enhanced barriers the use is checked as the access it stands for against the layout.
      const AccessSync as = access_of_state(need);
      if (sh.no_access) {
        out_.report(MessageId::invalid_subresource_state, resource, sub, state_name(need), "NO_ACCESS", n);
      } else if (!r.buffer) {
        const bool queue_ok = list_type_ == QueueType::copy ? sh.layout == ly::common
                                                            : layout_allowed_on(list_type_, sh.layout);
        if (sh.layout == ly::undefined || (as.access & ~allowed_accesses(sh.layout)) != 0 || !queue_ok)
          out_.report(MessageId::invalid_subresource_state, resource, sub,
                      fmt::format("a layout allowing {}", access_name(as.access)), layout_name(sh.layout), n);
      }
      return;
    }
    if (sh.state != st::common && (need & ~sh.state) == 0) return;  // already there
    // Implicit promotion: out of COMMON to one write or to reads; promoted reads accumulate.
    const bool from_common = sh.state == st::common && !sh.promoted;
    const bool accumulate = sh.promoted && is_read_only(sh.state) && is_read_only(need);
    if ((from_common || accumulate) && promotable(cls, need)) {
      sh.state |= need;
      sh.promoted = true;
      return;
    }
    out_.report(MessageId::invalid_subresource_state, resource, sub, state_name(need), state_name(sh.state),
                n);
  };
  for (const auto& [lo, hi] : intervals(r, s)) {
    touch(resource, lo, hi);
    shadows(resource).update(lo, hi, one);
    shadows(resource).coalesce(lo, hi);
  }
}

void Replay::discard(int resource, const Subresources& s) {
  const TraceResource& r = res(resource);
  // DiscardResource needs RENDER_TARGET or DEPTH_WRITE (UNORDERED_ACCESS on compute lists).
  const uint32_t states =
      list_type_ == QueueType::compute ? st::unordered_access : st::render_target | st::depth_write;
  auto one = [&](uint32_t sub, uint32_t n, Shadow& sh) {
    out_.visit(resource, sub, n);
    sh.touched = true;
    sh.needs_init = false;
    if (r.buffer) return;
    if (sh.enhanced) {
      const bool ok = list_type_ == QueueType::compute
                          ? (sh.layout == ly::unordered_access || sh.layout == ly::compute_uav)
                          : (sh.layout == ly::render_target || sh.layout == ly::depth_stencil_write ||
                             sh.layout == ly::unordered_access || sh.layout == ly::direct_uav);
      if (!ok)
        out_.report(MessageId::invalid_subresource_state, resource, sub,
                    "a RENDER_TARGET, DEPTH_STENCIL_WRITE or UNORDERED_ACCESS layout", layout_name(sh.layout),
                    n);
    } else if ((sh.state & states) == 0) {
      out_.report(MessageId::invalid_subresource_state, resource, sub, state_name(states),
                  state_name(sh.state), n);
    }
  };
  for (const auto& [lo, hi] : intervals(r, s)) {
    touch(resource, lo, hi);
    shadows(resource).update(lo, hi, one);
    shadows(resource).coalesce(lo, hi);
  }
}

void Replay::end_of_ecl(QueueType queue) {
  // Only subresources reached in this ExecuteCommandLists have anything to end (a split pending from
  // an earlier one is a texture's enhanced split, which stays pending), in subresource order.
  for (const auto& [resource, ranges] : touched_) {
    const auto ri = static_cast<size_t>(resource);
    const TraceResource& r = trace_.resources[ri];
    const Class cls = class_of(r);
    auto one = [&](uint32_t si, uint32_t n, Shadow& sh) {
      if (sh.pending) {
        if (sh.pending_is_enhanced && cls == Class::texture) {
          // Enhanced Barriers spec, "Split Barriers": a texture's split may end in a later
          // ExecuteCommandLists (a layout-only barrier); it stays pending.
        } else if (sh.pending_is_enhanced) {
          // A buffer or simultaneous-access texture: the unmatched half is unused (a warning), a no-op.
          out_.report(MessageId::unused_cross_execute_split_barrier, static_cast<int>(ri),
                      static_cast<int64_t>(si), "a buffer or simultaneous-access texture",
                      "SyncAfter SPLIT (begun, not ended)", n);
          sh.pending = false;
        } else {
          out_.report(MessageId::barrier_unmatched_begin, static_cast<int>(ri), static_cast<int64_t>(si), "",
                      fmt::format("{} -> {}", state_name(sh.pending_legacy.before),
                                  state_name(sh.pending_legacy.after)),
                      n);
          sh.state = sh.pending_legacy.after;
          sh.pending = false;
        }
      }
      if (sh.touched && r.heap == Heap::default_heap) {
        if (!sh.enhanced) {
          // Decay: copy queues, buffers and simultaneous-access textures always; other textures only
          // out of promoted read states (a texture promoted to COPY_DEST stays there).
          if (queue == QueueType::copy || cls != Class::texture || (sh.promoted && is_read_only(sh.state)))
            sh.state = st::common;
        } else if (cls != Class::texture) {
          sh.layout = ly::common;  // only texture layouts carry across ExecuteCommandLists
        }
      }
      sh.promoted = false;
      sh.touched = false;
      sh.no_access = false;
      sh.has_prev_sync = false;
    };
    ranges.for_each([&](uint32_t lo, uint32_t hi) {
      shadows_[ri].update(lo, hi, one);
      shadows_[ri].coalesce(lo, hi);
    });
  }
  touched_.clear();
}

void Replay::present(int resource) {
  // Present needs COMMON (= PRESENT); under enhanced barriers layout COMMON, not DIRECT_QUEUE_COMMON.
  shadows(resource).for_each(
      0, res(resource).subresource_count(), [&](uint32_t sub, uint32_t n, const Shadow& sh) {
        const bool ok = sh.enhanced ? sh.layout == ly::common : sh.state == st::common;
        if (!ok)
          out_.report(MessageId::invalid_subresource_state, resource, sub, "COMMON (PRESENT) for Present",
                      sh.enhanced ? layout_name(sh.layout) : state_name(sh.state), n);
      });
}

}  // namespace baton::validate::d3d12
