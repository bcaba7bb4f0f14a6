// D3D12 heaps: placed resources sharing memory (heap_model.hpp). A resource becomes the occupant of
// its bytes at a legacy aliasing barrier naming it as `after`, or at its first command (an enhanced
// texture barrier from LayoutBefore UNDEFINED starts it over). Its takeover must be ordered after
// every previous occupant's last accesses unless an earlier ExecuteCommandLists ordered before this
// one (same queue, or a fence wait) holds them:
// - enhanced: the first barrier's SyncBefore covers the previous occupant's last sync (its accesses
//   since its last barrier, or that barrier's SyncAfter); a texture's LayoutBefore is UNDEFINED;
// - legacy: an aliasing barrier naming the previous occupant or NULL as `before` (and the new
//   resource or NULL as `after`) comes between.
#include <fmt/format.h>

#include <algorithm>

#include "d3d12_replay.hpp"

namespace baton::validate::d3d12 {

namespace {
// "sync X" of the last barrier and the uses since, for messages.
std::string last_sync(const std::vector<uint32_t>& uses, uint32_t sync) {
  std::string s = sync != 0 ? sync_name(sync) : "";
  for (uint32_t u : uses) s += (s.empty() ? "" : ", ") + sync_name(u);
  return s.empty() ? "NONE" : s;
}
}  // namespace

void Replay::heap_before(const Command& cmd) {
  if (trace_.heaps.empty()) return;
  if (const auto* call = std::get_if<BarrierCmd>(&cmd)) {
    for (const Barrier& one : call->barriers) {
      if (const auto* t = std::get_if<LegacyTransition>(&one))
        heap_touch(t->resource, nullptr,
                   fmt::format("a transition {} -> {}", state_name(t->before), state_name(t->after)));
      else if (const auto* a = std::get_if<LegacyAliasing>(&one))
        heap_aliasing(*a);
      else if (const auto* u = std::get_if<LegacyUav>(&one)) {
        if (u->resource != kNoResource) heap_touch(u->resource, nullptr, "a UAV barrier");
      } else if (const auto* e = std::get_if<EnhancedBarrier>(&one)) {
        if (e->kind != EnhancedKind::global)
          heap_touch(e->resource, e, fmt::format("a barrier with SyncBefore {}", sync_name(e->sync_before)));
      }
    }
  } else if (const auto* u = std::get_if<UseCmd>(&cmd)) {
    heap_touch(u->resource, nullptr, fmt::format("a use as {}", state_name(u->as.d3d12_state)));
  } else if (const auto* c = std::get_if<ClearCmd>(&cmd)) {
    heap_touch(c->resource, nullptr, fmt::format("a clear as {}", state_name(c->as.d3d12_state)));
  } else if (const auto* d = std::get_if<DiscardCmd>(&cmd)) {
    heap_touch(d->resource, nullptr, "DiscardResource");
  }
}

void Replay::heap_touch(int r, const EnhancedBarrier* b, const std::string& what) {
  if (!heaps_.placed(r)) return;
  const HeapModel::Eviction ev = heaps_.evicted(r);
  if (heaps_.activated(r) && ev.by == kNoResource) return;  // still the occupant
  const bool restarts = b != nullptr && b->kind == EnhancedKind::texture && b->layout_before == ly::undefined;
  if (heaps_.activated(r) && !restarts) {
    out_.report(MessageId::heap_use_after_takeover, r, -1,
                fmt::format("'{}' ({})", res(ev.by).name, heaps_.bytes(r, ev.lo, ev.hi)), what);
    return;
  }
  const std::vector<HeapModel::Previous> prev = heaps_.activate(r);
  if (!prev.empty() && b != nullptr && b->kind == EnhancedKind::texture &&
      b->layout_before != ly::undefined) {
    std::string names;
    for (const HeapModel::Previous& p : prev)
      names += fmt::format("{}'{}' ({})", names.empty() ? "" : ", ", res(p.resource).name,
                           heaps_.bytes(r, p.lo, p.hi));
    out_.report(MessageId::heap_takeover_layout, r, -1, names,
                fmt::format("a barrier with LayoutBefore {}", layout_name(b->layout_before)));
  }
  for (const HeapModel::Previous& p : prev) {
    const LastAccess& l = last_[static_cast<size_t>(p.resource)];
    if (l.submission < 0) continue;  // never accessed: nothing to wait for
    if (l.submission != submission_ &&
        order_[static_cast<size_t>(submission_)][static_cast<size_t>(l.submission)])
      continue;  // an earlier ExecuteCommandLists ordered before this one
    const std::string previous = fmt::format("'{}' ({}), last accessed with sync {}", res(p.resource).name,
                                             heaps_.bytes(r, p.lo, p.hi), last_sync(l.uses, l.sync));
    if (l.submission != submission_) {
      out_.report(MessageId::heap_unordered_takeover, r, -1, previous,
                  what + " (its last accesses ran on another queue with no fence wait before this one)");
      continue;
    }
    const bool aliased =
        std::any_of(open_aliasing_.begin(), open_aliasing_.end(), [&](const OpenAliasing& o) {
          return o.stamp > l.stamp && (o.before == kNoResource || o.before == p.resource);
        });
    if (aliased) continue;
    if (b != nullptr) {
      if (b->sync_before == sy::split) continue;  // the end of a split: its begin was judged
      // A legacy-state use names no stage: SyncBefore must hold one of the syncs it may run in.
      const uint32_t before = expand_sync(b->sync_before);
      const bool covers = (expand_sync(l.sync) & ~before) == 0 &&
                          std::all_of(l.uses.begin(), l.uses.end(),
                                      [&](uint32_t u) { return (expand_sync(u) & before) != 0; });
      if (!covers) out_.report(MessageId::heap_unordered_takeover, r, -1, previous, what);
    } else if (!res(r).initial_is_layout) {
      out_.report(MessageId::heap_missing_aliasing_barrier, r, -1, previous, what);
    } else {
      out_.report(MessageId::heap_unordered_takeover, r, -1, previous, what + " with no barrier before it");
    }
  }
}

// A legacy aliasing barrier: `after` (placed) becomes the occupant here; `before` must be each
// previous occupant with unordered accesses, or NULL. With `after` NULL any resource may become
// active: the next activation in this ExecuteCommandLists is ordered by it.
void Replay::heap_aliasing(const LegacyAliasing& a) {
  if (a.after == kNoResource) {
    open_aliasing_.push_back(OpenAliasing{a.before, stamp_});
    return;
  }
  if (!heaps_.placed(a.after)) return;
  for (const HeapModel::Previous& p : heaps_.activate(a.after)) {
    const LastAccess& l = last_[static_cast<size_t>(p.resource)];
    if (l.submission < 0 || (l.submission != submission_ &&
                             order_[static_cast<size_t>(submission_)][static_cast<size_t>(l.submission)]))
      continue;
    // An aliasing barrier orders the work of its own queue: a previous occupant last accessed on
    // another queue needs a fence wait, whatever the barrier names.
    if (l.submission != submission_) {
      out_.report(MessageId::heap_unordered_takeover, a.after, -1,
                  fmt::format("'{}' ({}), last accessed with sync {}", res(p.resource).name,
                              heaps_.bytes(a.after, p.lo, p.hi), last_sync(l.uses, l.sync)),
                  "an aliasing barrier (its last accesses ran on another queue with no fence wait before this one)");
      continue;
    }
    if (a.before == kNoResource || a.before == p.resource) continue;
    out_.report(MessageId::heap_missing_aliasing_barrier, a.after, -1,
                fmt::format("'{}' ({}), last accessed with sync {}", res(p.resource).name,
                            heaps_.bytes(a.after, p.lo, p.hi), last_sync(l.uses, l.sync)),
                fmt::format("an aliasing barrier naming '{}' before", res(a.before).name));
  }
}

void Replay::heap_accessed(int r, uint32_t use_sync, bool barrier, uint32_t sync_after) {
  LastAccess& l = last_[static_cast<size_t>(r)];
  if (l.submission != submission_ || barrier) {
    l.sync = 0;
    l.uses.clear();
  }
  l.submission = submission_;
  l.stamp = stamp_;
  if (barrier) l.sync = sync_after;
  if (use_sync != 0 && std::find(l.uses.begin(), l.uses.end(), use_sync) == l.uses.end())
    l.uses.push_back(use_sync);
}

// After a command: the last accesses of what it touched (a barrier replaces them by its SyncAfter:
// a later barrier that covers it is ordered after everything before, the sequential-barrier rule).
void Replay::heap_after(const Command& cmd) {
  if (trace_.heaps.empty()) return;
  if (const auto* call = std::get_if<BarrierCmd>(&cmd)) {
    for (const Barrier& one : call->barriers) {
      if (const auto* t = std::get_if<LegacyTransition>(&one)) {
        heap_accessed(t->resource, access_of_state(t->after).sync, true, 0);
      } else if (const auto* u = std::get_if<LegacyUav>(&one)) {
        if (u->resource != kNoResource) heap_accessed(u->resource, 0);
      } else if (const auto* e = std::get_if<EnhancedBarrier>(&one)) {
        if (e->kind == EnhancedKind::global) continue;
        if (e->sync_after != sy::split) heap_accessed(e->resource, 0, true, e->sync_after);
      }
    }
  } else if (const auto* u = std::get_if<UseCmd>(&cmd)) {
    heap_accessed(u->resource, access_of_state(u->as.d3d12_state).sync);
  } else if (const auto* c = std::get_if<ClearCmd>(&cmd)) {
    heap_accessed(c->resource, access_of_state(c->as.d3d12_state).sync);
  } else if (const auto* d = std::get_if<DiscardCmd>(&cmd)) {
    heap_accessed(d->resource, sy::render_target | sy::depth_stencil | sy::compute_shading);
  }
}

}  // namespace baton::validate::d3d12
