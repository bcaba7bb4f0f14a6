#include <fmt/format.h>

#include "baton/record.hpp"
#include "baton/rules.hpp"

namespace baton {

void CommandList::require_recording(const char* what) const {
  if (lifecycle_ != Lifecycle::recording)
    throw Error(fmt::format("list '{}': {} after the list was closed", name(), what));
}

namespace {
bool ranges_overlap(const SubresourceRange& a, const SubresourceRange& b) {
  auto axis = [](uint32_t f0, uint32_t c0, uint32_t f1, uint32_t c1) {
    const uint64_t e0 = c0 == kAll ? UINT64_MAX : uint64_t{f0} + c0;
    const uint64_t e1 = c1 == kAll ? UINT64_MAX : uint64_t{f1} + c1;
    return f0 < e1 && f1 < e0;
  };
  // Bytes (buffers): [offset, offset + size); the whole buffer overlaps every range.
  const auto bytes = [](const SubresourceRange& x, const SubresourceRange& y) {
    if (x.byte_size == kWholeBytes || y.byte_size == kWholeBytes) return true;
    return x.byte_offset < y.byte_offset + y.byte_size && y.byte_offset < x.byte_offset + x.byte_size;
  };
  return axis(a.mip_first, a.mip_count, b.mip_first, b.mip_count) &&
         axis(a.layer_first, a.layer_count, b.layer_first, b.layer_count) &&
         axis(a.plane_first, a.plane_count, b.plane_first, b.plane_count) && bytes(a, b);
}

// Whether a new command's use must be ordered after a use already in the current operation, so the
// two cannot share one operation (and one barrier point) without a barrier between them.
bool needs_order(const Use& earlier, const Use& later) {
  if (earlier.resource != later.resource || !ranges_overlap(earlier.range, later.range)) return false;
  const bool w0 = is_write(earlier.access), w1 = is_write(later.access);
  if (!w0 && !w1) return false;
  // A UAV touched again by a different command needs a UAV barrier.
  if (earlier.access == Access::unordered_access || later.access == Access::unordered_access) return true;
  // Render-target and depth writes to the same target are ordered by the rasterizer.
  if (earlier.access == later.access &&
      (later.access == Access::render_target || later.access == Access::depth_write))
    return false;
  return true;
}
}  // namespace

uint32_t CommandList::record(OpKind kind, std::span<const Use> uses, std::string label) {
  require_recording("recording a command");
  bool merge = !break_next_ && !ops_.empty() && ops_.back().kind == kind;
  if (merge) {
    for (const Use& later : uses) {
      for (const Use& earlier : ops_.back().uses) {
        if (needs_order(earlier, later)) {
          merge = false;
          break;
        }
      }
      if (!merge) break;
    }
  }
  if (!merge) {
    Operation op;
    op.kind = kind;
    op.full_barrier = full_barrier_next_;
    op.label = std::move(label);
    ops_.push_back(std::move(op));
  }
  Operation& op = ops_.back();
  op.uses.append(uses);
  ++op.commands;
  ops_view_ = ops_;
  break_next_ = false;
  full_barrier_next_ = false;
  return static_cast<uint32_t>(ops_.size() - 1);
}

uint32_t CommandList::append_operation(Operation op) {
  require_recording("appending an operation");
  if (op.commands == 0) op.commands = 1;
  if (full_barrier_next_) op.full_barrier = true;
  op.uses.make_own();  // the list owns what it records (a view's uses may die before the list)
  ops_.push_back(std::move(op));
  ops_view_ = ops_;
  break_next_ = false;
  full_barrier_next_ = false;
  return static_cast<uint32_t>(ops_.size() - 1);
}

void CommandList::request_break() {
  require_recording("requesting a break");
  break_next_ = true;
}

void CommandList::full_barrier() {
  require_recording("requesting a full barrier");
  break_next_ = true;
  full_barrier_next_ = true;
}

void CommandList::declare_entry(ResourceId r, Access a, Stages s, AccessMask shared) {
  require_recording("declaring an entry state");
  // Declarations in increasing resource order (what the frame graph writes, thousands at a time in
  // its frame_end list) cannot repeat one: only an out-of-order one needs the scan.
  const bool ascending = entry_.empty() || r > entry_.back().resource;
  if (!ascending || !entry_ascending_)
    for (const EntryState& e : entry_)
      if (e.resource == r) entry_twice(name(), r);
  entry_ascending_ = entry_ascending_ && ascending;
  entry_.push_back({r, a, s, shared});
  entry_view_ = entry_;
}

CommandList::CommandList(std::string name, Queue queue, std::span<const Operation> ops,
                         std::span<const EntryState> entry)
    : name_(std::move(name)),
      queue_(queue),
      lifecycle_(Lifecycle::closed),
      ops_view_(ops),
      entry_view_(entry),
      break_next_(false) {
  check_entry_unique(name_.view(), entry);  // what declare_entry checks: no resource declared twice
}

void CommandList::entry_twice(std::string_view list, ResourceId r) {
  throw Error(fmt::format("list '{}': resource #{}: {}", list, r, rule_message(Rule::entry_twice, {})));
}

void CommandList::find_entry_twice(std::string_view list, std::span<const EntryState> entry) {
  for (size_t i = 1; i < entry.size(); ++i)
    if (entry[i].resource <= entry[i - 1].resource)
      for (size_t k = 0; k < i; ++k)
        if (entry[k].resource == entry[i].resource) entry_twice(list, entry[i].resource);
}

void ListStore::lists_full() {
  throw Error("ListStore::add_list: the lists are full (reserve them first: groups keep their addresses)");
}

void ListStore::groups_full() {
  throw Error(
      "ListStore::add_group: the groups are full, or the list pointers not reserved (reserve both first: "
      "lists keep their group's address, a group views the list pointers)");
}

void ListStore::not_last_group() {
  throw Error(
      "ListStore::add_list: the group is not the last one add_group made, or the list pointers are full (a "
      "group's lists follow one another in list_ptrs)");
}

void CommandList::close() {
  require_recording("close");
  lifecycle_ = Lifecycle::closed;
}

void CommandList::not_compilable() const {
  if (lifecycle_ == Lifecycle::recording)
    throw Error(fmt::format("list '{}': compiled before it was closed", name()));
  throw Error(fmt::format("list '{}': compiled twice", name()));
}

void CommandList::mark_submitted() {
  if (lifecycle_ == Lifecycle::submitted) throw Error(fmt::format("list '{}': submitted twice", name()));
  if (lifecycle_ != Lifecycle::compiled)
    throw Error(fmt::format("list '{}': submitted before it was compiled", name()));
  lifecycle_ = Lifecycle::submitted;
}

void CommandList::attach_to(const CommandListGroup* g) {
  if (group_ != nullptr)
    throw Error(fmt::format("list '{}' is already in group '{}'; a list belongs to exactly one group", name(),
                            group_->name()));
  group_ = g;
}

void CommandListGroup::add(CommandList& list) {
  if (list.lifecycle() == CommandList::Lifecycle::recording)
    throw Error(fmt::format("group '{}': list '{}' is still recording; close it first", name_, list.name()));
  if (list.queue() != queue_) {
    RuleArgs args;
    args.list = list.name();
    args.queue = list.queue();
    throw Error(fmt::format("group '{}' ({} queue): {}", name_, to_string(queue_),
                            rule_message(Rule::list_queue_mismatch, args)));
  }
  list.attach_to(this);
  lists_.push_back(&list);  // a view of a store's pointers becomes a vector of its own first
}

}  // namespace baton
