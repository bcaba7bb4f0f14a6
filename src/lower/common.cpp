#include "common.hpp"

#include <fmt/format.h>

#include <array>

namespace baton::lower_detail {
namespace {

// One row per access: can a barrier on a compute / copy list name a state holding it? Compute lists
// have no graphics states (render target, depth, resolve, index input); copy lists hold only copy
// states. Present is COMMON in D3D12 and a plain layout in Vulkan, so every queue can name it; host
// accesses are CPU-side and need no queue capability.
struct QueueRow {
  Access access;
  bool compute, copy;
};
constexpr std::array<QueueRow, kAccessCount> kQueueRows = {{
    {Access::render_target, false, false},
    {Access::depth_write, false, false},
    {Access::depth_read, false, false},
    {Access::shader_resource, true, false},
    {Access::unordered_access, true, false},
    {Access::copy_source, true, true},
    {Access::copy_dest, true, true},
    {Access::resolve_source, false, false},
    {Access::resolve_dest, false, false},
    {Access::vertex_buffer, true, false},  // VERTEX_AND_CONSTANT_BUFFER is a compute-list state
    {Access::index_buffer, false, false},
    {Access::constant_buffer, true, false},
    {Access::indirect_argument, true, false},
    {Access::present, true, true},
    {Access::host_read, true, true},
    {Access::host_write, true, true},
}};
static_assert([] {
  for (size_t i = 0; i < kQueueRows.size(); ++i)
    if (kQueueRows[i].access != static_cast<Access>(i)) return false;
  return true;
}());

void check_side(const Site& site, const Barrier& b, const State& s, bool outside, std::string_view side,
                State& out) {
  const Queue q = site.list.queue;
  out = s;
  if (q == Queue::direct) return;
  if (!(s.access & kAnyAccess)) {
    for (int i = 0; i < kAccessCount; ++i) {
      const auto a = static_cast<Access>(i);
      if ((s.access & bit(a)) && !queue_can_hold(q, a))
        fail(site, b.resource,
             fmt::format("access {} is not allowed on a {} list ({} side of a {} barrier)", to_string(a), to_string(q),
                         side, to_string(b.reason)));
    }
  }
  if (s.sync == sync::none) return;  // first touch: nothing to wait for
  const SyncMask extra = s.sync & ~queue_sync(q);
  if (extra == 0) return;
  if (!outside)
    fail(site, b.resource,
         fmt::format("sync {} is not allowed on a {} list ({} side of a {} barrier)", sync_to_string(extra),
                     to_string(q), side, to_string(b.reason)));
  // Work of other queues is ordered by the fence the submission waits on; this queue has no such
  // stage to wait for or to block.
  out.sync = s.sync & queue_sync(q);
  if (out.sync == sync::none) out.sync = sync::all;
}

}  // namespace

std::string resource_name(const ResourceTable& t, ResourceId id) {
  if (id == kGlobalResource) return "(global)";
  if (id >= t.size()) return fmt::format("#{}", id);
  return t[id].name;
}

void fail(const Site& site, ResourceId resource, std::string_view what) {
  throw Error(fmt::format("group '{}' list '{}' op {}: resource '{}' {}", site.group.name, site.list.name,
                          site.point.op, resource_name(site.resources, resource), what));
}

// A before side names work to wait for. Stages this list's queue cannot run were not run by this
// list: they come from the state the list started in (resting, declared, or handed on by a group of
// another queue) and a read that state already covered carried them along. That work is ordered by
// the submission's wait, so every before side is clamped (the reason no longer matters).
bool before_is_outside(Reason) { return true; }

// An after side names work to block. Besides the exits to rest and to the next group's entry state,
// a read merge opens a read state for a run of readers that goes on in groups of other queues (the
// frame graph's cross-queue read runs): their stages are ordered by those groups' waits. A state
// change or ordering barrier naming a stage the queue cannot run is a plan error.
bool after_is_outside(Reason r) {
  return r == Reason::restore || r == Reason::hand_on || r == Reason::full_barrier || r == Reason::read_merge;
}

SyncMask queue_sync(Queue q) {
  switch (q) {
    case Queue::direct: return ~SyncMask{0};
    case Queue::compute: return sync::compute_shading | sync::copy | sync::execute_indirect | sync::host | sync::all;
    case Queue::copy: return sync::copy | sync::host | sync::all;
  }
  return sync::all;
}

bool queue_can_hold(Queue q, Access a) {
  const QueueRow& r = kQueueRows[static_cast<size_t>(a)];
  switch (q) {
    case Queue::direct: return true;
    case Queue::compute: return r.compute;
    case Queue::copy: return r.copy;
  }
  return false;
}

SidePair check_queue(const Site& site, const Barrier& b) {
  SidePair p;
  // A takeover's before side names the previous occupants' accesses, possibly on another queue (the
  // submission's wait orders those): keep only what this list's queue can name.
  State before = b.before;
  if (b.reason == Reason::takeover && !(before.access & kAnyAccess))
    for (int i = 0; i < kAccessCount; ++i)
      if (!queue_can_hold(site.list.queue, static_cast<Access>(i)))
        before.access &= ~bit(static_cast<Access>(i));
  check_side(site, b, before, before_is_outside(b.reason), "before", p.before);
  check_side(site, b, b.after, after_is_outside(b.reason), "after", p.after);
  return p;
}

bool is_first_touch(const State& s) { return s.sync == sync::none && s.access == 0; }

bool is_texture(const ResourceTable& t, ResourceId id) {
  return id != kGlobalResource && t[id].type == ResourceType::texture;
}

std::string range_text(const ResourceTable& t, const Barrier& b) {
  if (b.resource == kGlobalResource) return "all";
  return baton::range_text(b, t[b.resource]);
}

std::vector<LoweredGroup> view_skeleton(std::span<const CompiledGroup> groups) {
  std::vector<LoweredGroup> out;
  out.reserve(groups.size());
  for (const CompiledGroup& g : groups) {
    LoweredGroup lg{g.name, g.queue, {}};
    for (const CompiledList& l : g.lists) {
      LoweredList ll{l.name, l.queue, {}};
      for (const BarrierPoint& p : l.points) ll.points.push_back(LoweredPoint{p.op, p.where, {}});
      lg.lists.push_back(std::move(ll));
    }
    out.push_back(std::move(lg));
  }
  return out;
}

std::string join_flags(uint64_t mask, std::span<const FlagName> names, std::string_view prefix,
                       std::string_view none) {
  if (mask == 0) return std::string(none);
  std::string out;
  uint64_t left = mask;
  for (const FlagName& n : names) {
    if (n.bit != 0 && (left & n.bit) == n.bit) {
      if (!out.empty()) out += '|';
      out += prefix;
      out += n.name;
      left &= ~n.bit;
    }
  }
  if (left != 0) {
    if (!out.empty()) out += '|';
    out += fmt::format("{}0x{:x}", prefix, left);
  }
  return out;
}

}  // namespace baton::lower_detail
