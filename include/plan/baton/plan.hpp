// Planning and compiling: per-resource history across groups (plan, serial), and the barriers of
// one group (compile, pure). The output is neutral; lower/ turns it into API barriers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "baton/core.hpp"
#include "baton/record.hpp"

namespace baton {

// Why a barrier exists. Every barrier carries one, so a reader can tell which rule produced it.
enum class Reason : uint8_t {
  first_touch,   // first-ever touch of the memory: nothing to wait for, layout undefined
  entry_state,   // leaves the declared entry state of the list that first touches it in the group
  from_rest,     // leaves the resting state the previous group left the resource in
  hand_off,      // hands the resource from one list of the group directly to the next
  state_change,  // a change of use inside one list
  read_merge,    // one transition into the merged state of several consecutive readers
  uav_order,     // unordered access after unordered access from a different operation
  write_order,   // the same write access again from a different operation
  discard,       // initializing discard of a placed render-target or depth texture (whole resource)
  restore,       // back to the resting state at the end of the group
  hand_on,       // into the entry state the next group declared (instead of resting)
  full_barrier,  // explicit full barrier requested by the recording
  takeover,      // first touch of memory earlier resources of the submission used (aliasing): waits for
                 // their last accesses (ResourceHistory::takeover), layout undefined
};
std::string_view to_string(Reason r);

struct Barrier {
  ResourceId resource = 0;  // kGlobalResource for a global barrier
  Box box{};
  State before{}, after{};
  Reason reason = Reason::state_change;
  bool discard = false;
  // Reason::entry_state: the declared entry state was already used in this group before this barrier
  // (reads it served with no barrier), so an API that changes state on use holds it by now (a D3D12
  // legacy buffer in COMMON is promoted by those reads).
  bool before_used = false;
  // Reason::takeover: the one resource whose memory this one takes over (D3D12 legacy names it in the
  // aliasing barrier); kGlobalResource when there are several or they are not known.
  ResourceId previous = kGlobalResource;
  // A split barrier (mark_split_barriers): it begins right after operation `split_after` of list
  // `split_list` of the group (this list or an earlier one: the last operation of the group that
  // touches the resource), and ends here, at its own point, before the consumer's first access; the
  // operations between do not touch the resource. split_after kNoSplit: a whole barrier.
  uint32_t split_after = 0xffffffffu;
  uint32_t split_list = 0xffffffffu;
  bool split() const { return split_after != 0xffffffffu; }
  // Buffers: the bytes [byte_offset, byte_offset + byte_size) the barrier orders (byte_size
  // kWholeBytes: the whole buffer, which every barrier of a buffer without byte ranges is). The box
  // of a buffer barrier is always full_box.
  uint64_t byte_offset = 0, byte_size = kWholeBytes;
  bool whole_bytes() const { return byte_size == kWholeBytes; }
};
inline constexpr uint32_t kNoSplit = 0xffffffffu;

// The text of a barrier's range: "bytes 256..511" for a byte range of a buffer, else the box's text
// (to_string(Box, ResourceDesc): "all" for the whole resource).
inline std::string range_text(const Barrier& b, const ResourceDesc& d) {
  if (!b.whole_bytes())
    return "bytes " + std::to_string(b.byte_offset) + ".." + std::to_string(b.byte_offset + b.byte_size - 1);
  return to_string(b.box, d);
}

enum class Where : uint8_t { before, after };
std::string_view to_string(Where w);

// One reserved barrier point that received barriers: one API call.
struct BarrierPoint {
  uint32_t op = 0;
  Where where = Where::before;
  uint32_t first = 0, count = 0;  // into CompiledList::barriers (counted from the list's first barrier)
};

// One list's part of a compiled group: views into the group's two arrays (CompiledGroup::barriers and
// ::points), which hold every list's barriers and points, list after list. The group keeps its lists'
// views valid (copy, add_list, set_list and growth relink them); a list copied out of it dangles once the
// group dies: keep the group.
struct CompiledList {
  std::string name;
  Queue queue = Queue::direct;
  std::span<const Barrier> barriers;     // in point order
  std::span<const BarrierPoint> points;  // non-empty points, in (op, where) order
  std::span<const Barrier> barriers_at(const BarrierPoint& p) const { return barriers.subspan(p.first, p.count); }
};

// One of a CompiledGroup's three arrays (lists, barriers, points), which all live in one heap block that
// the group owns (issue 16, session 16: one block per group, not three). It reads like the vector it
// replaces (size, index, iteration, data, back, a span of it); it is written only through its group
// (reserve, push_*, add_list, set_list, shrink), which keeps the three arrays in their one block.
template <class T>
class GroupArray {
 public:
  using value_type = T;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = T&;
  using const_reference = const T&;
  using pointer = T*;
  using const_pointer = const T*;
  using iterator = T*;
  using const_iterator = const T*;

  GroupArray() = default;
  GroupArray(const GroupArray&) = delete;  // the group copies its block as a whole
  GroupArray& operator=(const GroupArray&) = delete;

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return cap_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T* cbegin() const { return data_; }
  const T* cend() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& at(size_t i) {
    if (i >= size_) throw std::out_of_range("GroupArray::at");
    return data_[i];
  }
  const T& at(size_t i) const {
    if (i >= size_) throw std::out_of_range("GroupArray::at");
    return data_[i];
  }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

 private:
  friend struct CompiledGroup;
  T* data_ = nullptr;
  size_t size_ = 0, cap_ = 0;
};

struct CompiledGroup {
  std::string name;
  Queue queue = Queue::direct;
  GroupArray<CompiledList> lists;
  // Every list's barriers and points, in list order: list i's views cover the elements after list i-1's.
  // Writers keep that order (compile appends list after list; add_list, set_list) and call relink() after
  // changing the arrays' sizes directly (shrink).
  GroupArray<Barrier> barriers;
  GroupArray<BarrierPoint> points;

  CompiledGroup() = default;
  // A copy's lists view the copy's arrays; a move keeps the block, so the views stay valid.
  CompiledGroup(const CompiledGroup& o);
  CompiledGroup& operator=(const CompiledGroup& o);
  CompiledGroup(CompiledGroup&& o) noexcept;
  CompiledGroup& operator=(CompiledGroup&& o) noexcept;
  ~CompiledGroup();

  size_t barrier_count() const { return barriers.size(); }
  size_t point_count() const { return points.size(); }
  // Where list li's barriers and points start in the group's arrays.
  size_t barrier_offset(size_t li) const;
  size_t point_offset(size_t li) const;
  // List li's barriers and points, writable (split marks, tests that corrupt a plan on purpose).
  std::span<Barrier> barriers_of(size_t li);
  std::span<BarrierPoint> points_of(size_t li);
  // Appends a list with these barriers and points (BarrierPoint::first counted from its first barrier).
  CompiledList& add_list(std::string list_name, Queue list_queue, std::span<const Barrier> bs = {},
                         std::span<const BarrierPoint> ps = {});
  // Replaces list li's barriers and points (the other lists keep theirs).
  void set_list(size_t li, std::vector<Barrier> bs, std::vector<BarrierPoint> ps);
  // Points every list's views at the arrays again, keeping each list's sizes, list after list (after
  // the arrays were reallocated, copied or shrunk). Throws Error if the views claim more than the arrays hold.
  void relink();

  // The writers compile() uses. Room in the one block for at least this many lists, barriers and points
  // (one reallocation for all three; the lists' views follow).
  void reserve(size_t list_count, size_t barrier_count, size_t point_count);
  // Appends an empty list (no views yet), a barrier, a point; the block grows when full, and then every
  // list's views are relinked (keeping their sizes). The barrier is made in place from its fields in
  // declaration order (Barrier{fields...}, or a whole Barrier to copy): no temporary to copy.
  CompiledList& push_list();
  // The same, named and on `queue`, inline (the compiler makes one per list it compiles).
  [[gnu::always_inline]] CompiledList& push_list(std::string_view list_name, Queue list_queue) {
    if (lists.size_ == lists.cap_) grow(1, 0, 0);
    CompiledList& l = lists.data_[lists.size_++];  // a slot made by reallocate(), emptied as a new list
    l.name.assign(list_name);
    l.queue = list_queue;
    l.barriers = {};
    l.points = {};
    return l;
  }
  template <class... Fields>
  [[gnu::always_inline]] Barrier& emplace_barrier(Fields&&... fields) {
    if (barriers.size_ == barriers.cap_) grow(0, 1, 0);
    return *::new (static_cast<void*>(barriers.data_ + barriers.size_++)) Barrier{std::forward<Fields>(fields)...};
  }
  // The same, made one place earlier: the last barrier moves up one place first (a point's second barrier
  // that sorts before its first is made where it belongs instead of swapped with it later).
  template <class... Fields>
  [[gnu::always_inline]] Barrier& emplace_barrier_before_last(Fields&&... fields) {
    if (barriers.size_ == barriers.cap_) grow(0, 1, 0);
    Barrier* const at = barriers.data_ + barriers.size_ - 1;
    std::memcpy(static_cast<void*>(at + 1), static_cast<const void*>(at), sizeof(Barrier));
    ++barriers.size_;
    return *::new (static_cast<void*>(at)) Barrier{std::forward<Fields>(fields)...};
  }
  [[gnu::always_inline]] BarrierPoint& push_point(const BarrierPoint& bp) {
    if (points.size_ == points.cap_) grow(0, 0, 1);
    return *::new (static_cast<void*>(points.data_ + points.size_++)) BarrierPoint(bp);
  }
  // Drops the barriers and points past these counts (at most the arrays' sizes); the lists' views are not
  // changed: call relink() if they covered what was dropped.
  void shrink(size_t barrier_count, size_t point_count);
  // Empties the group (no lists, barriers or points, an empty name), keeping its block for the next
  // compile into it (compile_into).
  void clear() noexcept;

 private:
  // Room for `more` of each beyond their sizes: a new block (geometric growth), the contents moved in.
  [[gnu::noinline, gnu::cold]] void grow(size_t more_lists, size_t more_barriers, size_t more_points);
  void reallocate(size_t list_cap, size_t barrier_cap, size_t point_cap);
  void release() noexcept;
  void take_block(CompiledGroup& o) noexcept;  // the two moves
  void* block_ = nullptr;  // the lists, then the barriers, then the points
};

// The memory a resource takes over from resources used earlier in the submission (aliasing): the
// union of the previous occupants' last accesses and their sync. Its first touch waits for them
// (before-state {sync, access, undefined}, Reason::takeover) instead of nothing.
struct Takeover {
  SyncMask sync = sync::none;
  AccessMask access = 0;
  ResourceId previous = kGlobalResource;  // the one previous occupant; kGlobalResource when several
  bool any() const { return sync != sync::none || access != 0; }
  friend bool operator==(const Takeover&, const Takeover&) = default;
};

// What is known about a resource before a group runs, carried from group to group.
struct ResourceHistory {
  bool touched = false;  // touched since creation or since aliasing activation
  bool written = false;  // written since creation or aliasing activation
  // Until the first touch: the memory's previous occupants to wait for (none: the first-ever touch of
  // the memory, SyncBefore NONE). plan() clears it at the first touch.
  Takeover takeover{};
  // The resource dies after its last use in these groups (a frame graph's transient: its memory goes to
  // another resource or is freed): the group that touches it last does not restore it to rest.
  bool dies = false;
  friend bool operator==(const ResourceHistory&, const ResourceHistory&) = default;
};
using History = std::vector<ResourceHistory>;  // indexed by ResourceId
History fresh_history(const ResourceTable& t);

// Where placed resources live: heaps, and per resource the byte range it is bound to (a frame graph's
// aliasing, with real sizes where a device gave them). Trace writers put it into the trace ("heaps",
// "placement": docs/trace-format.md) so that the validator checks every takeover of memory.
struct PlanMemory {
  struct Heap {
    std::string name;
    uint64_t bytes = 0;
  };
  struct Range {
    uint32_t heap = 0;
    uint64_t offset = 0, bytes = 0;
  };
  std::vector<Heap> heaps;
  std::vector<std::optional<Range>> placement;  // per ResourceId (missing or nullopt: memory of its own)
  bool empty() const { return heaps.empty(); }
};

struct Plan;
namespace plan_detail {
// plan() into `out` (src/plan/uses.hpp says more): the one writer of GroupFacts::plain().
void plan_into(Plan& out, const ResourceTable& rt, std::span<const CommandListGroup* const> groups, History history);
}  // namespace plan_detail

// Per-group facts decided by the serial plan.
struct GroupFacts {
  // History at the start of the group of every resource the group touches, in the order the group first
  // touches them (lists in order, operations in order, uses in order), which is the compiler's own
  // order; sparse, so that planning many small groups over many resources stays linear.
  std::vector<std::pair<ResourceId, ResourceHistory>> entry_history;
  ResourceHistory history_of(ResourceId r) const;
  // The initializing discards this group owns: (list, op, resource).
  struct DiscardOwner {
    uint32_t list = 0, op = 0;
    ResourceId resource = 0;
  };
  std::vector<DiscardOwner> discards;
  // Resources a later group declares an entry state for: this group, if it touches them and is the
  // last to do so before that group, leaves them in that state instead of resting.
  struct HandOn {
    ResourceId resource = 0;
    State state{};
  };
  std::vector<HandOn> hand_on;
  // Resources that die (ResourceHistory::dies) and that this group touches last: no restore to rest
  // after their last use (unless a later group declared an entry state). Sorted.
  std::vector<ResourceId> retire;
  // Every use of the group covers its whole resource and no operation names a resource twice (plan()
  // finds it while it checks the uses): compile() plans the group in one forward walk, without its
  // reverse pass, and trusts the flag without checking it again. Only plan() sets it (a private member):
  // facts made by hand read false, the safe answer, and cannot claim it; a copy of planned facts keeps it.
  bool plain() const { return plain_; }

 private:
  friend void plan_detail::plan_into(Plan&, const ResourceTable&, std::span<const CommandListGroup* const>, History);
  bool plain_ = false;
};

struct Plan {
  std::vector<GroupFacts> groups;
  History history_out;
};

// Serial, in submission order. Throws Error for inputs that cannot be planned (unknown resource,
// range out of bounds, access illegal on the queue or the resource, two conflicting uses in one op).
Plan plan(const ResourceTable& resources, std::span<const CommandListGroup* const> groups, History history_in);

// Pure and deterministic: the barriers of one group given its facts.
CompiledGroup compile(const ResourceTable& resources, const CommandListGroup& group, const GroupFacts& facts);
// The same into `out`, whose block is reused (cleared first; it grows only when the group needs more).
void compile_into(CompiledGroup& out, const ResourceTable& resources, const CommandListGroup& group,
                  const GroupFacts& facts);

// Convenience driver: plans, compiles every group (in parallel when threads > 1) and marks each list
// Compiled (a list compiled twice is an error). Returns the groups in order and the history.
struct CompileResult {
  std::vector<CompiledGroup> groups;
  History history_out;
};
CompileResult compile_all(const ResourceTable& resources, std::span<CommandListGroup* const> groups,
                          History history_in, unsigned threads = 1);
// The same into `out`: its groups' blocks are reused group by group (compile_into), extra groups dropped.
void compile_all_into(CompileResult& out, const ResourceTable& resources, std::span<CommandListGroup* const> groups,
                      History history_in, unsigned threads = 1);

// Split barriers (off unless asked for: --split-barriers on). Marks, in place, every barrier at a
// before-point of operation k whose resource the group last touched (a use, or a barrier at a
// before-point) at operation j of the same list or of an earlier list of the group, with at least one
// operation of work between that does not touch the resource: Barrier::split_after = j, split_list =
// that list. Not split: first touches, takeovers, discards, global barriers, barriers whose before
// side comes from outside the group (from rest, entry state), and resources with a barrier at j's
// after-point. Returns how many it marked. Lowering turns a marked barrier into a begin half after
// op j and an end half at its point (Vulkan events, D3D12 SYNC_SPLIT, legacy BEGIN_ONLY/END_ONLY);
// a consumer that ignores the marks still issues a correct whole barrier.
size_t mark_split_barriers(const CommandListGroup& group, CompiledGroup& compiled);
size_t mark_split_barriers(std::span<CommandListGroup* const> groups, std::span<CompiledGroup> compiled);
// Why the barrier at operation `end_op` of list `end_list` is split: "split: begins after op 1, ops
// 2..3 between do not touch it", or "split: begins after op 1 of list 'a', the work between does not
// touch it" for a begin half on an earlier list.
std::string split_reason(const CompiledGroup& group, uint32_t end_list, const Barrier& b, uint32_t end_op);

// The full state implied by one use (access, stages) on a resource (inline: the planner asks it per use).
inline State state_of_use(const ResourceDesc& d, Access a, Stages s) {
  return State{sync_of(a, s), bit(a), d.type == ResourceType::buffer ? Layout::none : layout_of(a)};
}
// The state a declared entry stands for: its use's, or the shared read state of EntryState::shared
// (the sync of each read in the entry's stages; layout shared_read, buffers none).
State state_of_entry(const ResourceDesc& d, const EntryState& e);

}  // namespace baton

namespace baton {
// Readable text of a compiled group, one line per barrier:
//   `resource[range] before -> after (reason)` under a header per list and barrier point.
std::string dump(const ResourceTable& resources, const CommandListGroup& group, const CompiledGroup& compiled);
}  // namespace baton
