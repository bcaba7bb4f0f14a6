// Recording: command lists as ordered operations that declare their uses. Barrier points are
// reserved before and after every operation; the compiler fills them in afterwards.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "baton/core.hpp"

namespace baton {

// Queue, OpKind and queue_allows() are core vocabulary (baton/core.hpp).

struct Use {
  ResourceId resource = 0;
  Access access = Access::shader_resource;
  Stages stages = kNoStages;  // required for shader accesses, ignored otherwise
  SubresourceRange range{};
};

// An operation's uses: either a vector of its own (recording, loaders, anything built by hand) or a view
// of uses another owner stores (a frame graph's lists view one array of the transitions phase's
// ListStore: no heap block per operation). Reading is the same for both (a pointer and a size); a write
// through a view first copies the uses into a vector of its own, so a view is never written through.
// A copy of a view is a view of the same uses: it lives no longer than their owner (append_operation
// makes them the list's own).
class Uses {
 public:
  Uses() = default;
  Uses(std::initializer_list<Use> u) : own_(u) { sync(); }
  Uses(std::vector<Use> u) : own_(std::move(u)) { sync(); }
  Uses(const Uses& o) : own_(o.own_), data_(o.data_), size_(o.size_), view_(o.view_) { sync(); }
  Uses(Uses&& o) noexcept : own_(std::move(o.own_)), data_(o.data_), size_(o.size_), view_(o.view_) {
    o.reset();
    sync();
  }
  Uses& operator=(const Uses& o) {
    if (this != &o) {
      own_ = o.own_;
      data_ = o.data_;
      size_ = o.size_;
      view_ = o.view_;
      sync();
    }
    return *this;
  }
  Uses& operator=(Uses&& o) noexcept {
    if (this != &o) {
      own_ = std::move(o.own_);
      data_ = o.data_;
      size_ = o.size_;
      view_ = o.view_;
      o.reset();
      sync();
    }
    return *this;
  }
  Uses& operator=(std::vector<Use> u) {
    own_ = std::move(u);
    view_ = false;
    sync();
    return *this;
  }
  Uses& operator=(std::initializer_list<Use> u) {
    own_ = u;
    view_ = false;
    sync();
    return *this;
  }
  // A view of uses stored elsewhere (they must outlive it and every copy of it).
  static Uses view(std::span<const Use> u) {
    Uses x;
    x.data_ = u.data();
    x.size_ = u.size();
    x.view_ = true;
    return x;
  }
  // Becomes a view of `u` in place (as `*this = Uses::view(u)`, without making and moving a temporary):
  // a list store fills its operations this way. Uses of its own are dropped.
  void set_view(std::span<const Use> u) {
    own_.clear();
    data_ = u.data();
    size_ = u.size();
    view_ = true;
  }
  bool is_view() const { return view_; }

  // Reading: the same pointer and size for a view and for a vector of its own (no branch), and never a
  // copy (there is no non-const element access).
  std::span<const Use> span() const { return {data_, size_}; }
  const Use* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Use* begin() const { return data_; }
  const Use* end() const { return data_ + size_; }
  const Use& operator[](size_t i) const { return data_[i]; }
  const Use& front() const { return data_[0]; }
  const Use& back() const { return data_[size_ - 1]; }

  // Writing: a view becomes a vector of its own first.
  void push_back(const Use& u) {
    own().push_back(u);
    sync();
  }
  void append(std::span<const Use> u) {
    own().insert(own_.end(), u.begin(), u.end());
    sync();
  }
  void reserve(size_t n) {
    own().reserve(n);
    sync();
  }
  void clear() {
    own().clear();
    sync();
  }
  // Makes the uses its own (a copy of a view's), changing nothing else.
  void make_own() {
    own();
    sync();
  }

 private:
  std::vector<Use>& own() {
    if (view_) {
      own_.assign(data_, data_ + size_);
      view_ = false;
    }
    return own_;
  }
  void sync() {
    if (!view_) {
      data_ = own_.data();
      size_ = own_.size();
    }
  }
  void reset() {
    data_ = nullptr;
    size_ = 0;
    view_ = false;
  }
  std::vector<Use> own_;
  const Use* data_ = nullptr;  // own_'s elements, or the viewed ones
  size_t size_ = 0;
  bool view_ = false;
};

struct Operation {
  OpKind kind = OpKind::draw;
  Uses uses;
  uint32_t commands = 0;       // how many recorded commands merged into this operation
  bool full_barrier = false;   // escape hatch: a global barrier at this operation's before-point
  std::string label;           // optional, for messages
};

struct EntryState {
  ResourceId resource = 0;
  Access access = Access::shader_resource;
  Stages stages = kNoStages;
  // Non-zero: the resource is in the shared read state of these reads (Layout::shared_read, `access`
  // among them: what this list does), held by lists of the direct and compute queues at once.
  AccessMask shared = 0;
};

class CommandListGroup;

// A list of operations for one queue. Lifecycle: Recording -> Closed -> Compiled -> Submitted,
// each step exactly once (invariant 1); anything else throws Error naming the list.
class CommandList {
 public:
  enum class Lifecycle : uint8_t { recording, closed, compiled, submitted };

  CommandList(std::string name, Queue queue) : name_(std::move(name)), queue_(queue) {}
  // A closed list over operations and entry states another owner stores, which must outlive it (a frame
  // graph's lists: ListStore keeps every list's operations, uses and entry states in one array each).
  // Throws Error for a resource declared twice, as declare_entry does.
  CommandList(std::string name, Queue queue, std::span<const Operation> ops, std::span<const EntryState> entry);
  // What only ListStore::add_list can name (its constructor is private to ListStore).
  class StoreKey {
    friend struct ListStore;
    StoreKey() = default;
  };
  // A frame graph's list, made by ListStore::add_list: closed, on `group`'s queue and already in it (so
  // none of CommandListGroup::add's checks can fail), over the store's operations and entry states, its
  // name built in place from a view. Throws Error for a resource declared twice, as declare_entry does.
  [[gnu::always_inline]] inline CommandList(StoreKey, std::string_view name, const CommandListGroup& group,
                                            std::span<const Operation> ops,
                                            std::span<const EntryState> entry);
  CommandList(const CommandList&) = delete;
  CommandList& operator=(const CommandList&) = delete;
  // Movable only before it joins a group (the group keeps its address): ListStore's array of lists.
  CommandList(CommandList&&) noexcept = default;
  CommandList& operator=(CommandList&&) = delete;

  const std::string& name() const { return name_; }
  Queue queue() const { return queue_; }
  Lifecycle lifecycle() const { return lifecycle_; }
  std::span<const Operation> ops() const { return ops_view_; }
  std::span<const EntryState> entry_states() const { return entry_view_; }
  const CommandListGroup* group() const { return group_; }

  // Records one command. It merges into the current operation when it has the same kind, no break
  // was requested, and it does not touch a subresource of the current operation in a way that
  // needs ordering (a UAV touched again, or a write overlapping a different use). Returns the index
  // of the operation that holds it.
  uint32_t record(OpKind kind, std::span<const Use> uses, std::string label = {});
  // Appends an operation exactly as given (no merging); used by loaders of explicit operations.
  uint32_t append_operation(Operation op);
  // The next command starts a new operation (a target or pipeline change, or an explicit barrier).
  void request_break();
  // Escape hatch: the next command starts a new operation preceded by a full global barrier.
  void full_barrier();
  // Declares the state the resource is in when this list starts (instead of its resting state).
  void declare_entry(ResourceId r, Access a, Stages s = kNoStages, AccessMask shared = 0);
  void close();

  // Lifecycle transitions driven by the compiler and executors.
  void mark_compiled();
  void mark_submitted();
  void attach_to(const CommandListGroup* g);

 private:
  void require_recording(const char* what) const;
  // Throws Error for a resource declared twice in `entry` (only an out-of-order declaration needs the scan).
  static void check_entry_unique(std::string_view list, std::span<const EntryState> entry) {
    for (size_t i = 1; i < entry.size(); ++i)
      if (entry[i].resource <= entry[i - 1].resource) return find_entry_twice(list, entry);
  }
  [[noreturn]] static void entry_twice(std::string_view list, ResourceId r);
  static void find_entry_twice(std::string_view list, std::span<const EntryState> entry);

  std::string name_;
  Queue queue_;
  Lifecycle lifecycle_ = Lifecycle::recording;
  std::vector<Operation> ops_;  // a list that records owns its operations and entry states; one made
  std::vector<EntryState> entry_;  // over another owner's storage (ListStore) leaves these empty
  std::span<const Operation> ops_view_;  // ops_, or the other owner's
  std::span<const EntryState> entry_view_;
  bool entry_ascending_ = true;  // entry_ is in strictly increasing resource order
  bool break_next_ = true;
  bool full_barrier_next_ = false;
  const CommandListGroup* group_ = nullptr;
};

// Lists that one queue executes in one submission, in order.
class CommandListGroup {
 public:
  CommandListGroup(std::string name, Queue queue) : name_(std::move(name)), queue_(queue) {}
  CommandListGroup(const CommandListGroup&) = delete;
  CommandListGroup& operator=(const CommandListGroup&) = delete;

  // Adds a closed list; throws if it is still recording, already in a group, or on another queue.
  void add(CommandList& list);
  const std::string& name() const { return name_; }
  Queue queue() const { return queue_; }
  const std::vector<CommandList*>& lists() const { return lists_; }
  // Room for n lists (a frame graph's group, whose size the transitions phase knows).
  void reserve(size_t n) { lists_.reserve(n); }

 private:
  friend struct ListStore;  // add_list joins its lists without add()'s checks (they hold by construction)
  std::string name_;
  Queue queue_;
  std::vector<CommandList*> lists_;
};

// Lists whose operations, uses and entry states live in one array each, in list order: a frame graph's
// transitions phase makes one list per pass without a heap block per list, operation or use (issue 16).
// Operation::uses of `ops` view `uses`; the lists view `ops` and `entries`. Fill the three arrays first
// (reserve or finish them before making lists: a list views them where they are), then `lists` (reserved
// to its final size: groups keep the lists' addresses). A move keeps every array's storage, so the views
// and the groups' pointers stay valid; there is no copy.
struct ListStore {
  std::vector<Use> uses;
  std::vector<Operation> ops;
  std::vector<EntryState> entries;
  std::vector<CommandList> lists;
  // Makes a closed list over `list_ops` and `entry` (parts of the arrays above) at the end of `lists`
  // and adds it to `group` (on the group's queue): what CommandList(name, queue, ops, entry) and
  // CommandListGroup::add do, without a name copied twice or the checks that a new list of the group's
  // queue passes by construction. Throws Error when `lists` is full (growing it would move the lists the
  // groups point to: reserve it first) or for a resource declared twice in `entry`.
  CommandList& add_list(CommandListGroup& group, std::string_view name,
                        std::span<const Operation> list_ops, std::span<const EntryState> entry) {
    if (lists.size() == lists.capacity()) lists_full();
    CommandList& l = lists.emplace_back(CommandList::StoreKey{}, name, group, list_ops, entry);
    group.lists_.push_back(&l);
    return l;
  }
  ListStore() = default;
  ListStore(ListStore&&) noexcept = default;
  ListStore& operator=(ListStore&&) noexcept = default;
  ListStore(const ListStore&) = delete;
  ListStore& operator=(const ListStore&) = delete;

 private:
  [[noreturn]] static void lists_full();
};

inline CommandList::CommandList(StoreKey, std::string_view name, const CommandListGroup& group,
                                std::span<const Operation> ops, std::span<const EntryState> entry)
    : name_(name),
      queue_(group.queue()),
      lifecycle_(Lifecycle::closed),
      ops_view_(ops),
      entry_view_(entry),
      break_next_(false),
      group_(&group) {
  check_entry_unique(name_, entry);
}

// Immediate-mode front end in the style of Godot's RenderingDevice: begin a list, issue draws,
// dispatches and copies with their bindings, end the list. Everything lands in the same operations
// as CommandList::record.
class ImmediateRecorder {
 public:
  explicit ImmediateRecorder(const ResourceTable& resources) : resources_(resources) {}

  struct Binding {
    ResourceId resource;
    Access access;
    Stages stages = kNoStages;
    SubresourceRange range{};
  };

  void begin_list(CommandList& list);
  // A draw into the given targets with the given bindings; a new set of targets starts a new
  // operation (target change), draws to the same targets merge.
  void draw(std::span<const Binding> targets, std::span<const Binding> bindings);
  void dispatch(std::span<const Binding> bindings);
  void copy(ResourceId src, ResourceId dst, SubresourceRange src_range = {}, SubresourceRange dst_range = {});
  void clear(ResourceId target, SubresourceRange range = {});
  void present(ResourceId swapchain);
  // Forces a barrier point between the previous and the next command.
  void add_barrier();
  // Escape hatch: a full barrier (every stage, every access) before the next command.
  void full_barrier();
  CommandList& end_list();

 private:
  CommandList& current(const char* what);
  const ResourceTable& resources_;
  CommandList* list_ = nullptr;
  std::vector<Binding> last_targets_;
};

}  // namespace baton
