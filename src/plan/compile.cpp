// Compiling one group: a pure function of the group's lists and the facts the plan decided.
//
// Two passes over the group's operations (all lists, in order, laid out once in one array by prepare()):
//  1. backward: one slot per resource the group touches and, per use, its slot, box and sync; for every
//     read, the merged read set of the run of readers it starts (every read of the same subresources
//     until the next write), so that one transition serves all of them (invariant 5); and for every
//     resource the operation that uses it last in the group;
//  2. forward: per-subresource current state; a barrier wherever a use is not satisfied by the
//     current state, the discard at its owner, and after each resource's last use the restore to
//     rest or the hand-on to the next group's declared entry state (invariant 4).
// A slot whose uses all cover the whole resource (by far the common case) keeps its state as one
// plain value; a slot becomes a range map at its first use of part of the resource, which the
// backward pass meets last-first, so the values recorded before that are whole-resource values.
// Barriers land in the reserved point of the operation that needs them, one batch per point, with
// contiguous ranges merged (invariant 6).
// A plain group (GroupFacts::plain: every use of a whole resource, no resource twice in one operation;
// most groups) skips the backward pass: prepare() makes the slots in one walk (first-touch order, last
// operations, exits chained per operation), and the forward walk keeps each slot's read run open (OpenRun),
// widening the barrier that opened it with every later read of the run and, at the exit, with the exit
// state's stages: the same barriers the backward pass's read runs give (PlainGroup.*).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <exception>
#include <map>
#include <optional>
#include <queue>
#include <thread>
#include <tuple>
#include <type_traits>
#include <unordered_map>

#include "baton/plan.hpp"
#include "baton/range_map.hpp"
#include "baton/rules.hpp"
#include "baton/small_sort.hpp"
#include "merge_barriers.hpp"
#include "uses.hpp"

namespace baton {
namespace {

constexpr uint32_t kNone = 0xffffffffu;
constexpr uint32_t kFullBox = 0xffffffffu;  // UseRec::box of a use that covers its whole resource

// Where a subresource's state came from: nothing (first-ever touch of its memory), the previous
// occupants of its memory (takeover), a declared entry state, rest, or a use in this group.
enum class Origin : uint8_t { first_touch, takeover, entry, rest, list };

struct Track {
  State state{};
  uint32_t last_op = kNone;    // flattened index of the last operation that used the subresource
  uint32_t last_list = kNone;  // list of that operation
  Origin origin = Origin::rest;
  // Written since the barrier that put it in this state: a later write of the same access is not in
  // that barrier's scope and needs its own barrier (UAV order, write order).
  bool dirty = false;
  // The state after a use or barrier of this group, field by field: a temporary Track made on the stack and
  // copied whole stalls, as the copy's wide loads cannot take their bytes from the narrow stores that
  // wrote the temporary (store forwarding fails: about a third of the forward walk's time in the chain).
  [[gnu::always_inline]] void set(const State& s, uint32_t op, uint32_t list, bool written) {
    state = s;
    last_op = op;
    last_list = list;
    origin = Origin::list;
    dirty = written;
  }
  friend bool operator==(const Track&, const Track&) = default;
};

// The merged reads of a run of readers, packed into 32 bits so that every read can keep its own copy
// cheaply: accesses in bits 0-15 (reads never carry kAnyAccess), sync in bits 16-27, and whether no
// write follows in the group (the run ends where the group hands the resource on) in bit 28.
struct ReadRun {
  static_assert(kAccessCount <= 16 && sync::all < (1u << 12));
  static constexpr uint32_t kToEnd = 1u << 28;
  uint32_t bits = 0;
  AccessMask access() const { return bits & 0xffffu; }
  SyncMask sync() const { return (bits >> 16) & 0xfffu; }
  bool to_end() const { return (bits & kToEnd) != 0; }
  void add(Access a, SyncMask s) { bits |= bit(a) | (s << 16); }
  friend bool operator==(const ReadRun&, const ReadRun&) = default;
};
constexpr ReadRun kRunToEnd{ReadRun::kToEnd};  // nothing read yet, and no write follows
constexpr ReadRun kPresentRun{bit(Access::present) | (sync::all << 16)};

struct Piece {
  Box box;
  ReadRun run;
};

// Per use, in group order.
struct UseRec {
  uint32_t slot;
  uint32_t box;     // kFullBox, or an index into Scratch::boxes
  uint32_t read;    // reads: the ReadRun bits of a whole-resource run, or the first of its pieces
  uint32_t pieces;  // reads: how many pieces; 0: `read` holds one whole-resource run
  SyncMask sync;    // sync_of(access, stages), for the forward pass (the backward pass computes it)
};

// Per resource the group touches, in the order of its last use (the backward pass creates them), so
// the forward pass meets their last uses from the back of the list.
// One cache line each.
struct Slot {
  Track t;  // whole slots: the state of the whole resource, once `started`
  ResourceId res = 0;
  uint32_t map = kNone;      // other slots: index into Scratch::cur and Scratch::runs
  uint32_t last_op = kNone;  // the last operation that uses it
  uint32_t first = kNone;    // its index in the order of first touch (the facts' entry history)
  ReadRun run = kRunToEnd;   // backward pass, whole slots: the run of reads after the current operation
  State exit{};              // if has_exit: the hand-on state, or rest for a texture
  bool has_exit = false;     // buffers that are not handed on have no exit state (never restored)
  bool whole = true;         // every use covers the whole resource
  bool buffer = false;
  bool bytes = false;          // a buffer with a use of some of its bytes: its boxes are byte ranges
  bool started = false;        // forward pass: the state has been seeded from the entry history
  bool never_written = false;  // from the entry history
  bool handed_on = false;      // a later group declared an entry state for it
  const State* exit_state() const { return has_exit ? &exit : nullptr; }
};
static_assert(sizeof(Slot) <= 64);

// Per operation of the group, in group order (all lists, in order): prepare() lays them out once, and
// the backward and forward passes walk this one array instead of list -> operation each.
struct OpRec {
  const Operation* o;
  uint32_t list, op;   // its list, and its index in that list
  uint32_t first_use;  // index of its first use in the group (Scratch::uses)
  uint32_t shared;     // backward pass: some resource has two uses in it (plan_detail::shares_a_resource)
};

// The operation being compiled.
struct OpAt {
  uint32_t list, op, gi, first_use;  // gi: flattened index; first_use: index of its first use
  const Operation& o;
  bool shared;  // some resource has two uses in it (plan_detail::shares_a_resource)
};

// A read is satisfied when the current state is a read-only state that already includes its access
// in its sync scope (read after read in the same layout needs nothing: invariant 7).
bool satisfies(const State& s, Access a, SyncMask need) {
  if (s.access & (kWriteAccesses | kAnyAccess)) return false;
  if (!(s.access & bit(a))) return false;
  return (s.sync & sync::all) || (s.sync & need) == need;
}

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

// state_of_use() without the call: it runs for every write.
[[gnu::always_inline]] inline State use_state(bool buffer, Access a, Stages s) {
  return State{sync_of(a, s), bit(a), buffer ? Layout::none : layout_of(a)};
}

// Working memory of the compiler, kept per thread and reused from call to call: a frame compiled
// every frame should not pay for fresh pages each time. Nothing in it outlives one compile().
// A buffer some use of which names bytes, and whether two of its uses in the group hold different
// states on disjoint bytes (then it is planned whole: ranged_use).
// The two smallest values seen for distinct keys (a key's value only ever decreases), so "the
// smallest value of any key but k" is one lookup: ranged_use() keeps, per buffer, the lowest end
// and the highest start (stored as ~start) of each use signature's ranges this way.
struct TwoSmallest {
  static constexpr uint16_t kEmpty = 0xffff;
  std::array<uint16_t, 2> key{kEmpty, kEmpty};
  std::array<uint64_t, 2> value{};
  void add(uint16_t k, uint64_t v) {
    if (key[0] == k) {
      value[0] = std::min(value[0], v);
      return;
    }
    if (key[1] == k) {
      value[1] = std::min(value[1], v);
    } else if (key[1] == kEmpty || v < value[1]) {
      key[1] = k;
      value[1] = v;
    } else {
      return;
    }
    if (key[0] == kEmpty || value[1] < value[0]) {
      std::swap(key[0], key[1]);
      std::swap(value[0], value[1]);
    }
  }
  void add(const TwoSmallest& o) {
    for (size_t i = 0; i < 2; ++i)
      if (o.key[i] != kEmpty) add(o.key[i], o.value[i]);
  }
  // The smallest value of a key other than k, if any.
  std::optional<uint64_t> other_than(uint16_t k) const {
    for (size_t i = 0; i < 2; ++i)
      if (key[i] != kEmpty && key[i] != k) return value[i];
    return std::nullopt;
  }
};
// A buffer with a use of some of its bytes in the group: whether two operations use disjoint bytes of it
// in different states (then it is planned whole: ranged_use). Uses of earlier operations are
// summarised per signature (access, stages) by their lowest end and highest start; the current
// operation's are kept apart until the next operation, since pairs inside one operation do not count.
struct RangedBuffer {
  ResourceId res = 0;
  bool mixed = false;
  bool one_op = false;  // one operation writes some bytes and uses others otherwise: keep the ranges
  uint32_t op = kNone;  // the operation of `cur`
  AccessMask accesses = 0;  // of the current operation
  TwoSmallest earlier_end, earlier_start, cur_end, cur_start;  // starts stored as ~start
};

// Per slot, for the forward walk: the slots whose last use is one operation (a chain from
// Scratch::exit_head), and, in a plain group (GroupCompiler::plain_), the read run the slot's state is
// open for: a read that needed a transition opens it, and every later read of the resource joins it
// (its access and sync are added to the barrier's after-state and to the state) until a write or a
// present ends it, or the resource's last use, where a run that reaches the end of the group also
// opens visible to the exit state's stages. This gives each barrier the merged reads of the run from
// its read on, which the reverse pass computed before (backward()).
struct OpenRun {
  enum Kind : uint8_t { none, state, ored };  // ored: a never-written buffer's state took the reads in
  uint32_t b = kNone;   // the barrier (index into the group's array as emitted), or kNone
  uint32_t p = 0;       // its point
  uint32_t p0 = 0;      // the point's first barrier, as an index into the group's array
  uint32_t next_exit = kNone;
  Kind kind = none;
};

struct Scratch {
  std::vector<uint32_t> slot_of;  // per resource id; kNone everywhere between compiles
  std::vector<Slot> slots;
  // Sized up, never down: every compile writes each element before reading it.
  std::vector<UseRec> uses;
  std::vector<OpRec> ops;          // per operation, in group order
  std::vector<Box> boxes;          // boxes of the uses that do not cover their whole resource
  std::vector<Piece> pieces;
  // Per slot that is not whole; never shrunk, so their entries' storage is reused by later compiles.
  std::vector<RangeMap<Track>> cur;
  std::vector<RangeMap<ReadRun>> runs;
  // Buffers with a use of some of their bytes in the group (find_ranged): per resource id the
  // index into `ranged`, kNone everywhere between compiles.
  std::vector<uint32_t> ranged_of;
  std::vector<RangedBuffer> ranged;
  // Per resource id: 1 while the group's facts retire it (GroupFacts::retire), 0 everywhere between
  // compiles; one store per retired resource instead of a binary search per slot.
  std::vector<uint8_t> retiring;
  std::vector<GroupFacts::DiscardOwner> discards;  // a group's discards, sorted (forward), if the facts' are not
  // entry_of(): per list with many entry states, a sorted copy, made at the list's first question.
  std::vector<std::vector<EntryState>> sorted_entries;
  std::vector<uint32_t> sorted_of;     // per list index: into sorted_entries; kNone everywhere between compiles
  std::vector<uint32_t> sorted_lists;  // the lists of this compile given a copy (sorted_of reset from it)
  // op_sync() of one operation with many uses: per (resource, access), the sync of its uses.
  std::unordered_map<uint64_t, SyncMask> op_syncs;
  // Per operation: the first slot whose last use it is (kNone: none), chained through OpenRun::next_exit.
  std::vector<uint32_t> exit_head;
  std::vector<OpenRun> open;  // per slot
};

Scratch& thread_scratch() {
  thread_local Scratch s;
  return s;
}

class GroupCompiler {
 public:
  // The result is written into `out` (cleared first: a group compiled before keeps its block, compile_into).
  GroupCompiler(const ResourceTable& rt, const CommandListGroup& g, const GroupFacts& f, CompiledGroup& out)
      : rt_(rt), g_(g), f_(f), out_(out) {
    out_.clear();
    slots_.clear();
    boxes_.clear();
    pieces_.clear();
    if (slot_of_.size() < rt.size()) slot_of_.resize(rt.size(), kNone);
    if (ranged_of_.size() < rt.size()) ranged_of_.resize(rt.size(), kNone);
    ranged_.clear();
    if (retiring_.size() < rt.size()) retiring_.resize(rt.size(), 0);
    for (const ResourceId r : f.retire)
      if (r < rt.size()) retiring_[r] = 1;
  }
  ~GroupCompiler() {
    for (const Slot& s : slots_) slot_of_[s.res] = kNone;
    for (const RangedBuffer& b : ranged_) ranged_of_[b.res] = kNone;
    for (const ResourceId r : f_.retire)
      if (r < retiring_.size()) retiring_[r] = 0;
    for (const uint32_t l : scratch_.sorted_lists) scratch_.sorted_of[l] = kNone;
    scratch_.sorted_lists.clear();
  }
  GroupCompiler(const GroupCompiler&) = delete;
  GroupCompiler& operator=(const GroupCompiler&) = delete;

  void run() {
    prepare();
    if (plain_) {
      forward_plain();
    } else {
      backward();
      forward<false>();
    }
  }

 private:
  const ResourceDesc& desc(ResourceId r) const { return rt_.all()[r]; }  // ids were checked by slot_for()

  // The result's lists, and room for the per-use and per-operation records.
  void prepare() {
    out_.name = g_.name();
    out_.queue = g_.queue();
    // A walk over the operations, not the uses: the buffers used in byte ranges are found only when
    // the backward pass meets the first part of a buffer (find_ranged), which most groups never do.
    for (const CommandList* l : g_.lists()) ops_ += static_cast<uint32_t>(l->ops().size());
    if (op_recs_.size() < ops_) op_recs_.resize(ops_);
    OpRec* rec = op_recs_.data();
    uint32_t total = 0, li = 0;
    for (const CommandList* l : g_.lists()) {
      const std::span<const Operation> ops = l->ops();
      for (uint32_t oi = 0; oi < ops.size(); ++oi, ++rec) {
        *rec = OpRec{&ops[oi], li, oi, total, 0};
        total += static_cast<uint32_t>(ops[oi].uses.size());
      }
      ++li;
    }
    // The group's one heap block (lists, barriers, points; issue 16). Most uses need at most one barrier
    // (and two more per list, for its restores and hand-ons); an operation has at most two points. Reserve
    // that much up front, so that the result is written once: a point past the room would move the
    // barriers too (one block), so the points get all they can need.
    const size_t lists = g_.lists().size();
    out_.reserve(lists, total + 2 * lists, 2 * size_t{ops_});
    // Made in place (a temporary list moved in costs a string move and destruction per list).
    for (const CommandList* l : g_.lists()) out_.push_list(l->name(), l->queue());
    plain_ = f_.plain();  // only plan() sets it, from the checks it makes per use: not checked again
    if (plain_) plain_slots();
    barriers0_ = out_.barriers.data();
    points0_ = out_.points.data();
    uses_total_ = total;
    if (!plain_ && uses_.size() < total) uses_.resize(total);
  }

  // A plain group (every use covers its whole resource, no operation names a resource twice: most groups,
  // and every group of a frame graph that names no ranges) needs no reverse pass (forward<true>): this walk
  // makes the slots, in the order of first touch, with their last operations, and chains every slot to
  // the operation of its exit.
  void plain_slots() {
    uint32_t* const slot_of = slot_of_.data();  // local pointers: the stores below may not reload them
    Slot* slots = slots_.data();
    for (uint32_t gi = 0; gi < ops_; ++gi) {
      const Uses& us = op_recs_[gi].o->uses;
      for (const Use *u = us.data(), *end = u + us.size(); u != end; ++u) {
        const uint32_t s = slot_of[u->resource];
        if (s == kNone) {
          new_slot(u->resource, gi);
          slots = slots_.data();
        } else {
          slots[s].last_op = gi;
        }
      }
    }
    if (exit_head_.size() < ops_) exit_head_.resize(ops_);
    std::fill_n(exit_head_.data(), ops_, kNone);
    if (open_.size() < slots_.size()) open_.resize(slots_.size());
    uint32_t* const head = exit_head_.data();
    OpenRun* const open = open_.data();
    for (uint32_t s = 0, n = static_cast<uint32_t>(slots_.size()); s < n; ++s) {
      uint32_t& h = head[slots[s].last_op];
      open[s] = OpenRun{kNone, 0, 0, h, OpenRun::none};
      h = s;
    }
  }

  // D3D12 legacy holds one state per buffer, not per byte: two uses of disjoint bytes of one buffer in
  // different states in one group (one ExecuteCommandLists call, where nothing decays) would need the
  // buffer in both states, which #538 rejects (the second use finds the first one's state), and enhanced
  // barriers of such a buffer at one point can disagree on its scope (#1333). So a buffer that has two
  // such uses, in different operations, is planned whole in the group, as if every use overlapped, for
  // every API (one plan for the three); uses in one state keep their ranges (suballocated constants,
  // instance data, upload rings written by copies or UAVs), and so do overlapping uses, which are ordered
  // anyway. Later groups start over: buffers decay. Two states in one operation (one of them a write)
  // have no order to give, and planned whole they would conflict: such a buffer keeps its ranges in the
  // group, and its D3D12 legacy plan is left to the validated compile. Linear in the group's ranged
  // uses: each is compared with per-signature extremes of its buffer's earlier uses (TwoSmallest), not
  // with every earlier use (a suballocated buffer can have 10^5 ranged uses in one group).
  // find_ranged() calls ranged_use() for every use with a byte range, `op` its operation's index.
  void find_ranged() {
    ranged_found_ = true;
    uint32_t op = 0;
    for (const CommandList* l : g_.lists())
      for (const Operation& o : l->ops()) {
        for (const Use& u : o.uses)
          if (has_bytes(u.range)) ranged_use(u, op);
        ++op;
      }
  }
  void ranged_use(const Use& u, uint32_t op) {
    if (u.resource >= rt_.size()) return;
    if (ranged_of_[u.resource] == kNone) {
      ranged_of_[u.resource] = static_cast<uint32_t>(ranged_.size());
      RangedBuffer& nb = ranged_.emplace_back();
      nb.res = u.resource;
    }
    RangedBuffer& b = ranged_[ranged_of_[u.resource]];
    const uint64_t size = desc(u.resource).size;
    const uint64_t lo = u.range.byte_offset;
    const uint64_t hi = u.range.byte_size == kWholeBytes ? size : lo + u.range.byte_size;
    if (b.op != op) {  // the previous operation's uses become earlier ones
      b.earlier_end.add(b.cur_end);
      b.earlier_start.add(b.cur_start);
      b.cur_end = {};
      b.cur_start = {};
      b.accesses = 0;
      b.op = op;
    }
    for (uint32_t a = 0; a < static_cast<uint32_t>(kAccessCount); ++a)
      if ((b.accesses >> a & 1u) != 0 && conflicts(static_cast<Access>(a), u.access)) b.one_op = true;
    // Disjoint from an earlier use with another signature: that use ends at or before lo, or
    // starts at or after hi; the extreme end and start of the other signatures decide.
    const auto sig = static_cast<uint16_t>(static_cast<unsigned>(u.access) << 8 | u.stages);
    const std::optional<uint64_t> end = b.earlier_end.other_than(sig);
    const std::optional<uint64_t> start = b.earlier_start.other_than(sig);
    if ((end && *end <= lo) || (start && ~*start >= hi)) b.mixed = true;
    b.cur_end.add(sig, hi);
    b.cur_start.add(sig, ~lo);
    b.accesses |= AccessMask{1} << static_cast<unsigned>(u.access);
  }
  bool planned_whole(ResourceId r) {
    if (!ranged_found_) find_ranged();  // the whole group's ranged uses, before the first answer
    if (ranged_of_[r] == kNone) return false;
    const RangedBuffer& b = ranged_[ranged_of_[r]];
    return b.mixed && !b.one_op;
  }

  // The slot of resource r, created at its last use in the group (the backward pass meets that first).
  uint32_t slot_for(ResourceId r, uint32_t gi) {
    const uint32_t s = slot_of_[r];
    return s != kNone ? s : new_slot(r, gi);
  }

  uint32_t new_slot(ResourceId r, uint32_t gi) {
    const auto s = static_cast<uint32_t>(slots_.size());
    slot_of_[r] = s;
    Slot& n = slots_.emplace_back();
    n.res = r;
    n.buffer = rt_[r].type == ResourceType::buffer;
    n.last_op = gi;
    return s;
  }

  // The box of use u, kFullBox when it covers the whole resource. The first use of part of a resource
  // turns its slot into range maps, starting from the whole-resource run recorded so far.
  uint32_t box_for(const Use& u, Slot& s) {
    if (is_whole(u.range)) return kFullBox;
    const ResourceDesc& d = desc(u.resource);
    Box b;
    if (!valid_extent(d, u.range, b)) {
      try {
        b = use_extent(d, u.range);
      } catch (const Error&) {
        throw_first_range_error();
      }
    }
    if (s.buffer ? !has_bytes(u.range) || b == buffer_extent(d) || planned_whole(u.resource) : b == full_box(d))
      return kFullBox;
    if (s.whole) {
      s.whole = false;
      // A buffer's range maps are over its bytes (use_extent), a texture's over its subresources.
      s.bytes = s.buffer;
      // The maps of earlier compiles are kept with their storage and reset here.
      s.map = maps_++;
      if (s.map == runs_.size()) {
        runs_.emplace_back();
        cur_.emplace_back();
      }
      runs_[s.map].reset(full_of(s), s.run);
    }
    boxes_.push_back(b);
    return static_cast<uint32_t>(boxes_.size() - 1);
  }

  // A range out of bounds (which the plan reports first): name the first one in group order.
  [[noreturn]] void throw_first_range_error() const {
    for (const CommandList* l : g_.lists())
      for (const Operation& o : l->ops())
        for (const Use& u : o.uses) (void)use_extent(rt_[u.resource], u.range);
    throw Error(fmt::format("group '{}': a range is out of bounds", g_.name()));  // not reached
  }

  // The whole resource in the slot's boxes: its subresources, or a ranged buffer's bytes.
  Box full_of(const Slot& s) const { return s.bytes ? buffer_extent(desc(s.res)) : full_box(desc(s.res)); }

  Box use_box(const UseRec& rec, ResourceId) const {
    return rec.box == kFullBox ? full_of(slots_[rec.slot]) : boxes_[rec.box];
  }

  // Calls f(piece) for the read runs of read `rec` of resource r, in storage order.
  template <class F>
  void for_each_piece(const UseRec& rec, ResourceId r, F&& f) const {
    if (rec.pieces == 0) {
      (void)r;
      f(Piece{full_of(slots_[rec.slot]), ReadRun{rec.read}});
      return;
    }
    for (uint32_t k = 0; k < rec.pieces; ++k) f(pieces_[rec.read + k]);
  }

  // Pass 1 (reverse order): slots, boxes, merged read runs and last uses.
  void backward() {
    maps_ = 0;
    for (uint32_t gi = ops_; gi-- > 0;) {
      OpRec& orec = op_recs_[gi];
      const Uses& uses = orec.o->uses;
      UseRec* recs = uses_.data() + orec.first_use;
      const bool shared = plan_detail::shares_a_resource(uses);
      orec.shared = shared;
      if (shared) {
        for (size_t i = 0; i < uses.size(); ++i) {
          const uint32_t si = slot_for(uses[i].resource, gi);
          recs[i] = UseRec{si, box_for(uses[i], slots_[si]), 0, 0, sync_of(uses[i].access, uses[i].stages)};
        }
        backward_shared(uses, recs);
        continue;
      }
      // Each resource has one use here: join, record and end the run in one step. (Pointers with the
      // end read once: the stores below could alias the vector, so an index loop reloads its size.)
      UseRec* rec_it = recs;
      for (const Use *it = uses.data(), *end = it + uses.size(); it != end; ++it, ++rec_it) {
        const Use& u = *it;
        const uint32_t si = slot_for(u.resource, gi);
        Slot& s = slots_[si];
        UseRec& rec = *rec_it;
        const SyncMask sy = sync_of(u.access, u.stages);
        rec = UseRec{si, is_whole(u.range) ? kFullBox : box_for(u, s), 0, 0, sy};
        if (!s.whole) {
          backward_one(s, rec, u);
        } else if (is_write(u.access)) {
          s.run = ReadRun{};
        } else if (u.access == Access::present) {
          rec.read = kPresentRun.bits;
          s.run = ReadRun{};
        } else {
          s.run.add(u.access, sy);
          rec.read = s.run.bits;
        }
      }
    }
  }

  // The only use of a resource in its operation, on a slot with range maps: the general form of the
  // whole-resource steps in backward().
  void backward_one(Slot& s, UseRec& rec, const Use& u) {
    if (is_write(u.access)) {
      end_run(s, rec, u.resource);
      return;
    }
    if (u.access != Access::present) join_run(s, rec, u);
    record_run(s, rec, u);
    if (u.access == Access::present) end_run(s, rec, u.resource);
  }

  // An operation with several uses of one resource: all of its reads join the run before any of them
  // records it, so that they open with one state; its writes end the run only after that.
  void backward_shared(std::span<const Use> uses, UseRec* recs) {
    for (size_t i = 0; i < uses.size(); ++i) {
      const Use& u = uses[i];
      if (!is_write(u.access) && u.access != Access::present) join_run(slots_[recs[i].slot], recs[i], u);
    }
    for (size_t i = 0; i < uses.size(); ++i)
      if (!is_write(uses[i].access)) record_run(slots_[recs[i].slot], recs[i], uses[i]);
    // A write (or a present, which never merges with other reads) ends the run before it.
    for (size_t i = 0; i < uses.size(); ++i)
      if (is_write(uses[i].access) || uses[i].access == Access::present)
        end_run(slots_[recs[i].slot], recs[i], uses[i].resource);
  }

  // The read `u` joins the run of reads that follows it.
  void join_run(Slot& s, const UseRec& rec, const Use& u) {
    const SyncMask sy = rec.sync;  // sync_of(u.access, u.stages), recorded by the backward pass
    if (s.whole) {
      s.run.add(u.access, sy);
      return;
    }
    RangeMap<ReadRun>& m = runs_[s.map];
    m.update(use_box(rec, u.resource), [&](const Box&, ReadRun& a) { a.add(u.access, sy); });
    m.coalesce();
  }

  // The read (or present) `u` keeps the run it opens: one value, or pieces over the run's map.
  void record_run(const Slot& s, UseRec& rec, const Use& u) {
    if (s.whole) {
      rec.read = u.access == Access::present ? kPresentRun.bits : s.run.bits;
      return;
    }
    rec.read = static_cast<uint32_t>(pieces_.size());
    const Box b = use_box(rec, u.resource);
    if (u.access == Access::present)
      pieces_.push_back({b, kPresentRun});
    else
      runs_[s.map].for_each(b, [&](const Box& x, const ReadRun& a) { pieces_.push_back({x, a}); });
    rec.pieces = static_cast<uint32_t>(pieces_.size()) - rec.read;
  }

  // A write or present: the reads before it belong to another run, which it does not reach.
  void end_run(Slot& s, const UseRec& rec, ResourceId r) {
    if (s.whole)
      s.run = ReadRun{};
    else
      runs_[s.map].assign(use_box(rec, r), ReadRun{});
  }

  // Out of line: the two walks inlined into one function change what GCC inlines into either.
  [[gnu::noinline]] void forward_plain() { forward<true>(); }

  // kPlain: a plain group (prepare()), whose read runs the walk keeps open (OpenRun) instead of reading
  // them from the backward pass's records.
  template <bool kPlain>
  void forward() {
    size_t next_discard = 0;
    const std::span<const GroupFacts::DiscardOwner> discards = sorted_discards();
    // prepare() (and the backward pass) made every slot and record: the arrays keep their storage from
    // here on, and local pointers spare a reload of each vector after every store.
    Slot* const slots = slots_.data();
    const UseRec* const use_recs = uses_.data();
    const OpRec* const op_recs = op_recs_.data();
    const uint32_t* const slot_of = slot_of_.data();
    OpenRun* const open = open_.data();
    const uint32_t* const exit_head = exit_head_.data();
    size_t next_exit = slots_.size();
    for (uint32_t gi = 0; gi < ops_; ++gi) {
      const OpRec& orec = op_recs[gi];
      const uint32_t li = orec.list, oi = orec.op;
      const OpAt op{li, oi, gi, orec.first_use, *orec.o, orec.shared != 0};
      const Uses& uses = op.o.uses;
      if (op.o.full_barrier) {
        const State any{sync::all, kAnyAccess, Layout::none};
        emit(li, oi, Where::before, kGlobalResource, false, nullptr, Box{}, any, any, Reason::full_barrier);
      }
      if (next_discard < discards.size() && discards[next_discard].list == li && discards[next_discard].op == oi) {
        // A discard seeds its slot before the operation's other uses: number them all first.
        for (uint32_t i = 0; i < uses.size(); ++i)
          number(slots[kPlain ? slot_of[uses[i].resource] : use_recs[op.first_use + i].slot]);
        do {
          if constexpr (kPlain) open[slot_of[discards[next_discard].resource]].kind = OpenRun::none;  // a write
          discard(op, discards[next_discard].resource);
          ++next_discard;
        } while (next_discard < discards.size() && discards[next_discard].list == li &&
                 discards[next_discard].op == oi);
      }
      if constexpr (kPlain) {
        for (const Use *it = uses.data(), *end = it + uses.size(); it != end; ++it) {
          const Use& u = *it;
          const uint32_t si = slot_of[u.resource];
          Slot& s = slots[si];
          if (!s.started) start(s, li);
          if (is_write(u.access)) {
            open[si].kind = OpenRun::none;  // a write ends the run of reads before it
            write_one(op, u, s, use_state(s.buffer, u.access, u.stages), nullptr, s.t);
          } else {
            read_plain(op, u, s, open[si]);
          }
        }
      } else {
        const UseRec* rec_it = use_recs + op.first_use;
        for (const Use *it = uses.data(), *end = it + uses.size(); it != end; ++it, ++rec_it) {
          const Use& u = *it;
          const UseRec& rec = *rec_it;
          Slot& s = slots[rec.slot];
          if (!s.started) start(s, li);
          if (is_write(u.access))
            write(op, u, rec, s);
          else
            read(op, u, rec, s);
        }
      }
      // The slots whose last use this operation is. The exits of one operation share its after-point,
      // which sorts them by resource. (Most slots of a frame graph's transients have no exit: the test
      // saves a call per slot.)
      if constexpr (kPlain) {
        for (uint32_t e = exit_head[gi]; e != kNone; e = open[e].next_exit) {
          Slot& s = slots[e];
          if (!s.has_exit) continue;
          if (open[e].kind != OpenRun::none) run_to_end(s, open[e]);
          exit(op, s);
        }
      } else {
        // The backward pass made the slots in the order of their last use, latest first.
        while (next_exit > 0 && slots[next_exit - 1].last_op == gi)
          if (const Slot& s = slots[--next_exit]; s.has_exit) exit(op, s);
      }
    }
    close_point();
    end_list();
    // end_list() made every list's views over the arrays as they were then: they hold unless an
    // array was reallocated since (a group that needed more than prepare() reserved).
    if (out_.barriers.data() != barriers0_ || out_.points.data() != points0_) out_.relink();
  }

  // The discards in (list, op, resource) order: the plan's own order but for the resources of one
  // operation, so most groups' are read in place; others are sorted in a copy in the scratch. Out of line:
  // inlined, it costs forward() its inlined read rule.
  [[gnu::noinline]] std::span<const GroupFacts::DiscardOwner> sorted_discards() {
    const auto order = [](const GroupFacts::DiscardOwner& a, const GroupFacts::DiscardOwner& b) {
      return std::tie(a.list, a.op, a.resource) < std::tie(b.list, b.op, b.resource);
    };
    const std::vector<GroupFacts::DiscardOwner>& d = f_.discards;
    if (std::is_sorted(d.begin(), d.end(), order)) return d;
    scratch_.discards.assign(d.begin(), d.end());
    std::sort(scratch_.discards.begin(), scratch_.discards.end(), order);
    return scratch_.discards;
  }

  // Numbers the slot in the order of first touch, which the forward pass follows.
  void number(Slot& s) {
    if (s.first == kNone) s.first = next_first_++;
  }

  // The list's declared entry state of r, if any. Lists with many declarations (the frame graph's
  // frame_end list declares one per texture it takes over) are searched through a sorted copy made
  // once per group; the few of a hand-written list are scanned.
  const EntryState* entry_of(uint32_t list, ResourceId r) {
    const std::span<const EntryState> es = g_.lists()[list]->entry_states();
    if (es.size() <= 8) {
      for (const EntryState& e : es)
        if (e.resource == r) return &e;
      return nullptr;
    }
    // The copies live in the per-thread scratch with their storage (no heap block per compile).
    std::vector<uint32_t>& sorted_of = scratch_.sorted_of;
    if (sorted_of.size() < g_.lists().size()) sorted_of.resize(g_.lists().size(), kNone);
    if (sorted_of[list] == kNone) {
      sorted_of[list] = static_cast<uint32_t>(scratch_.sorted_lists.size());
      scratch_.sorted_lists.push_back(list);
      if (scratch_.sorted_entries.size() < scratch_.sorted_lists.size()) scratch_.sorted_entries.emplace_back();
      std::vector<EntryState>& c = scratch_.sorted_entries[sorted_of[list]];
      c.assign(es.begin(), es.end());
      std::sort(c.begin(), c.end(), [](const EntryState& a, const EntryState& b) { return a.resource < b.resource; });
    }
    const std::vector<EntryState>& s = scratch_.sorted_entries[sorted_of[list]];
    const auto it = std::lower_bound(s.begin(), s.end(), r, [](const EntryState& e, ResourceId x) { return e.resource < x; });
    return it != s.end() && it->resource == r ? &*it : nullptr;
  }

  // Seeds the slot's state when the group first touches it, in list `list`.
  void start(Slot& s, uint32_t list) {
    number(s);
    const ResourceId r = s.res;
    const ResourceDesc& d = desc(r);
    Track t;
    const EntryState* entry = entry_of(list, r);
    // Work before the group may have written the resource unless its history says otherwise.
    // The plan lists the group's resources in first-touch order.
    const size_t si = s.first;
    if (si >= f_.entry_history.size() || f_.entry_history[si].first != r)
      throw Error(fmt::format("group '{}': facts do not match the group (resource '{}')", g_.name(), d.name));
    const ResourceHistory& hist = f_.entry_history[si].second;
    // A buffer's memory taken over holds the previous occupants' writes (see plan()).
    s.never_written =
        !hist.written && (hist.touched || !(hist.takeover.access & (kWriteAccesses | kAnyAccess)));
    t.dirty = hist.written;
    if (entry) {
      t.state = plan_detail::entry_state(d, *entry);
      t.origin = Origin::entry;
      // A declared write state stands for a write done before the group, outside Baton's history.
      t.dirty = t.dirty || (t.state.access & kWriteAccesses) != 0;
    } else if (!hist.touched && hist.takeover.any()) {
      // Memory that earlier resources used: wait for their last accesses; the contents are undefined.
      t.state = State{hist.takeover.sync, hist.takeover.access, s.buffer ? Layout::none : Layout::undefined};
      t.origin = Origin::takeover;
    } else if (!hist.touched) {
      t.state = s.buffer ? kFirstTouchBuffer : kFirstTouch;
      t.origin = Origin::first_touch;
    } else {
      t.state = resting_state(d);
      t.origin = Origin::rest;
    }
    // The state the group leaves the resource in: the next group's declared entry state, or rest for
    // textures. Buffers that are not handed on have none (they are never restored).
    if (const GroupFacts::HandOn* h = hand_on_of(r)) {
      s.handed_on = true;
      s.has_exit = true;
      s.exit = h->state;
    } else {
      s.handed_on = false;
      // A resource that dies after this group (its memory goes to a later resource) need not rest.
      s.has_exit = !s.buffer && !retiring_[r];
      if (s.has_exit) s.exit = t.origin == Origin::rest ? t.state : resting_state(d);
    }
    if (s.whole)
      s.t = t;
    else
      cur_[s.map].reset(full_of(s), t);
    s.started = true;
  }

  static Reason reason_for(const Track& t, uint32_t list, Reason own) {
    switch (t.origin) {
      case Origin::first_touch: return Reason::first_touch;
      case Origin::takeover: return Reason::takeover;
      case Origin::entry: return Reason::entry_state;
      case Origin::rest: return Reason::from_rest;
      case Origin::list: break;
    }
    if (own == Reason::read_merge) return own;
    if (t.last_list != list) return Reason::hand_off;
    return own;
  }

  // The sync of every use of `r` with access `a` in the operation: uses of one access merge. An
  // operation of many uses sums them once, per (resource, access), instead of once per write.
  SyncMask op_sync(const OpAt& op, ResourceId r, Access a, Stages st) {
    if (!op.shared) return sync_of(a, st);  // the only use of r
    if (op.o.uses.size() > 16) {
      if (op_syncs_of_ != op.gi) {
        op_syncs_of_ = op.gi;
        op_syncs_.clear();
        for (const Use& u : op.o.uses)
          op_syncs_[sync_key(u.resource, u.access)] |= sync_of(u.access, u.stages);
      }
      return op_syncs_.at(sync_key(r, a));
    }
    SyncMask m = 0;
    for (const Use& u : op.o.uses)
      if (u.resource == r && u.access == a) m |= sync_of(u.access, u.stages);
    return m;
  }
  static uint64_t sync_key(ResourceId r, Access a) { return uint64_t{r} << 8 | static_cast<uint64_t>(a); }

  // Reads and writes apply one rule (read_one, write_one) to the whole-resource state of a whole slot
  // or to every box of a range map. The rules are forced inline: a call per use costs more than the
  // rule itself on the common path.
  [[gnu::always_inline]] void read(const OpAt& op, const Use& u, const UseRec& rec, Slot& s) {
    const SyncMask need = rec.sync;
    if (s.whole) {
      read_one(op, u, s, need, ReadRun{rec.read}, nullptr, s.t);
      return;
    }
    RangeMap<Track>& m = cur_[s.map];
    for_each_piece(rec, u.resource, [&](const Piece& p) {
      m.update(p.box, [&](const Box& b, Track& t) { read_one(op, u, s, need, p.run, &b, t); });
      m.coalesce();
    });
  }

  // A read whose state already satisfies it is recorded as the subresource's last use and needs no
  // barrier; a texture taking over memory has no layout yet, so even a read it "covers" needs the
  // transition. Shared by read_one and read_plain.
  [[gnu::always_inline]] static bool already_satisfied(const OpAt& op, const Use& u, const Slot& s, SyncMask need,
                                                       Track& t) {
    if (!((s.buffer || t.origin != Origin::takeover) && satisfies(t.state, u.access, need))) return false;
    t.last_list = op.list;
    t.last_op = op.gi;
    return true;
  }

  // Buffers have no layout: a read of `target` needs no barrier on a first touch (the read's state is
  // taken) or when the contents were never written (read after read: the read is ored into the state,
  // which keeps what came before, so a later write still waits for it). Shared by read_one and read_plain.
  enum class BufferRead { taken, ored, barrier };
  [[gnu::always_inline]] static BufferRead buffer_read(const OpAt& op, const Slot& s, const State& target, Track& t) {
    if (!s.buffer) return BufferRead::barrier;
    if (t.origin == Origin::first_touch) {
      t.set(target, op.gi, op.list, false);
      return BufferRead::taken;
    }
    if (s.never_written && !t.dirty && !(t.state.access & kWriteAccesses)) {
      t.state.access |= target.access;
      t.state.sync |= target.sync;
      t.last_op = op.gi;
      t.last_list = op.list;
      return BufferRead::ored;
    }
    return BufferRead::barrier;
  }

  // A read in a plain group (a whole slot, the only use of its resource in the operation): it joins the
  // slot's open read run, or is read_one() with the run of its own read, which opens a run when it needs
  // a transition. Each later read of the run adds to the barrier that opened it (join_plain), and the
  // run's last read to the exit state's stages (run_to_end): the barrier ends as the merged reads of
  // the run from its read on, as the backward pass made it.
  [[gnu::always_inline]] void read_plain(const OpAt& op, const Use& u, Slot& s, OpenRun& o) {
    const SyncMask need = sync_of(u.access, u.stages);
    Track& t = s.t;
    if (o.kind != OpenRun::none) {
      if (u.access != Access::present) {
        join_plain(op, u.access, need, s, o);
        return;
      }
      o.kind = OpenRun::none;  // a present ends the run before it
    }
    if (u.access == Access::present) {
      read_one(op, u, s, need, kPresentRun, nullptr, t);
      return;
    }
    if (already_satisfied(op, u, s, need, t)) return;
    ReadRun run{};
    run.add(u.access, need);
    s.run = run;
    const State target = read_target(run, s.buffer, nullptr);  // the read's own state: not merged (yet)
    o.b = kNone;
    switch (buffer_read(op, s, target, t)) {
      case BufferRead::taken:
        o.kind = OpenRun::state;
        return;
      case BufferRead::ored:
        o.kind = OpenRun::ored;
        return;
      case BufferRead::barrier:
        break;
    }
    Barrier& b = emit(op.list, op.op, Where::before, u.resource, false, &s, full_box(desc(s.res)), t.state, target,
                      reason_for(t, op.list, Reason::state_change));
    mark_entry_used(b, t);
    o.b = static_cast<uint32_t>(&b - out_.barriers.data());
    o.p = static_cast<uint32_t>(out_.points.size() - 1);
    o.p0 = static_cast<uint32_t>(list_b0_ + out_.points.back().first);
    o.kind = OpenRun::state;
    t.set(target, op.gi, op.list, false);
  }

  // A later read of an open run: its access and sync join the run.
  [[gnu::always_inline]] void join_plain(const OpAt& op, Access a, SyncMask need, Slot& s, OpenRun& o) {
    s.t.last_list = op.list;
    s.t.last_op = op.gi;
    ReadRun run = s.run;
    run.add(a, need);
    if (run == s.run) return;  // nothing new (the usual case)
    s.run = run;
    widen_run(s, o, read_target(run, s.buffer, nullptr));
  }

  // The slot's open run lasts to the end of the group (the slot's exit follows): it opens visible to the
  // exit state's stages too, when read_target() says so.
  [[gnu::noinline]] void run_to_end(Slot& s, OpenRun& o) {
    const ReadRun end{s.run.bits | ReadRun::kToEnd};
    const State target = read_target(end, s.buffer, s.exit_state());
    if (!(target == read_target(s.run, s.buffer, nullptr))) widen_run(s, o, target);
    o.kind = OpenRun::none;
  }

  // The open run's state becomes `target` (its merged reads so far): the state, and the barrier that
  // opened the run, which becomes a read merge if it was a hand-off or a state change.
  [[gnu::noinline]] void widen_run(Slot& s, const OpenRun& o, const State& target) {
    if (o.kind == OpenRun::ored) {
      s.t.state.access |= target.access;
      s.t.state.sync |= target.sync;
      return;
    }
    s.t.state = target;
    if (o.b == kNone) return;
    Barrier& b = run_barrier(s.res, o);
    b.after = target;
    if (b.reason == Reason::state_change || b.reason == Reason::hand_off) b.reason = Reason::read_merge;
  }

  // The barrier that opened a run: where it was emitted, unless it moved since. A plain group has at most
  // one barrier per resource at a before-point, and two things move one:
  //  - emit(): the point's first barrier moves one place up when the second goes before it, while the
  //    point is still open (its other barriers are only appended), so it is the next one;
  //  - close_point(): the point is sorted by resource, so a binary search finds it.
  Barrier& run_barrier(ResourceId r, const OpenRun& o) {
    Barrier* const all = out_.barriers.data();
    if (all[o.b].resource == r) return all[o.b];
    Barrier* const first = all + o.p0;
    Barrier* const last = first + out_.points[o.p].count;
    if (all + o.b + 1 < last && all[o.b + 1].resource == r) return all[o.b + 1];
    return *std::lower_bound(first, last, r, [](const Barrier& x, ResourceId y) { return x.resource < y; });
  }

  // The box a barrier of `b` names: b, or (nullptr) the whole resource of a whole slot, made only when a
  // barrier needs it.
  Box box_or_whole(const Box* b, const Slot& s) const { return b ? *b : full_box(desc(s.res)); }

  // The read `u` of box `b` (nullptr: a whole slot), in state `t`, opening the read run `run`.
  [[gnu::always_inline]] void read_one(const OpAt& op, const Use& u, const Slot& s, SyncMask need,
                                       ReadRun run, const Box* b, Track& t) {
    if (already_satisfied(op, u, s, need, t)) return;
    const State target = read_target(run, s.buffer, s.exit_state());
    if (buffer_read(op, s, target, t) != BufferRead::barrier) return;
    const bool merged = target.access != bit(u.access) || target.sync != need;
    const Reason why = reason_for(t, op.list, merged ? Reason::read_merge : Reason::state_change);
    mark_entry_used(
        emit(op.list, op.op, Where::before, u.resource, s.bytes, &s, box_or_whole(b, s), t.state, target, why), t);
    t.set(target, op.gi, op.list, false);
  }

  void write(const OpAt& op, const Use& u, const UseRec& rec, Slot& s) {
    State target{rec.sync, bit(u.access), s.buffer ? Layout::none : layout_of(u.access)};  // use_state()
    if (op.shared) target.sync = op_sync(op, u.resource, u.access, u.stages);  // else sync_of(): as is
    if (s.whole) {
      write_one(op, u, s, target, nullptr, s.t);
      return;
    }
    RangeMap<Track>& m = cur_[s.map];
    m.update(use_box(rec, u.resource), [&](const Box& b, Track& t) { write_one(op, u, s, target, &b, t); });
    m.coalesce();
  }

  // The write `u` of box `b` (nullptr: a whole slot), in state `t`, into `target`.
  [[gnu::always_inline]] void write_one(const OpAt& op, const Use& u, const Slot& s, const State& target,
                                        const Box* b, Track& t) {
    // Another use of this operation, or a state a barrier already opened with nothing written since:
    // this write is inside that barrier's scope.
    const bool inside = t.state.layout == target.layout && t.state.access == target.access &&
                        ((t.state.sync & sync::all) || (t.state.sync & target.sync) == target.sync);
    // A takeover state names the previous occupants' accesses, not this resource's: always a barrier.
    if (t.origin != Origin::takeover &&
        (t.state == target ? (t.last_op == op.gi || !t.dirty) : (inside && !t.dirty))) {
      t.state = target;
      t.last_op = op.gi;
      t.last_list = op.list;
      t.dirty = true;
      return;
    }
    if (!(s.buffer && t.origin == Origin::first_touch)) {
      const bool same = t.state.layout == target.layout && t.state.access == target.access;
      const Reason own =
          same ? (u.access == Access::unordered_access ? Reason::uav_order : Reason::write_order) : Reason::state_change;
      mark_entry_used(emit(op.list, op.op, Where::before, u.resource, s.bytes, &s, box_or_whole(b, s), t.state,
                           target, reason_for(t, op.list, own)),
                      t);
    }
    t.set(target, op.gi, op.list, true);
  }

  // A discard's before-state from the state it leaves: the sync of the earlier accesses, and their accesses
  // too when they are a takeover's (the memory's previous occupants); the layout is undefined.
  static State discard_before(const Track& t) {
    return State{t.state.sync, t.origin == Origin::takeover ? t.state.access : AccessMask{0}, Layout::undefined};
  }
  static Reason discard_reason(const Track& t) {
    return t.origin == Origin::takeover ? Reason::takeover : Reason::discard;
  }

  // Invariant 3: the first-ever write of a placed render-target or depth texture opens with a discard
  // of the whole resource into the state of that write.
  void discard(const OpAt& op, ResourceId r) {
    const Use* w = nullptr;
    for (const Use& u : op.o.uses)
      if (u.resource == r && is_write(u.access)) {
        w = &u;
        break;
      }
    if (!w) return;
    Slot& s = slots_[slot_of_[r]];
    if (!s.started) start(s, op.list);
    const ResourceDesc& d = desc(r);
    State target = use_state(false, w->access, w->stages);
    target.sync = op_sync(op, r, w->access, w->stages);
    // The usual discard: a whole slot, in an operation that names no resource twice (so the write is its
    // only use of r). One barrier of the whole resource and one state, without the maps below, which give
    // the same for it: one box into the write's state, from the slot's one state.
    if (s.whole && !op.shared) {
      emit(op.list, op.op, Where::before, r, s.bytes, &s, full_box(d), discard_before(s.t), target,
           discard_reason(s.t), true);
      s.t.set(target, kNone, op.list, false);
      return;
    }
    // The discard opens every subresource straight into what this operation does with it: the write's
    // state, or the state of another use of the same operation (one barrier per subresource per point).
    RangeMap<State> into(full_box(d), target);
    for (uint32_t i = 0; i < op.o.uses.size(); ++i) {
      const Use& u = op.o.uses[i];
      if (u.resource != r || &u == w) continue;
      const UseRec& rec = uses_[op.first_use + i];
      if (is_write(u.access)) {
        State ws = use_state(false, u.access, u.stages);
        ws.sync = op_sync(op, r, u.access, u.stages);
        into.assign(use_box(rec, r), ws);
      } else {
        for_each_piece(rec, r,
                       [&](const Piece& p) { into.assign(p.box, read_target(p.run, false, s.exit_state())); });
      }
    }
    // A whole slot is one box, so both maps hold a single entry here.
    RangeMap<Track> m = s.whole ? RangeMap<Track>(full_box(d), s.t) : std::move(cur_[s.map]);
    // Memory taken over: the discard also waits for the previous occupants' accesses (Reason::takeover).
    for (const auto& e : m.entries()) {
      const State before = discard_before(e.value);
      into.for_each(e.box, [&](const Box& b, const State& after) {
        emit(op.list, op.op, Where::before, r, s.bytes, &s, b, before, after, discard_reason(e.value), true);
      });
    }
    // Nothing is written yet: the operation's own uses are inside the discard's scope.
    m = RangeMap<Track>(full_box(d), Track{target, kNone, op.list, Origin::list, false});
    for (const auto& e : into.entries()) {
      const State st = e.value;
      m.update(e.box, [&](const Box&, Track& t) { t.state = st; });
    }
    m.coalesce();
    if (s.whole)
      s.t = m.entries()[0].value;
    else
      cur_[s.map] = std::move(m);
  }

  // The state a read run opens with: its merged reads; a run that lasts to the end of the group opens
  // visible to every stage the exit state names, so the group can hand the resource on without a second
  // barrier (invariant 4 at no extra cost).
  [[gnu::always_inline]] static State read_target(ReadRun run, bool buffer, const State* exit_state) {
    const AccessMask access = run.access();
    State target{run.sync(), access, buffer ? Layout::none : read_layout_of(access)};
    if (run.to_end() && exit_state && exit_state->layout == target.layout &&
        (target.access & ~exit_state->access) == 0 && !(exit_state->access & kAnyAccess))
      target.sync |= exit_state->sync;
    return target;
  }

  // After the last use in the group: rest, or the entry state the next group declared (invariant 4).
  void exit(const OpAt& op, const Slot& s) {
    if (!s.has_exit) return;  // buffers never pay a restore barrier
    const State target = s.exit;
    const auto one = [&](const Box& b, const Track& t) {
      if (covered_by(t.state, target)) return;
      // Bytes of a ranged buffer the frame never touched: nothing to wait for, no layout to set.
      if (s.buffer && t.origin == Origin::first_touch) return;
      const Reason why = t.origin == Origin::first_touch ? Reason::first_touch
                         : t.origin == Origin::takeover  ? Reason::takeover
                         : s.handed_on                   ? Reason::hand_on
                                                         : Reason::restore;
      emit(op.list, op.op, Where::after, s.res, s.bytes, &s, b, t.state, target, why);
    };
    if (s.whole) {
      one(full_box(desc(s.res)), s.t);
      return;
    }
    for (const auto& e : cur_[s.map].entries()) one(e.box, e.value);
  }

  // The one previous occupant of the memory of slot s's resource (kGlobalResource: several), for a
  // takeover barrier.
  [[gnu::always_inline]] ResourceId previous_of(const Slot& s) const {
    if (s.first >= f_.entry_history.size()) return kGlobalResource;
    return f_.entry_history[s.first].second.takeover.previous;
  }

  const GroupFacts::HandOn* hand_on_of(ResourceId r) const {
    if (f_.hand_on.empty()) return nullptr;
    const auto it = std::lower_bound(f_.hand_on.begin(), f_.hand_on.end(), r,
                                     [](const GroupFacts::HandOn& h, ResourceId x) { return h.resource < x; });
    return it != f_.hand_on.end() && it->resource == r ? &*it : nullptr;
  }

  // Appends a barrier to the point (op, where) of the list, opening the point if it is not the current one.
  // `bytes`: r's slot has byte ranges (Slot::bytes), so the barrier names bytes (to_bytes). `slot`: r's
  // slot (nullptr for a global barrier), which a takeover barrier reads its previous occupant from.
  // Returns the barrier, which is the last one unless it went before the point's first (see below).
  [[gnu::always_inline]] Barrier& emit(uint32_t list, uint32_t op, Where where, ResourceId r, bool bytes,
                                       const Slot* slot, const Box& box, const State& before, const State& after,
                                       Reason why, bool discard = false) {
    if (list != list_) begin_list(list);
    GroupArray<BarrierPoint>& points = out_.points;
    const ResourceId previous = why == Reason::takeover ? previous_of(*slot) : kGlobalResource;
    Barrier* b;
    if (points.size() == list_p0_ || points.back().op != op || points.back().where != where) {
      open_point(op, where);
      b = &out_.emplace_barrier(r, box, before, after, why, discard, false, previous);
    } else if (points.back().count == 1 && out_.barriers.back().resource > r) {
      // A point's second barrier, of a resource before the first one's: made in its place in resource
      // order (close_point's stable order for two barriers of different resources), not swapped there later.
      b = &out_.emplace_barrier_before_last(r, box, before, after, why, discard, false, previous);
    } else {
      b = &out_.emplace_barrier(r, box, before, after, why, discard, false, previous);
    }
    if (bytes) to_bytes(*b);
    ++points.back().count;
    return *b;
  }

  // The forward walk emits list after list (every barrier at a point of the operation it is at), so the
  // group's arrays fill in list order: a list ends when a later one receives its first barrier. Its views
  // get their sizes here; relink() points them at the arrays' final storage.
  void end_list() {
    if (out_.lists.empty()) return;
    CompiledList& l = out_.lists[list_];
    l.barriers = std::span<const Barrier>(out_.barriers).subspan(list_b0_);
    l.points = std::span<const BarrierPoint>(out_.points).subspan(list_p0_);
  }
  void begin_list(uint32_t list) {
    close_point();
    end_list();
    list_ = list;
    list_b0_ = out_.barriers.size();
    list_p0_ = out_.points.size();
  }

  // The barrier just emitted leaves a declared entry state that uses in this group already served
  // (t.last_op is set by them): Barrier::before_used.
  static void mark_entry_used(Barrier& b, const Track& t) {
    if (t.origin == Origin::entry && t.last_op != kNone) b.before_used = true;
  }

  // A barrier of a buffer with byte ranges: its box (bytes on the mip axis) becomes the byte range,
  // and the box the buffer's one subresource. The extent's end stands for the buffer's end.
  void to_bytes(Barrier& b) const {
    const ResourceDesc& d = desc(b.resource);
    const Box all = buffer_extent(d);
    if (!(b.box == all)) {
      b.byte_offset = b.box.m0;
      b.byte_size = b.box.m1 == all.m1 ? d.size - b.box.m0 : uint64_t{b.box.m1} - b.box.m0;
    }
    b.box = full_box(d);
  }

  [[gnu::always_inline]] void open_point(uint32_t op, Where where) {
    close_point();
    out_.push_point({op, where, static_cast<uint32_t>(out_.barriers.size() - list_b0_), 0});
  }

  // Orders a point's barriers by resource and merges barriers of one resource that are identical but
  // for contiguous boxes into one (invariant 6). A point of one barrier, or of two of different
  // resources (the common cases, which emit() keeps in order as they fill), is settled here, inline at
  // every caller; larger ones take sort_point.
  [[gnu::always_inline]] void close_point() {
    if (out_.points.size() == list_p0_) return;
    BarrierPoint& p = out_.points.back();
    if (p.count < 2) return;
    Barrier* b = out_.barriers.data() + list_b0_ + p.first;
    // The common pair, of two resources: emit() made it in resource order already.
    if (p.count == 2 && b[0].resource != b[1].resource) return;
    sort_point(p, b);
  }
  void sort_point(BarrierPoint& p, Barrier* b) {
    const size_t n = p.count;
    // Points are small: a stable insertion sort by resource, in place. A large one (the frame graph's
    // frame_start / frame_end lists transition thousands of textures at one point) takes a stable sort.
    auto by_resource = [](const Barrier& x, const Barrier& y) { return x.resource < y.resource; };
    if (n <= 32) {
      insertion_sort(b, b + n, by_resource);  // one copy per step, where a swap made three
    } else {
      std::stable_sort(b, b + n, by_resource);
    }
    bool shared = false;  // only barriers of one resource can merge
    for (size_t i = 1; i < n && !shared; ++i) shared = b[i - 1].resource == b[i].resource;
    if (!shared) return;
    size_t w = 0;
    for (size_t i = 0; i < n;) {
      size_t e = i;
      while (e < n && b[e].resource == b[i].resource) ++e;
      const size_t start = w;
      for (size_t k = i; k < e; ++k) b[w++] = b[k];
      // Many barriers of one resource (the restores of a texture split per subresource) take the
      // indexed form of the same merges.
      w = start + (e - i > 32 ? plan_detail::merge_barriers_many(b + start, e - i)
                              : plan_detail::merge_barriers_scan(b + start, e - i));
      i = e;
    }
    out_.shrink(list_b0_ + p.first + w, out_.points.size());
    p.count = static_cast<uint32_t>(w);
  }

  const ResourceTable& rt_;
  const CommandListGroup& g_;
  const GroupFacts& f_;
  Scratch& scratch_ = thread_scratch();
  std::vector<uint32_t>& slot_of_ = scratch_.slot_of;
  std::vector<Slot>& slots_ = scratch_.slots;
  std::vector<UseRec>& uses_ = scratch_.uses;
  std::vector<OpRec>& op_recs_ = scratch_.ops;
  std::vector<Box>& boxes_ = scratch_.boxes;
  std::vector<Piece>& pieces_ = scratch_.pieces;
  std::vector<RangeMap<Track>>& cur_ = scratch_.cur;
  std::vector<RangeMap<ReadRun>>& runs_ = scratch_.runs;
  std::vector<uint32_t>& ranged_of_ = scratch_.ranged_of;
  std::vector<RangedBuffer>& ranged_ = scratch_.ranged;
  std::vector<uint8_t>& retiring_ = scratch_.retiring;
  std::vector<uint32_t>& exit_head_ = scratch_.exit_head;
  std::vector<OpenRun>& open_ = scratch_.open;
  bool plain_ = true;  // prepare(): every use covers its whole resource, no resource twice in one operation
  bool ranged_found_ = false;  // find_ranged() has run: ranged_ and ranged_of_ hold the group's buffers
  uint32_t maps_ = 0;        // slots with range maps: the first maps_ of cur_ and runs_
  uint32_t ops_ = 0;         // operations in the group
  uint32_t uses_total_ = 0;  // uses in the group
  uint32_t next_first_ = 0;  // slots numbered in the order of first touch so far
  CompiledGroup& out_;
  uint32_t list_ = 0;                 // the list the forward walk emits into (begin_list)
  const Barrier* barriers0_ = nullptr;      // the arrays' storage as prepare() reserved it: relink()
  const BarrierPoint* points0_ = nullptr;   // only if the forward walk outgrew it
  size_t list_b0_ = 0, list_p0_ = 0;  // where its barriers and points start in out_'s arrays
  std::unordered_map<uint64_t, SyncMask>& op_syncs_ = scratch_.op_syncs;  // op_sync of operation op_syncs_of_
  uint32_t op_syncs_of_ = kNone;
};

}  // namespace

CompiledGroup compile(const ResourceTable& resources, const CommandListGroup& group, const GroupFacts& facts) {
  CompiledGroup out;
  GroupCompiler(resources, group, facts, out).run();
  return out;
}

void compile_into(CompiledGroup& out, const ResourceTable& resources, const CommandListGroup& group,
                  const GroupFacts& facts) {
  GroupCompiler(resources, group, facts, out).run();
}

CompileResult compile_all(const ResourceTable& resources, std::span<CommandListGroup* const> groups,
                          History history_in, unsigned threads) {
  CompileResult out;
  compile_all_into(out, resources, groups, std::move(history_in), threads);
  return out;
}

void compile_all_into(CompileResult& out, const ResourceTable& resources, std::span<CommandListGroup* const> groups,
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
  // The same pointers, read-only (a qualification conversion: no copy of the array).
  const std::span<const CommandListGroup* const> cg(groups.data(), groups.size());
  // The facts go to a Plan kept per thread: planned again, a frame reuses their storage (no heap block per
  // group in steady state). Only this call reads them, and only until it returns.
  thread_local Plan reused;
  Plan& p = reused;
  plan_detail::plan_into(p, resources, cg, std::move(history_in));
  // One result per group, each compiled into the group the call before left at its place (its block reused).
  out.groups.resize(groups.size());
  threads = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(groups.size())));
  if (threads == 1) {
    for (size_t i = 0; i < groups.size(); ++i) compile_into(out.groups[i], resources, *groups[i], p.groups[i]);
  } else {
    std::vector<std::exception_ptr> errors(threads);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
      pool.emplace_back([&, t] {
        try {
          for (size_t i = t; i < groups.size(); i += threads)
            compile_into(out.groups[i], resources, *groups[i], p.groups[i]);
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
}

}  // namespace baton
