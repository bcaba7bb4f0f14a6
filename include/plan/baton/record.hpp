// Recording: command lists as ordered operations that declare their uses. Barrier points are
// reserved before and after every operation; the compiler fills them in afterwards.
#pragma once

#include <cstdint>
#include <cstring>
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

// A vector of T's of its own, or a view of T's another owner stores: what an operation's uses and a
// group's lists are. Reading is the same for both (a pointer and a size, no branch, never a copy: there
// is no non-const element access); a write through a view first copies the elements into a vector of its
// own, so a view is never written through. A copy of a view is a view of the same elements (it lives no
// longer than their owner); a copy of a vector copies it. A move keeps a vector's storage.
template <class T>
class VecOrView {
 public:
  VecOrView() = default;
  VecOrView(std::initializer_list<T> u) : own_(u) { sync(); }
  VecOrView(std::vector<T> u) : own_(std::move(u)) { sync(); }
  VecOrView(const VecOrView& o) : own_(o.own_), data_(o.data_), size_(o.size_), view_(o.view_) { sync(); }
  VecOrView(VecOrView&& o) noexcept : own_(std::move(o.own_)), data_(o.data_), size_(o.size_), view_(o.view_) {
    o.reset();
    sync();
  }
  VecOrView& operator=(const VecOrView& o) {
    if (this != &o) {
      own_ = o.own_;
      data_ = o.data_;
      size_ = o.size_;
      view_ = o.view_;
      sync();
    }
    return *this;
  }
  VecOrView& operator=(VecOrView&& o) noexcept {
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
  VecOrView& operator=(std::vector<T> u) {
    own_ = std::move(u);
    view_ = false;
    sync();
    return *this;
  }
  VecOrView& operator=(std::initializer_list<T> u) {
    own_ = u;
    view_ = false;
    sync();
    return *this;
  }
  // A view of elements stored elsewhere (they must outlive it and every copy of it).
  static VecOrView view(std::span<const T> u) {
    VecOrView x;
    x.set_view(u);
    return x;
  }
  // Becomes a view of `u` in place (as `*this = view(u)`, without making and moving a temporary).
  // Elements of its own are dropped.
  void set_view(std::span<const T> u) {
    own_.clear();
    data_ = u.data();
    size_ = u.size();
    view_ = true;
  }
  // A view takes in the next n elements of the viewed array (the owner stored them right after the view's).
  void extend_view(size_t n = 1) { size_ += n; }
  bool is_view() const { return view_; }

  std::span<const T> span() const { return {data_, size_}; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T& operator[](size_t i) const { return data_[i]; }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }

  // Writing: a view becomes a vector of its own first.
  void push_back(const T& u) {
    own().push_back(u);
    sync();
  }
  void append(std::span<const T> u) {
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
  // Makes the elements its own (a copy of a view's), changing nothing else.
  void make_own() {
    own();
    sync();
  }

 private:
  std::vector<T>& own() {
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
  std::vector<T> own_;
  const T* data_ = nullptr;  // own_'s elements, or the viewed ones
  size_t size_ = 0;
  bool view_ = false;
};

// An operation's uses: a vector of its own (recording, loaders, anything built by hand) or a view of uses
// another owner stores (a frame graph's lists view one array of the transitions phase's ListStore: no heap
// block per operation). append_operation makes a view's uses the list's own.
using Uses = VecOrView<Use>;

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

// A list's name: a string of its own (a list made by name: recording, loaders) or a view of characters
// another owner stores (a ListStore's array of names). view() reads both alike: the string when the name
// is its own (a short string lives inside the object, so a view kept beside it would have to follow every
// copy and move), else the view. So a copy is the default one (a view stays a view of the same
// characters); a move leaves the moved-from name empty.
class ListName {
 public:
  ListName() = default;
  explicit ListName(std::string own) : own_(std::move(own)), owned_(true) {}
  // A copy of `name` of its own (`own`), or a view of it (which must outlive this).
  ListName(std::string_view name, bool own) : owned_(own) {
    if (own)
      own_ = name;
    else
      view_ = name;
  }
  ListName(const ListName&) = default;
  ListName& operator=(const ListName&) = default;
  ListName(ListName&& o) noexcept : own_(std::move(o.own_)), view_(o.view_), owned_(o.owned_) { o.empty_moved(); }
  ListName& operator=(ListName&& o) noexcept {
    if (this != &o) {
      own_ = std::move(o.own_);
      view_ = o.view_;
      owned_ = o.owned_;
      o.empty_moved();
    }
    return *this;
  }
  std::string_view view() const { return owned_ ? std::string_view(own_) : view_; }
  bool owned() const { return owned_; }

 private:
  void empty_moved() {
    own_.clear();
    view_ = {};
    owned_ = false;
  }
  std::string own_;        // the name when it is its own
  std::string_view view_;  // the other owner's characters when it is not (else empty)
  bool owned_ = false;
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
  // name a view of the store's name array (`own` false: no string of its own), or a copy kept in the list
  // (`own` true). Throws Error for a resource declared twice, as declare_entry does.
  [[gnu::always_inline]] inline CommandList(StoreKey, std::string_view name, bool own,
                                            const CommandListGroup& group, std::span<const Operation> ops,
                                            std::span<const EntryState> entry);
  CommandList(const CommandList&) = delete;
  CommandList& operator=(const CommandList&) = delete;
  // Movable only before it joins a group (the group keeps its address): ListStore's array of lists. The
  // name (ListName) moves itself; the operations and entry states keep their vectors' storage, so the
  // views stay valid.
  CommandList(CommandList&&) noexcept = default;
  CommandList& operator=(CommandList&&) noexcept = default;

  // A view: of the list's own string, or of the array of names of the ListStore that made it (valid as
  // long as the list).
  std::string_view name() const { return name_.view(); }
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

  // Lifecycle transitions driven by the compiler and executors. mark_compiled() is inline: the compiler
  // marks every list of every group it compiles.
  void mark_compiled() {
    if (lifecycle_ != Lifecycle::closed) [[unlikely]]
      not_compilable();
    lifecycle_ = Lifecycle::compiled;
  }
  void mark_submitted();
  void attach_to(const CommandListGroup* g);

 private:
  void require_recording(const char* what) const;
  [[noreturn, gnu::cold]] void not_compilable() const;  // mark_compiled() of a list that is not closed
  // Throws Error for a resource declared twice in `entry` (only an out-of-order declaration needs the scan).
  static void check_entry_unique(std::string_view list, std::span<const EntryState> entry) {
    for (size_t i = 1; i < entry.size(); ++i)
      if (entry[i].resource <= entry[i - 1].resource) return find_entry_twice(list, entry);
  }
  [[noreturn]] static void entry_twice(std::string_view list, ResourceId r);
  static void find_entry_twice(std::string_view list, std::span<const EntryState> entry);

  ListName name_;  // its own string (a list made by name: recording, loaders), or a view of a store's names
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

// Lists that one queue executes in one submission, in order. A group made by hand keeps its lists in a
// vector of its own; a group made by ListStore::add_group views its part of the store's one array of list
// pointers (no heap block per group). `lists()` reads both alike (a pointer and a size); add() to a view
// first copies the pointers into a vector of its own.
class CommandListGroup {
 public:
  CommandListGroup(std::string name, Queue queue) : name_(std::move(name)), queue_(queue) {}
  CommandListGroup(const CommandListGroup&) = delete;
  CommandListGroup& operator=(const CommandListGroup&) = delete;
  // Movable only before a list joins it (its lists keep its address): ListStore's array of groups.
  CommandListGroup(CommandListGroup&&) noexcept = default;
  CommandListGroup& operator=(CommandListGroup&&) = delete;
  // A view of a ListStore's list pointers from `first` on (only ListStore::add_group can name the key).
  CommandListGroup(CommandList::StoreKey, std::string name, Queue queue, CommandList* const* first)
      : name_(std::move(name)), queue_(queue) {
    lists_.set_view({first, size_t{0}});
  }

  // Adds a closed list; throws if it is still recording, already in a group, or on another queue.
  void add(CommandList& list);
  const std::string& name() const { return name_; }
  Queue queue() const { return queue_; }
  std::span<CommandList* const> lists() const { return lists_.span(); }
  // Room for n lists (a group made by hand).
  void reserve(size_t n) { lists_.reserve(n); }

 private:
  friend struct ListStore;  // add_list joins its lists without add()'s checks (they hold by construction)
  std::string name_;
  Queue queue_;
  VecOrView<CommandList*> lists_;  // a vector of its own (a group made by hand) or the store's list pointers
};

// Groups in submission order, read as pointers (`groups[i]->name()`, `*groups[i]`, a range of
// `CommandListGroup*`, `span()` for the planner): each either owned here (push_back of a unique_ptr: a
// group made by hand, one heap object) or kept elsewhere and only pointed to (add_view: a ListStore's
// array of groups, which must outlive this). A move keeps the pointers valid.
class GroupList {
 public:
  GroupList() = default;
  GroupList(GroupList&&) noexcept = default;
  GroupList& operator=(GroupList&&) noexcept = default;
  GroupList(const GroupList&) = delete;
  GroupList& operator=(const GroupList&) = delete;

  void push_back(std::unique_ptr<CommandListGroup> g) {
    ptrs_.push_back(g.get());
    owned_.push_back(std::move(g));
  }
  void add_view(CommandListGroup& g) { ptrs_.push_back(&g); }
  void reserve(size_t n) { ptrs_.reserve(n); }
  void clear() {
    ptrs_.clear();
    owned_.clear();
  }

  size_t size() const { return ptrs_.size(); }
  bool empty() const { return ptrs_.empty(); }
  CommandListGroup* operator[](size_t i) const { return ptrs_[i]; }
  CommandListGroup* at(size_t i) const { return ptrs_.at(i); }
  CommandListGroup* front() const { return ptrs_.front(); }
  CommandListGroup* back() const { return ptrs_.back(); }
  CommandListGroup* const* begin() const { return ptrs_.data(); }
  CommandListGroup* const* end() const { return ptrs_.data() + ptrs_.size(); }
  std::span<CommandListGroup* const> span() const { return ptrs_; }

 private:
  std::vector<CommandListGroup*> ptrs_;
  std::vector<std::unique_ptr<CommandListGroup>> owned_;
};

// Lists whose operations, uses and entry states live in one array each, in list order: a frame graph's
// transitions phase makes one list per pass without a heap block per list, operation, use, group or name
// (issue 16). Operation::uses of `ops` view `uses`; the lists view `ops` and `entries`. Fill the three
// arrays first (reserve or finish them before making lists: a list views them where they are), then
// reserve the lists (`reserve_lists`: groups keep the lists' addresses, and a store's groups view
// `list_ptrs`), the groups and the names, then make groups (add_group) and lists (add_list). A move keeps
// every array's storage, so the views and the groups' pointers stay valid; there is no copy.
struct ListStore {
  std::vector<Use> uses;
  std::vector<Operation> ops;
  std::vector<EntryState> entries;
  std::vector<CommandList> lists;
  std::vector<CommandList*> list_ptrs;  // every list of a group made by add_group, group after group
  std::vector<CommandListGroup> groups;  // made by add_group
  std::vector<char> names;  // the lists' names, one after another (a list views its part), sized up front
  size_t names_used = 0;     // how much of `names` holds names

  // Room for n lists (and their pointers) and for names of `name_bytes` characters in all.
  void reserve_lists(size_t n, size_t name_bytes = 0) {
    lists.reserve(n);
    list_ptrs.reserve(n);
    names.resize(names_used + name_bytes);  // (a store whose lists have views of it is never resized again)
  }
  // A group in `groups` whose lists are the next ones add_list makes for it: they must follow one another
  // in `list_ptrs` (make one group's lists before the next group). Throws Error when `groups` is full
  // (reserve it first: lists point to their group) or `list_ptrs` was not reserved.
  CommandListGroup& add_group(std::string name, Queue queue) {
    if (groups.size() == groups.capacity() || list_ptrs.capacity() == 0) groups_full();
    return groups.emplace_back(CommandList::StoreKey{}, std::move(name), queue, list_ptrs.data() + list_ptrs.size());
  }
  // Makes a closed list over `list_ops` and `entry` (parts of the arrays above) at the end of `lists`
  // and adds it to `group` (on the group's queue): what CommandList(name, queue, ops, entry) and
  // CommandListGroup::add do, without a string per name or the checks that a new list of the group's
  // queue passes by construction. The name is copied into `names` when they have room (else the list
  // keeps a copy of its own). A group of add_group takes its list into `list_ptrs` (it must be the last
  // group made); another group into its own vector. Throws Error when `lists` is full (growing it would
  // move the lists the groups point to: reserve it first) or for a resource declared twice in `entry`.
  // (Always inlined: the transitions phase calls it once per pass.)
  [[gnu::always_inline]] CommandList& add_list(CommandListGroup& group, std::string_view name,
                                               std::span<const Operation> list_ops, std::span<const EntryState> entry) {
    if (lists.size() == lists.capacity()) lists_full();
    const bool view = group.lists_.is_view();
    if (view && (groups.empty() || &group != &groups.back() || list_ptrs.size() == list_ptrs.capacity()))
      not_last_group();
    const bool own = names.size() - names_used < name.size();
    if (name.empty()) {
      name = {};
    } else if (!own) {
      char* const at = names.data() + names_used;
      std::memcpy(at, name.data(), name.size());
      names_used += name.size();
      name = std::string_view(at, name.size());
    }
    CommandList& l = lists.emplace_back(CommandList::StoreKey{}, name, own, group, list_ops, entry);
    if (view) {
      list_ptrs.push_back(&l);
      group.lists_.extend_view();
    } else {
      group.lists_.push_back(&l);
    }
    return l;
  }
  ListStore() = default;
  ListStore(ListStore&&) noexcept = default;
  ListStore& operator=(ListStore&&) noexcept = default;
  ListStore(const ListStore&) = delete;
  ListStore& operator=(const ListStore&) = delete;

 private:
  [[noreturn]] static void lists_full();
  [[noreturn]] static void groups_full();
  [[noreturn]] static void not_last_group();
};

inline CommandList::CommandList(StoreKey, std::string_view name, bool own, const CommandListGroup& group,
                                std::span<const Operation> ops, std::span<const EntryState> entry)
    : name_(name, own),
      queue_(group.queue()),
      lifecycle_(Lifecycle::closed),
      ops_view_(ops),
      entry_view_(entry),
      break_next_(false),
      group_(&group) {
  check_entry_unique(name, entry);
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
