// Frame graph: passes declare what they do to named resources; a chain of pure phases turns that
// into queues, groups, memory and barriers, driving the same planner as recordings do.
//
//   validate -> cull -> schedule -> lifetimes -> aliasing -> transitions -> restores -> checks
//
// Each phase is a pure function of the graph and the earlier phases' results, and has a dump
// (`baton compile GRAPH --dump PHASE`). docs/graph-format.md describes the JSON form and the rules.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "baton/core.hpp"
#include "baton/lower.hpp"
#include "baton/plan.hpp"
#include "baton/range_map.hpp"
#include "baton/record.hpp"
#include "baton/runs.hpp"

namespace baton::graph {

inline constexpr uint32_t kNone = 0xffffffffu;
inline constexpr size_t kQueues = 3;  // Queue::direct, compute, copy
inline size_t qi(Queue q) { return static_cast<size_t>(q); }

// ---------------------------------------------------------------------------------------------
// The graph as declared.
struct Resource {
  ResourceDesc desc;        // as in recordings; `placed` is set by the graph for transient textures
  bool transient = false;   // memory owned by the graph for this frame only (aliasing candidate)
  bool imported = false;    // owned by someone else; the graph only uses it
  uint32_t count = 1;       // a set of API resources (e.g. one per particle emitter); each gets its barriers
  uint32_t texel_bytes = 0; // bytes per texel for the memory estimate; 0 = 4 (8 for depth_stencil)
  // A non-transient resource whose contents are undefined at the start of this frame (an engine's
  // image on its first frame): it starts untouched, like a transient (first touch from UNDEFINED),
  // instead of at rest; the frame still leaves it at rest.
  bool starts_undefined = false;
  // Every field: the transitions phase reuses its member table while the graph's resources compare equal.
  friend bool operator==(const Resource&, const Resource&) = default;
};

struct PassUse {
  uint32_t resource = 0;  // index into Graph::resources
  Access access = Access::shader_resource;
  Stages stages = kNoStages;
  SubresourceRange range{};
};

struct Pass {
  std::string name;
  Queue queue = Queue::direct;  // the capability the pass needs ("graphics" = direct)
  bool async = false;           // runs on its own queue; otherwise on the direct queue
  bool side_effect = false;     // never culled (readbacks, presents, external work)
  std::vector<PassUse> uses;
  std::vector<uint32_t> after;  // explicit ordering: this pass runs after these passes
};

struct Graph {
  std::vector<Resource> resources;
  std::vector<Pass> passes;
  std::vector<uint32_t> outputs;  // resources that must be produced

  // Builders for code (the JSON loader uses them too). Throw Error on duplicates.
  uint32_t add_resource(Resource r);
  uint32_t add_pass(Pass p);
  std::optional<uint32_t> find_resource(std::string_view name) const;
  std::optional<uint32_t> find_pass(std::string_view name) const;
};

// The queue a pass executes on.
inline Queue exec_queue(const Pass& p) { return p.async ? p.queue : Queue::direct; }
// Whether a use also depends on the previous contents (read-modify-write): UAV, depth test + write,
// render target (blending, load). Blind overwrites are copy_dest, resolve_dest and host_write.
bool keeps_contents(Access a);

// ---------------------------------------------------------------------------------------------
// Phase 1: validate. Dependencies come from declaration order: a read (and a read-modify-write)
// depends on the latest earlier writer of the resource; a write depends on the readers of the
// version it replaces; `after` adds explicit edges. Errors: unknown resource or pass, a use the
// pass's queue cannot perform, two incompatible accesses in one pass, a transient read before any
// write, a cycle, an ambiguous write order (two overlapping writes with no path between them), an
// output nobody produces.
enum class EdgeKind : uint8_t { read_after_write, write_after_read, explicit_order };
std::string_view to_string(EdgeKind k);
struct Edge {
  uint32_t from = 0, to = 0;
  EdgeKind kind = EdgeKind::read_after_write;
  uint32_t resource = kNone;  // kNone for explicit edges
};
struct Validated {
  std::vector<Edge> edges;  // grouped by `to`, in declaration order of `to`
  std::vector<uint32_t> in_first;  // CSR over edges by `to`: edges[in_first[p] .. in_first[p+1])
  // Whether an edge may point backward (from a later pass to an earlier one: only an explicit "after"
  // can). validate() clears it when none does; the schedule then takes declaration order as the program
  // order without reading the edges.
  bool backward = true;
};
Validated validate(const Graph& g);
// Each phase also writes into the caller's result (`*_into`): the result is made anew (every field as a
// fresh one's) but keeps its containers' storage, so a frame compiled every frame into one result takes no
// heap block for it in steady state (compile_graph_into).
void validate_into(Validated& out, const Graph& g);

// Phase 2: cull. Live: side-effect passes, writers of outputs, and (backward) every pass a live
// pass reads from. Explicit `after` edges order but do not keep a pass alive.
struct Culled {
  uint32_t pass = 0;
  std::string why;
};
struct CullResult {
  std::vector<uint8_t> live;  // per pass
  std::vector<Culled> culled;
};
CullResult cull(const Graph& g, const Validated& v);
void cull_into(CullResult& out, const Graph& g, const Validated& v);

// Phase 3: schedule. A serial order (topological, over live passes) and per-queue sequences; a
// dependency across queues becomes a signal after the producer and a wait before the consumer,
// dropped when the consumer's queue already waited for that point or a later one (transitive
// reduction through vector clocks).
// program: declaration order where the dependencies allow it; random: a seeded random valid order
// (shakes out missing dependencies); latency: the latency-hiding schedule (docs/frame-graph.md):
// among the ready passes, the one with the longest chain of dependent passes after it first (ties:
// async passes first, then program order), so producers feeding async compute and other long chains start early and
// independent work fills in behind them.
enum class Order : uint8_t { program, random, latency };
struct ScheduleOptions {
  Order order = Order::program;
  uint64_t seed = 1;
};
struct Sync {
  uint32_t signal = 0, wait = 0;  // passes
};
struct Schedule {
  std::vector<uint32_t> serial;    // live passes in submission order
  std::vector<uint32_t> serial_of; // per pass: index in serial (kNone when culled)
  std::vector<uint32_t> pos;       // per pass: index on its queue
  // per pass: for each queue, 1 + the last position on that queue known to be complete before
  // the pass starts (the pass's own queue: its own position + 1). 0 = nothing.
  std::vector<std::array<uint32_t, kQueues>> clock;
  std::vector<Sync> syncs;  // sorted by wait, then signal
  size_t cross_queue_edges = 0;  // before reduction
};
Schedule schedule(const Graph& g, const Validated& v, const CullResult& c, const ScheduleOptions& o = {});
void schedule_into(Schedule& out, const Graph& g, const Validated& v, const CullResult& c,
                   const ScheduleOptions& o = {});
// Whether pass a is complete before pass b starts under every execution the schedule allows.
bool happens_before(const Schedule& s, const Graph& g, uint32_t a, uint32_t b);

// Phase 4: lifetimes (per resource, over live passes).
struct Lifetime {
  uint32_t first = kNone, last = kNone;  // serial indices of the first and last user
  std::array<uint32_t, kQueues> last_pos{};  // per queue: 1 + last position of a user (0 = none)
  // per queue: the smallest clock over the users (what every user knows to be complete)
  std::array<uint32_t, kQueues> min_clock{kNone, kNone, kNone};
  // The first serial index from which every later pass is ordered after all users: memory frees here.
  uint32_t free_at = kNone;
  bool used() const { return first != kNone; }
};
std::vector<Lifetime> lifetimes(const Graph& g, const Schedule& s);
void lifetimes_into(std::vector<Lifetime>& out, const Graph& g, const Schedule& s);

// Phase 5: aliasing. Transient resources placed into one heap by size and 64 KiB alignment
// (best fit over memory freed before the resource's first use).
inline constexpr uint64_t kPlacementAlignment = 64 * 1024;
// Estimated bytes of one member: textures sum width*height*texel_bytes over mips, times layers
// and planes; buffers their size; both rounded up to 64 KiB.
uint64_t estimated_size(const Resource& r);
struct Placement {
  uint32_t resource = 0;
  uint64_t offset = 0, size = 0;  // size of all members together
};
// The resources a takeover follows: up to kInline held inline (almost always one; a few when the placement
// spans several occupants), more in one heap block, set at once by assign() (no growth by steps).
class PreviousOccupants {
 public:
  static constexpr size_t kInline = 3;
  size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  const uint32_t* data() const { return n_ <= kInline ? inline_.data() : heap_.data(); }
  const uint32_t* begin() const { return data(); }
  const uint32_t* end() const { return data() + n_; }
  uint32_t operator[](size_t i) const { return data()[i]; }
  void assign(const uint32_t* values, size_t n) {
    if (n <= kInline) {
      for (size_t i = 0; i < n; ++i) inline_[i] = values[i];
      heap_.clear();
    } else {
      heap_.assign(values, values + n);
    }
    n_ = static_cast<uint32_t>(n);
  }
  void push_back(uint32_t v) {
    if (n_ < kInline) {
      inline_[n_++] = v;
      return;
    }
    if (n_ == kInline) heap_.assign(inline_.begin(), inline_.end());
    heap_.push_back(v);
    ++n_;
  }

 private:
  std::array<uint32_t, kInline> inline_{};
  uint32_t n_ = 0;
  std::vector<uint32_t> heap_;
};
// Ordered by the resource's first barrier (Reason::takeover), whose before side covers the previous
// occupants' last accesses (check_takeover).
struct AliasBarrier {
  uint32_t pass = 0;           // before this pass (the resource's first user)
  uint32_t resource = 0;       // becomes active
  PreviousOccupants previous;  // resources whose memory it takes over, ascending
};
struct AliasingOptions {
  bool enabled = true;
  // Real memory requirements, from a device (the runtime: vkGet*MemoryRequirements,
  // GetResourceAllocationInfo): bytes per graph resource, all members together. Empty = the
  // estimate (offline compile without a device); 0 for a resource = its estimate. Every size is
  // rounded up to `alignment`, so every offset the placement chooses is a multiple of it (pass the
  // largest alignment any transient needs; at least 1).
  std::vector<uint64_t> sizes;
  uint64_t alignment = kPlacementAlignment;
};
struct Aliasing {
  std::vector<Placement> placements;  // transient and used, in order of first use
  std::vector<uint32_t> placement_of; // per resource (kNone when not placed)
  std::vector<AliasBarrier> barriers;
  uint64_t heap_size = 0;    // with aliasing (as configured)
  uint64_t unaliased = 0;    // every transient resource in its own memory
  uint64_t lower_bound = 0;  // the most bytes live at once
};
// `lt` must be lifetimes(g, s): Error names the resource whose lifetime does not fit the schedule (or the
// count, for lifetimes of another graph).
Aliasing alias(const Graph& g, const Schedule& s, const std::vector<Lifetime>& lt, const AliasingOptions& o = {});
void alias_into(Aliasing& out, const Graph& g, const Schedule& s, const std::vector<Lifetime>& lt,
                const AliasingOptions& o = {});

// The aliasing result as the plan's memory (one heap "transients", per member of a placed resource its
// bytes: the members of a set follow each other inside their resource's placement). `member_bytes`:
// per member (first_member order) the bytes it is bound to, from a device; empty: the placement's
// size split evenly between the members (the estimate).
PlanMemory plan_memory(const Graph& g, const Aliasing& a, const std::vector<uint64_t>& member_bytes = {});

// Phase 6: transitions. Every pass becomes one operation of the list of its group; groups are cut at
// waits and signals; resources crossing a group boundary get declared entry states; a transient that
// takes over memory (Aliasing::barriers) gets the previous occupants' last accesses as its takeover
// scope, and every transient dies after its last use (History: ResourceHistory::takeover, dies); the
// core planner then produces the barriers.
struct GroupInfo {
  // frame_start / frame_end: a graphics group of one `transition` list (no pass, no work) that moves
  // textures between their resting state and the state an async compute or copy pass first or last
  // holds them in, where that queue cannot name the resting state (D3D12 legacy's
  // PIXEL_SHADER_RESOURCE on a compute list). Submitted first / last.
  enum class Role : uint8_t { passes, frame_start, frame_end };
  Queue queue = Queue::direct;
  std::span<const uint32_t> passes;  // list i is pass passes[i]; kNone for a frame_start / frame_end list
                                     // (a part of Transitions::list_passes)
  Role role = Role::passes;
  std::vector<uint32_t> waits;   // groups waited for besides the schedule's syncs (frame_start / frame_end)
};
// The list name of a frame_start / frame_end group (also what printers show in place of a pass).
std::string_view transition_list_name(GroupInfo::Role r);
struct Transitions {
  ResourceTable table;  // members expanded; shares its descriptions with the table the phase keeps per thread
  std::vector<ResourceId> first_member;       // per graph resource
  ListStore store;  // every list and group, their operations, uses, entry states, names: one array each
  GroupList groups;  // submission order: views of store.groups (no heap object per group)
  std::vector<GroupInfo> info;
  // Every list's pass in planner order (kNone for the frame_start / frame_end lists), viewed by the
  // groups' GroupInfo::passes: one array, not one per group. A move keeps its storage (and so the views).
  std::vector<uint32_t> list_passes;
  std::vector<CompiledGroup> compiled;
  History history_in, history_out;  // per member: transient members start untouched, others at rest
};
Transitions transitions(const Graph& g, const Schedule& s, const Aliasing& a);
// Also reuses the compiled groups' blocks (compile_all_into) and the list store's arrays.
void transitions_into(Transitions& out, const Graph& g, const Schedule& s, const Aliasing& a);
// How many times transitions() has built a member table (Transitions::table, first_member and the
// frame's starting history) in this thread. It keeps the last one it built, with the resources it was
// built from, and reuses it while the graph's resources compare equal (a graph compiled every frame
// builds it once): the test of that reuse.
uint64_t member_table_builds();

// Phase 7: final states and restores: the barriers that return resources to rest, and where each
// resource ends the frame (a transient where its last use left it: it dies there, no restore).
struct Restore {
  uint32_t group = 0, pass = kNone;
  ResourceId member = 0;
  State from{}, to{};
};
struct FinalStates {
  std::vector<Restore> restores;
  // Per member, by run index (RunOrder, mip-major: a buffer's bytes, a texture's layer + mip * layers +
  // plane * mips * layers), in flat arrays: a member that ends the frame in one state (the usual case)
  // is that state, `state[m]`; the others (split[m] != kNone) are runs of equal states, runs[split[m]]:
  // a member costs what its barriers split it into, not its subresource count, and some mips of many
  // layers are one run per mip. No heap block per member.
  std::vector<State> state;
  std::vector<uint32_t> cells;  // per member: the size of its run index
  std::vector<uint32_t> split;  // per member: kNone (one state), else its index in `runs`
  std::vector<Runs<State>> runs;
  std::vector<RunOrder> order;  // per member
  size_t members() const { return state.size(); }
  // Member m's final state as runs (one run when it ends the frame in one state).
  Runs<State> runs_of(ResourceId m) const {
    return split[m] == kNone ? Runs<State>(cells[m], state[m]) : runs[split[m]];
  }
  // By subresource index (mip + layer * mips + plane * mips * layers).
  const State& at(ResourceId member, uint32_t subresource) const {
    return split[member] == kNone ? state[member] : runs[split[member]].at(order[member].run(subresource));
  }
};
FinalStates final_states(const Transitions& t);
void final_states_into(FinalStates& out, const Transitions& t);

// Phase 8: checks, independent of how the phases computed their results. Each returns the
// findings (empty = holds). Order between passes is the schedule's happens-before (happens_before,
// the vector clocks; the frame_start / frame_end lists add GroupInfo::waits), not the submission
// order: an access that another queue's barrier or write is not ordered against is a finding.
// Every barrier and write is ordered after the earlier uses of its subresources and every use after
// the barrier or write that put them in their state; every use finds a state that holds it.
std::vector<std::string> check_coverage(const Graph& g, const Schedule& s, const Transitions& t);
// Every resource that outlives the frame ends it at rest (in the check's own replay), the barrier that
// leaves it there is ordered after every use of it, and `f` holds that replay's final states (textures).
std::vector<std::string> check_resting(const Graph& g, const Schedule& s, const Transitions& t,
                                       const FinalStates& f);
std::vector<std::string> check_aliasing(const Graph& g, const Schedule& s, const Aliasing& a);
// A resource taking over memory (Aliasing::barriers) opens with a barrier whose before side covers the
// previous occupants' last accesses (sync and access; textures from layout undefined).
std::vector<std::string> check_takeover(const Graph& g, const Schedule& s, const Aliasing& a,
                                        const Transitions& t);
std::vector<std::string> check_serial_order(const Graph& g, const Validated& v, const CullResult& c,
                                            const Schedule& s);

// ---------------------------------------------------------------------------------------------
// The whole pipeline.
struct GraphCompileResult;
// The time each phase of compile_graph_into took, added to `seconds` (steady clock) when
// CompileOptions::phase_times points here: where a frame's compile time goes (bench/graph_bench's
// per-phase table). Mark split barriers, when asked, counts with transitions; the before_checks hook
// with no phase.
struct PhaseTimes {
  static constexpr size_t kPhases = 8;
  static constexpr std::array<std::string_view, kPhases> kNames{
      "validate", "cull", "schedule", "lifetimes", "aliasing", "transitions", "final_states", "checks"};
  std::array<double, kPhases> seconds{};
};
struct CompileOptions {
  ScheduleOptions schedule;
  AliasingOptions aliasing;
  bool run_checks = true;
  // Split barriers (mark_split_barriers) in the compiled groups; off by default (docs/cli.md).
  bool split_barriers = false;
  // Fault injection: called on the phases' results just before the checks run (the checks' tests
  // break a phase here and expect compile_graph to report it). Empty in normal use.
  std::function<void(GraphCompileResult&)> before_checks;
  // When set, each phase's time is added to it (PhaseTimes). Null in normal use: no clock is read.
  PhaseTimes* phase_times = nullptr;
};
struct GraphCompileResult {
  Validated validated;
  CullResult culled;
  Schedule sched;
  std::vector<Lifetime> lifetimes;
  Aliasing aliasing;
  Transitions trans;
  FinalStates finals;
  std::vector<std::string> findings;  // from the checks
};
GraphCompileResult compile_graph(const Graph& g, const CompileOptions& o = {});
// The same compile into `r`, reusing the storage of whatever `r` held (last frame's result: every phase
// through its *_into). The result equals compile_graph(g, o)'s; in steady state (the same graph, or one
// no larger, compiled again into one result) the phases and the planner take no heap block for it. If
// it throws, `r` holds no usable result (its storage is kept for the next call).
void compile_graph_into(GraphCompileResult& r, const Graph& g, const CompileOptions& o = {});
// How many times compile_graph has run in this process (`baton run --format json` reports the
// calls of one run: a frame graph is compiled once, with the device's real memory sizes).
uint64_t compile_graph_calls();
// How many overlap tests of two uses (or of a use and what later uses of one access cover) validate()
// has made in this thread: the test of its cost (never every pair of a pass's uses).
uint64_t validate_overlap_queries();
// Runs every check of phase 8 on the phases' results (what compile_graph does unless run_checks is
// off). Each finding starts with its check's name: "coverage: ", "resting: ", "aliasing: ",
// "takeover: " or "serial-order: ".
std::vector<std::string> check_all(const Graph& g, const GraphCompileResult& r);

// Phase names for --dump.
inline constexpr std::array<std::string_view, 8> kPhases = {"validate",    "cull",        "schedule",
                                                            "lifetimes",   "aliasing",    "transitions",
                                                            "restores",    "checks"};
// Readable text of one phase's result; throws Error for an unknown phase name.
std::string dump(const Graph& g, const GraphCompileResult& r, std::string_view phase);

// Memory and barrier numbers for a compiled graph.
struct Numbers {
  uint64_t transient_unaliased = 0, transient_aliased = 0, lower_bound = 0;
  size_t aliasing_barriers = 0, syncs = 0, groups = 0;
  struct PerApi {
    Api api;
    size_t barriers = 0, calls = 0;
    std::string error;  // the plan cannot be lowered for this API (then no counts); the others still count
  };
  std::vector<PerApi> apis;
};
Numbers numbers(const Graph& g, const GraphCompileResult& r);
// The same where the planner's part lives elsewhere (a compiled frame's recording: `table`, `compiled`),
// with the lowering for `lowered_api` already made by the caller (`lowered`): each API is lowered once.
// Every API lowers from `history_in` (lower()'s history form: D3D12 legacy from the resting states).
Numbers numbers(const Graph& g, const GraphCompileResult& r, const ResourceTable& table,
                std::span<const CompiledGroup> compiled, const History& history_in, std::optional<Api> lowered_api,
                std::span<const LoweredGroup> lowered);
std::string numbers_text(const Numbers& n);

// ---------------------------------------------------------------------------------------------
// JSON (docs/graph-format.md, docs/graph.schema.json).
// A graph file has "passes"; a recording has "groups".
bool is_graph_json(const nlohmann::json& j);
// Throws Error with one line naming the JSON path, pass and resource.
Graph load_graph(const nlohmann::json& j, std::string_view source = "<input>");
Graph load_graph_text(std::string_view text, std::string_view source = "<input>");
// Reads `path` through the input gate (input::read; "-" is standard input).
Graph load_graph_file(const std::string& path);

// The text printer of `baton compile GRAPH`: the lowered plan per group and pass, then the numbers.
// The compiled frame (include/baton/frame.hpp) calls the second form: its recording holds the table
// (`table`) and `lowered` is its one lowering for `api`; `n` comes from the numbers above.
std::string plan_text(const Graph& g, const GraphCompileResult& r, Api api);
std::string plan_text(const Graph& g, const GraphCompileResult& r, const ResourceTable& table, Api api,
                      std::span<const LoweredGroup> lowered, const Numbers& n);
// Per group of the compiled graph: the passes its first pass waits for, the groups it waits for besides
// (frame_start / frame_end), and whether it signals (a later pass or group waits for it). The JSON
// plan (`baton compile --format json`) prints these.
struct GraphPlanInfo {
  std::vector<std::string> waits;
  std::vector<uint32_t> wait_groups;
  bool signal = false;
};
GraphPlanInfo plan_info(const Graph& g, const GraphCompileResult& r, size_t group);

}  // namespace baton::graph
