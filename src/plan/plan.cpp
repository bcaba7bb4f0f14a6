// The serial plan: checks every declaration once, then walks the groups in submission order and
// turns per-resource history into per-group facts (entry history, discard owners, hand-ons).
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstring>
#include <new>
#include <type_traits>
#include <utility>
#include <unordered_map>

#include "baton/plan.hpp"
#include "baton/rules.hpp"
#include "uses.hpp"

namespace baton {

std::string_view to_string(Reason r) {
  switch (r) {
    case Reason::first_touch: return "first touch";
    case Reason::entry_state: return "entry state";
    case Reason::from_rest: return "from rest";
    case Reason::hand_off: return "hand-off";
    case Reason::state_change: return "state change";
    case Reason::read_merge: return "read merge";
    case Reason::uav_order: return "UAV order";
    case Reason::write_order: return "write order";
    case Reason::discard: return "discard";
    case Reason::restore: return "restore to rest";
    case Reason::hand_on: return "hand on";
    case Reason::full_barrier: return "full barrier";
    case Reason::takeover: return "takeover";
  }
  return "?";
}

std::string_view to_string(Where w) { return w == Where::before ? "before" : "after"; }

// The one block: the lists, then the barriers, then the points, each at its alignment.
namespace {
constexpr size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }
size_t barriers_at(size_t list_cap) { return align_up(list_cap * sizeof(CompiledList), alignof(Barrier)); }
size_t points_at(size_t list_cap, size_t barrier_cap) {
  return align_up(barriers_at(list_cap) + barrier_cap * sizeof(Barrier), alignof(BarrierPoint));
}
static_assert(std::is_trivially_copyable_v<Barrier> && std::is_trivially_copyable_v<BarrierPoint>);
static_assert(alignof(CompiledList) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__ &&
              alignof(Barrier) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__);
}  // namespace

// Every list slot of the block, [0, lists.cap_), holds a constructed CompiledList, also past the group's
// lists: clear() keeps them, and push_list() empties the next one, so a list's name keeps its storage from
// compile to compile (a name longer than a string holds inline would otherwise take a heap block every
// compile into the group). The slots are made and destroyed only here and in release().
void CompiledGroup::reallocate(size_t list_cap, size_t barrier_cap, size_t point_cap) {
  list_cap = std::max(list_cap, lists.cap_);  // every caller grows; the slots made are never dropped
  const size_t pb = barriers_at(list_cap), pp = points_at(list_cap, barrier_cap);
  const size_t total = pp + point_cap * sizeof(BarrierPoint);
  auto* const nb = static_cast<std::byte*>(::operator new(total));
  auto* const nl = reinterpret_cast<CompiledList*>(nb);
  for (size_t i = 0; i < lists.cap_; ++i) {  // moves of a string and two views: do not throw
    ::new (static_cast<void*>(nl + i)) CompiledList(std::move(lists.data_[i]));
    lists.data_[i].~CompiledList();
  }
  for (size_t i = lists.cap_; i < list_cap; ++i) ::new (static_cast<void*>(nl + i)) CompiledList();
  auto* const nbar = reinterpret_cast<Barrier*>(nb + pb);
  auto* const npt = reinterpret_cast<BarrierPoint*>(nb + pp);
  if (barriers.size_ != 0) std::memcpy(static_cast<void*>(nbar), barriers.data_, barriers.size_ * sizeof(Barrier));
  if (points.size_ != 0) std::memcpy(static_cast<void*>(npt), points.data_, points.size_ * sizeof(BarrierPoint));
  ::operator delete(block_);
  block_ = nb;
  lists.data_ = nl;
  lists.cap_ = list_cap;
  barriers.data_ = nbar;
  barriers.cap_ = barrier_cap;
  points.data_ = npt;
  points.cap_ = point_cap;
  relink();
}

void CompiledGroup::grow(size_t more_lists, size_t more_barriers, size_t more_points) {
  auto cap = [](size_t size, size_t cap_now, size_t more) {
    const size_t need = size + more;
    return need <= cap_now ? cap_now : std::max(need, 2 * cap_now);
  };
  reallocate(cap(lists.size_, lists.cap_, more_lists), cap(barriers.size_, barriers.cap_, more_barriers),
             cap(points.size_, points.cap_, more_points));
}

void CompiledGroup::reserve(size_t list_count, size_t barrier_count, size_t point_count) {
  if (list_count <= lists.cap_ && barrier_count <= barriers.cap_ && point_count <= points.cap_) return;
  reallocate(std::max(list_count, lists.cap_), std::max(barrier_count, barriers.cap_),
             std::max(point_count, points.cap_));
}

CompiledList& CompiledGroup::push_list() { return push_list(std::string_view(""), Queue::direct); }

void CompiledGroup::shrink(size_t barrier_count, size_t point_count) {
  barriers.size_ = std::min(barriers.size_, barrier_count);
  points.size_ = std::min(points.size_, point_count);
}

void CompiledGroup::clear() noexcept {
  lists.size_ = barriers.size_ = points.size_ = 0;  // the list slots stay made (reallocate())
  name.clear();
  queue = Queue::direct;
}

void CompiledGroup::release() noexcept {
  for (size_t i = 0; i < lists.cap_; ++i) lists.data_[i].~CompiledList();
  ::operator delete(block_);
  block_ = nullptr;
  lists.data_ = nullptr;
  barriers.data_ = nullptr;
  points.data_ = nullptr;
  lists.size_ = lists.cap_ = barriers.size_ = barriers.cap_ = points.size_ = points.cap_ = 0;
}

CompiledGroup::~CompiledGroup() { release(); }

// Delegates to the default constructor first, so that a copy that throws half-way is destroyed.
CompiledGroup::CompiledGroup(const CompiledGroup& o) : CompiledGroup() {
  name = o.name;
  queue = o.queue;
  if (o.lists.size_ == 0 && o.barriers.size_ == 0 && o.points.size_ == 0) return;
  reallocate(o.lists.size_, o.barriers.size_, o.points.size_);
  for (size_t i = 0; i < o.lists.size_; ++i) {
    lists.data_[i] = o.lists.data_[i];  // the slots are made (reallocate())
    ++lists.size_;
  }
  if (o.barriers.size_ != 0) std::memcpy(static_cast<void*>(barriers.data_), o.barriers.data_, o.barriers.size_ * sizeof(Barrier));
  if (o.points.size_ != 0) std::memcpy(static_cast<void*>(points.data_), o.points.data_, o.points.size_ * sizeof(BarrierPoint));
  barriers.size_ = o.barriers.size_;
  points.size_ = o.points.size_;
  relink();
}

CompiledGroup& CompiledGroup::operator=(const CompiledGroup& o) {
  if (this != &o) *this = CompiledGroup(o);
  return *this;
}

// Takes o's block and its three arrays, leaving o without a block; this group must hold none.
void CompiledGroup::take_block(CompiledGroup& o) noexcept {
  block_ = std::exchange(o.block_, nullptr);
  lists.data_ = std::exchange(o.lists.data_, nullptr);
  lists.size_ = std::exchange(o.lists.size_, 0);
  lists.cap_ = std::exchange(o.lists.cap_, 0);
  barriers.data_ = std::exchange(o.barriers.data_, nullptr);
  barriers.size_ = std::exchange(o.barriers.size_, 0);
  barriers.cap_ = std::exchange(o.barriers.cap_, 0);
  points.data_ = std::exchange(o.points.data_, nullptr);
  points.size_ = std::exchange(o.points.size_, 0);
  points.cap_ = std::exchange(o.points.cap_, 0);
}

CompiledGroup::CompiledGroup(CompiledGroup&& o) noexcept : name(std::move(o.name)), queue(o.queue) { take_block(o); }

CompiledGroup& CompiledGroup::operator=(CompiledGroup&& o) noexcept {
  if (this != &o) {
    release();
    name = std::move(o.name);
    queue = o.queue;
    take_block(o);
  }
  return *this;
}

void CompiledGroup::relink() {
  size_t b = 0, p = 0;
  const std::span<const Barrier> all_b(barriers.data_, barriers.size_);
  const std::span<const BarrierPoint> all_p(points.data_, points.size_);
  for (CompiledList& l : lists) {
    const size_t nb = l.barriers.size(), np = l.points.size();
    if (b + nb > barriers.size() || p + np > points.size())
      throw Error(fmt::format("group '{}': list '{}' views past the group's arrays", name, l.name));
    l.barriers = all_b.subspan(b, nb);
    l.points = all_p.subspan(p, np);
    b += nb;
    p += np;
  }
}

// A list's views start where its group's arrays hold its elements; an empty list's start is where the
// closest earlier non-empty list ends (its views can point anywhere, so that is counted, not read).
size_t CompiledGroup::barrier_offset(size_t li) const {
  for (size_t i = li + 1; i-- > 0;) {
    const std::span<const Barrier> v = lists.at(i).barriers;
    if (!v.empty()) return static_cast<size_t>(v.data() - barriers.data()) + (i == li ? 0 : v.size());
  }
  return 0;
}

size_t CompiledGroup::point_offset(size_t li) const {
  for (size_t i = li + 1; i-- > 0;) {
    const std::span<const BarrierPoint> v = lists.at(i).points;
    if (!v.empty()) return static_cast<size_t>(v.data() - points.data()) + (i == li ? 0 : v.size());
  }
  return 0;
}

std::span<Barrier> CompiledGroup::barriers_of(size_t li) {
  return std::span<Barrier>(barriers.data_, barriers.size_).subspan(barrier_offset(li), lists.at(li).barriers.size());
}

std::span<BarrierPoint> CompiledGroup::points_of(size_t li) {
  return std::span<BarrierPoint>(points.data_, points.size_).subspan(point_offset(li), lists.at(li).points.size());
}

CompiledList& CompiledGroup::add_list(std::string list_name, Queue list_queue, std::span<const Barrier> bs,
                                      std::span<const BarrierPoint> ps) {
  const std::vector<Barrier> b(bs.begin(), bs.end());  // bs may view this group's own arrays
  const std::vector<BarrierPoint> p(ps.begin(), ps.end());
  grow(1, b.size(), p.size());
  const size_t b0 = barriers.size_, p0 = points.size_;
  if (!b.empty()) std::memcpy(static_cast<void*>(barriers.data_ + b0), b.data(), b.size() * sizeof(Barrier));
  if (!p.empty()) std::memcpy(static_cast<void*>(points.data_ + p0), p.data(), p.size() * sizeof(BarrierPoint));
  barriers.size_ += b.size();
  points.size_ += p.size();
  CompiledList& l = push_list();
  l.name = std::move(list_name);
  l.queue = list_queue;
  l.barriers = std::span<const Barrier>(barriers.data_, barriers.size_).subspan(b0, b.size());
  l.points = std::span<const BarrierPoint>(points.data_, points.size_).subspan(p0, p.size());
  relink();
  return l;
}

void CompiledGroup::set_list(size_t li, std::vector<Barrier> bs, std::vector<BarrierPoint> ps) {
  const size_t b0 = barrier_offset(li), p0 = point_offset(li);
  const size_t nb = lists[li].barriers.size(), np = lists[li].points.size();
  if (bs.size() > nb || ps.size() > np)
    grow(0, bs.size() > nb ? bs.size() - nb : 0, ps.size() > np ? ps.size() - np : 0);
  // The elements after the list's move to their new place, then the list's new ones go in.
  const size_t b_tail = barriers.size_ - (b0 + nb), p_tail = points.size_ - (p0 + np);
  if (b_tail != 0)
    std::memmove(static_cast<void*>(barriers.data_ + b0 + bs.size()), barriers.data_ + b0 + nb, b_tail * sizeof(Barrier));
  if (p_tail != 0)
    std::memmove(static_cast<void*>(points.data_ + p0 + ps.size()), points.data_ + p0 + np, p_tail * sizeof(BarrierPoint));
  if (!bs.empty()) std::memcpy(static_cast<void*>(barriers.data_ + b0), bs.data(), bs.size() * sizeof(Barrier));
  if (!ps.empty()) std::memcpy(static_cast<void*>(points.data_ + p0), ps.data(), ps.size() * sizeof(BarrierPoint));
  barriers.size_ = b0 + bs.size() + b_tail;
  points.size_ = p0 + ps.size() + p_tail;
  // Only the sizes matter to relink(), which points every view at the arrays again.
  lists[li].barriers = std::span<const Barrier>(barriers.data_, barriers.size_).subspan(b0, bs.size());
  lists[li].points = std::span<const BarrierPoint>(points.data_, points.size_).subspan(p0, ps.size());
  relink();
}

History fresh_history(const ResourceTable& t) { return History(t.size()); }

ResourceHistory GroupFacts::history_of(ResourceId r) const {
  for (const auto& [id, h] : entry_history)
    if (id == r) return h;
  throw Error(fmt::format("internal: no entry history for resource id {} (the group does not touch it)", r));
}

State state_of_entry(const ResourceDesc& d, const EntryState& e) {
  if (!e.shared) return state_of_use(d, e.access, e.stages);
  State st{sync::none, e.shared, d.type == ResourceType::buffer ? Layout::none : Layout::shared_read};
  for (int i = 0; i < kAccessCount; ++i)
    if (e.shared & bit(static_cast<Access>(i))) st.sync |= sync_of(static_cast<Access>(i), e.stages);
  return st;
}

namespace {

// Whether the resource needs an initializing discard at its first-ever write (invariant 3).
bool needs_discard(const ResourceDesc& d) {
  if (d.type != ResourceType::texture || !d.placed) return false;
  return d.format != FormatClass::color || (d.usage & (bit(Access::render_target) | bit(Access::depth_write)));
}

struct Where_ {
  const CommandListGroup& group;
  const CommandList& list;
  size_t op;
  std::string prefix() const {
    return fmt::format("group '{}' list '{}' op {} ({})", group.name(), list.name(), op,
                       to_string(list.ops()[op].kind));
  }
};

// One use or entry state against the rules catalog (baton/rules.hpp): use_rule() is inline and cheap,
// the message is only made when there is something to report. `where` is only formatted then too.
// Inline at every use (the planner asks for every use); the messages are made out of line.
template <class Where>
[[noreturn, gnu::noinline, gnu::cold]] void access_error(std::span<const ResourceDesc> descs,
                                                         const Where& where_fn, ResourceId r, Access a,
                                                         Stages s, Queue q) {
  if (r >= descs.size()) throw Error(fmt::format("{}: unknown resource id {}", where_fn(), r));
  const ResourceDesc& d = descs[r];
  throw Error(
      fmt::format("{}: resource '{}': {}", where_fn(), d.name, check_use(d, a, s, q, {}, false)->message));
}
template <class Where>
[[gnu::always_inline]] inline void check_access(std::span<const ResourceDesc> descs, const Where& where_fn,
                                                ResourceId r, Access a, Stages s, Queue q) {
  if (r >= descs.size() || use_rule(descs[r], a, s, q, false) != Rule::none)
    access_error(descs, where_fn, r, a, s, q);
}

// A use's range within its resource's bounds, or an Error naming the use. Out of line: most uses name
// the whole resource, and the check inline costs the use loop its registers.
template <class Where>
[[gnu::noinline]] void check_range(const ResourceDesc& d, const SubresourceRange& range, const Where& where_fn) {
  Box extent;
  if (valid_extent(d, range, extent)) return;  // resolve() would accept it: no call
  try {
    (void)resolve(d, range);
  } catch (const Error& e) {
    throw Error(fmt::format("{}: {}", where_fn(), e.what()));
  }
}

// Two uses of one subresource in one operation must agree: reads merge, the same write access merges,
// anything else has no order between the two and is an error naming both.
template <class Where>
void check_op_conflicts(const ResourceTable& rt, const Where& where_fn, const Operation& op,
                        std::vector<Box>& boxes, std::vector<uint32_t>& idx) {
  const size_t n = op.uses.size();
  if (n < 2 || !plan_detail::shares_a_resource(op.uses)) return;
  // The ranges were checked before: resolving cannot fail here.
  boxes.clear();
  for (const Use& u : op.uses) boxes.push_back(use_extent(rt[u.resource], u.range));
  (void)idx;
  const auto conflict = [](Access a, Access b) { return conflicts(a, b); };
  const std::optional<plan_detail::UsePair> c = plan_detail::first_conflict(
      op.uses, boxes, [&](ResourceId r) -> const ResourceDesc& { return rt[r]; }, conflict);
  if (!c) return;
  const Use& a = op.uses[c->first];
  const ResourceDesc& d = rt[a.resource];
  throw Error(fmt::format("{}: resource '{}': {}", where_fn(), d.name,
                          conflict_message(c->first, a.access, c->second, op.uses[c->second].access,
                                           extent_text(intersect(boxes[c->first], boxes[c->second]), d))));
}

// Working memory of plan(), kept per thread and reused from call to call (a frame planned every frame
// should not pay for fresh vectors each time). A call moves the vectors into locals (a vector reached
// through the thread's storage would be reloaded after every store the compiler cannot tell apart) and
// back at its end, and sets what it reads first (assign, clear): a call that threw only loses them.
struct PlanScratch {
  std::vector<uint32_t> last_group;  // per resource: the last group that touched it
  std::vector<uint32_t> first_list;  // per resource, during a group's scan: the first list touching it
  std::vector<std::pair<ResourceId, ResourceHistory>> entry;  // the group's entry history as it grows
  // Hand-ons as the later groups declare them, and the group each goes to; given to their groups at
  // the end.
  std::vector<GroupFacts::HandOn> hand_on;
  struct HandOnKey {
    uint32_t group;  // the group that receives it (the resource's last toucher before the declaration)
    uint32_t index;  // into hand_on
  };
  std::vector<HandOnKey> hand_on_keys;
  std::vector<uint32_t> per_group;  // hand-ons, then retired resources, per group
  // Per resource, made at its first use in the call (a resource no group touched yet: last_group and
  // first_list unset): what the use loop reads of its (large) ResourceDesc, packed by facts_of().
  std::vector<uint32_t> res_facts;
  std::vector<Box> boxes;  // check_op_conflicts' working memory
  std::vector<uint32_t> idx;
};

// What plan()'s use loop needs of a resource, in one word: the accesses use_rule() rejects outright on
// it (bits 0-15; keep in step with use_rule(d, a, s, q, false)'s fast acceptance in baton/rules.hpp,
// which has the last word and the message: a use this word rejects goes to use_rule()), whether it is a
// buffer, and whether its first-ever write needs an initializing discard.
namespace ResFacts {
static_assert(kAccessCount <= 16);
constexpr uint32_t kAccessBits = 0xffffu;
constexpr uint32_t kBuffer = 1u << 16;
constexpr uint32_t kNeedsDiscard = 1u << 17;
}  // namespace ResFacts

uint32_t facts_of(const ResourceDesc& d) {
  constexpr AccessMask depth = core_detail::accesses_with(access_facts::depth_format);
  constexpr AccessMask color = core_detail::accesses_with(access_facts::color_format);
  const bool buffer = d.type == ResourceType::buffer;
  const AccessMask illegal = buffer ? kTextureOnlyAccesses
                                    : kBufferOnlyAccesses | (d.swapchain ? 0 : bit(Access::present)) |
                                          (d.format == FormatClass::color ? depth : color);
  return (illegal & ResFacts::kAccessBits) | (buffer ? ResFacts::kBuffer : 0) |
         (needs_discard(d) ? ResFacts::kNeedsDiscard : 0);
}

PlanScratch& plan_scratch() {
  thread_local PlanScratch s;
  return s;
}

}  // namespace

Plan plan(const ResourceTable& rt, std::span<const CommandListGroup* const> groups, History history) {
  Plan out;
  plan_detail::plan_into(out, rt, groups, std::move(history));
  return out;
}

void plan_detail::plan_into(Plan& out, const ResourceTable& rt, std::span<const CommandListGroup* const> groups,
                            History history) {
  if (history.size() != rt.size())
    throw Error(fmt::format("history has {} resources but the table has {}", history.size(), rt.size()));
  // `out` may hold an earlier call's facts: their vectors are emptied, keeping their storage, so that a
  // frame planned again (compile_all keeps one Plan per thread) takes no heap block per group.
  out.groups.resize(groups.size());
  for (GroupFacts& f : out.groups) {
    f.entry_history.clear();
    f.discards.clear();
    f.hand_on.clear();
    f.retire.clear();
  }
  constexpr uint32_t kNone = 0xffffffffu;
  PlanScratch& sc = plan_scratch();
  std::vector<uint32_t> last_group = std::move(sc.last_group);
  std::vector<uint32_t> first_list = std::move(sc.first_list);
  std::vector<std::pair<ResourceId, ResourceHistory>> entry = std::move(sc.entry);
  std::vector<GroupFacts::HandOn> hand_on = std::move(sc.hand_on);
  std::vector<PlanScratch::HandOnKey> hand_on_keys = std::move(sc.hand_on_keys);
  std::vector<uint32_t> per_group = std::move(sc.per_group);
  std::vector<uint32_t> res_facts = std::move(sc.res_facts);
  if (res_facts.size() < rt.size()) res_facts.resize(rt.size());  // each made before it is read
  last_group.assign(rt.size(), kNone);
  first_list.assign(rt.size(), kNone);
  hand_on.clear();
  hand_on_keys.clear();
  std::vector<Box> boxes = std::move(sc.boxes);
  std::vector<uint32_t> scratch = std::move(sc.idx);
  std::unordered_map<ResourceId, ResourceHistory> group_start;
  const std::span<const ResourceDesc> descs = rt.all();

  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const CommandListGroup& g = *groups[gi];
    GroupFacts& facts = out.groups[gi];
    const Queue queue = g.queue();
    // History as the group starts, for the resources it touches (kept before this group changes it).
    // Only a declared write entry state changes the history before the uses (group_start keeps what it was).
    const auto entry_snapshot = [&](ResourceId r) {
      const auto it = group_start.find(r);
      return it == group_start.end() ? history[r] : it->second;
    };
    if (!group_start.empty()) group_start.clear();  // clear() of an empty map still wipes its buckets
    // The group's entry history, collected in a local vector (stores through the facts would have it
    // reloaded): the facts' own when an earlier call left them storage (a frame planned again: handed
    // back at the group's end, no copy), else the scratch's, copied into the facts once at its size (a
    // fresh Plan: many small groups would otherwise grow each facts vector block by block).
    entry.clear();
    facts.plain_ = true;  // until a use names part of its resource or an operation names one twice
    const bool in_place = facts.entry_history.capacity() != 0;
    if (in_place) entry.swap(facts.entry_history);
    size_t entry_states = 0;  // declared by the group's lists (most groups declare none)

    // Local views of the lists and each list's operations: the stores below may not reload them.
    const std::span<const CommandList* const> lists(g.lists().data(), g.lists().size());
    for (size_t li = 0; li < lists.size(); ++li) {
      const CommandList& list = *lists[li];
      if (list.queue() != queue) {
        RuleArgs args;
        args.list = list.name();
        args.queue = list.queue();
        throw Error(fmt::format("group '{}': {}", g.name(), rule_message(Rule::list_queue_mismatch, args)));
      }
      // A declared entry state that writes stands for a write done before the group outside Baton: the
      // contents exist (no initializing discard) and later groups must treat them as written. Taken as the
      // list begins, before its uses: only the list that first touches a resource may declare it, so no
      // earlier list of the group can have used it (if one did, the check below the loop rejects the group).
      const std::span<const EntryState> declared = list.entry_states();
      entry_states += declared.size();
      for (const EntryState& e : declared)
        if (e.resource < rt.size() && is_write(e.access)) {
          group_start.emplace(e.resource, history[e.resource]);
          history[e.resource].written = true;
        }
      const std::span<const Operation> ops = list.ops();
      for (size_t oi = 0; oi < ops.size(); ++oi) {
        const Operation& op = ops[oi];
        const auto where = [&] { return Where_{g, list, oi}.prefix(); };
        // One pass per use: its checks, then its effect on the history (an error discards the whole plan).
        // Accesses no use of this operation may have (the kind's), added to each resource's own.
        const AccessMask kind_denies = ~op_kind_accesses(op.kind);
        for (const Use& u : op.uses) {
          const ResourceId r = u.resource;
          if (r >= descs.size()) access_error(descs, where, r, u.access, u.stages, queue);
          // The group's first use of r records its entry history, and the call's first its facts (an
          // error below discards the whole plan, so nothing here needs undoing).
          // One reference for the use's updates (indexing again after every store reloads the array).
          ResourceHistory& h = history[r];
          if (first_list[r] == kNone) {
            first_list[r] = static_cast<uint32_t>(li);
            entry.emplace_back(r, h);
            if (!group_start.empty()) entry.back().second = entry_snapshot(r);
            if (last_group[r] == kNone) res_facts[r] = facts_of(descs[r]);
            // The group's first use of r touches it: later uses find it touched with no takeover, so this
            // is all they would do. A buffer taking over memory its previous occupants wrote holds their
            // writes: later reads wait for them like for its own (textures start from layout undefined
            // instead). An error below discards the whole plan, history and all.
            if (!h.touched && (h.takeover.access & (kWriteAccesses | kAnyAccess)) && (res_facts[r] & ResFacts::kBuffer))
              h.written = true;
            h.touched = true;
            h.takeover = {};  // the memory's previous occupants are waited for at this first touch
          }
          const uint32_t rf = res_facts[r];
          // The usual legal use in one test of the resource's, the kind's and the stages' denied accesses
          // (use_rule()'s fast acceptance: a shader access needs stages, any other has none); anything else
          // asks use_rule() and the kind for the message, in the order they were always checked.
          const AccessMask b = bit(u.access);
          const AccessMask stage_denies = u.stages == kNoStages ? kShaderAccesses : ~kShaderAccesses;
          if (((rf | kind_denies | stage_denies) & b) ||
              (queue != Queue::direct && !queue_allows(queue, u.access, u.stages))) {
            check_access(descs, where, r, u.access, u.stages, queue);
            if (kind_denies & b)
              throw Error(fmt::format("{}: resource '{}': {}", where(), descs[r].name,
                                      check_op_access(op.kind, u.access)->message));
          }
          if (!is_whole(u.range)) {  // the whole resource needs no check
            check_range(descs[r], u.range, where);
            facts.plain_ = false;
          }
          if (is_write(u.access) && !h.written) {
            if (rf & ResFacts::kNeedsDiscard)
              facts.discards.push_back({static_cast<uint32_t>(li), static_cast<uint32_t>(oi), r});
            h.written = true;
          }
        }
        // Only uses of one resource can conflict: most operations name each resource once.
        if (op.uses.size() >= 2 && plan_detail::shares_a_resource(op.uses)) {
          check_op_conflicts(rt, where, op, boxes, scratch);
          facts.plain_ = false;
        }
      }
    }

    // Entry states: only the list that first touches the resource in the group may declare one, and the
    // group that touched the resource last leaves it in that state (a hand-on) instead of resting.
    for (size_t li = 0; entry_states != 0 && li < g.lists().size(); ++li) {
      const CommandList& list = *g.lists()[li];
      for (const EntryState& e : list.entry_states()) {
        const auto where_fn = [&] { return fmt::format("group '{}' list '{}' entry state", g.name(), list.name()); };
        // A shared read entry's stages are the shader reads' in the shared state, not this access's.
        check_access(descs, where_fn, e.resource, e.access,
                     e.shared && !is_shader_access(e.access) ? kNoStages : e.stages, g.queue());
        const ResourceDesc& d = rt[e.resource];
        if (first_list[e.resource] == kNone)
          throw Error(fmt::format("{}: resource '{}': {}", where_fn(), d.name, rule_message(Rule::entry_unused, {})));
        if (first_list[e.resource] != li) {
          RuleArgs args;
          args.list = g.lists()[first_list[e.resource]]->name();
          throw Error(fmt::format("{}: resource '{}': {}", where_fn(), d.name,
                                  rule_message(Rule::entry_not_first_list, args)));
        }
        const uint32_t prev = last_group[e.resource];
        if (prev != kNone) {
          hand_on_keys.push_back({prev, static_cast<uint32_t>(hand_on.size())});
          hand_on.push_back({e.resource, plan_detail::entry_state(d, e)});
        }
      }
    }
    for (const auto& [r, h] : entry) {  // the resources the group touches
      last_group[r] = static_cast<uint32_t>(gi);
      first_list[r] = kNone;
    }
    if (in_place)
      entry.swap(facts.entry_history);
    else
      facts.entry_history.assign(entry.begin(), entry.end());
  }
  // Hand-ons, each group's by resource (a group receives at most one per resource: only the list that
  // first touches a resource declares it, and the declaring group becomes its last toucher), each
  // group's vector made once at its size: placed group by group in one pass, then each group's few
  // ordered by resource (a sort of every key by group and resource cost O(n log n) over the frame).
  if (!hand_on_keys.empty()) {
    per_group.assign(groups.size(), 0);
    for (const PlanScratch::HandOnKey& k : hand_on_keys) ++per_group[k.group];
    for (size_t gi = 0; gi < groups.size(); ++gi)
      if (per_group[gi]) out.groups[gi].hand_on.reserve(per_group[gi]);
    for (const PlanScratch::HandOnKey& k : hand_on_keys) out.groups[k.group].hand_on.push_back(hand_on[k.index]);
    const auto by_resource = [](const GroupFacts::HandOn& a, const GroupFacts::HandOn& b) {
      return a.resource < b.resource;
    };
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      if (per_group[gi] < 2) continue;
      std::vector<GroupFacts::HandOn>& h = out.groups[gi].hand_on;
      if (h.size() <= 16) {  // the usual few: insertion (resources are distinct, so any sort agrees)
        for (size_t i = 1; i < h.size(); ++i)
          for (size_t j = i; j > 0 && by_resource(h[j], h[j - 1]); --j) std::swap(h[j - 1], h[j]);
      } else {
        std::sort(h.begin(), h.end(), by_resource);
      }
    }
    hand_on.clear();
  }
  // Resources that die after their last use: the last group touching them does not restore them. One
  // group takes them all, in one walk; several get each its vector made once at its size first.
  const auto retires = [&](ResourceId r) { return history[r].dies && last_group[r] != kNone; };
  if (groups.size() == 1) {
    std::vector<ResourceId>& retire = out.groups[0].retire;
    for (ResourceId r = 0; r < rt.size(); ++r)
      if (retires(r)) retire.push_back(r);
  } else {
    per_group.assign(groups.size(), 0);
    for (ResourceId r = 0; r < rt.size(); ++r)
      if (retires(r)) ++per_group[last_group[r]];
    for (size_t gi = 0; gi < groups.size(); ++gi)
      if (per_group[gi]) out.groups[gi].retire.reserve(per_group[gi]);
    for (ResourceId r = 0; r < rt.size(); ++r)
      if (retires(r)) out.groups[last_group[r]].retire.push_back(r);
  }
  sc.last_group = std::move(last_group);
  sc.first_list = std::move(first_list);
  sc.entry = std::move(entry);
  sc.hand_on = std::move(hand_on);
  sc.hand_on_keys = std::move(hand_on_keys);
  sc.per_group = std::move(per_group);
  sc.res_facts = std::move(res_facts);
  sc.boxes = std::move(boxes);
  sc.idx = std::move(scratch);
  out.history_out = std::move(history);
}

}  // namespace baton
