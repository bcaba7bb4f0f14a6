// The execution dependencies a queue's barrier calls form for *all* earlier work (Vulkan spec,
// "Execution and Memory Dependencies": a buffer or image barrier's synchronization scopes are stages,
// not resources), kept as a log instead of being applied to every resource at every call. Applied
// eagerly they cost the number of live resources per barrier call (16,000 buffers and barriers took
// 16.5 s); an access catches up with the log only when it is next looked at.
//
// What a call does to an earlier access of its queue is a function of one stage mask X (a read: its
// stage with the stages already ordered after it; a write: its dependency chain): every (src, dst)
// pair of the call whose src meets X adds dst, all pairs judged on X before the call. Such functions
// distribute over union, f(X | Y) = f(X) | f(Y), and so do their compositions, so a run of calls is
// known by what it adds to each single stage bit: a table of 64 masks. The log keeps each call's
// pairs and, over aligned blocks of 2^k calls (k >= kMinLevel), the block's table, like a segment
// tree; `added(X, from, to)` walks O(2^kMinLevel + log n) calls and blocks.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace baton::validate::vulkan {

class ExecLog {
 public:
  using Pair = std::pair<uint64_t, uint64_t>;  // (src execution scope, dst execution scope)
  // One barrier call's execution-only pairs (an empty call is not logged: it adds nothing).
  void append(std::span<const Pair> pairs);
  uint64_t size() const { return starts_.size(); }
  // The stages calls [from, to) add to a state that is `x` before them.
  uint64_t added(uint64_t x, uint64_t from, uint64_t to) const;

 private:
  static constexpr unsigned kMinLevel = 4;  // blocks of 16 calls and more have tables
  using Table = std::array<uint64_t, 64>;
  // One call's effect on a state x.
  uint64_t call_adds(uint64_t x, uint64_t call) const;
  static uint64_t table_adds(const Table& t, uint64_t x);
  std::vector<uint64_t> starts_;  // per call, its first pair in pairs_ (the next call's start ends it)
  std::vector<Pair> pairs_;
  std::vector<std::vector<Table>> levels_;  // levels_[k - kMinLevel][i]: calls [i 2^k, (i + 1) 2^k)
};

}  // namespace baton::validate::vulkan
