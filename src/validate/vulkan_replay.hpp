// Vulkan replay: image layouts, queue-family ownership, and a synchronization model after the
// Khronos synchronization validator: per subresource the last write (with the barrier scopes that
// made it visible: stage x access pairs, plus the execution-dependency chain) and the reads since
// it (with the stages they are ordered before). A barrier orders an earlier access if the access is
// in its first scope, directly or through the chain; semaphores order whole submissions.
//
// The barriers of one vkCmdPipelineBarrier2 call are independent: each is evaluated against the
// state before the call and their effects are collected as *pending* and applied when the call
// ends (the Khronos layer's pending barriers), so a barrier cannot chain with another of its call.
#pragma once

#include <baton/validate.hpp>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "exec_log.hpp"
#include "heap_model.hpp"
#include "report.hpp"
#include "runs.hpp"

namespace baton::validate::vulkan {

struct Where {
  int list = -1, command = -1, queue = -1, submission = -1;
  // In a ghost (below): the previous occupant whose access this is; -1 for accesses of the resource itself.
  int occupant = -1;
  uint64_t seq = 0;  // position in the whole replay (every command counts): before / after an event's set
  friend bool operator==(const Where&, const Where&) = default;
};
struct Write {
  bool valid = false;
  uint64_t stage = 0, access = 0;
  bool layout_transition = false;
  Where where;
  std::vector<std::pair<uint64_t, uint64_t>> visible;  // (stages, accesses) it is visible to
  uint64_t chain = 0;                                  // stages ordered after it
  uint64_t log_pos = 0;  // its queue's ExecLog calls up to here are in `chain` (catch_up)
  uint64_t signaled = 0;  // bit i: in the first scope of partial signal i (Replay::mark_signal)
  friend bool operator==(const Write&, const Write&) = default;
};
struct Read {
  uint64_t stage = 0, access = 0;
  uint64_t barriers = 0;  // stages ordered after this read (any barrier: for write-after-read)
  Where where;
  uint64_t pending = 0;  // stages the barrier call being replayed orders after it
  // Stages ordered after it by barriers naming this subresource or memory barriers only. A later
  // access ordered after the read this way skips the read-after-write / write-after-write check
  // against the earlier write (as the Khronos layer does); an order that comes only from another
  // resource's barrier is an execution dependency and still needs the write made visible.
  uint64_t own = 0, pending_own = 0;
  uint64_t log_pos = 0;  // its queue's ExecLog calls up to here are in `barriers` (catch_up)
  uint64_t signaled = 0;  // bit i: in the first scope of partial signal i (Replay::mark_signal)
  // The `own` stages of the earlier reads of its stage that this read replaced (one read per stage is
  // kept): a later read in those stages is still ordered after a read of the write, so it is not checked
  // against the write again (read-after-read only; a write must be ordered after this read itself).
  uint64_t replaced_own = 0;
  friend bool operator==(const Read&, const Read&) = default;
};
inline constexpr uint32_t kNoOwner = 0xffffffffu;
struct Shadow {
  uint32_t layout = 0;
  Write write;
  std::vector<Read> reads;
  uint32_t owner = kNoOwner;  // exclusive sharing: the family that owns it
  bool in_transfer = false;   // released, not yet acquired
  uint32_t transfer_to = 0, transfer_old = 0, transfer_new = 0;
  // Effects of the barrier call being replayed on the last write (applied when the call ends).
  bool touched = false, pending_transition = false;
  std::vector<std::pair<uint64_t, uint64_t>> pending_visible;
  uint64_t pending_chain = 0;
  friend bool operator==(const Shadow&, const Shadow&) = default;
};

// Memory taken over (heap_model.hpp): at a placed resource's activation, the shadows of its previous
// occupants are copied into *ghosts* of the new resource, with each access tagged by its occupant. The
// ghosts are the shared memory's hazard state: the new resource's barriers and accesses run against
// them exactly as against its own shadow (memory barriers and execution dependencies too), and a hazard
// against an occupant's access is an unordered takeover (BATON-HEAP-UNORDERED-TAKEOVER). A ghost is
// dropped once no occupant's access is left in it. The shadows are runs (runs.hpp): a ghost is one run
// of a previous occupant's shadow, standing for its `subresources` (counted in messages as before), so
// the ghosts follow what the previous occupants' accesses split them into. Ghosts count into the
// replay's limits (RunStats) like runs.
struct Ghost {
  int from = -1;  // the previous occupant
  uint64_t lo = 0, hi = 0;
  uint32_t subresources = 1;  // of the previous occupant's run this ghost copies
  uint32_t index = 0;         // the first subresource of that run in `from`'s shadows (an event's snapshot)
  Shadow sh;
};

// What semaphore waits and host waits order of one earlier submission, at the current point of the queue
// being replayed (Vulkan spec, "Semaphore Waiting", "Host Synchronization"). A wait with stageMask M
// orders all of the signaling submission (its signal's first scope: ALL_COMMANDS, so every command
// before it in its queue's submission order, and what it waited for in turn) before the stages of M and
// the logically later ones (`exec`), and makes its writes visible to the accesses of the stages of M
// (`visible`). A later barrier whose first execution scope meets `exec` chains with the wait: its
// second scope joins `exec`, its second access scope `visible` (the Khronos layer applies a wait as a
// barrier on the imported accesses). A host wait (fence, timeline value, queue or device idle) orders
// everything it waited for before all later submissions, every stage, all visible (the layer's
// ApplyTaggedWait retires those accesses).
struct Ordered {
  uint64_t exec = 0;
  std::vector<std::pair<uint64_t, uint64_t>> visible;  // (stages, accesses), one entry per stage set
  bool host = false;  // a host wait waited for it: done before the submission is made (transitions too)
  void grant(uint64_t exec_stages, uint64_t stages, uint64_t accesses);
  bool covers(const Ordered& o) const;  // everything `o` orders, this orders too
  friend bool operator==(const Ordered&, const Ordered&) = default;
};
// A wait orders a whole prefix of a queue (the signal's first scope is every command before it in its
// queue's submission order), so the orderings are kept as grants: `o` holds for every submission of
// `queue` up to `upto`. A grant that another one covers is dropped, so a set stays a few grants per
// queue however many submissions there are (a chain of 5,000 submissions took 1.5 GB and 32 s when
// the orderings were kept per submission).
// A signal whose stageMask is not ALL_COMMANDS ("partial", numbered 0..63 in replay order) holds only
// the accesses in its first scope, decided when its submission ends (Replay::mark_signal: the access's
// `signaled` bit); `partial` is that number, -1 for ALL_COMMANDS signals, fences and host waits.
inline constexpr uint64_t kAnyStage = ~uint64_t{0};
inline constexpr int kMaxPartialSignals = 64;
struct Reach {
  uint64_t signaled = 0;  // the access's partial signals
};
struct Grant {
  int queue = -1, upto = -1;
  Ordered o;
  int partial = -1;
  friend bool operator==(const Grant&, const Grant&) = default;
};
using OrderedSet = std::vector<Grant>;

// A VkEvent's last vkCmdSetEvent2: where it happened and the state it saw. A wait's first scope is the
// set's: accesses before the set, with the dependency chains they had then (Vulkan spec, "Events":
// the first synchronization scope of vkCmdWaitEvents2 is the set's; work between set and wait on the
// source side is not ordered, as in the Khronos layer's SyncOpWaitEvents).
struct EventState {
  bool set = false;
  int queue = -1;
  Where where;
  std::vector<Barrier> dependency;
  std::vector<Runs<Shadow>> snapshot;  // shadows_ at the set (its runs count into the replay's limits)
  OrderedSet ordered;                  // the semaphore orderings at the set (a chain with a wait)
};

// The presentation engine's accesses to a swapchain image, a pseudo stage and access of their own (bit 62,
// unused by VkPipelineStageFlags2 / VkAccessFlags2; the Khronos layer's SYNC_PRESENT_ENGINE_SYNCVAL_*):
// vkAcquireNextImageKHR hands the image over after the engine's reads (a write for hazard purposes, as in
// the layer), vkQueuePresentKHR reads it (checked as a write: ordered after every access).
inline constexpr uint64_t kPresentEngine = uint64_t{1} << 62;

class Replay {
 public:
  Replay(const Trace& t, Reporter& out, const ValidateOptions& options = {});
  void run();

 private:
  // A barrier's scopes: execution scopes with logically earlier / later stages; access scopes only
  // with the stages named (meta stages expanded): Vulkan spec, "Memory Dependencies".
  struct Scope {
    uint64_t src_exec, src_stages, src_access, dst_exec, dst_stages, dst_access;
  };
  void execute(int submission);
  // Swapchain steps (vulkan_swapchain.cpp): vkAcquireNextImageKHR (host-side, on a queue of its own) and
  // vkQueuePresentKHR's access (after its semaphore waits were granted on the present's queue).
  void acquire_image(int submission);
  void present_image(int submission);
  // A hazard against the presentation engine's acquire: not waited for at all, the layer's *-AFTER-PRESENT
  // name; waited for (a wait on its semaphore or fence), the acquire is a read of the engine's (the layer's
  // SYNC_PRESENT_ENGINE_SYNCVAL_PRESENT_ACQUIRE_READ_SYNCVAL): an unordered write is a write-after-read.
  MessageId against(const Write& w, MessageId id) const;
  // The acquire was waited for: a read after it is no hazard (two reads).
  bool acquire_waited(const Write& w) const;
  void commands(int list);  // a list's commands; an ExecuteCmd runs its secondaries' commands there
  // Dynamic rendering: the load operations' accesses at the begin, the store operations' at the end;
  // accesses of one render pass instance to its attachments are ordered among themselves (in_rendering).
  void begin_rendering(const BeginRenderingCmd& c);
  void end_rendering();
  void attachment_access(const RenderingAttachment& a, uint64_t stage, uint64_t access, bool check_layout);
  void in_rendering(Shadow& sh) const;
  void barrier_call(const BarrierCmd& call);
  void set_event(const SetEventCmd& c);
  void wait_events(const WaitEventsCmd& c);
  // The first-scope tests with the current event wait's restriction (ev_) applied. The shadow judged is
  // the one at at_ (set by the loops that call apply / transition): at_set finds its state at the set.
  const Shadow* at_set(const Shadow& sh) const;
  bool write_in_scope(const Shadow& sh, const Scope& s) const;
  // The read as the event's set saw it (nullptr: the read came after the set, outside its scope);
  // the read itself when no event wait is being replayed.
  const Read* read_at_set(const Shadow& sh, const Read& r) const;
  void barrier(const VkBarrier& b);
  void use(const UseCmd& u);
  bool in_first_scope(const Write& w, const Scope& s) const;
  void apply(Shadow& sh, const Scope& s, bool own = true);
  void pend(Shadow& sh);
  void commit();
  // Brings the accesses of a shadow up to date with their queues' execution-only dependencies
  // (ExecLog): called before a shadow is judged or changed, and on every shadow before an event's
  // snapshot or an eager walk over all of them.
  void catch_up(Shadow& sh);
  void catch_up_all();
  // The log position a new access of the current queue starts from.
  uint64_t log_now() const { return now_.queue >= 0 && static_cast<size_t>(now_.queue) < logs_.size() ? logs_[static_cast<size_t>(now_.queue)].size() : 0; }
  // `n`: the subresources from `sub` on that share the shadow (one run).
  void transition(int resource, uint32_t sub, uint32_t n, Shadow& sh, const Scope& s);
  void access(int resource, uint32_t sub, uint32_t n, Shadow& sh, uint64_t stage, uint64_t access);
  bool write_checked_by_reads(const Shadow& sh, uint64_t stage) const;
  // Semaphores and host waits (Ordered): the ordering of the access at `w` before the current point.
  // `reach`: the access's stage and the stages later barriers of its queue chained it to (reach()).
  const Ordered* ordered(const Where& w, const Reach& reach) const;
  bool sem_exec(const Where& w, const Reach& reach,
                uint64_t stage) const;  // every stage of `stage` ordered after it
  bool sem_chain(const Where& w, const Reach& reach,
                 uint64_t src_exec) const;  // a first scope that chains with its wait
  bool sem_visible(const Where& w, const Reach& reach, uint64_t stage, uint64_t access) const;
  // The signal a wait waits for: its submission (-1: none, or the host's vkSignalSemaphore, which orders
  // no device work) and its stage mask. `host_signals_of_before`: the host signals made just before
  // submission `before` count (a device wait; a host wait comes before them).
  struct Signal {
    int submission = -1;
    uint64_t stage = kVkAllCommands;
    int index = -1;  // in the submission's `signal` (-1: a fence, queue or device: ALL_COMMANDS)
  };
  // At the end of a submission: each of its signals with a stageMask other than ALL_COMMANDS gets a number
  // and marks the accesses of its queue in its first scope (as for a barrier, the Khronos layer's
  // WriteInSourceScopeOrChain): a write whose stage is one of the stages named (meta stages expanded; none
  // for BOTTOM_OF_PIPE, which in a first scope is ALL_COMMANDS with no access) or that a barrier chained to
  // the execution scope (the stages and the logically earlier ones); a read whose stage or chain meets it.
  void mark_signals(int submission);
  int partial_of(const Signal& s) const;  // its number, -1 for ALL_COMMANDS
  // A wait (stage mask `stage`) on submission `t`'s signal: t, earlier work of t's queue, what t waited for.
  static uint64_t signal_exec(uint64_t stage_mask);  // the signal's execution scope (kAnyStage: ALL_COMMANDS)
  void wait_for(const Signal& t, uint64_t exec, uint64_t stages, uint64_t accesses);
  static void add(OrderedSet& set, int queue, int upto, const Ordered& o, int partial = -1);
  // The union of the grants covering the access at `w` with that reach.
  const Ordered* lookup(const OrderedSet& set, const Where& w, const Reach& reach) const;
  void host_wait(const HostWait& h, int submission);
  Signal signaler(const std::string& semaphore, std::optional<uint64_t> value, int before,
                  bool host_signals_of_before) const;
  // A barrier call's chains with the waits (judged on `before`, the state ahead of the call).
  void chain_waits(const OrderedSet& before,
                   const std::vector<std::tuple<uint64_t, uint64_t, uint64_t, uint64_t>>& scopes);
  bool ownership(int resource, uint32_t sub, uint32_t n, Shadow& sh);
  std::vector<std::pair<uint32_t, uint32_t>> subresources(int resource, const TraceRange& r,
                                                          bool& in_bounds) const;
  // Heaps: activation of a placed resource (its previous occupants' shadows become its ghosts), the
  // use-after-takeover check, and the hazard report that a ghost turns into a takeover finding.
  void touch_placed(int resource, bool starts_undefined, bool image_barrier, const std::string& what);
  void drop_ghosts(int resource);
  void hazard(MessageId id, int resource, uint32_t sub, uint32_t n, const Where& earlier,
              const std::string& what, const std::string& me);
  void ghost_visits(size_t k) { out_.stats()->visits += k; }
  // Buffers: one shadow per byte segment. The segments are fixed before the replay: every "offset" and
  // end of a byte range in the trace starts one (starts_), so a range is always whole segments, and a
  // buffer's Runs are over its segment index (equal neighbours merge, as subresources do).
  void byte_segments();
  std::pair<uint32_t, uint32_t> segments(int resource, const ByteRange& b) const;
  // An event's wait: the shadows are split where the set's snapshot has run edges, so each run has one
  // state at the set (at_set), and merged again after the wait.
  void split_at_snapshot(const EventState& e, std::vector<int>& split);
  std::string describe(const Where& w, uint64_t stage, uint64_t access, bool layout_transition) const;
  const TraceResource& res(int r) const { return trace_.resources[static_cast<size_t>(r)]; }

  const Trace& trace_;
  Reporter& out_;
  ValidateOptions options_;
  std::vector<Runs<Shadow>> shadows_;  // per resource, runs over the subresource (buffer: segment) index
  std::vector<std::vector<uint64_t>> starts_;  // per buffer: the first byte of each segment
  std::map<std::string, int> queues_;
  OrderedSet ordered_;                   // the current submission's (grows with its barriers)
  std::vector<OrderedSet> ordered_end_;  // per submission: at its end (a later wait imports it)
  OrderedSet host_;                      // what host waits have waited for (ordered before all later ones)
  std::vector<int> sub_queue_;           // per submission: its queue's index (queues_)
  mutable Ordered scratch_;              // lookup's union when several grants cover one submission
  Where now_;
  uint32_t family_ = 0;
  std::vector<Shadow*> touched_;  // shadows with pending effects of the current barrier call
  std::vector<std::tuple<int, uint32_t, uint32_t>> call_ranges_;  // (resource, lo, hi) the call named
  HeapModel heaps_;
  std::vector<std::vector<Ghost>> ghosts_;  // per resource
  const Ghost* ghost_ = nullptr;            // the ghost being replayed (hazards become takeover findings)
  int ghost_owner_ = -1;
  std::vector<ExecLog> logs_;       // per queue: its barrier calls' execution-only dependencies
  std::vector<EventState> events_;  // by Trace::events index
  std::map<std::pair<int, int>, int> partials_;  // (submission, signal index) -> partial signal number
  struct Rendering {
    uint64_t seq = 0;  // Where::seq of the begin_rendering
    std::vector<RenderingAttachment> attachments;
  };
  std::optional<Rendering> rendering_;  // the render pass instance being replayed
  const EventState* ev_ = nullptr;  // the event whose wait is being replayed
  struct At {
    int resource = -1;  // (a ghost: the previous occupant whose shadow it copies)
    uint32_t sub = 0;
  } at_;  // where the shadow being judged lives (for at_set)
};

// Stage / access set algebra (exposed for tests).
uint64_t expand_stages(uint64_t stages);   // meta stages -> the real stages they stand for (TOP/BOTTOM: none)
uint64_t src_exec_scope(uint64_t stages);  // plus logically earlier stages
uint64_t dst_exec_scope(uint64_t stages);  // plus logically later stages
uint64_t expand_accesses(uint64_t accesses);  // MEMORY_*/SHADER_* -> the bits they stand for
bool has_write(uint64_t accesses);
bool has_read(uint64_t accesses);

}  // namespace baton::validate::vulkan
