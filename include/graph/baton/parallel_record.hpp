// Parallel recording of a compiled frame graph (issue 4, item 4). Every list of the compiled
// Transitions (one per pass) is recorded into a command buffer of its own on a small thread pool:
// its barrier points lowered for one API and its operation, as API-level commands. The buffers
// are then submitted in submission order (groups in order, lists in group order) into one stream.
// Each buffer is written by exactly one job and read only after every job has finished, so the
// stream is byte-identical to serial recording whatever the thread timing.
//
// Per API: the barrier text is what lower() gives for that API (D3D12 enhanced SYNC/ACCESS/LAYOUT,
// D3D12 legacy states, Vulkan sync2 stage/access/layout); omitted barriers are not issued.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "baton/graph.hpp"
#include "baton/lower.hpp"

namespace baton::graph {

// A fixed set of worker threads that run batches of indexed jobs. One batch at a time; the caller
// waits for the whole batch. No global state: the owner decides the pool's lifetime.
class ThreadPool {
 public:
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned size() const { return static_cast<unsigned>(workers_.size()); }
  // Runs job(0) .. job(n-1) on the workers and returns when all have finished. If jobs throw, the
  // exception of the lowest index is rethrown (deterministic, whatever the timing).
  void for_each(size_t n, const std::function<void(size_t)>& job);

 private:
  void work(std::stop_token stop);

  std::mutex m_;
  std::condition_variable_any wake_;
  std::condition_variable done_;
  const std::function<void(size_t)>* job_ = nullptr;
  size_t n_ = 0, next_ = 0, running_ = 0;
  std::exception_ptr error_;
  size_t error_index_ = 0;
  std::vector<std::jthread> workers_;  // last: stopped and joined before the rest is destroyed
};

// One API-level command.
struct Command {
  enum class Kind : uint8_t { begin_list, barriers, work, end_list, submit };
  Kind kind = Kind::work;
  uint32_t group = 0, list = 0, op = 0;  // list: position in its group
  Where where = Where::before;           // barriers only
  std::string text;  // barriers: one "resource[range] before -> after" per barrier, "; "-joined
  friend bool operator==(const Command&, const Command&) = default;
};
std::string_view to_string(Command::Kind k);
// One line: "g0 l1 op0 barriers(before) ...".
std::string to_string(const Command& c);

// What one recording job gets: a list of the compiled graph and its lowered barrier points.
struct ListJob {
  uint32_t index = 0;  // the list's position in submission order over all groups
  uint32_t group = 0, list = 0;
  const ResourceTable* table = nullptr;
  const CommandList* source = nullptr;   // the operations
  const LoweredList* lowered = nullptr;  // the barrier points, lowered for the chosen API
};
// The per-list command buffer: a plain vector of commands, owned by one job while recording.
struct CommandBuffer {
  std::vector<Command> commands;
};
using ListRecorder = std::function<void(const ListJob&, CommandBuffer&)>;
// The default recorder: begin, then per operation its before point, its work, its after point, end.
void record_list(const ListJob& job, CommandBuffer& out);

struct RecordOptions {
  Api api = Api::vulkan;
  unsigned threads = 1;   // 0 or 1: on the calling thread, in order
  ListRecorder recorder;  // empty: record_list
  // Test hooks. `test_hook(job, false)` runs before a job records, `test_hook(job, true)` after its
  // buffer is complete and its completion registered (tests inject delays and force orders).
  std::function<void(uint32_t job, bool done)> test_hook;
  // Breaks the ordering on purpose: submit buffers in the order they completed (tests prove that
  // the stream comparison catches it).
  bool test_submit_in_completion_order = false;
};

struct CommandStream {
  std::vector<Command> commands;
  std::vector<uint32_t> completion;  // list indices in the order their recording finished
  std::string text() const;          // one line per command
};

// Records every list of t (serially or on `threads` workers) and submits in submission order.
CommandStream record_frame(const Transitions& t, const RecordOptions& o = {});
// The same with a pool the caller keeps across frames (o.threads is ignored).
CommandStream record_frame(const Transitions& t, ThreadPool& pool, const RecordOptions& o = {});

}  // namespace baton::graph
