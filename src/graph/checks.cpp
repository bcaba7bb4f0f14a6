// Phase 8: checks. Each rebuilds what it needs from the declarations and the barrier stream, and
// shares nothing with the phase it checks but the vocabulary. Order is the schedule's happens-before
// (queue order, the signal/wait pairs, through the vector clocks; the frame_start / frame_end
// transition lists add their own waits), never the submission order alone, so an access on one queue
// that another queue's barrier or write is not ordered against is a finding:
//  - coverage: replaying the barriers, every declared use finds its subresources in a state that
//    holds its access, in a layout for it, with the consuming stage in the sync scope; and every
//    barrier and write is ordered after every earlier use of the subresource, every use after the
//    barrier or write that put it in its state (no cross-queue race);
//  - resting: after the frame every touched resource is back in its resting state, but transients,
//    which die after their last use, and the barrier that leaves it there is ordered after every use;
//  - takeover: a transient that takes over memory opens with a barrier whose before side covers the
//    previous occupants' last accesses (rebuilt from the declarations in serial order), layout undefined;
//  - aliasing: resources that share memory are never live together under any order the schedule
//    allows (all users of one happen before all users of the other, through queue order and waits);
//  - serial order: the serial order is a topological order of the live passes and every
//    cross-queue dependency is implied by queue order and the signal/wait pairs.
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "baton/graph.hpp"
#include "replay.hpp"

namespace baton::graph {
namespace {

// Findings start with the JSON pointer of what they concern, as the graph's errors do: the pass
// ("/passes/P", or its use "/passes/P/uses/U"), or, where no pass is concerned (the frame_start and
// frame_end transition lists, the end of the frame, shared memory), the resource ("/resources/R").
std::string pass_pointer(uint32_t p) { return fmt::format("/passes/{}", p); }
std::string resource_pointer(uint32_t r) { return fmt::format("/resources/{}", r); }
// The graph resource of member m of the expanded table (first_member is ascending).
uint32_t resource_of(const Transitions& t, ResourceId m) {
  const auto it = std::upper_bound(t.first_member.begin(), t.first_member.end(), m);
  return static_cast<uint32_t>(it - t.first_member.begin()) - 1;
}
std::string member_pointer(const Transitions& t, ResourceId m) { return resource_pointer(resource_of(t, m)); }

[[gnu::always_inline]] inline bool covers(const State& st, Access a, Stages stages, bool buffer) {
  if (!(st.access & bit(a))) return false;
  if (is_write(a) && st.access != bit(a)) return false;
  if (!is_write(a) && (st.access & kWriteAccesses)) return false;
  const SyncMask need = sync_of(a, stages);
  if (!(st.sync & sync::all) && (st.sync & need) != need) return false;
  if (buffer) return st.layout == Layout::none;
  if (!is_write(a) && st.layout == Layout::shared_read) return true;  // reads held on two queues at once
  if (a == Access::present) return st.layout == Layout::present;
  return st.layout == (is_write(a) ? layout_of(a) : read_layout_of(st.access));
}

// The schedule's happens-before over the transitions' lists. A slot is one list: slot_first[group] +
// list, so slots number the lists in submission order. Its arrays are the caller's scratch (reset()
// refills them, keeping their storage).
class HappensBefore {
 public:
  void reset(const Graph& g, const Schedule& s, const Transitions& t) {
    g_ = &g;
    s_ = &s;
    t_ = &t;
    one_queue_ = true;
    for (const GroupInfo& x : t.info)
      if (x.queue != t.info.front().queue) one_queue_ = false;
    if (one_queue_) return;  // submission order is the order: no slot, name or before() is asked
    slot_first_.assign(t.compiled.size() + 1, 0);
    for (uint32_t gi = 0; gi < t.compiled.size(); ++gi)
      slot_first_[gi + 1] = slot_first_[gi] + static_cast<uint32_t>(t.compiled[gi].lists.size());
    start_first_.fill(kNone);
    end_clock_.fill(0);
    for (uint32_t gi = 0; gi < t.info.size(); ++gi) {
      const GroupInfo& x = t.info[gi];
      if (x.role != GroupInfo::Role::passes || x.passes.empty()) continue;
      // A group that waits for the frame_start list: its queue from its first pass on.
      const bool waits_start = t.info.front().role == GroupInfo::Role::frame_start &&
                               std::find(x.waits.begin(), x.waits.end(), 0u) != x.waits.end();
      const size_t q = qi(exec_queue(g.passes[x.passes.front()]));
      if (waits_start) start_first_[q] = std::min(start_first_[q], s.pos[x.passes.front()]);
      if (q == qi(Queue::direct)) merge_end(x.passes.back());  // the frame_end list follows on its queue
    }
    if (!t.info.empty() && t.info.back().role == GroupInfo::Role::frame_end)
      for (uint32_t w : t.info.back().waits)
        if (w < t.info.size() && t.info[w].role == GroupInfo::Role::passes && !t.info[w].passes.empty())
          merge_end(t.info[w].passes.back());
    clocks();
  }
  uint32_t slot(uint32_t gi, uint32_t li) const { return slot_first_[gi] + li; }
  // Every list runs on one queue: submission order is the order, nothing can race.
  bool one_queue() const { return one_queue_; }
  uint32_t pass(uint32_t slot) const {
    const uint32_t gi = group_of(slot);
    return t_->info[gi].passes[slot - slot_first_[gi]];
  }
  std::string name(uint32_t slot) const {
    const uint32_t gi = group_of(slot), p = pass(slot);
    const Queue q = t_->info[gi].queue;
    return p == kNone ? fmt::format("the {} (graphics queue)", transition_list_name(t_->info[gi].role))
                      : fmt::format("pass '{}' ({} queue)", g_->passes[p].name,
                                    q == Queue::direct ? std::string("graphics") : std::string(to_string(q)));
  }
  // Where a finding about `slot` and member m points: the slot's pass, else the member's resource.
  std::string pointer(uint32_t slot, ResourceId m) const {
    const uint32_t p = pass(slot);
    return p == kNone ? member_pointer(*t_, m) : pass_pointer(p);
  }
  // Whether slot x (submitted no later than y) is complete before slot y starts, on every execution:
  // one compare against y's clock (see clocks()).
  bool before(uint32_t x, uint32_t y) const { return at_[y].clock[at_[x].queue] > at_[x].pos; }

 private:
  // The group of a slot (findings only: the order itself needs no group).
  uint32_t group_of(uint32_t slot) const {
    const auto it = std::upper_bound(slot_first_.begin(), slot_first_.end(), slot);
    return static_cast<uint32_t>(it - slot_first_.begin()) - 1;
  }
  // Every slot's place in the schedule's order, so that before() is one compare and no call: its queue, its
  // position there and per queue 1 + the last position it knows complete (the schedule's vector clocks).
  // The frame_start lists take the first positions of the graphics queue and the frame_end lists its
  // last ones (the graphics passes' positions and clocks shift by the frame_start lists): a graphics slot
  // knows the frame_start lists; another queue's pass knows them when it knows a graphics pass or the
  // first pass of its queue that waits for them (start_first_); the frame_end lists know every graphics
  // slot and, per other queue, what the passes they wait for know (end_clock_). This is the rule
  // happens_before() and the frame lists' waits give, as a table.
  void clocks() {
    const Graph& g = *g_;
    const Schedule& s = *s_;
    const Transitions& t = *t_;
    const size_t d = qi(Queue::direct);
    uint32_t shift = 0, direct = 0;  // frame_start lists; graphics passes
    for (const GroupInfo& x : t.info) {
      if (x.role == GroupInfo::Role::frame_start) shift += static_cast<uint32_t>(x.passes.size());
      if (x.role == GroupInfo::Role::passes && x.queue == Queue::direct)
        for (uint32_t p : x.passes) direct = std::max(direct, s.pos[p] + 1);
    }
    at_.resize(slot_first_.back());
    uint32_t start = 0, end = shift + direct;  // the next frame_start / frame_end list's position
    for (uint32_t gi = 0; gi < t.compiled.size(); ++gi) {  // the groups the slots number (as the walk's)
      const GroupInfo& x = t.info[gi];
      for (uint32_t k = slot_first_[gi]; k < slot_first_[gi + 1]; ++k) {
        SlotClock& c = at_[k];
        c.queue = static_cast<uint32_t>(d);
        if (x.role == GroupInfo::Role::frame_start) {
          c.clock.fill(0);
          c.pos = start++;
          c.clock[d] = c.pos + 1;
          continue;
        }
        if (x.role == GroupInfo::Role::frame_end) {
          c.pos = end++;
          c.clock = end_clock_;
          c.clock[d] = c.pos + 1;
          continue;
        }
        const uint32_t p = x.passes[k - slot_first_[gi]];
        const size_t q = qi(exec_queue(g.passes[p]));
        c.queue = static_cast<uint32_t>(q);
        c.pos = s.pos[p] + (q == d ? shift : 0);
        c.clock = s.clock[p];
        if (c.clock[d] > 0) {
          c.clock[d] += shift;
          continue;
        }
        for (size_t k2 = 0; k2 < kQueues; ++k2) {  // knows the frame_start lists without a graphics pass?
          const uint32_t known = k2 == q ? s.pos[p] + 1 : s.clock[p][k2];
          if (k2 != d && start_first_[k2] != kNone && known > start_first_[k2]) c.clock[d] = shift;
        }
      }
    }
  }
  void merge_end(uint32_t p) {
    for (size_t k = 0; k < kQueues; ++k) end_clock_[k] = std::max(end_clock_[k], s_->clock[p][k]);
  }
  const Graph* g_ = nullptr;
  const Schedule* s_ = nullptr;
  const Transitions* t_ = nullptr;
  std::vector<uint32_t> slot_first_;
  bool one_queue_ = true;
  // Per queue: the position from which its passes are ordered after the frame_start list (kNone: none).
  std::array<uint32_t, kQueues> start_first_{};
  // Per queue: 1 + the last position the frame_end list is ordered after.
  std::array<uint32_t, kQueues> end_clock_{};
  struct SlotClock {
    uint32_t queue = 0, pos = 0;
    std::array<uint32_t, kQueues> clock{};
  };
  std::vector<SlotClock> at_;  // per slot
};

// Per subresource, the accesses an ordering check compares against: the last barrier or write, and
// the uses since (a use ordered before a later one is dropped: happens-before is transitive).
struct Access1 {
  uint32_t last_change = kNone;  // slot, kNone = none this frame
  std::vector<uint32_t> uses;    // slots
  friend bool operator==(const Access1&, const Access1&) = default;
};
// Per member, as runs over its run index (detail::run_order); reset() keeps every member's use vector.
using Accesses = detail::FlatRuns<Access1>;
// Both ordering records start over, every member one run of "nothing yet" over the replay's cells (the
// members' use vectors keep their storage).
void reset(Accesses& acc, Accesses& rest, const detail::States& st) {
  const uint32_t n = st.members();
  acc.reset(n);
  rest.reset(n);
  Access1* const a = acc.values();
  Access1* const r = rest.values();
  uint32_t* const as = acc.sizes();
  uint32_t* const rs = rest.sizes();
  const uint32_t* const cells = st.sizes();
  for (uint32_t m = 0; m < n; ++m) {
    as[m] = rs[m] = cells[m];
    a[m].last_change = r[m].last_change = kNone;
    a[m].uses.clear();
    r[m].uses.clear();
  }
}

bool at_rest(const State& st, const State& rest, bool buffer) {
  if (buffer) return true;  // buffers have no layout; their rest is "any access"
  if (st == kFirstTouch) return true;
  return st.layout == rest.layout && (st.access & ~rest.access) == 0 &&
         ((rest.sync & sync::all) || (st.sync & ~rest.sync) == 0);
}

// The final states phase's result against the replay's own final states (textures: a buffer's state
// after a first write without a barrier is the replay's guess, and a buffer is at rest in any state).
void compare_finals(const Transitions& t, const detail::States& st, const FinalStates& f,
                    std::vector<std::string>& out) {
  const size_t n = t.table.size();
  if (f.members() != n || f.cells.size() != n || f.split.size() != n || f.order.size() != n) {
    out.push_back(fmt::format("/resources: the final states have {} members, the frame has {}", f.members(), n));
    return;
  }
  const ResourceDesc* const descs = t.table.all().data();
  const uint32_t* const fsplit = f.split.data();
  const uint32_t* const fcells = f.cells.data();
  const State* const fstate = f.state.data();
  const uint32_t* const ssplit = st.splits();
  const uint32_t* const scells = st.sizes();
  const State* const svalue = st.values();
  // The usual case first, in a loop of its own: no member of the replay split, every member one state in
  // the final states too, of the same size and equal. The loop below starts at the first member that is not.
  ResourceId m0 = 0;
  if (st.none_split())
    for (; m0 < n; ++m0) {  // every field of the member at once (one branch, not one per field)
      const State &x = fstate[m0], &y = svalue[m0];
      const uint32_t diff = (fsplit[m0] ^ kNone) | (fcells[m0] ^ scells[m0]) | (x.sync ^ y.sync) |
                            (x.access ^ y.access) | (static_cast<uint32_t>(x.layout) ^ static_cast<uint32_t>(y.layout));
      if (diff != 0) break;
    }
  for (ResourceId m = m0; m < n && out.size() < 20; ++m) {
    const bool one = fsplit[m] == kNone;
    if (one && ssplit[m] == detail::States::kWhole && fcells[m] == scells[m] && fstate[m] == svalue[m])
      continue;  // the usual case: one state, the same
    const ResourceDesc& d = descs[m];
    if (d.type == ResourceType::buffer) continue;
    if (!one && f.split[m] >= f.runs.size()) {
      out.push_back(fmt::format("{}: resource '{}': the final states have no runs for it", member_pointer(t, m),
                                d.name));
      continue;
    }
    // Read in place: runs_of() would copy a split member's runs (a heap block per run, every compile).
    const Runs<State> one_run = one ? f.runs_of(m) : Runs<State>();  // one state: inline, no copy of runs
    const Runs<State>& fr = one ? one_run : f.runs[f.split[m]];
    if (fr.size() != st.size(m)) {
      out.push_back(fmt::format("{}: resource '{}': the final states have {} subresources, the resource {}",
                                member_pointer(t, m), d.name, fr.size(), st.size(m)));
      continue;
    }
    uint32_t least = kNone;
    State said{}, real{};
    st.for_each(m, [&](uint32_t first, uint32_t k, const State& x) {
      fr.for_each(first, first + k, [&](uint32_t a, uint32_t c, const State& y) {
        if (y == x) return;
        const uint32_t i = detail::least_subresource(d, a, a + c);
        if (i < least) {
          least = i;
          said = y;
          real = x;
        }
      });
    });
    if (least != kNone)
      out.push_back(fmt::format(
          "{}: resource '{}' subresource {}: the final states say {} but the barriers leave it in {}",
          member_pointer(t, m), d.name, least, to_string(said), to_string(real)));
  }
}

// What a use needs to find to be held for sure (holds_exactly): its one access bit, the sync it needs and
// the layout of that access (a texture's; a buffer's is none), per access and stage index (use_key): a
// table, so that the usual use costs one lookup instead of sync_of(), bit() and layout_of() with their
// tests. The sync and access are tested as the state's first eight bytes (sync, then access): those bytes
// masked by `mask` (the sync bits needed, every access bit) are `want` (the sync needed, the access bit).
struct alignas(32) UseKey {
  uint64_t mask = 0, want = 0;
  Layout layout[2] = {Layout::common, Layout::none};  // [texture, buffer]
};
static_assert(offsetof(State, sync) == 0 && offsetof(State, access) == 4 && sizeof(SyncMask) == 4 &&
              sizeof(AccessMask) == 4);
// The stage index of a use's stages: its low three bits, what sync_of() reads; index 0 holds what no
// stages means (every shading stage). Stages with no low bit but others (never valid) also read index 0,
// whose need then is more than sync_of()'s: the usual use may only be stricter than covers(), never laxer.
[[gnu::always_inline]] inline unsigned stage_index(Stages st) { return st & 7u; }
static_assert((core_detail::kShadingSync[0] & ~core_detail::kShadingSync[kAllShading]) == 0);
inline constexpr auto kUseKeys = [] {
  std::array<std::array<UseKey, 8>, kAccessCount> k{};
  for (unsigned a = 0; a < kAccessCount; ++a)
    for (unsigned i = 0; i < 8; ++i) {
      const Access x = static_cast<Access>(a);
      const SyncMask need =
          is_shader_access(x) ? core_detail::kShadingSync[i == 0 ? kAllShading : i] : core_detail::kSyncOfAccess[a];
      k[a][i].mask = uint64_t{need} | uint64_t{0xffffffffu} << 32;
      k[a][i].want = uint64_t{need} | uint64_t{bit(x)} << 32;
      k[a][i].layout[0] = layout_of(x);
    }
  return k;
}();
// Per resource, rebuilt from the declarations in one walk of the serial order, for the aliasing and
// takeover checks: the first serial index, the last user per queue and what every user knows complete
// per queue (aliasing); and the accesses no barrier of the resource's own orders after the others, its
// last user's or, when the frame ends on a run of passes that only read it, every read of that run
// (takeover: the previous occupants' last accesses).
struct UseFacts {
  uint32_t first = kNone;
  std::array<uint32_t, kQueues> last_pos{};
  std::array<uint32_t, kQueues> known{kNone, kNone, kNone};
  AccessMask access = 0;  // the last accesses before the last user's (last_accesses() folds that one in)
  SyncMask sync = 0;
  AccessMask pass_access = 0;  // the accesses of the last pass that uses the resource, not yet folded in
  SyncMask pass_sync = 0;
  uint32_t stamp = kNone;    // the serial index of that pass (kNone: no user yet)
  bool pass_writes = false;  // that pass writes the resource (any of its uses)
  bool reads = false;        // the last accesses are a run of reads, not a writer's
};
// Folds the last user's accesses into the last accesses: a writer, or a reader after a writer, starts
// them over; a reader after readers joins them.
inline void fold(UseFacts& x) {
  if (x.pass_writes || !x.reads) {
    x.access = x.pass_access;
    x.sync = x.pass_sync;
  } else {
    x.access |= x.pass_access;
    x.sync |= x.pass_sync;
  }
  x.reads = !x.pass_writes;
}
// The facts, in the caller's thread's scratch (valid until the next call on this thread). One walk over
// the uses: a pass's accesses of a resource gather in pass_access (whether it writes it is known only
// after its last use of it there) and fold into the last accesses when the next pass uses it (the last
// user's, never folded, are folded in by last_accesses()); the per-queue facts are taken at a pass's
// first use of the resource (the pass's values are the same for its other uses).
// A use's access bit and sync_of(), per access and sync_of()'s stage index, (stages or, for none, every
// shading stage) & 7: one lookup per use instead of bit() and sync_of() with their tests. An access out
// of range (never valid) takes the functions themselves.
struct UseBits {
  AccessMask access;
  SyncMask sync;
};
inline constexpr auto kUseBits = [] {
  std::array<std::array<UseBits, 8>, kAccessCount> k{};
  for (unsigned a = 0; a < kAccessCount; ++a)
    for (unsigned i = 0; i < 8; ++i) {
      const Access x = static_cast<Access>(a);
      // A stage index i is what sync_of() reads for stages i (and for none: index kAllShading).
      k[a][i] = {bit(x), sync_of(x, i == 0 ? Stages{8} : static_cast<Stages>(i))};
    }
  return k;
}();
[[gnu::always_inline]] constexpr UseBits use_bits(Access a, Stages st) {
  const unsigned i = static_cast<unsigned>(a);
  if (i >= kAccessCount) [[unlikely]]
    return {bit(a), sync_of(a, st)};
  return kUseBits[i][st == kNoStages ? kAllShading : st & 7u];
}
// The table is exactly bit() and sync_of() for every access and every stages value.
constexpr bool use_bits_exact() {
  for (unsigned a = 0; a < kAccessCount; ++a)
    for (unsigned st = 0; st < 256; ++st) {
      const Access x = static_cast<Access>(a);
      const UseBits u = use_bits(x, static_cast<Stages>(st));
      if (u.access != bit(x) || u.sync != sync_of(x, static_cast<Stages>(st))) return false;
    }
  return true;
}
static_assert(use_bits_exact());
// The last accesses of resource x once its last user's are folded in (as fold() would leave them): the
// walk leaves that last fold undone, so only the resources a takeover asks about pay for it.
inline UseBits last_accesses(const UseFacts& x) {
  if (x.stamp == kNone) return {x.access, x.sync};
  if (x.pass_writes || !x.reads) return {x.pass_access, x.pass_sync};
  return {x.access | x.pass_access, x.sync | x.pass_sync};
}
// The walk over the uses. kOrdered: every pass on one queue, positions ascending in serial order (the
// usual single-queue frame); then a resource's first user knows least of that queue and its last user
// ends last, so its facts there are its first user's position and its last user's end, with no min or
// max per use. (What a pass knows of another queue does not matter then: no resource has a user there,
// so the aliasing check compares it with nothing.) The kOrdered walk tests that as it goes and stops at
// the first pass that breaks it: it returns that pass's serial index (the passes before it have made
// their resources' facts), n when none does.
template <bool kOrdered>
uint32_t walk_uses(const Graph& g, const Schedule& s, UseFacts* const f) {
  static_assert(kQueues == 3, "known[] is merged queue by queue below");
  constexpr AccessMask kChanges = kWriteAccesses | bit(Access::present);  // what a pass "writes"
  const uint32_t n = static_cast<uint32_t>(s.serial.size());
  const uint32_t* const serial = s.serial.data();
  const Pass* const passes = g.passes.data();
  const size_t q0 = n == 0 ? 0 : qi(exec_queue(passes[serial[0]]));  // kOrdered: the one queue
  uint32_t next = 0;  // kOrdered: the least position the next pass may have
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t p = serial[i];
    const Pass& pass = passes[p];
    const size_t q = qi(exec_queue(pass));
    std::array<uint32_t, kQueues> kn = s.clock[p];  // what the pass knows complete when it starts
    kn[q] = s.pos[p];
    const uint32_t end = kn[q] + 1;
    if constexpr (kOrdered) {
      if (q != q0 || kn[q] < next) return i;  // not one queue in order: the caller walks again
      next = end;
    }
    for (const PassUse& u : pass.uses) {
      UseFacts& x = f[u.resource];
      const UseBits ub = use_bits(u.access, u.stages);
      const AccessMask a = ub.access;
      const SyncMask sy = ub.sync;
      const bool changes = (kChanges & a) != 0;
      if (x.stamp == i) {  // the pass's use of the resource again
        x.pass_access |= a;
        x.pass_sync |= sy;
        x.pass_writes |= changes;
        continue;
      }
      // The pass's first use of the resource: its accesses start with this one's.
      if (x.stamp == kNone) {
        x.first = i;
        if constexpr (kOrdered) x.known = kn;
      } else {
        fold(x);
      }
      x.stamp = i;
      x.pass_access = a;
      x.pass_sync = sy;
      x.pass_writes = changes;
      if constexpr (kOrdered) {
        x.last_pos[q] = end;
      } else {
        x.last_pos[q] = std::max(x.last_pos[q], end);
        x.known[0] = std::min(x.known[0], kn[0]);
        x.known[1] = std::min(x.known[1], kn[1]);
        x.known[2] = std::min(x.known[2], kn[2]);
      }
    }
  }
  return n;
}
const std::vector<UseFacts>& use_facts(const Graph& g, const Schedule& s) {
  thread_local std::vector<UseFacts> facts;
  const uint32_t nr = static_cast<uint32_t>(g.resources.size());
  facts.assign(nr, UseFacts{});
  UseFacts* const f = facts.data();
  const uint32_t stop = walk_uses<true>(g, s, f);
  if (stop != s.serial.size()) {  // several queues (or out of order): the resources touched so far start over
    for (uint32_t i = 0; i < stop; ++i)
      for (const PassUse& u : g.passes[s.serial[i]].uses) f[u.resource] = UseFacts{};
    walk_uses<false>(g, s, f);
  }
  return facts;
}

// Whether state st holds the use (its key, on a buffer or not) for sure: it is exactly the use's one
// access, with the sync it needs, in that access's layout (a buffer's: none). Sufficient for covers() (a
// read's layout there is read_layout_of(one bit), which is layout_of(it); a write's and present's is
// layout_of), not necessary: any other state asks covers().
[[gnu::always_inline]] inline bool holds_exactly(const State& st, const UseKey& k, bool buffer) {
  uint64_t sync_access;
  std::memcpy(&sync_access, &st, sizeof sync_access);
  return (sync_access & k.mask) == k.want && st.layout == k.layout[buffer];
}
// Per graph resource, for the walk's usual use: its one member, with kBufferBit set for a buffer; kNone for
// a set of several members (the full path).
inline constexpr uint32_t kBufferBit = 0x80000000u;

// The first of uses [ui, nu) of a pass, from ui on, that is not the usual case on one queue (one member in
// one state that is exactly the use's), or nu: the walk's inner loop, a
// function of its own so that its arrays stay in registers. On one queue the use's range does not matter
// here: every part of a member in one state that holds the use holds it (the full path would find the
// same run for every interval of the range, covered, and leave it as it was; the ranges are valid, the
// graph passed validate), and there are no ordering records to update per interval. A member that takes
// over memory needs no test here: it starts the frame untouched (kFirstTouch / kFirstTouchBuffer, no
// access) until its first barrier, which ends its pending takeover, so a use before that barrier never
// finds its state exact and goes to the full path, which reports it (takeover_use).
uint32_t usual_uses(const PassUse* const uses, uint32_t ui, const uint32_t nu, const uint32_t* const one,
                    const uint32_t* const split, const State* const value) {
  for (; ui < nu; ++ui) {
    const PassUse& u = uses[ui];
    const uint32_t w = one[u.resource];
    const uint32_t m = w & ~kBufferBit;
    const unsigned a = static_cast<unsigned>(u.access);
    if (!(w != kNone && a < kAccessCount && split[m] == detail::States::kWhole &&
          holds_exactly(value[m], kUseKeys[a][stage_index(u.stages)], (w & kBufferBit) != 0)))
      return ui;
  }
  return nu;
}

// What one walk of the barrier stream finds: the coverage check's findings, the resting check's and,
// when asked, the takeover check's.
struct WalkFindings {
  std::vector<std::string> coverage, resting, takeover;
};

// The scratch of that walk, per thread, its storage kept from call to call: no allocation in steady
// state but where members split into runs or findings are written.
struct WalkScratch {
  HappensBefore order;
  detail::States st;
  Accesses acc;   // coverage: last barrier or write, uses since
  Accesses rest;  // resting: last layout transition, uses no later use is ordered after
  std::vector<std::tuple<uint32_t, uint32_t, State>> failing;
  std::vector<uint8_t> reported;
  std::vector<uint32_t> over;  // takeover: per member, its alias barrier until its first barrier or use
  std::vector<uint32_t> one;   // per graph resource: its one member (kBufferBit: a buffer), kNone for a set
  std::vector<uint8_t> fast;   // several queues: per member, kFastWhole and kFastDies (see walk)
};

// The takeover check's input: the aliasing phase's barriers (which members take over memory, from
// whom) and the previous occupants' last accesses, rebuilt from the declarations (use_facts).
struct TakeoverInput {
  const Aliasing* a = nullptr;
  const std::vector<UseFacts>* last = nullptr;
};

// The coverage and resting checks in one replay of the barrier stream (their own: neither reads the
// final states phase's replay). With `finals` (check_resting's caller's FinalStates), the resting
// check also compares them with the replay: a final state that is not what the barriers leave is a
// finding, so a wrong final_states cannot pass for right. With `takeover`, the same walk finds each
// member that takes over memory at its first barrier (at a before point) or use in submission order
// and checks it there: a barrier whose before side covers the previous occupants' last accesses.
// The walk is one loop over the stream (no callbacks), so that the usual barrier (one whole member in
// one state) and the usual use (one member, used whole, in a state that holds it) cost a few loads and
// compares each.
WalkFindings walk(const Graph& g, const Schedule& s, const Transitions& t, const FinalStates* finals,
                  TakeoverInput takeover) {
  WalkFindings found;
  std::vector<std::string>& out = found.coverage;
  thread_local WalkScratch w;
  HappensBefore& order = w.order;
  order.reset(g, s, t);
  std::pair<uint32_t, uint32_t> reported{kNone, kNone};  // one finding per pair of lists
  const bool one_queue = order.one_queue();
  detail::States& st = w.st;
  Accesses& acc = w.acc;    // per subresource, what the ordering checks compare against
  Accesses& rest = w.rest;  // per subresource, the resting check's last transition and uses
  const ResourceDesc* const descs = t.table.all().data();
  const size_t members = t.table.size();

  // Takeover: per member, the index of its alias barrier while its first barrier or use is still to
  // come (kNone: none, or found).
  std::vector<uint32_t>& over_v = w.over;
  over_v.assign(members, kNone);
  uint32_t* const over = over_v.data();
  if (takeover.a)
    for (uint32_t k = 0; k < takeover.a->barriers.size(); ++k) {
      const uint32_t r = takeover.a->barriers[k].resource;
      for (uint32_t m = 0; m < g.resources[r].count; ++m) over[t.first_member[r] + m] = k;
    }
  auto list_name = [&](uint32_t gi, uint32_t li) {
    const uint32_t p = t.info[gi].passes[li];
    return p == kNone ? std::string(transition_list_name(t.info[gi].role)) : g.passes[p].name;
  };
  auto list_pointer = [&](uint32_t gi, uint32_t li, ResourceId m) {
    const uint32_t p = t.info[gi].passes[li];
    return p == kNone ? member_pointer(t, m) : pass_pointer(p);
  };
  auto previous_names = [&](const AliasBarrier& ab) {
    std::string n;
    for (uint32_t p : ab.previous) n += (n.empty() ? "'" : ", '") + g.resources[p].desc.name + "'";
    return n;
  };
  // Member b.resource's first barrier: its before side must cover the previous occupants' last accesses.
  auto takeover_report = [&](uint32_t gi, uint32_t li, const Barrier& b, const AliasBarrier& ab, SyncMask sy,
                             AccessMask a, bool layout_ok) __attribute__((noinline, cold)) {
    if (found.takeover.size() >= 20) return;
    found.takeover.push_back(
        fmt::format("{}: pass '{}', resource '{}': takes over the memory of {} but its first barrier "
                    "starts from {}, which does not cover their last accesses ({}){}",
                    list_pointer(gi, li, b.resource), list_name(gi, li), descs[b.resource].name,
                    previous_names(ab), to_string(b.before), to_string(State{sy, a, Layout::undefined}),
                    layout_ok ? "" : " from layout undefined"));
  };
  auto takeover_barrier = [&](uint32_t gi, uint32_t li, const Barrier& b) __attribute__((always_inline)) {
    const AliasBarrier& ab = takeover.a->barriers[over[b.resource]];
    over[b.resource] = kNone;
    AccessMask a = 0;
    SyncMask sy = 0;
    const UseFacts* const last = takeover.last->data();
    for (uint32_t p : ab.previous) {
      const UseBits x = last_accesses(last[p]);
      a |= x.access;
      sy |= x.sync;
    }
    const bool sync_ok = (b.before.sync & sync::all) || (sy & ~b.before.sync) == 0;
    const bool access_ok = (b.before.access & kAnyAccess) || (a & ~b.before.access) == 0;
    const bool layout_ok =
        b.before.layout == Layout::undefined || descs[b.resource].type == ResourceType::buffer;
    if (!sync_ok || !access_ok || !layout_ok) takeover_report(gi, li, b, ab, sy, a, layout_ok);
  };
  // Member m used before any barrier of it.
  auto takeover_use = [&](uint32_t gi, uint32_t li, ResourceId m) __attribute__((noinline)) {
    const AliasBarrier& ab = takeover.a->barriers[over[m]];
    over[m] = kNone;
    if (found.takeover.size() < 20)
      found.takeover.push_back(
          fmt::format("{}: pass '{}', resource '{}': takes over the memory of {} but is used with no barrier "
                      "ordering it after their last accesses",
                      list_pointer(gi, li, m), list_name(gi, li), descs[m].name, previous_names(ab)));
  };

  auto race_report = [&](uint32_t earlier, uint32_t later, const char* what, ResourceId m)
                         __attribute__((noinline, cold)) {
    if (reported == std::pair{earlier, later} || out.size() >= 20) return;
    reported = {earlier, later};
    out.push_back(
        fmt::format("{}: {}: {} on resource '{}' is not ordered after {}, which uses it (no wait between them)",
                    order.pointer(later, m), order.name(later), what, t.table[m].name, order.name(earlier)));
  };
  // The uses no later one than `slot` follows: those ordered before it are dropped (happens-before is
  // transitive), the others keep their order. In place, no call.
  auto drop_before = [&](std::vector<uint32_t>& uses, uint32_t slot) __attribute__((always_inline)) {
    uint32_t* const d = uses.data();
    const size_t n = uses.size();
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
      if (!order.before(d[i], slot)) d[k++] = d[i];
    if (k != n) uses.resize(k);
  };
  auto race = [&](uint32_t earlier, uint32_t later, const char* what, ResourceId m) __attribute__((always_inline)) {
    if (earlier == kNone || earlier == later || order.before(earlier, later)) return;
    race_report(earlier, later, what, m);
  };
  // f(first, n, Access1&) over the runs of [lo, hi) of member m in `runs`: in place when the member is
  // one run and the interval all of it (what FlatRuns::update does then, without the calls).
  auto each = [](Accesses& runs, ResourceId m, uint32_t lo, uint32_t hi, auto&& f) {
    if (Access1* a = runs.whole_value(m); a && lo == 0 && hi >= runs.size(m))
      f(0u, runs.size(m), *a);
    else
      runs.update(m, lo, hi, f);
  };
  // A barrier or a write: after the last change and every use since; it becomes the last change.
  // (Subresources [lo, hi) of member m.)
  auto change = [&](uint32_t slot, ResourceId m, uint32_t lo, uint32_t hi, const char* what) {
    each(acc, m, lo, hi, [&](uint32_t, uint32_t, Access1& a) {
      race(a.last_change, slot, what, m);
      for (uint32_t u : a.uses) race(u, slot, what, m);
      a.last_change = slot;
      a.uses.clear();
    });
  };
  // A read: after the last change; it joins the uses.
  auto read = [&](uint32_t slot, ResourceId m, uint32_t lo, uint32_t hi) {
    each(acc, m, lo, hi, [&](uint32_t, uint32_t, Access1& a) {
      race(a.last_change, slot, "a read", m);
      std::erase_if(a.uses, [&](uint32_t u) { return order.before(u, slot); });
      a.uses.push_back(slot);
    });
  };
  // Any use, for the resting check: it joins the uses.
  auto rest_use = [&](uint32_t slot, ResourceId m, uint32_t lo, uint32_t hi) {
    each(rest, m, lo, hi, [&](uint32_t, uint32_t, Access1& a) {
      std::erase_if(a.uses, [&](uint32_t x) { return order.before(x, slot); });
      a.uses.push_back(slot);
    });
  };
  // Barrier b of list li of group gi, applied to subresources [first, first + n) of its member, in
  // state `cur` before it.
  auto on_barrier = [&](uint32_t gi, uint32_t li, const Barrier& b, const State& cur, uint32_t first,
                        uint32_t n) __attribute__((always_inline)) {
    // A layout transition (or a discard) writes the memory; a barrier that keeps the layout only
    // orders accesses, which the uses' own checks see.
    if (!one_queue && (b.before.layout != b.after.layout || b.discard)) {
      const uint32_t slot = order.slot(gi, li);
      change(slot, b.resource, first, first + n, "a layout transition");
      each(rest, b.resource, first, first + n, [&](uint32_t, uint32_t, Access1& a) { a.last_change = slot; });
    }
    // A barrier must start from the layout the subresource is really in (a discard may start anywhere).
    if (b.discard || b.before.layout == cur.layout || cur == kFirstTouch) return;
    const uint32_t p = t.info[gi].passes[li];
    for (uint32_t i = 0; i < n && out.size() <= 20; ++i)  // one finding per subresource
      out.push_back(
          fmt::format("{}: pass '{}', resource '{}': barrier starts from layout {} but the resource is in {}",
                      p == kNone ? member_pointer(t, b.resource) : pass_pointer(p),
                      p == kNone ? std::string(transition_list_name(t.info[gi].role)) : g.passes[p].name,
                      t.table[b.resource].name, to_string(b.before.layout), to_string(cur.layout)));
  };
  // The replay's flat arrays (they stay put until the next reset): member m's state is value[m] while
  // split[m] is kWhole.
  detail::replay_start(t, st);
  State* const value = st.values();
  const uint32_t* const split = st.splits();
  const uint32_t* const cells = st.sizes();
  // Several queues: per member one byte that the usual barrier and use test instead of three split
  // arrays and the history: kFastWhole while its state, its coverage record and (unless it dies) its
  // resting record are each one run; kFastDies when it dies after its last use (no resting record to
  // keep). Only barrier() and use() split or merge runs: each refreshes the bytes of the members it
  // touched. (nullptr on one queue: no ordering records.)
  constexpr uint8_t kFastWhole = 1, kFastDies = 2;
  uint8_t* fast = nullptr;
  auto refresh = [&](ResourceId m) {
    if (!fast) return;
    const bool dies = t.history_in[m].dies;
    const bool whole = st.is_whole(m) && acc.is_whole(m) && (dies || rest.is_whole(m));
    fast[m] = static_cast<uint8_t>((whole ? kFastWhole : 0) | (dies ? kFastDies : 0));
  };
  // One barrier in full (the hot loop below takes the usual one itself), after the takeover check: it
  // applies run by run.
  auto barrier = [&](uint32_t gi, uint32_t li, const Barrier& b) __attribute__((noinline)) {
    const ResourceId m = b.resource;
    if (split[m] == detail::States::kWhole && detail::whole_barrier(descs[m], b)) {
      on_barrier(gi, li, b, value[m], 0u, cells[m]);
      value[m] = b.after;
      refresh(m);
      return;
    }
    detail::for_each_barrier_interval(descs[m], b, [&](uint32_t lo, uint32_t hi) {
      st.update(m, lo, hi, [&](uint32_t first, uint32_t n, State& x) {
        on_barrier(gi, li, b, x, first, n);
        x = b.after;
      });
    });
    refresh(m);
  };
  // Runs (first, end, state) of one member that a use finds not covered; what room is left for findings.
  std::vector<std::tuple<uint32_t, uint32_t, State>>& failing = w.failing;
  auto room = [&] { return out.size() < 20 ? 20 - out.size() : size_t{0}; };
  // One use of pass p (its use ui) in full: the ordering checks' records, every member and interval,
  // a buffer's first write, the findings.
  auto use = [&](uint32_t p, const Pass& pass, uint32_t ui, uint32_t slot) {
    const PassUse& u = pass.uses[ui];
    const Resource& res = g.resources[u.resource];
    const bool buffer = res.desc.type == ResourceType::buffer;
    const bool writes = is_write(u.access) || u.access == Access::present;
    // The state x of subresources [first, first + n): a buffer nobody touched yet needs nothing before
    // its first write; otherwise x must hold the use.
    auto check = [&](uint32_t first, uint32_t n, State& x) {
      if (buffer && x == kFirstTouchBuffer && is_write(u.access)) {
        x = state_of_use(res.desc, u.access, u.stages);
        return;
      }
      if (!covers(x, u.access, u.stages, buffer)) failing.emplace_back(first, first + n, x);
    };
    for (uint32_t m = 0; m < res.count; ++m) {
      const ResourceId id = t.first_member[u.resource] + m;
      failing.clear();
      auto interval = [&](uint32_t lo, uint32_t hi) {
        if (!one_queue) {
          if (writes)
            change(slot, id, lo, hi, "a write");
          else
            read(slot, id, lo, hi);
          rest_use(slot, id, lo, hi);
        }
        st.update(id, lo, hi, check);
      };
      detail::for_each_use_interval(res.desc, u.range, interval);
      if (failing.empty()) continue;
      // Findings per subresource, in subresource index order (the runs are in run order).
      detail::for_each_subresource_ascending(
          t.table[id], failing, room(), [&](uint32_t i, const State& x) {
            const detail::Sub3 sub = detail::sub3(t.table[id], i);
            out.push_back(fmt::format(
                "/passes/{}/uses/{}: pass '{}', resource '{}' mip {} layer {} plane {}: use {} "
                "in {} not covered (state {})",
                p, ui, pass.name, t.table[id].name, sub.mip, sub.layer, sub.plane, to_string(u.access),
                u.stages ? stages_to_string(u.stages) : std::string("-"), to_string(x)));
          });
    }
  };
  // The uses of list li of group gi, a frame_start / frame_end transition list: its own, already per
  // member (a pass list's are its pass's, below).
  auto frame_uses = [&](uint32_t gi, uint32_t li) __attribute__((noinline)) {
    for (const Use& u : t.groups[gi]->lists()[li]->ops().front().uses) {
      if (over[u.resource] != kNone) takeover_use(gi, li, u.resource);
      const ResourceDesc& d = t.table[u.resource];
      failing.clear();
      st.for_each(u.resource, [&](uint32_t first, uint32_t n, const State& x) {
        if (!covers(x, u.access, u.stages, false)) failing.emplace_back(first, first + n, x);
      });
      if (failing.empty()) continue;
      detail::for_each_subresource_ascending(d, failing, room(), [&](uint32_t i, const State& x) {
        const detail::Sub3 sub = detail::sub3(d, i);
        out.push_back(fmt::format("{}: {}, resource '{}' mip {} layer {} plane {}: state {} does not hold {}",
                                  member_pointer(t, u.resource), transition_list_name(t.info[gi].role),
                                  d.name, sub.mip, sub.layer, sub.plane, to_string(x), to_string(u.access)));
      });
    }
  };
  // Use ui of pass p (list li of group gi) in full: a member's first use, before any barrier of it, is
  // a takeover finding; then the use itself.
  auto pass_use = [&](uint32_t gi, uint32_t li, uint32_t p, uint32_t ui) __attribute__((noinline)) {
    const Pass& pass = g.passes[p];
    const uint32_t r = pass.uses[ui].resource;
    for (uint32_t m = 0; m < g.resources[r].count; ++m)
      if (over[t.first_member[r] + m] != kNone) takeover_use(gi, li, t.first_member[r] + m);
    use(p, pass, ui, one_queue ? 0 : order.slot(gi, li));
    for (uint32_t m = 0; m < g.resources[r].count; ++m) refresh(t.first_member[r] + m);
  };
  // One queue: a use that is not the usual one (a read in a state that holds other reads too, a set of
  // members, a buffer's first write) but that the full path would leave as it is, with no finding: every
  // member one run with no takeover pending, each in a state that holds the use (covers()) or, for a
  // buffer nobody touched yet that the use writes whole, made the use's state as use() does. The members
  // are all asked before any is written, so a use this turns down reaches pass_use() unchanged.
  auto held_use = [&](const PassUse& u) __attribute__((noinline)) {
    if (static_cast<unsigned>(u.access) >= kAccessCount) return false;
    const Resource& res = g.resources[u.resource];
    const bool buffer = res.desc.type == ResourceType::buffer;
    const bool first_write = buffer && is_write(u.access) && is_whole(u.range);
    const ResourceId m0 = t.first_member[u.resource], m1 = m0 + res.count;
    bool writes = false;
    for (ResourceId m = m0; m < m1; ++m) {
      if (split[m] != detail::States::kWhole || over[m] != kNone) return false;
      if (first_write && value[m] == kFirstTouchBuffer)
        writes = true;
      else if (!covers(value[m], u.access, u.stages, buffer))
        return false;
    }
    if (writes)
      for (ResourceId m = m0; m < m1; ++m)
        if (value[m] == kFirstTouchBuffer) value[m] = state_of_use(res.desc, u.access, u.stages);
    return true;
  };
  if (!one_queue) {
    reset(acc, rest, st);
    w.fast.resize(members);
    fast = w.fast.data();
    for (ResourceId m = 0; m < members; ++m) refresh(m);
  }
  // The stream, in submission order: per list its before points, its operation, its after points. A
  // member's first barrier at a before point is checked as its takeover barrier first. The usual barrier
  // (one whole member in one state, starting from the layout it is in, one queue) and the usual use (one
  // member, used whole, no takeover pending, one state that holds it, one queue) are decided here;
  // anything else goes to barrier() and pass_use(), which give them the same answer. The arrays are
  // copied into locals for the loop (and passed to usual_uses), so that they can stay in registers.
  {
    State* const V = value;
    const uint32_t* const S = split;
    const uint32_t* const O = over;
    const ResourceDesc* const D = descs;
    std::vector<uint32_t>& one_v = w.one;
    one_v.resize(g.resources.size());
    for (uint32_t r = 0; r < one_v.size(); ++r) {
      const Resource& res = g.resources[r];
      one_v[r] = res.count != 1 ? kNone
                                : t.first_member[r] | (res.desc.type == ResourceType::buffer ? kBufferBit : 0u);
    }
    const uint32_t* const N = one_v.data();
    const Pass* const P = g.passes.data();
    const bool oq = one_queue;
    // Several queues: the ordering records' flat arrays (they stay put until the next reset).
    Access1* const AV = acc.values();
    Access1* const RV = rest.values();
    uint8_t* const F = fast;
    auto point = [&](uint32_t gi, uint32_t li, const Barrier* b, const Barrier* const e, bool before)
        __attribute__((always_inline)) {
      for (; b != e; ++b) {
        const ResourceId m = b->resource;
        if (m == kGlobalResource) continue;
        if (before && O[m] != kNone) takeover_barrier(gi, li, *b);
        if (S[m] == detail::States::kWhole && detail::whole_barrier(D[m], *b) &&
            (b->before.layout == V[m].layout || b->discard)) {
          if (oq) {
            V[m] = b->after;
            continue;
          }
          // Several queues: the ordering records of a whole member, in place (change() and the resting
          // record's last transition without the run machinery).
          const uint8_t fm = F[m];
          if (fm & kFastWhole) {
            if (b->before.layout != b->after.layout || b->discard) {
              Access1* const a = AV + m;
              const uint32_t slot = order.slot(gi, li);
              race(a->last_change, slot, "a layout transition", m);
              for (uint32_t x : a->uses) race(x, slot, "a layout transition", m);
              a->last_change = slot;
              a->uses.clear();
              if (!(fm & kFastDies)) RV[m].last_change = slot;
            }
            V[m] = b->after;
            continue;
          }
        }
        barrier(gi, li, *b);
      }
    };
    for (uint32_t gi = 0; gi < t.compiled.size(); ++gi) {
      const GroupArray<CompiledList>& lists = t.compiled[gi].lists;
      const uint32_t* const passes = t.info[gi].passes.data();
      const uint32_t nl = static_cast<uint32_t>(lists.size());
      for (uint32_t li = 0; li < nl; ++li) {
        const CompiledList& cl = lists[li];
        const Barrier* const bs = cl.barriers.data();
        const BarrierPoint* pt = cl.points.data();
        const BarrierPoint* const pe = pt + cl.points.size();
        for (; pt != pe && pt->where == Where::before; ++pt)
          point(gi, li, bs + pt->first, bs + pt->first + pt->count, true);
        const uint32_t p = passes[li];
        if (p == kNone) {
          frame_uses(gi, li);
        } else {
          const PassUse* const ub = P[p].uses.data();
          const uint32_t nu = static_cast<uint32_t>(P[p].uses.size());
          if (!oq) {
            const uint32_t slot = order.slot(gi, li);
            for (uint32_t ui = 0; ui < nu; ++ui) {
              // Several queues: the usual use (one member, used whole, in one state that is exactly the
              // use's, whole ordering records) updates the records in place; the rest, and a use that needs
              // more, go to pass_use(), which gives it the same answer (a pending takeover cannot be exact:
              // see usual_uses). A member that dies after its last use has no resting record to keep.
              const PassUse& u = ub[ui];
              const uint32_t wd = N[u.resource];
              const ResourceId m = wd & ~kBufferBit;
              const unsigned ax = static_cast<unsigned>(u.access);
              if (!(wd != kNone && ax < kAccessCount && (F[m] & kFastWhole) && is_whole(u.range) &&
                    holds_exactly(V[m], kUseKeys[ax][stage_index(u.stages)], (wd & kBufferBit) != 0))) {
                pass_use(gi, li, p, ui);
                continue;
              }
              Access1* const a = AV + m;
              Access1* const r = (F[m] & kFastDies) ? nullptr : RV + m;
              if (is_write(u.access) || u.access == Access::present) {
                race(a->last_change, slot, "a write", m);
                for (uint32_t x : a->uses) race(x, slot, "a write", m);
                a->last_change = slot;
                a->uses.clear();
              } else {
                race(a->last_change, slot, "a read", m);
                drop_before(a->uses, slot);
                a->uses.push_back(slot);
              }
              if (r) {
                drop_before(r->uses, slot);
                r->uses.push_back(slot);
              }
            }
          } else {
            for (uint32_t ui = 0; (ui = usual_uses(ub, ui, nu, N, S, V)) < nu; ++ui)
              if (!held_use(ub[ui])) pass_use(gi, li, p, ui);
          }
        }
        for (; pt != pe; ++pt)
          point(gi, li, bs + pt->first, bs + pt->first + pt->count, pt->where == Where::before);
      }
    }
  }

  // Resting: every member that outlives the frame ends it at rest (the replay's own final states).
  std::vector<std::string>& rout = found.resting;
  std::vector<uint8_t>& rep = w.reported;
  rep.assign(members, 0);
  const ResourceHistory* const history = t.history_in.data();
  for (ResourceId m = 0; m < members; ++m) {
    if (history[m].dies) continue;  // a transient: its memory goes elsewhere after its last use
    const ResourceDesc& d = descs[m];
    if (d.type == ResourceType::buffer) continue;  // at rest whatever the state (at_rest)
    const State rs = resting_state(d);
    if (split[m] == detail::States::kWhole && at_rest(value[m], rs, false)) continue;  // the usual case
    // The least subresource index not at rest (the runs are in run order).
    uint32_t least = kNone;
    State least_st{};
    st.for_each(m, [&](uint32_t first, uint32_t n, const State& x) {
      if (at_rest(x, rs, false)) return;
      const uint32_t i = detail::least_subresource(d, first, first + n);
      if (i < least) {
        least = i;
        least_st = x;
      }
    });
    if (least != kNone) {
      rout.push_back(fmt::format("{}: resource '{}' subresource {}: ends the frame in {}, not at rest ({})",
                                 member_pointer(t, m), d.name, least, to_string(least_st), to_string(rs)));
      rep[m] = 1;
    }
  }
  if (finals) compare_finals(t, st, *finals, rout);
  // The layout transition that leaves a subresource in its final state must be ordered after every use of it:
  // a use on another queue the restore does not wait for may still run (in the state it left) after it.
  if (one_queue) return found;  // one queue: its order is the submission order
  for (ResourceId m = 0; m < t.table.size() && rout.size() < 20; ++m) {
    if (t.history_in[m].dies || rep[m]) continue;
    // The least subresource index with a finding (the runs are in run order).
    uint32_t least = kNone, least_lb = kNone, least_use = kNone;
    rest.for_each(m, [&](uint32_t first, uint32_t n, const Access1& a) {
      const uint32_t lb = a.last_change;
      if (lb == kNone) return;
      const auto it = std::find_if(a.uses.begin(), a.uses.end(),
                                   [&](uint32_t x) { return x < lb && !order.before(x, lb); });
      if (it == a.uses.end()) return;
      const uint32_t i = detail::least_subresource(t.table[m], first, first + n);
      if (i < least) {
        least = i;
        least_lb = lb;
        least_use = *it;
      }
    });
    if (least != kNone)
      rout.push_back(fmt::format(
          "{}: resource '{}' subresource {}: {} leaves it in its final state but is not ordered "
          "after {}, which uses it",
          member_pointer(t, m), t.table[m].name, least, order.name(least_lb), order.name(least_use)));
  }
  return found;
}

}  // namespace

std::vector<std::string> check_coverage(const Graph& g, const Schedule& s, const Transitions& t) {
  return walk(g, s, t, nullptr, {}).coverage;
}

std::vector<std::string> check_resting(const Graph& g, const Schedule& s, const Transitions& t,
                                       const FinalStates& f) {
  return walk(g, s, t, &f, {}).resting;
}

namespace {

// Memory as segments [lo, hi), each with its last occupant so far (ascending, disjoint; gaps are
// memory nobody occupied yet): the scratch of no_aliasing_findings.
struct Occupied {
  uint64_t lo, hi;
  uint32_t resource;
};
// Whether resource y's users all start after every last access of resource x completes (what every
// user of y knows on each queue covers x's last access there): the one ordering rule for memory that x
// and y share, in both aliasing paths below.
[[gnu::always_inline]] inline bool ordered_after(const UseFacts* f, uint32_t x, uint32_t y) {
  for (size_t k = 0; k < kQueues; ++k)
    if (f[y].known[k] < f[x].last_pos[k]) return false;
  return true;
}
// More segments than this: no_aliasing_findings gives up (each placement may move them all).
inline constexpr size_t kMaxOccupied = 256;
// Whether aliasing_findings finds nothing, proved in one sweep over the placements when they come in
// strictly increasing order of first use (the usual case; false otherwise, and wherever it is not sure,
// for aliasing_findings to decide). Then the resources covering a piece of memory, ordered by first use,
// are the placements over it in placement order, so the one before a placement there is the piece's last
// occupant so far: each placement is asked to be ordered after every occupant of its memory, then
// occupies it. Exactly the pairs aliasing_findings asks (each elementary interval's neighbours by first
// use), so no finding there iff every pair here is ordered.
bool no_aliasing_findings(const Aliasing& a, const std::vector<UseFacts>& us) {
  thread_local std::vector<Occupied> seg_v;
  std::vector<Occupied>& seg = seg_v;
  seg.clear();
  const UseFacts* const f = us.data();
  uint32_t prev = 0;  // the previous placement's first use
  bool any = false;
  for (const Placement& p : a.placements) {
    const uint32_t y = p.resource;
    const uint32_t fy = f[y].first;
    if (any && fy <= prev) return false;  // a tie or out of order: the sort decides
    any = true;
    prev = fy;
    if (p.size == 0) continue;  // covers no memory
    const uint64_t lo = p.offset, hi = p.offset + p.size;
    // The segments [i, j) that meet [lo, hi).
    const Occupied* const o = seg.data();
    const size_t ns = seg.size();
    size_t i = 0;  // the first segment that ends after lo (binary search: they ascend)
    for (size_t c = ns; c > 0;) {
      const size_t half = c / 2;
      if (o[i + half].hi <= lo) {
        i += half + 1;
        c -= half + 1;
      } else {
        c = half;
      }
    }
    size_t j = i;
    uint32_t asked = kNone;
    for (; j < ns && o[j].lo < hi; ++j) {
      const uint32_t x = o[j].resource;
      if (x == asked) continue;
      if (!ordered_after(f, x, y)) return false;
      asked = x;
    }
    // The usual case: it covers the one segment it meets (the same memory again): that segment is its.
    if (j == i + 1 && o[i].lo >= lo && o[i].hi <= hi) {
      seg[i] = {lo, hi, y};
      continue;
    }
    // [i, j) becomes: what sticks out on the left, the placement, what sticks out on the right.
    Occupied put[3];
    size_t n = 0;
    if (i < j && seg[i].lo < lo) put[n++] = {seg[i].lo, lo, seg[i].resource};
    put[n++] = {lo, hi, y};
    if (i < j && seg[j - 1].hi > hi) put[n++] = {hi, seg[j - 1].hi, seg[j - 1].resource};
    const size_t had = j - i;
    if (n > had) {
      if (seg.size() + (n - had) > kMaxOccupied) return false;
      seg.insert(seg.begin() + static_cast<std::ptrdiff_t>(j), n - had, Occupied{});
    } else if (n < had) {
      seg.erase(seg.begin() + static_cast<std::ptrdiff_t>(i + n), seg.begin() + static_cast<std::ptrdiff_t>(j));
    }
    std::copy(put, put + n, seg.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return true;
}

std::vector<std::string> aliasing_findings(const Graph& g, const Aliasing& a,
                                           const std::vector<UseFacts>& us) {
  std::vector<std::string> out;
  if (no_aliasing_findings(a, us)) return out;
  // Scratch per thread, storage kept from call to call.
  thread_local struct {
    std::vector<uint64_t> cuts;
    std::vector<uint32_t> cover_first, first_cut, end_cut, cover, fill, ok_after;
  } w;
  auto ordered = [f = us.data()](uint32_t x, uint32_t y) { return ordered_after(f, x, y); };
  // Elementary memory intervals; the resources covering each, ordered by first use, must form a chain.
  // Placements reuse the same few offsets over and over, so a small direct-mapped memo of values
  // already collected drops most repeats before the sort (which dominated at 100k placements).
  // Exact: a value is skipped only when it is already in `cuts`; sort + unique still decide.
  std::vector<uint64_t>& cuts = w.cuts;
  cuts.clear();
  std::array<uint64_t, 256> memo{};
  std::array<bool, 256> memo_used{};
  auto add_cut = [&](uint64_t x) __attribute__((always_inline)) {
    const size_t h = static_cast<size_t>(((x / kPlacementAlignment) * 0x9E3779B97F4A7C15ull) >> 56);
    if (memo_used[h] && memo[h] == x) return;
    memo_used[h] = true;
    memo[h] = x;
    cuts.push_back(x);
  };
  for (const Placement& p : a.placements) {
    add_cut(p.offset);
    add_cut(p.offset + p.size);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  // The resources covering each elementary interval k, in placement order, in CSR form:
  // cover[cover_first[k] .. cover_first[k + 1]). One allocation instead of one vector per interval.
  // Placement i covers the intervals [first_cut[i], end_cut[i]): its offset's and its end's index among
  // the cuts, found through the memo (now holding each cut's index) or, where it misses, a binary search.
  const size_t intervals = cuts.empty() ? 0 : cuts.size() - 1;
  std::vector<uint32_t>&cover_first = w.cover_first, &first_cut = w.first_cut, &end_cut = w.end_cut;
  const size_t np = a.placements.size();
  cover_first.assign(intervals + 1, 0);
  first_cut.resize(np);
  end_cut.resize(np);
  std::array<uint32_t, 256> memo_index{};
  memo_used.fill(false);
  for (uint32_t k = 0; k < cuts.size(); ++k) {
    const size_t h = static_cast<size_t>(((cuts[k] / kPlacementAlignment) * 0x9E3779B97F4A7C15ull) >> 56);
    memo_used[h] = true;
    memo[h] = cuts[k];
    memo_index[h] = k;
  }
  auto cut_index = [&](uint64_t x) __attribute__((always_inline)) {
    const size_t h = static_cast<size_t>(((x / kPlacementAlignment) * 0x9E3779B97F4A7C15ull) >> 56);
    if (memo_used[h] && memo[h] == x) return memo_index[h];
    return static_cast<uint32_t>(std::lower_bound(cuts.begin(), cuts.end(), x) - cuts.begin());
  };
  // Counts per interval from a difference array (each placement adds one over its run of intervals).
  for (size_t i = 0; i < np; ++i) {
    const Placement& p = a.placements[i];
    first_cut[i] = cut_index(p.offset);
    end_cut[i] = p.size == 0 ? first_cut[i] : cut_index(p.offset + p.size);
    if (first_cut[i] < end_cut[i]) {
      ++cover_first[first_cut[i] + 1];
      if (end_cut[i] < intervals) --cover_first[end_cut[i] + 1];
    }
  }
  for (size_t k = 1; k < intervals; ++k) cover_first[k + 1] += cover_first[k];  // counts
  for (size_t k = 0; k < intervals; ++k) cover_first[k + 1] += cover_first[k];  // offsets
  std::vector<uint32_t>& cover = w.cover;
  cover.resize(cover_first[intervals]);
  {
    std::vector<uint32_t>& fill = w.fill;
    fill.assign(cover_first.begin(), cover_first.end() - 1);
    for (size_t i = 0; i < np; ++i) {
      const uint32_t r = a.placements[i].resource;
      for (uint32_t k = first_cut[i]; k < end_cut[i]; ++k) cover[fill[k]++] = r;
    }
  }
  auto by_first = [&](uint32_t x, uint32_t y) { return us[x].first < us[y].first; };
  // Per resource y, a resource x already found ordered before it: the same pair in the next interval (a
  // placement spans several) is not asked again (ordered() of a pair is always the same answer).
  std::vector<uint32_t>& ok_after = w.ok_after;
  ok_after.assign(us.size(), kNone);
  auto ordered_once = [&](uint32_t x, uint32_t y) {
    if (ok_after[y] == x) return true;
    if (!ordered(x, y)) return false;
    ok_after[y] = x;
    return true;
  };
  for (size_t k = 0; k < intervals && out.size() < 20; ++k) {
    uint32_t* const c = cover.data() + cover_first[k];
    const size_t n = cover_first[k + 1] - cover_first[k];
    // Placements usually come in order of first use already. A sequence strictly increasing by
    // first use is the only order std::sort can produce, so the sort is skipped (and the pairs are
    // checked in the same loop); otherwise (ties or disorder) the same std::sort on the same sequence
    // keeps the findings text identical.
    size_t bad = 0;  // the first pair (c[bad - 1], c[bad]) not ordered, 0: none
    size_t i = 1;
    for (; i < n && by_first(c[i - 1], c[i]); ++i)
      if (bad == 0 && !ordered_once(c[i - 1], c[i])) bad = i;
    if (i < n) {
      std::sort(c, c + n, by_first);
      bad = 0;
      for (i = 1; i < n && bad == 0; ++i)
        if (!ordered_once(c[i - 1], c[i])) bad = i;
    }
    if (bad != 0)
      out.push_back(fmt::format("{}: resources '{}' and '{}' share memory at offset {} but may be live together",
                                resource_pointer(c[bad]), g.resources[c[bad - 1]].desc.name,
                                g.resources[c[bad]].desc.name, cuts[k]));
  }
  return out;
}

}  // namespace

std::vector<std::string> check_takeover(const Graph& g, const Schedule& s, const Aliasing& a,
                                        const Transitions& t) {
  if (a.barriers.empty()) return {};
  return walk(g, s, t, nullptr, {&a, &use_facts(g, s)}).takeover;
}

std::vector<std::string> check_aliasing(const Graph& g, const Schedule& s, const Aliasing& a) {
  return aliasing_findings(g, a, use_facts(g, s));
}

std::vector<std::string> check_serial_order(const Graph& g, const Validated& v, const CullResult& c,
                                            const Schedule& s) {
  std::vector<std::string> out;
  const size_t np = g.passes.size();
  // Scratch per thread, storage kept from call to call.
  thread_local struct {
    std::vector<uint32_t> at, pos, wait_first, waits, fill;
    std::vector<uint8_t> queue;
    std::vector<std::array<uint32_t, kQueues>> done;
  } w;
  std::vector<uint32_t>& at = w.at;
  at.assign(np, kNone);
  std::vector<uint8_t>& queue = w.queue;  // per scheduled pass: the queue it executes on
  queue.resize(np);
  unsigned queues = 0;  // the queues the scheduled passes execute on, one bit each
  const uint8_t* const live = c.live.data();
  for (uint32_t i = 0; i < s.serial.size(); ++i) {
    const uint32_t p = s.serial[i];
    if (p >= np || !live[p] || at[p] != kNone) {
      out.push_back(fmt::format("{}: serial position {}: pass #{} is culled, unknown or listed twice",
                                p < np ? pass_pointer(p) : std::string("/passes"), i, p));
      return out;
    }
    at[p] = i;
    const size_t q = qi(exec_queue(g.passes[p]));
    queue[p] = static_cast<uint8_t>(q);
    queues |= 1u << q;
  }
  // Every pass scheduled once (none twice, none culled: checked above): every pass is live and scheduled,
  // so neither the scan for an unscheduled live pass nor the edges' liveness tests below can find one.
  const bool all_live = s.serial.size() == np;
  if (!all_live)
    for (uint32_t p = 0; p < np; ++p)
      if (live[p] && at[p] == kNone)
        out.push_back(fmt::format("{}: pass '{}' is live but not scheduled", pass_pointer(p), g.passes[p].name));
  if (!out.empty()) return out;
  // Every wait follows its signal.
  auto wait_ok = [&](const Sync& y) { return at[y.signal] != kNone && at[y.wait] != kNone && at[y.signal] < at[y.wait]; };
  bool waits_ok = true;  // every wait follows its signal: the loops below need not ask again
  for (const Sync& y : s.syncs)
    if (!wait_ok(y)) {
      waits_ok = false;
      out.push_back(fmt::format("{}: wait of pass '{}' for pass '{}' does not follow its signal in the serial order",
                                pass_pointer(y.wait), g.passes[y.wait].name, g.passes[y.signal].name));
    }
  // Every pass on one queue: queue order is the serial order, so every dependency the serial order keeps
  // is kept; the cross-queue clocks below are needed only with several queues.
  const bool one_queue = (queues & (queues - 1)) == 0;
  std::vector<uint32_t>& pos = w.pos;
  std::vector<std::array<uint32_t, kQueues>>& done = w.done;
  if (!one_queue) {
    // Queue order and waits, rebuilt: per pass, per queue, how many passes of that queue are complete.
    std::array<uint32_t, kQueues> count{};
    pos.assign(np, kNone);
    done.resize(np);  // every scheduled pass's entry is written before it is read
    std::array<std::array<uint32_t, kQueues>, kQueues> last{};
    // Per waiting pass, the passes it waits for, in CSR form (one allocation, not one vector per pass).
    std::vector<uint32_t>& wait_first = w.wait_first;
    wait_first.assign(np + 1, 0);
    for (const Sync& y : s.syncs)
      if (waits_ok || wait_ok(y)) ++wait_first[y.wait + 1];
    for (size_t p = 0; p < np; ++p) wait_first[p + 1] += wait_first[p];
    std::vector<uint32_t>& waits = w.waits;
    waits.resize(wait_first[np]);
    {
      std::vector<uint32_t>& fill = w.fill;
      fill.assign(wait_first.begin(), wait_first.end() - 1);
      for (const Sync& y : s.syncs)
        if (waits_ok || wait_ok(y)) waits[fill[y.wait]++] = y.signal;
    }
    for (uint32_t p : s.serial) {
      const size_t q = queue[p];
      pos[p] = count[q]++;
      std::array<uint32_t, kQueues> d = last[q];
      for (uint32_t i = wait_first[p]; i < wait_first[p + 1]; ++i)
        for (size_t k = 0; k < kQueues; ++k) d[k] = std::max(d[k], done[waits[i]][k]);
      d[q] = pos[p] + 1;
      done[p] = d;
      last[q] = d;
    }
  }
  auto scheduled_before = [&](const Edge& e) __attribute__((noinline, cold)) {
    out.push_back(fmt::format("{}: pass '{}' is scheduled before pass '{}' which it depends on ({})",
                              pass_pointer(e.to), g.passes[e.to].name, g.passes[e.from].name, to_string(e.kind)));
  };
  if (all_live && one_queue) {  // the usual frame: the order of each edge is all there is to ask
    const uint32_t* const a = at.data();
    for (const Edge& e : v.edges)
      if (a[e.from] >= a[e.to]) scheduled_before(e);
    return out;
  }
  for (const Edge& e : v.edges) {
    if (!all_live && (!live[e.from] || !live[e.to])) continue;
    if (at[e.from] >= at[e.to]) {
      scheduled_before(e);
      continue;
    }
    if (one_queue) continue;
    const uint8_t qf = queue[e.from];
    if (queue[e.to] != qf && done[e.to][qf] <= pos[e.from])
      out.push_back(fmt::format("{}: pass '{}' on the {} queue may start before pass '{}' on the {} queue completes ({})",
                                pass_pointer(e.to), g.passes[e.to].name, to_string(exec_queue(g.passes[e.to])), g.passes[e.from].name,
                                to_string(exec_queue(g.passes[e.from])), to_string(e.kind)));
  }
  return out;
}

std::vector<std::string> check_all(const Graph& g, const GraphCompileResult& r) {
  std::vector<std::string> out;
  auto add = [&](std::string_view check, std::vector<std::string> x) {
    for (std::string& f : x) out.push_back(fmt::format("{}: {}", check, f));
  };
  // The declarations in serial order, once: the aliasing check's facts and the takeover check's scope.
  const std::vector<UseFacts>& facts = use_facts(g, r.sched);
  // Coverage, resting and takeover come from one replay of the barrier stream (their own, not
  // final_states').
  WalkFindings found =
      walk(g, r.sched, r.trans, &r.finals,
           r.aliasing.barriers.empty() ? TakeoverInput{} : TakeoverInput{&r.aliasing, &facts});
  add("coverage", std::move(found.coverage));
  add("resting", std::move(found.resting));
  add("aliasing", aliasing_findings(g, r.aliasing, facts));
  add("takeover", std::move(found.takeover));
  add("serial-order", check_serial_order(g, r.validated, r.culled, r.sched));
  return out;
}

}  // namespace baton::graph
