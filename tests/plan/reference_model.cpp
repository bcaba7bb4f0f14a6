// The reference model: see reference_model.hpp. Deliberately naive: every rule is checked one
// subresource at a time on flat arrays, and nothing from src/plan is used but its output types.
#include "reference_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace baton::test {
namespace {

// ---------------------------------------------------------------------------------------------
// Sync scopes as sets of stage bits; sync::all stands for every stage.
constexpr SyncMask kEveryStage = (SyncMask{sync::all} << 1) - 1;
SyncMask expand(SyncMask m) { return (m & sync::all) ? kEveryStage : m; }
// Whether scope `have` contains every stage of `need`.
bool covers(SyncMask have, SyncMask need) { return (expand(need) & ~expand(have)) == 0; }
// Whether two scopes share a stage (an execution dependency chains through a shared stage).
bool meets(SyncMask a, SyncMask b) { return (expand(a) & expand(b)) != 0; }
// Whether the access set `set` contains every access of `a` (kAnyAccess contains everything).
bool has_access(AccessMask set, AccessMask a) { return (set & kAnyAccess) != 0 || (set & a) == a; }
bool writable(AccessMask a) { return (a & (kWriteAccesses | kAnyAccess)) != 0; }

std::string access_text(AccessMask a) {
  if (a & kAnyAccess) return "any";
  if (a == 0) return "no_access";
  std::string s;
  for (int i = 0; i < kAccessCount; ++i)
    if (a & bit(static_cast<Access>(i))) s += (s.empty() ? "" : "|") + std::string(to_string(static_cast<Access>(i)));
  return s;
}

constexpr uint32_t kOpBoundary = 0xfffffffeu;  // what the resting/entry state stands for
constexpr uint32_t kOpTransition = 0x80000000u;  // | barrier serial: a layout transition

// An access (or a barrier's layout transition) not yet known to be ordered before all later work.
struct Event {
  uint32_t op = 0;  // serial of the operation across the recording, or kOpBoundary, or kOpTransition|n
  SyncMask sync = 0;
  AccessMask access = 0;
  bool write = false;
  bool transition = false;
  SyncMask ordered = 0;    // stages that later work may run in and still be ordered after it
  AccessMask visible = 0;  // writes: accesses it has been made visible to
  uint32_t batch = 0;      // the barrier batch that created it (barriers of one batch do not chain)
};

struct Sub {
  Layout layout = Layout::undefined;
  std::vector<Event> events;
  bool touched = false;
  bool written = false;
  bool initialized = false;  // placed render-target/depth textures: discarded since activation
};

struct Res {
  // Textures: index = mip + layer * mips + plane * mips * layers. Buffers: one per byte segment
  // [cuts[i], cuts[i + 1]) (every offset and end any use or barrier names starts one).
  std::vector<Sub> subs;
  std::vector<uint64_t> cuts;
  bool touched = false;
  bool written = false;
};

State entry_state_of(const ResourceDesc& d, const EntryState& e) {
  return State{sync_of(e.access, e.stages), bit(e.access),
               d.type == ResourceType::buffer ? Layout::none : layout_of(e.access)};
}

// D3D12 #1422: a placed render-target or depth texture must be initialized (here: by the discard
// barrier) before it is written for the first time.
bool needs_initialization(const ResourceDesc& d) {
  return d.type == ResourceType::texture && d.placed &&
         (d.format != FormatClass::color || (d.usage & (bit(Access::render_target) | bit(Access::depth_write))));
}

// Whether a texture in layout `l` can be used for access `a` without a transition.
bool layout_allows(Layout l, Access a) {
  if (l == layout_of(a)) return true;
  return l == Layout::generic_read && !is_write(a) && a != Access::present;
}

class Model {
 public:
  Model(const ResourceTable& rt, std::span<const CommandListGroup* const> groups, std::span<const CompiledGroup> plans,
        const ModelOptions& opt)
      : rt_(rt), groups_(groups), plans_(plans), opt_(opt) {}

  std::vector<std::string> run() {
    if (plans_.size() != groups_.size()) {
      fail(fmt::format("{} groups but {} compiled groups", groups_.size(), plans_.size()));
      return out_;
    }
    res_.resize(rt_.size());
    for (ResourceId r = 0; r < rt_.size(); ++r) {
      const ResourceDesc& d = rt_[r];
      if (d.type == ResourceType::buffer) {
        std::vector<uint64_t>& c = res_[r].cuts;
        c = {0, d.size};
        for (const CommandListGroup* g : groups_)
          for (const CommandList* l : g->lists())
            for (const Operation& o : l->ops())
              for (const Use& u : o.uses)
                if (u.resource == r) {
                  const auto [lo, hi] = bytes_of(d, u.range.byte_offset, u.range.byte_size);
                  c.push_back(lo);
                  c.push_back(hi);
                }
        for (const CompiledGroup& g : plans_)
          for (const CompiledList& l : g.lists)
            for (const Barrier& b : l.barriers)
              if (b.resource == r) {
                const auto [lo, hi] = bytes_of(d, b.byte_offset, b.byte_size);
                c.push_back(lo);
                c.push_back(hi);
              }
        std::sort(c.begin(), c.end());
        c.erase(std::unique(c.begin(), c.end()), c.end());
        c.erase(std::remove_if(c.begin(), c.end(), [&](uint64_t x) { return x > d.size; }), c.end());
        res_[r].subs.resize(c.size() - 1);
      } else {
        res_[r].subs.resize(size_t{d.mips} * d.layers * d.planes);
      }
      for (Sub& s : res_[r].subs) s.layout = d.type == ResourceType::buffer ? Layout::none : Layout::undefined;
      // Memory taken over: the previous occupants' accesses are pending, and the memory has been touched.
      if (r < opt_.history.size() && opt_.history[r].takeover.any()) {
        const Takeover& t = opt_.history[r].takeover;
        // A buffer's memory holds the previous occupants' writes (a texture starts from layout undefined).
        if (d.type == ResourceType::buffer && writable(t.access)) res_[r].written = true;
        for (Sub& s : res_[r].subs) {
          s.touched = true;
          s.events.push_back(Event{kOpBoundary, t.sync, t.access, writable(t.access), false, 0, 0, 0});
        }
      }
    }
    survey();
    for (size_t gi = 0; gi < groups_.size() && !full(); ++gi) run_group(gi);
    // After the last group, the resources must be what the next frame's first group will assume: rest.
    where_ = "after the last group";
    for (ResourceId r = 0; r < rt_.size() && !full(); ++r)
      if (res_[r].touched && !(r < opt_.history.size() && opt_.history[r].dies))
        begin_resource(groups_.size(), r);
    return out_;
  }

 private:
  // Which resources each group touches, and the entry state its first user declared.
  void survey() {
    touched_in_.assign(groups_.size(), std::vector<bool>(rt_.size(), false));
    // One slot more than there are groups: the next frame's first group, which declares nothing.
    entry_in_.assign(groups_.size() + 1, std::vector<const EntryState*>(rt_.size(), nullptr));
    entry_list_.assign(groups_.size() + 1, std::vector<std::string>(rt_.size()));
    for (size_t gi = 0; gi < groups_.size(); ++gi) {
      for (const CommandList* l : groups_[gi]->lists()) {
        std::vector<bool> here(rt_.size(), false);
        for (const Operation& o : l->ops())
          for (const Use& u : o.uses) here[u.resource] = true;
        for (ResourceId r = 0; r < rt_.size(); ++r) {
          if (!here[r] || touched_in_[gi][r]) continue;
          touched_in_[gi][r] = true;  // this list is the first user in the group
          for (const EntryState& e : l->entry_states())
            if (e.resource == r) {
              entry_in_[gi][r] = &e;
              entry_list_[gi][r] = l->name();
            }
        }
      }
    }
  }

  bool full() const { return out_.size() >= opt_.max_violations; }
  void fail(const std::string& m) {
    if (!full()) out_.push_back(where_.empty() ? m : where_ + ": " + m);
  }

  // The bytes [offset, offset + size) of a buffer (size kWholeBytes: to the end), clamped to the buffer.
  static std::pair<uint64_t, uint64_t> bytes_of(const ResourceDesc& d, uint64_t offset, uint64_t size) {
    const uint64_t lo = std::min(offset, d.size);
    return {lo, size == kWholeBytes ? d.size : std::min(d.size, lo + size)};
  }

  std::string sub_name(ResourceId r, size_t i) const {
    const ResourceDesc& d = rt_[r];
    if (d.type == ResourceType::buffer && res_[r].subs.size() > 1)
      return fmt::format("resource '{}' [bytes {}..{}]", d.name, res_[r].cuts[i], res_[r].cuts[i + 1] - 1);
    if (d.type == ResourceType::buffer) return fmt::format("resource '{}'", d.name);
    const size_t m = i % d.mips, l = (i / d.mips) % d.layers, p = i / (size_t{d.mips} * d.layers);
    return fmt::format("resource '{}' [mip {} layer {} plane {}]", d.name, m, l, p);
  }

  std::string event_name(const Event& e) const {
    std::string who;
    if (e.op == kOpBoundary)
      who = "work before the group";
    else if (e.transition)
      who = "the layout transition of " + transitions_[e.op & ~kOpTransition];
    else
      who = op_names_[e.op];
    return fmt::format("{} ({}@{})", who, access_text(e.access), sync_to_string(e.sync));
  }

  // Every subresource of a use or barrier: a buffer's byte segments inside [offset, offset + size).
  template <class F>
  void for_each_sub(ResourceId r, const Box& b, uint64_t offset, uint64_t size, F&& f) {
    const ResourceDesc& d = rt_[r];
    if (d.type != ResourceType::buffer) return for_each_sub(r, b, f);
    const auto [lo, hi] = bytes_of(d, offset, size);
    const std::vector<uint64_t>& c = res_[r].cuts;
    for (size_t i = 0; i + 1 < c.size(); ++i)
      if (c[i] >= lo && c[i + 1] <= hi) f(res_[r].subs[i], i);
  }

  template <class F>
  void for_each_sub(ResourceId r, const Box& b, F&& f) {
    const ResourceDesc& d = rt_[r];
    for (uint32_t p = b.p0; p < b.p1; ++p)
      for (uint32_t l = b.l0; l < b.l1; ++l)
        for (uint32_t m = b.m0; m < b.m1; ++m) {
          const size_t i = m + size_t{l} * d.mips + size_t{p} * d.mips * d.layers;
          f(res_[r].subs[i], i);
        }
  }

  // ---- group boundaries ------------------------------------------------------------------------
  // The state a group may assume for r when it starts: the declared entry state, else resting for
  // a resource touched before, else nothing (first-ever touch).
  std::optional<State> assumed_state(size_t gi, ResourceId r) const {
    if (const EntryState* e = entry_in_[gi][r]) return entry_state_of(rt_[r], *e);
    if (res_[r].touched) return resting_state(rt_[r]);
    return std::nullopt;
  }

  void begin_resource(size_t gi, ResourceId r) {
    const std::optional<State> s = assumed_state(gi, r);
    if (!s) return;
    const bool entry = entry_in_[gi][r] != nullptr;
    const std::string what = entry ? fmt::format("the entry state list '{}' declared ({})", entry_list_[gi][r],
                                                 to_string(*s))
                                   : fmt::format("its resting state ({})", to_string(*s));
    Res& res = res_[r];
    const bool external_write = entry && writable(s->access);
    for (size_t i = 0; i < res.subs.size(); ++i) {
      Sub& sub = res.subs[i];
      bool pending_write = false;
      if (!res.touched) {
        sub.layout = s->layout;  // produced outside the recording, as declared
      } else {
        for (const Event& e : sub.events) {
          // Either it happened before the barrier that produced the state (then it is ordered for the
          // state's stages and visible to its accesses) or after it, as one of the state's accesses.
          const bool before = covers(e.ordered, s->sync) && (!e.write || has_access(e.visible, s->access));
          const bool since = covers(s->sync, e.sync) &&
                             (e.write ? writable(s->access) && (e.transition || has_access(s->access, e.access))
                                      : has_access(s->access, e.access));
          if (!before && !since)
            fail(fmt::format("{} starts the group with {} pending, which {} does not describe", sub_name(r, i),
                             event_name(e), what));
          pending_write |= !before && e.write;
        }
      }
      // From here on the group knows only what the state says.
      sub.events.clear();
      // A declared entry state that writes stands for a write done outside the recording; any declared
      // texture entry state was produced by a layout transition ordered only for the state's stages.
      if (res.written || pending_write || external_write || (entry && rt_[r].type == ResourceType::texture)) {
        Event w{kOpBoundary, s->sync, s->access, true, false, 0, 0, 0};
        if (!writable(s->access)) {
          w.ordered = s->sync;
          w.visible = s->access;
        }
        sub.events.push_back(w);
      }
      if (const AccessMask reads = s->access & ~kWriteAccesses)
        sub.events.push_back(Event{kOpBoundary, s->sync, reads, false, false, 0, 0, 0});
    }
    if (external_write) {
      // Written outside the recording: the contents exist, so no initializing discard is owed.
      res.written = true;
      for (Sub& sub : res.subs) {
        sub.written = true;
        sub.initialized = true;
      }
    }
  }

  void end_group(size_t gi) {
    for (ResourceId r = 0; r < rt_.size(); ++r) {
      const ResourceDesc& d = rt_[r];
      if (!touched_in_[gi][r] || d.type == ResourceType::buffer) continue;
      Layout want = resting_state(d).layout;
      std::string why = "its resting layout";
      bool later = false;
      for (size_t h = gi + 1; h < groups_.size(); ++h) {
        if (!touched_in_[h][r]) continue;
        later = true;
        if (const EntryState* e = entry_in_[h][r]) {
          want = layout_of(e->access);
          why = fmt::format("the entry state group '{}' declared", groups_[h]->name());
        }
        break;
      }
      // A resource that dies after its last group may end it in any layout.
      if (!later && r < opt_.history.size() && opt_.history[r].dies) continue;
      for (size_t i = 0; i < res_[r].subs.size(); ++i)
        if (res_[r].subs[i].layout != want)
          fail(fmt::format("{} ends the group in layout {}, not in {} ({})", sub_name(r, i),
                           to_string(res_[r].subs[i].layout), why, to_string(want)));
    }
  }

  // ---- barriers --------------------------------------------------------------------------------
  // Whether barrier scope (sync `b`, accesses `acc`) orders event e: directly (e ran in the scope,
  // and a write is among the accesses made available) or by chaining through an earlier barrier.
  static bool orders(const Event& e, SyncMask b, AccessMask acc) {
    const bool direct = covers(b, e.sync) && (!e.write || e.transition || has_access(acc, e.access));
    return direct || meets(e.ordered, b);
  }

  void apply_barrier(const Barrier& b, uint32_t batch) {
    const ResourceDesc& d = rt_[b.resource];
    if (!contains(full_box(d), b.box) || b.box.empty()) {
      fail(fmt::format("barrier on resource '{}' has a box outside the resource", d.name));
      return;
    }
    if (!b.whole_bytes() && (d.type != ResourceType::buffer || b.byte_size == 0 || b.byte_offset >= d.size ||
                             b.byte_size > d.size - b.byte_offset)) {
      fail(fmt::format("barrier on resource '{}' has bytes outside the buffer", d.name));
      return;
    }
    const bool texture = d.type == ResourceType::texture;
    const uint32_t serial = static_cast<uint32_t>(transitions_.size());
    transitions_.push_back(fmt::format("{} ({} -> {})", where_, to_string(b.before), to_string(b.after)));
    res_[b.resource].touched = true;
    for_each_sub(b.resource, b.box, b.byte_offset, b.byte_size, [&](Sub& sub, size_t i) {
      const std::string name = sub_name(b.resource, i);
      if (texture) {
        if (b.before.layout == Layout::undefined) {
          if (sub.layout != Layout::undefined && !b.discard)
            fail(fmt::format("{}: barrier from layout undefined loses the contents of layout {}", name,
                             to_string(sub.layout)));
          if (b.discard && sub.written) fail(fmt::format("{}: discard of contents already written", name));
        } else if (b.before.layout != sub.layout) {
          fail(fmt::format("{}: barrier says layout before is {} but the subresource is in {}", name,
                           to_string(b.before.layout), to_string(sub.layout)));
        }
        if (b.discard && b.before.layout != Layout::undefined)
          fail(fmt::format("{}: discard needs layout before undefined", name));
        if (b.after.layout == Layout::none || b.after.layout == Layout::undefined)
          fail(fmt::format("{}: texture barrier into layout {}", name, to_string(b.after.layout)));
      } else if (b.before.layout != Layout::none || b.after.layout != Layout::none) {
        fail(fmt::format("{}: buffer barrier with a layout", name));
      }
      if (b.before.sync == sync::none) {
        if (b.reason != Reason::first_touch && b.reason != Reason::discard)
          fail(fmt::format("{}: SyncBefore NONE on a barrier for {}", name, to_string(b.reason)));
        if (sub.touched) fail(fmt::format("{}: SyncBefore NONE on a subresource touched before", name));
      }
      const bool transition = texture && b.before.layout != b.after.layout;
      for (Event& e : sub.events) {
        if (e.batch == batch) continue;
        if (orders(e, b.before.sync, b.before.access)) {
          e.ordered |= b.after.sync;
          if (e.write) e.visible |= b.after.access;
        } else if (transition) {
          fail(fmt::format("{}: layout transition {} -> {} across a missing barrier: {} is not in SyncBefore {}",
                           name, to_string(b.before.layout), to_string(b.after.layout), event_name(e),
                           sync_to_string(b.before.sync)));
        }
      }
      if (transition) {
        sub.events.assign(1, Event{kOpTransition | serial, b.after.sync, b.after.access, true, true, b.after.sync,
                                   b.after.access, batch});
        sub.layout = b.after.layout;
      }
      sub.touched = true;
      sub.initialized |= b.discard;
    });
  }

  void apply_global(const Barrier& b, uint32_t batch) {
    for (Res& res : res_)
      for (Sub& sub : res.subs)
        for (Event& e : sub.events) {
          if (e.batch == batch || !orders(e, b.before.sync, b.before.access)) continue;
          e.ordered |= b.after.sync;
          if (e.write) e.visible |= b.after.access;
        }
  }

  // One barrier point: its barriers take effect together, so they must not overlap and do not
  // chain with each other.
  void apply_point(const CompiledList& cl, const std::vector<uint32_t>& idx) {
    if (idx.empty()) return;
    const uint32_t batch = ++batch_serial_;
    for (size_t a = 0; a < idx.size(); ++a)
      for (size_t c = a + 1; c < idx.size(); ++c) {
        const Barrier& x = cl.barriers[idx[a]];
        const Barrier& y = cl.barriers[idx[c]];
        const auto xb = x.resource == kGlobalResource ? std::pair<uint64_t, uint64_t>{}
                                                      : bytes_of(rt_[x.resource], x.byte_offset, x.byte_size);
        const auto yb = y.resource == kGlobalResource ? std::pair<uint64_t, uint64_t>{}
                                                      : bytes_of(rt_[y.resource], y.byte_offset, y.byte_size);
        const bool bytes_meet = rt_[x.resource == kGlobalResource ? 0 : x.resource].type != ResourceType::buffer ||
                                (xb.first < yb.second && yb.first < xb.second);
        if (x.resource != kGlobalResource && x.resource == y.resource && overlaps(x.box, y.box) && bytes_meet)
          fail(fmt::format("two barriers on resource '{}' [{}] in one point", rt_[x.resource].name,
                           to_string(intersect(x.box, y.box), rt_[x.resource])));
      }
    // Invariant 3: the discards of one resource in one point cover it whole (several boxes may carry
    // different SyncBefore scopes).
    std::map<ResourceId, uint64_t> discarded;
    for (uint32_t i : idx)
      if (cl.barriers[i].discard) discarded[cl.barriers[i].resource] += cl.barriers[i].box.volume();
    for (const auto& [r, volume] : discarded)
      if (r == kGlobalResource || volume != full_box(rt_[r]).volume())
        fail(fmt::format("the discard of resource '{}' does not cover it whole", r == kGlobalResource ? "global" : rt_[r].name));
    for (uint32_t i : idx)
      if (cl.barriers[i].resource != kGlobalResource) apply_barrier(cl.barriers[i], batch);
    for (uint32_t i : idx)
      if (cl.barriers[i].resource == kGlobalResource && !opt_.ignore_full_barriers) apply_global(cl.barriers[i], batch);
  }

  // ---- uses ------------------------------------------------------------------------------------
  void check_use(const Use& u, uint32_t op) {
    const ResourceDesc& d = rt_[u.resource];
    const SyncMask need = sync_of(u.access, u.stages);
    const bool w = is_write(u.access);
    for_each_sub(u.resource, resolve(d, u.range), u.range.byte_offset, u.range.byte_size, [&](Sub& sub, size_t i) {
      if (d.type == ResourceType::texture && !layout_allows(sub.layout, u.access))
        fail(fmt::format("{}: {} needs layout {} but the subresource is in {}", sub_name(u.resource, i),
                         to_string(u.access), to_string(layout_of(u.access)), to_string(sub.layout)));
      if (w && needs_initialization(d) && !sub.initialized)
        fail(fmt::format("{}: first write of a placed texture without the initializing discard",
                         sub_name(u.resource, i)));
      for (const Event& e : sub.events) {
        if (e.op == op || !(e.write || w)) continue;
        const bool ok = covers(e.ordered, need) && (!e.write || has_access(e.visible, bit(u.access)));
        if (!ok)
          fail(fmt::format("{}: {}@{} accessed across a missing barrier: {} is ordered only for {} (visible to {})",
                           sub_name(u.resource, i), to_string(u.access), sync_to_string(need), event_name(e),
                           sync_to_string(e.ordered), access_text(e.visible)));
      }
    });
  }

  void record_use(const Use& u, uint32_t op) {
    const ResourceDesc& d = rt_[u.resource];
    const SyncMask s = sync_of(u.access, u.stages);
    const bool w = is_write(u.access);
    Res& res = res_[u.resource];
    res.touched = true;
    res.written |= w;
    for_each_sub(u.resource, resolve(d, u.range), u.range.byte_offset, u.range.byte_size, [&](Sub& sub, size_t) {
      sub.touched = true;
      sub.written |= w;
      sub.initialized |= w;
      // A write checked against everything pending supersedes it: whatever is ordered after the
      // write is ordered after them too (through the write's own execution).
      if (w)
        sub.events.erase(std::remove_if(sub.events.begin(), sub.events.end(), [&](const Event& e) { return e.op != op; }),
                         sub.events.end());
      for (Event& e : sub.events)
        if (e.op == op && e.access == bit(u.access)) {
          e.sync |= s;  // uses of one access in one operation merge
          return;
        }
      sub.events.push_back(Event{op, s, bit(u.access), w, false, 0, 0, 0});
    });
  }

  // ---- D3D12's one state per buffer -------------------------------------------------------------
  // The planner's rule, restated: in a group, a buffer that two operations use in different states
  // (access or stages) on disjoint bytes is held in one state, so every use of it in the group stands
  // for the whole buffer; unless one operation itself writes some bytes and uses others otherwise.
  void survey_one_state(const CommandListGroup& g) {
    one_state_.assign(rt_.size(), false);
    struct Seen {
      ResourceId r;
      size_t op;
      uint64_t lo, hi;
      Access a;
      Stages s;
    };
    std::vector<Seen> seen;
    std::vector<bool> mixed(rt_.size(), false), in_one_op(rt_.size(), false);
    size_t op = 0;
    for (const CommandList* l : g.lists())
      for (const Operation& o : l->ops()) {
        for (const Use& u : o.uses) {
          const ResourceDesc& d = rt_[u.resource];
          if (d.type != ResourceType::buffer || (u.range.byte_size == kWholeBytes && u.range.byte_offset == 0)) continue;
          const auto [lo, hi] = bytes_of(d, u.range.byte_offset, u.range.byte_size);
          for (const Seen& x : seen) {
            if (x.r != u.resource) continue;
            const bool disjoint = x.hi <= lo || hi <= x.lo;
            const bool differ = x.a != u.access || x.s != u.stages;
            if (x.op == op && x.a != u.access && (is_write(x.a) || is_write(u.access))) in_one_op[u.resource] = true;
            if (x.op != op && differ && disjoint) mixed[u.resource] = true;
          }
          seen.push_back(Seen{u.resource, op, lo, hi, u.access, u.stages});
        }
        ++op;
      }
    for (ResourceId r = 0; r < rt_.size(); ++r) one_state_[r] = mixed[r] && !in_one_op[r];
  }
  Use widened(const Use& u) const {
    if (!one_state_[u.resource]) return u;
    Use w = u;
    w.range.byte_offset = 0;
    w.range.byte_size = kWholeBytes;
    return w;
  }

  // ---- driver ----------------------------------------------------------------------------------
  void run_group(size_t gi) {
    const CommandListGroup& g = *groups_[gi];
    const CompiledGroup& cg = plans_[gi];
    survey_one_state(g);
    where_ = fmt::format("group '{}'", g.name());
    for (ResourceId r = 0; r < rt_.size(); ++r)
      if (touched_in_[gi][r]) begin_resource(gi, r);
    if (cg.lists.size() != g.lists().size()) {
      fail(fmt::format("{} lists but {} compiled lists", g.lists().size(), cg.lists.size()));
      return;
    }
    for (size_t li = 0; li < g.lists().size(); ++li) {
      const CommandList& l = *g.lists()[li];
      const CompiledList& cl = cg.lists[li];
      where_ = fmt::format("group '{}' list '{}'", g.name(), l.name());
      // (op, where) -> barriers of that point, each barrier in exactly one point.
      std::map<std::pair<uint32_t, int>, std::vector<uint32_t>> points;
      std::vector<int> owner(cl.barriers.size(), 0);
      for (const BarrierPoint& p : cl.points) {
        const auto key = std::make_pair(p.op, p.where == Where::before ? 0 : 1);
        if (p.op >= l.ops().size() || size_t{p.first} + p.count > cl.barriers.size()) {
          fail(fmt::format("barrier point at op {} is out of range", p.op));
          continue;
        }
        if (points.count(key)) fail(fmt::format("two barrier points at op {} {}", p.op, to_string(p.where)));
        std::vector<uint32_t>& v = points[key];
        for (uint32_t i = p.first; i < p.first + p.count; ++i) {
          ++owner[i];
          if (opt_.skip && *opt_.skip == BarrierRef{gi, li, i}) continue;
          v.push_back(i);
        }
      }
      for (size_t i = 0; i < owner.size(); ++i)
        if (owner[i] != 1) fail(fmt::format("barrier {} belongs to {} points", i, owner[i]));
      static const std::vector<uint32_t> kNoBarriers;
      auto at = [&](uint32_t op, int side) -> const std::vector<uint32_t>& {
        const auto it = points.find({op, side});
        return it == points.end() ? kNoBarriers : it->second;
      };
      for (uint32_t oi = 0; oi < l.ops().size() && !full(); ++oi) {
        const Operation& o = l.ops()[oi];
        const uint32_t op = static_cast<uint32_t>(op_names_.size());
        const std::string op_name = fmt::format("group '{}' list '{}' op {} ({})", g.name(), l.name(), oi, to_string(o.kind));
        op_names_.push_back(op_name);
        where_ = op_name + " before";
        apply_point(cl, at(oi, 0));
        where_ = op_name;
        for (const Use& u : o.uses) check_use(widened(u), op);
        for (const Use& u : o.uses) record_use(widened(u), op);
        where_ = op_name + " after";
        apply_point(cl, at(oi, 1));
      }
    }
    where_ = fmt::format("group '{}' end", g.name());
    end_group(gi);
    where_.clear();
  }

  const ResourceTable& rt_;
  std::span<const CommandListGroup* const> groups_;
  std::span<const CompiledGroup> plans_;
  const ModelOptions& opt_;
  std::vector<Res> res_;
  std::vector<std::vector<bool>> touched_in_;
  std::vector<std::vector<const EntryState*>> entry_in_;
  std::vector<std::vector<std::string>> entry_list_;
  std::vector<std::string> op_names_;
  std::vector<bool> one_state_;  // per resource, in the current group: survey_one_state
  std::vector<std::string> transitions_;
  uint32_t batch_serial_ = 0;
  std::string where_;
  std::vector<std::string> out_;
};

}  // namespace

std::vector<std::string> check_plan(const ResourceTable& resources, std::span<const CommandListGroup* const> groups,
                                    std::span<const CompiledGroup> plans, const ModelOptions& options) {
  return Model(resources, groups, plans, options).run();
}

}  // namespace baton::test
