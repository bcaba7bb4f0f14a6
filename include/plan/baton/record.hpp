// Recording: command lists as ordered operations that declare their uses. Barrier points are
// reserved before and after every operation; the compiler fills them in afterwards.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
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

struct Operation {
  OpKind kind = OpKind::draw;
  std::vector<Use> uses;
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
  CommandList(const CommandList&) = delete;
  CommandList& operator=(const CommandList&) = delete;

  const std::string& name() const { return name_; }
  Queue queue() const { return queue_; }
  Lifecycle lifecycle() const { return lifecycle_; }
  const std::vector<Operation>& ops() const { return ops_; }
  const std::vector<EntryState>& entry_states() const { return entry_; }
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

  std::string name_;
  Queue queue_;
  Lifecycle lifecycle_ = Lifecycle::recording;
  std::vector<Operation> ops_;
  std::vector<EntryState> entry_;
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

 private:
  std::string name_;
  Queue queue_;
  std::vector<CommandList*> lists_;
};

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
