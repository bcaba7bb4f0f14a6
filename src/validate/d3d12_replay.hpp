// D3D12 replay: per-subresource shadow state driven by legacy and enhanced barriers in one model
// (a subresource is under one model at a time; the interop rules 1350/1351 govern the switch).
// The methods live in d3d12_replay.cpp (submissions, uses, decay), d3d12_legacy.cpp (legacy
// barriers) and d3d12_enhanced.cpp (enhanced barriers).
#pragma once

#include <baton/validate.hpp>
#include <map>
#include <utility>
#include <vector>

#include "d3d12_rules.hpp"
#include "heap_model.hpp"
#include "report.hpp"
#include "runs.hpp"

namespace baton::validate::d3d12 {

struct Shadow {
  // Legacy model: the current D3D12_RESOURCE_STATES and whether it came from implicit promotion
  // in the current ExecuteCommandLists (promoted reads decay at its end).
  uint32_t state = st::common;
  bool promoted = false;
  // Enhanced model: the current layout (textures; buffers have none).
  bool enhanced = false;
  uint32_t layout = ly::common;
  // A split barrier begun and not yet ended.
  bool pending = false;
  LegacyTransition pending_legacy;
  EnhancedBarrier pending_enhanced;
  bool pending_is_enhanced = false;
  // Per ExecuteCommandLists: touched at all (SyncBefore NONE, copy-queue entry), made NO_ACCESS,
  // the previous barrier's SyncAfter (the next SyncBefore must cover it).
  bool touched = false;
  bool no_access = false;
  bool has_prev_sync = false;
  uint32_t prev_sync_after = 0;
  // Placed render-target/depth texture not yet initialized since creation or aliasing (1422).
  bool needs_init = false;
  friend bool operator==(const Shadow&, const Shadow&) = default;
};

class Replay {
 public:
  Replay(const Trace& t, Reporter& out);
  void run();

 private:
  // d3d12_replay.cpp
  void create_resources();
  void execute(int submission);
  void end_of_ecl(QueueType queue);
  void use(int resource, const Subresources& s, uint32_t state, bool is_clear);
  void discard(int resource, const Subresources& s);
  void present(int resource);
  void enter_copy_queue(int resource, uint32_t sub, uint32_t n, Shadow& sh);
  // A command reached subresources [lo, hi) in this ExecuteCommandLists.
  void touch(int resource, uint32_t lo, uint32_t hi) { touched_[resource].add(lo, hi); }
  // Heaps (d3d12_heaps.cpp): a command's effect on placed memory before it runs (activation, use
  // after takeover, the takeover's order after the previous occupants' last accesses), and after.
  void heap_before(const Command& cmd);
  void heap_touch(int resource, const EnhancedBarrier* b, const std::string& what);
  void heap_aliasing(const LegacyAliasing& b);
  void heap_after(const Command& cmd);
  void heap_accessed(int resource, uint32_t use_sync, bool barrier = false, uint32_t sync_after = 0);
  // d3d12_legacy.cpp
  void legacy_transition(const LegacyTransition& b, std::map<int, IntervalSet>& seen);
  void legacy_aliasing(const LegacyAliasing& b);
  // d3d12_enhanced.cpp
  void enhanced_barrier(const EnhancedBarrier& b);
  void enhanced_checks(const EnhancedBarrier& b);
  void enhanced_apply(const EnhancedBarrier& b, int resource, uint32_t sub, uint32_t n, Shadow& sh);

  const TraceResource& res(int r) const { return trace_.resources[static_cast<size_t>(r)]; }
  Runs<Shadow>& shadows(int r) { return shadows_[static_cast<size_t>(r)]; }

  const Trace& trace_;
  Reporter& out_;
  std::vector<Runs<Shadow>> shadows_;   // per resource, runs over the subresource index
  std::map<int, IntervalSet> touched_;  // reached in the current ExecuteCommandLists
  QueueType list_type_ = QueueType::direct;
  // Heaps: who occupies which bytes; per resource its last accesses (submission, the sync since its
  // last barrier or that barrier's SyncAfter, the command stamp); the aliasing barriers naming no
  // `after` (any resource may become active) seen in this ExecuteCommandLists.
  struct LastAccess {
    int submission = -1;
    uint32_t sync = 0;           // the last barrier's SyncAfter: a takeover's SyncBefore must contain it
    std::vector<uint32_t> uses;  // per use since: the syncs its legacy state may run in (one must be covered)
    uint64_t stamp = 0;
  };
  struct OpenAliasing {
    int before = kNoResource;
    uint64_t stamp = 0;
  };
  HeapModel heaps_;
  std::vector<std::vector<bool>> order_;  // submission_order(trace_)
  std::vector<LastAccess> last_;
  std::vector<OpenAliasing> open_aliasing_;
  int submission_ = -1;
  uint64_t stamp_ = 0;
};

std::string state_name(uint32_t s);
std::string layout_name(uint32_t l);
std::string sync_name(uint32_t s);
std::string access_name(uint32_t a);

}  // namespace baton::validate::d3d12
