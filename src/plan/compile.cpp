// Compiling one group: a pure function of the group's lists and the facts the plan decided.
//
// Two passes over the group's operations (all lists, in order):
//  1. backward: for every read, the merged read set of the run of readers it starts (every read of
//     the same subresources until the next write), so that one transition serves all of them
//     (invariant 5); and for every resource the operation that uses it last in the group;
//  2. forward: per-subresource current state in a RangeMap; a barrier wherever a use is not
//     satisfied by the current state, the discard at its owner, and after each resource's last use
//     the restore to rest or the hand-on to the next group's declared entry state (invariant 4).
// Barriers land in the reserved point of the operation that needs them, one batch per point, with
// contiguous ranges merged (invariant 6).
#include <algorithm>
#include <exception>
#include <thread>

#include <fmt/format.h>

#include "baton/plan.hpp"
#include "baton/range_map.hpp"

namespace baton {
namespace {

constexpr uint32_t kNone = 0xffffffffu;

enum class Origin : uint8_t { first_touch, entry, rest, list };

struct Track {
  State state{};
  uint32_t last_op = kNone;    // flattened index of the last operation that used the subresource
  uint32_t last_list = kNone;  // list of that operation
  Origin origin = Origin::rest;
  // Written since the barrier that put it in this state: a later write of the same access is not in
  // that barrier's scope and needs its own barrier (UAV order, write order).
  bool dirty = false;
  friend bool operator==(const Track&, const Track&) = default;
};

struct ReadAcc {
  AccessMask access = 0;
  SyncMask sync = 0;
  bool to_end = false;  // no write follows in the group: the run ends where the group hands the resource on
  friend bool operator==(const ReadAcc&, const ReadAcc&) = default;
};

struct Piece {
  Box box;
  AccessMask access;
  SyncMask sync;
  bool to_end;
};

struct OpRef {
  uint32_t list, op;
  const Operation* o;
  uint32_t first_use;
};

enum class Kind : uint8_t { read, write };

// A read is satisfied when the current state is a read-only state that already includes its access
// in its sync scope (read after read in the same layout needs nothing: invariant 7).
bool satisfies(const State& s, Access a, SyncMask need) {
  if (s.access & (kWriteAccesses | kAnyAccess)) return false;
  if (!(s.access & bit(a))) return false;
  return (s.sync & sync::all) || (s.sync & need) == need;
}

// The state `cur` needs no barrier to be described as `target` by the next group.
// The state `cur` needs no barrier to be described as `target` by the next group: same layout, and
//  - a write state: the next group's barrier from `target` waits for the writes (target's sync covers them);
//  - a read-only state: exactly target's stages (see below).
bool covered_by(const State& cur, const State& target) {
  if (cur.layout != target.layout) return false;
  if (target.access & kAnyAccess) return true;
  if (cur.access & ~target.access) return false;
  if (cur.access & kWriteAccesses) return (target.sync & sync::all) || (cur.sync & ~target.sync) == 0;
  // Read-only: the next group reads in target's stages without a barrier (so the transition must have made
  // it visible there) and waits for these reads only in target's stages (so there may be no others).
  return cur.access == target.access && (cur.sync == target.sync || (target.sync & sync::all));
}

// Working memory of the compiler, kept per thread and reused from call to call: a frame compiled
// every frame should not pay for fresh pages each time. Nothing in it outlives one compile().
struct Scratch {
  std::vector<OpRef> ops;
  std::vector<uint32_t> slot_of;  // kNone everywhere between compiles
  std::vector<ResourceId> slot_res;
  std::vector<Box> use_box;
  std::vector<uint32_t> piece_first, piece_count;
  std::vector<Piece> pieces;
  std::vector<std::pair<uint32_t, uint32_t>> ends;
  std::vector<RangeMap<Track>> cur;
  std::vector<RangeMap<ReadAcc>> acc;
  std::vector<uint8_t> seen;
  std::vector<ReadAcc> whole_acc;
  std::vector<uint8_t> whole_only;  // per slot: every use in the group covers the whole resource
  std::vector<std::optional<State>> exit_state;  // per slot
  std::vector<uint8_t> never_written;             // per slot, from the group's entry history
};

Scratch& thread_scratch() {
  thread_local Scratch s;
  return s;
}

class GroupCompiler {
 public:
  GroupCompiler(const ResourceTable& rt, const CommandListGroup& g, const GroupFacts& f) : rt_(rt), g_(g), f_(f) {
    ops_.clear();
    slot_res_.clear();
    exit_state_.clear();
    whole_only_.clear();
    use_box_.clear();
    pieces_.clear();
    ends_.clear();
    if (slot_of_.size() < rt.size()) slot_of_.resize(rt.size(), kNone);
  }
  ~GroupCompiler() {
    for (ResourceId r : slot_res_) slot_of_[r] = kNone;
  }
  GroupCompiler(const GroupCompiler&) = delete;
  GroupCompiler& operator=(const GroupCompiler&) = delete;

  CompiledGroup run() {
    flatten();
    backward();
    forward();
    return std::move(out_);
  }

 private:
  void flatten() {
    out_.name = g_.name();
    out_.queue = g_.queue();
    uint32_t uses = 0;
    for (uint32_t li = 0; li < g_.lists().size(); ++li) {
      const CommandList& l = *g_.lists()[li];
      CompiledList cl;
      cl.name = l.name();
      cl.queue = l.queue();
      out_.lists.push_back(std::move(cl));
      for (uint32_t oi = 0; oi < l.ops().size(); ++oi) {
        const Operation& o = l.ops()[oi];
        ops_.push_back({li, oi, &o, uses});
        for (const Use& u : o.uses) {
          if (slot_of_[u.resource] == kNone) {
            slot_of_[u.resource] = static_cast<uint32_t>(slot_res_.size());
            slot_res_.push_back(u.resource);
            exit_state_.push_back(compute_exit_state(u.resource));
            whole_only_.push_back(1);
          }
          const ResourceDesc& d = rt_[u.resource];
          use_box_.push_back(resolve(d, u.range));
          if (use_box_.back() != full_box(d)) whole_only_[slot_of_[u.resource]] = 0;
          ++uses;
        }
      }
    }
    piece_first_.assign(uses, 0);
    piece_count_.assign(uses, 0);
    pieces_.reserve(uses);
    ends_.reserve(slot_res_.size());
    // Most uses need at most one barrier: reserve that much per list up front.
    std::vector<size_t> per_list(out_.lists.size(), 0);
    for (const OpRef& op : ops_) per_list[op.list] += op.o->uses.size();
    for (size_t li = 0; li < per_list.size(); ++li) out_.lists[li].barriers.reserve(per_list[li] / 2 + 8);
  }

  // Pass 1 (reverse order): merged read runs and last uses.
  void backward() {
    std::vector<RangeMap<ReadAcc>>& acc = scratch_.acc;
    std::vector<ReadAcc>& whole_acc = scratch_.whole_acc;  // resources only ever used whole: one box
    std::vector<uint8_t>& seen = scratch_.seen;
    acc.clear();
    acc.resize(slot_res_.size());
    whole_acc.assign(slot_res_.size(), ReadAcc{0, 0, true});
    seen.assign(slot_res_.size(), 0);
    for (size_t gi = ops_.size(); gi-- > 0;) {
      const OpRef& op = ops_[gi];
      const std::vector<Use>& uses = op.o->uses;
      for (size_t i = 0; i < uses.size(); ++i) {
        const uint32_t s = slot_of_[uses[i].resource];
        if (!seen[s]) {
          seen[s] = 1;
          ends_.push_back({static_cast<uint32_t>(gi), s});
          if (!whole_only_[s]) acc[s] = RangeMap<ReadAcc>(full_box(rt_[uses[i].resource]), ReadAcc{0, 0, true});
        }
      }
      for (size_t i = 0; i < uses.size(); ++i) {
        const Use& u = uses[i];
        if (is_write(u.access) || u.access == Access::present) continue;
        const SyncMask sy = sync_of(u.access, u.stages);
        const uint32_t s = slot_of_[u.resource];
        if (whole_only_[s]) {
          whole_acc[s].access |= bit(u.access);
          whole_acc[s].sync |= sy;
          continue;
        }
        RangeMap<ReadAcc>& m = acc[s];
        m.update(use_box_[op.first_use + i], [&](const Box&, ReadAcc& a) {
          a.access |= bit(u.access);
          a.sync |= sy;
        });
        m.coalesce();
      }
      for (size_t i = 0; i < uses.size(); ++i) {
        const Use& u = uses[i];
        if (is_write(u.access)) continue;
        const uint32_t ui = op.first_use + static_cast<uint32_t>(i);
        const uint32_t s = slot_of_[u.resource];
        piece_first_[ui] = static_cast<uint32_t>(pieces_.size());
        if (u.access == Access::present) {
          pieces_.push_back({use_box_[ui], bit(Access::present), sync::all, false});
        } else if (whole_only_[s]) {
          const ReadAcc& a = whole_acc[s];
          pieces_.push_back({use_box_[ui], a.access, a.sync, a.to_end});
        } else {
          acc[s].for_each(use_box_[ui], [&](const Box& b, const ReadAcc& a) {
            pieces_.push_back({b, a.access, a.sync, a.to_end});
          });
        }
        piece_count_[ui] = static_cast<uint32_t>(pieces_.size()) - piece_first_[ui];
      }
      // A write (or a present, which never merges with other reads) ends the run before it.
      for (size_t i = 0; i < uses.size(); ++i) {
        const Use& u = uses[i];
        if (!is_write(u.access) && u.access != Access::present) continue;
        const uint32_t s = slot_of_[u.resource];
        if (whole_only_[s])
          whole_acc[s] = ReadAcc{0, 0, false};
        else
          acc[s].assign(use_box_[op.first_use + i], ReadAcc{0, 0, false});
      }
    }
  }

  void forward() {
    cur_.clear();
    cur_.resize(slot_res_.size());
    never_written_.assign(slot_res_.size(), 0);
    size_t next_discard = 0;
    std::vector<GroupFacts::DiscardOwner> discards = f_.discards;
    std::sort(discards.begin(), discards.end(), [](const auto& a, const auto& b) {
      return std::tie(a.list, a.op, a.resource) < std::tie(b.list, b.op, b.resource);
    });
    for (uint32_t gi = 0; gi < ops_.size(); ++gi) {
      const OpRef& op = ops_[gi];
      if (op.o->full_barrier) {
        const State any{sync::all, kAnyAccess, Layout::none};
        emit(op.list, op.op, Where::before, Barrier{kGlobalResource, Box{}, any, any, Reason::full_barrier, false});
      }
      while (next_discard < discards.size() && discards[next_discard].list == op.list &&
             discards[next_discard].op == op.op) {
        discard(gi, discards[next_discard].resource);
        ++next_discard;
      }
      const std::vector<Use>& uses = op.o->uses;
      for (uint32_t i = 0; i < uses.size(); ++i) {
        if (is_write(uses[i].access))
          write(gi, i);
        else
          read(gi, i);
      }
      while (!ends_.empty() && ends_.back().first == gi) {
        exit(gi, ends_.back().second);
        ends_.pop_back();
      }
    }
    for (CompiledList& l : out_.lists) close_point(l);
  }

  RangeMap<Track>& track(uint32_t s, uint32_t list) {
    RangeMap<Track>& m = cur_[s];
    if (m.box_count() != 0) return m;
    const ResourceId r = slot_res_[s];
    const ResourceDesc& d = rt_[r];
    Track t;
    const EntryState* entry = nullptr;
    for (const EntryState& e : g_.lists()[list]->entry_states())
      if (e.resource == r) entry = &e;
    // Work before the group may have written the resource unless its history says otherwise.
    // The plan lists the group's resources in first-touch order, which is the slot order.
    if (s >= f_.entry_history.size() || f_.entry_history[s].first != r)
      throw Error(fmt::format("group '{}': facts do not match the group (resource '{}')", g_.name(), d.name));
    const ResourceHistory hist = f_.entry_history[s].second;
    never_written_[s] = !hist.written;
    t.dirty = hist.written;
    if (entry) {
      t.state = state_of_use(d, entry->access, entry->stages);
      t.origin = Origin::entry;
      // A declared write state stands for a write done before the group, outside Baton's history.
      t.dirty = t.dirty || (t.state.access & kWriteAccesses) != 0;
    } else if (!hist.touched) {
      t.state = d.type == ResourceType::buffer ? kFirstTouchBuffer : kFirstTouch;
      t.origin = Origin::first_touch;
    } else {
      t.state = resting_state(d);
      t.origin = Origin::rest;
    }
    m = RangeMap<Track>(full_box(d), t);
    return m;
  }

  static Reason reason_for(const Track& t, uint32_t list, Reason own) {
    switch (t.origin) {
      case Origin::first_touch: return Reason::first_touch;
      case Origin::entry: return Reason::entry_state;
      case Origin::rest: return Reason::from_rest;
      case Origin::list: break;
    }
    if (own == Reason::read_merge) return own;
    if (t.last_list != list) return Reason::hand_off;
    return own;
  }

  // The sync of every use of `r` with access `a` in the operation: uses of one access merge.
  SyncMask op_sync(uint32_t gi, ResourceId r, Access a) const {
    SyncMask m = 0;
    for (const Use& u : ops_[gi].o->uses)
      if (u.resource == r && u.access == a) m |= sync_of(u.access, u.stages);
    return m;
  }

  void read(uint32_t gi, uint32_t i) {
    const OpRef& op = ops_[gi];
    const Use& u = op.o->uses[i];
    const uint32_t ui = op.first_use + i;
    const ResourceDesc& d = rt_[u.resource];
    const bool buffer = d.type == ResourceType::buffer;
    RangeMap<Track>& m = track(slot_of_[u.resource], op.list);
    const bool never_written = never_written_[slot_of_[u.resource]] != 0;
    const SyncMask need = sync_of(u.access, u.stages);
    const std::optional<State>& exit_state = exit_state_[slot_of_[u.resource]];
    for (uint32_t k = 0; k < piece_count_[ui]; ++k) {
      const Piece& p = pieces_[piece_first_[ui] + k];
      const State target = read_target(p, buffer, exit_state);
      const bool merged = target.access != bit(u.access) || target.sync != need;
      m.update(p.box, [&](const Box& b, Track& t) {
        if (satisfies(t.state, u.access, need)) {
          t.last_list = op.list;
          t.last_op = gi;
          return;
        }
        // Buffers have no layout: a read needs nothing on a first touch or when the contents were never
        // written (read after read). The state keeps what came before, so a later write still waits for it.
        if (buffer && t.origin == Origin::first_touch) {
          t = Track{target, gi, op.list, Origin::list};
          return;
        }
        if (buffer && never_written && !t.dirty && !(t.state.access & kWriteAccesses)) {
          t.state.access |= target.access;
          t.state.sync |= target.sync;
          t.last_op = gi;
          t.last_list = op.list;
          return;
        }
        const Reason why = reason_for(t, op.list, merged ? Reason::read_merge : Reason::state_change);
        emit(op.list, op.op, Where::before, Barrier{u.resource, b, t.state, target, why, false});
        t = Track{target, gi, op.list, Origin::list};
      });
      m.coalesce();
    }
  }

  void write(uint32_t gi, uint32_t i) {
    const OpRef& op = ops_[gi];
    const Use& u = op.o->uses[i];
    const ResourceDesc& d = rt_[u.resource];
    const bool buffer = d.type == ResourceType::buffer;
    State target = state_of_use(d, u.access, u.stages);
    target.sync = op_sync(gi, u.resource, u.access);
    RangeMap<Track>& m = track(slot_of_[u.resource], op.list);
    m.update(use_box_[op.first_use + i], [&](const Box& b, Track& t) {
      // Another use of this operation, or a state a barrier already opened with nothing written since:
      // this write is inside that barrier's scope.
      const bool inside = t.state.layout == target.layout && t.state.access == target.access &&
                          ((t.state.sync & sync::all) || (t.state.sync & target.sync) == target.sync);
      if (t.state == target ? (t.last_op == gi || !t.dirty) : (inside && !t.dirty)) {
        t.state = target;
        t.last_op = gi;
        t.last_list = op.list;
        t.dirty = true;
        return;
      }
      if (!(buffer && t.origin == Origin::first_touch)) {
        const bool same = t.state.layout == target.layout && t.state.access == target.access;
        const Reason own =
            same ? (u.access == Access::unordered_access ? Reason::uav_order : Reason::write_order) : Reason::state_change;
        emit(op.list, op.op, Where::before, Barrier{u.resource, b, t.state, target, reason_for(t, op.list, own), false});
      }
      t = Track{target, gi, op.list, Origin::list, true};
    });
    m.coalesce();
  }

  // Invariant 3: the first-ever write of a placed render-target or depth texture opens with a discard
  // of the whole resource into the state of that write.
  void discard(uint32_t gi, ResourceId r) {
    const OpRef& op = ops_[gi];
    const Use* w = nullptr;
    for (const Use& u : op.o->uses)
      if (u.resource == r && is_write(u.access)) {
        w = &u;
        break;
      }
    if (!w) return;
    const ResourceDesc& d = rt_[r];
    State target = state_of_use(d, w->access, w->stages);
    target.sync = op_sync(gi, r, w->access);
    // The discard opens every subresource straight into what this operation does with it: the write's
    // state, or the state of another use of the same operation (one barrier per subresource per point).
    RangeMap<State> into(full_box(d), target);
    const std::optional<State>& exit_state = exit_state_[slot_of_[r]];
    for (uint32_t i = 0; i < op.o->uses.size(); ++i) {
      const Use& u = op.o->uses[i];
      if (u.resource != r || &u == w) continue;
      const uint32_t ui = op.first_use + i;
      if (is_write(u.access)) {
        State ws = state_of_use(d, u.access, u.stages);
        ws.sync = op_sync(gi, r, u.access);
        into.assign(use_box_[ui], ws);
      } else {
        for (uint32_t k = 0; k < piece_count_[ui]; ++k) {
          const Piece& p = pieces_[piece_first_[ui] + k];
          into.assign(p.box, read_target(p, false, exit_state));
        }
      }
    }
    RangeMap<Track>& m = track(slot_of_[r], op.list);
    for (const auto& e : m.entries()) {
      const State before{e.value.state.sync, 0, Layout::undefined};
      into.for_each(e.box, [&](const Box& b, const State& after) {
        emit(op.list, op.op, Where::before, Barrier{r, b, before, after, Reason::discard, true});
      });
    }
    // Nothing is written yet: the operation's own uses are inside the discard's scope.
    m = RangeMap<Track>(full_box(d), Track{target, kNone, op.list, Origin::list, false});
    for (const auto& e : into.entries()) {
      const State st = e.value;
      m.update(e.box, [&](const Box&, Track& t) { t.state = st; });
    }
    m.coalesce();
  }

  // The state a read run opens with: its merged reads; a run that lasts to the end of the group opens
  // visible to every stage the exit state names, so the group can hand the resource on without a second
  // barrier (invariant 4 at no extra cost).
  static State read_target(const Piece& p, bool buffer, const std::optional<State>& exit_state) {
    State target{p.sync, p.access, buffer ? Layout::none : read_layout_of(p.access)};
    if (p.to_end && exit_state && exit_state->layout == target.layout &&
        (target.access & ~exit_state->access) == 0 && !(exit_state->access & kAnyAccess))
      target.sync |= exit_state->sync;
    return target;
  }

  // After the last use in the group: rest, or the entry state the next group declared (invariant 4).
  void exit(uint32_t gi, uint32_t s) {
    const OpRef& op = ops_[gi];
    const ResourceId r = slot_res_[s];
    const ResourceDesc& d = rt_[r];
    const GroupFacts::HandOn* h = hand_on_of(r);
    const bool handed_on = h != nullptr;
    if (!handed_on && d.type == ResourceType::buffer) return;  // buffers never pay a restore barrier
    const State target = handed_on ? h->state : resting_state(d);
    for (const auto& e : cur_[s].entries()) {
      if (covered_by(e.value.state, target)) continue;
      const Reason why = e.value.origin == Origin::first_touch ? Reason::first_touch
                         : handed_on                           ? Reason::hand_on
                                                               : Reason::restore;
      emit(op.list, op.op, Where::after, Barrier{r, e.box, e.value.state, target, why, false});
    }
  }

  const GroupFacts::HandOn* hand_on_of(ResourceId r) const {
    const auto it = std::lower_bound(f_.hand_on.begin(), f_.hand_on.end(), r,
                                     [](const GroupFacts::HandOn& h, ResourceId x) { return h.resource < x; });
    return it != f_.hand_on.end() && it->resource == r ? &*it : nullptr;
  }

  // The state the group leaves the resource in: the next group's declared entry state, or rest for
  // textures. Buffers that are not handed on have none (they are never restored).
  std::optional<State> compute_exit_state(ResourceId r) const {
    if (const GroupFacts::HandOn* h = hand_on_of(r)) return h->state;
    const ResourceDesc& d = rt_[r];
    if (d.type == ResourceType::buffer) return std::nullopt;
    return resting_state(d);
  }

  void emit(uint32_t list, uint32_t op, Where where, const Barrier& b) {
    CompiledList& l = out_.lists[list];
    if (l.points.empty() || l.points.back().op != op || l.points.back().where != where) {
      close_point(l);
      l.points.push_back({op, where, static_cast<uint32_t>(l.barriers.size()), 0});
    }
    l.barriers.push_back(b);
    ++l.points.back().count;
  }

  // Orders a point's barriers by resource and merges barriers of one resource that are identical but
  // for contiguous boxes into one (invariant 6).
  static void close_point(CompiledList& l) {
    if (l.points.empty()) return;
    BarrierPoint& p = l.points.back();
    if (p.count < 2) return;
    Barrier* b = l.barriers.data() + p.first;
    const size_t n = p.count;
    // Points are small: a stable insertion sort by resource, in place.
    for (size_t i = 1; i < n; ++i)
      for (size_t j = i; j > 0 && b[j - 1].resource > b[j].resource; --j) std::swap(b[j - 1], b[j]);
    bool shared = false;  // only barriers of one resource can merge
    for (size_t i = 1; i < n && !shared; ++i) shared = b[i - 1].resource == b[i].resource;
    if (!shared) return;
    auto same = [](const Barrier& x, const Barrier& y) {
      return x.before == y.before && x.after == y.after && x.reason == y.reason && x.discard == y.discard;
    };
    size_t w = 0;
    for (size_t i = 0; i < n;) {
      size_t e = i;
      while (e < n && b[e].resource == b[i].resource) ++e;
      const size_t start = w;
      for (size_t k = i; k < e; ++k) b[w++] = b[k];
      for (bool changed = e - i > 1; changed;) {
        changed = false;
        for (size_t x = start; x < w && !changed; ++x)
          for (size_t y = x + 1; y < w; ++y) {
            Box u;
            if (same(b[x], b[y]) && RangeMap<Track>::try_union(b[x].box, b[y].box, u)) {
              b[x].box = u;
              for (size_t z = y + 1; z < w; ++z) b[z - 1] = b[z];
              --w;
              changed = true;
              break;
            }
          }
      }
      i = e;
    }
    l.barriers.resize(p.first + w);
    p.count = static_cast<uint32_t>(w);
  }

  const ResourceTable& rt_;
  const CommandListGroup& g_;
  const GroupFacts& f_;
  Scratch& scratch_ = thread_scratch();
  std::vector<OpRef>& ops_ = scratch_.ops;
  std::vector<uint32_t>& slot_of_ = scratch_.slot_of;
  std::vector<ResourceId>& slot_res_ = scratch_.slot_res;
  std::vector<Box>& use_box_ = scratch_.use_box;
  std::vector<uint32_t>& piece_first_ = scratch_.piece_first;
  std::vector<uint32_t>& piece_count_ = scratch_.piece_count;
  std::vector<Piece>& pieces_ = scratch_.pieces;
  std::vector<std::pair<uint32_t, uint32_t>>& ends_ = scratch_.ends;  // (op, slot), latest op first
  std::vector<RangeMap<Track>>& cur_ = scratch_.cur;
  std::vector<std::optional<State>>& exit_state_ = scratch_.exit_state;
  std::vector<uint8_t>& never_written_ = scratch_.never_written;
  std::vector<uint8_t>& whole_only_ = scratch_.whole_only;
  CompiledGroup out_;
};

}  // namespace

CompiledGroup compile(const ResourceTable& resources, const CommandListGroup& group, const GroupFacts& facts) {
  return GroupCompiler(resources, group, facts).run();
}

CompileResult compile_all(const ResourceTable& resources, std::span<CommandListGroup* const> groups,
                          History history_in, unsigned threads) {
  for (const CommandListGroup* g : groups) {
    for (const CommandList* l : g->lists()) {
      if (l->group() != g)
        throw Error(fmt::format("group '{}': list '{}' belongs to another group", g->name(), l->name()));
      if (l->lifecycle() == CommandList::Lifecycle::recording)
        throw Error(fmt::format("group '{}': list '{}' is still recording; close it first", g->name(), l->name()));
      if (l->lifecycle() != CommandList::Lifecycle::closed)
        throw Error(fmt::format("group '{}': list '{}' compiled twice", g->name(), l->name()));
    }
  }
  std::vector<const CommandListGroup*> cg(groups.begin(), groups.end());
  Plan p = plan(resources, cg, std::move(history_in));
  CompileResult out;
  out.groups.resize(groups.size());
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(groups.size())));
  if (threads == 1) {
    for (size_t i = 0; i < groups.size(); ++i) out.groups[i] = compile(resources, *groups[i], p.groups[i]);
  } else {
    std::vector<std::exception_ptr> errors(threads);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        try {
          for (size_t i = t; i < groups.size(); i += threads)
            out.groups[i] = compile(resources, *groups[i], p.groups[i]);
        } catch (...) {
          errors[t] = std::current_exception();
        }
      });
    }
    for (std::thread& th : pool) th.join();
    for (const std::exception_ptr& e : errors)
      if (e) std::rethrow_exception(e);
  }
  for (CommandListGroup* g : groups)
    for (CommandList* l : g->lists()) l->mark_compiled();
  out.history_out = std::move(p.history_out);
  return out;
}

}  // namespace baton
