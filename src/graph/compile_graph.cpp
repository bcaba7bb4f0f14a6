// The whole pipeline, and the numbers people ask for (memory, barriers, API calls per backend).
#include <fmt/format.h>

#include <atomic>
#include <chrono>

#include "baton/graph.hpp"

namespace baton::graph {
namespace {
std::atomic<uint64_t> g_compiles{0};
}  // namespace

uint64_t compile_graph_calls() { return g_compiles.load(std::memory_order_relaxed); }

GraphCompileResult compile_graph(const Graph& g, const CompileOptions& o) {
  GraphCompileResult r;
  compile_graph_into(r, g, o);
  return r;
}

namespace {
// Adds the time since the last lap to phase i of `times`, when asked for (no clock is read otherwise).
class PhaseClock {
 public:
  explicit PhaseClock(PhaseTimes* times) : times_(times) { restart(); }
  void lap(size_t phase) {
    if (!times_) return;
    const auto now = std::chrono::steady_clock::now();
    times_->seconds[phase] += std::chrono::duration<double>(now - last_).count();
    last_ = now;
  }
  void restart() {
    if (times_) last_ = std::chrono::steady_clock::now();
  }

 private:
  PhaseTimes* times_;
  std::chrono::steady_clock::time_point last_{};
};
}  // namespace

void compile_graph_into(GraphCompileResult& r, const Graph& g, const CompileOptions& o) {
  g_compiles.fetch_add(1, std::memory_order_relaxed);
  PhaseClock clock(o.phase_times);
  r.findings.clear();
  validate_into(r.validated, g);
  clock.lap(0);
  cull_into(r.culled, g, r.validated);
  clock.lap(1);
  schedule_into(r.sched, g, r.validated, r.culled, o.schedule);
  clock.lap(2);
  lifetimes_into(r.lifetimes, g, r.sched);
  clock.lap(3);
  alias_into(r.aliasing, g, r.sched, r.lifetimes, o.aliasing);
  clock.lap(4);
  transitions_into(r.trans, g, r.sched, r.aliasing);
  if (o.split_barriers) {
    for (size_t gi = 0; gi < r.trans.groups.size() && gi < r.trans.compiled.size(); ++gi)
      mark_split_barriers(*r.trans.groups[gi], r.trans.compiled[gi]);
  }
  clock.lap(5);
  final_states_into(r.finals, r.trans);
  clock.lap(6);
  if (o.before_checks) o.before_checks(r);  // the fault-injection hook: no phase's time
  clock.restart();
  if (o.run_checks) r.findings = check_all(g, r);
  clock.lap(7);
}

Numbers numbers(const Graph&, const GraphCompileResult& r, const ResourceTable& table,
                std::span<const CompiledGroup> compiled, const History& history_in, std::optional<Api> lowered_api,
                std::span<const LoweredGroup> lowered) {
  Numbers n;
  n.transient_unaliased = r.aliasing.unaliased;
  n.transient_aliased = r.aliasing.heap_size;
  n.lower_bound = r.aliasing.lower_bound;
  n.aliasing_barriers = r.aliasing.barriers.size();
  n.syncs = r.sched.syncs.size();
  n.groups = compiled.size();
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) {
    Numbers::PerApi x{api, 0, 0, {}};
    auto count = [&x](std::span<const LoweredGroup> groups) {
      for (const LoweredGroup& lg : groups) {
        x.barriers += lg.barrier_count();
        x.calls += lg.call_count();
      }
    };
    try {
      if (lowered_api == api)
        count(lowered);  // lowered once, by the caller that prints it
      else
        count(lower(api, table, compiled, history_in));
    } catch (const Error& e) {
      x.error = e.what();
    }
    n.apis.push_back(x);
  }
  return n;
}

Numbers numbers(const Graph& g, const GraphCompileResult& r) {
  return numbers(g, r, r.trans.table, r.trans.compiled, r.trans.history_in, std::nullopt, {});
}

std::string numbers_text(const Numbers& n) {
  auto mib = [](uint64_t b) { return static_cast<double>(b) / (1024.0 * 1024.0); };
  std::string s;
  s += fmt::format("transient memory: {:.2f} MiB without aliasing, {:.2f} MiB with aliasing, lower bound {:.2f} MiB "
                   "(most bytes live at once; aliased/bound = {:.3f})\n",
                   mib(n.transient_unaliased), mib(n.transient_aliased), mib(n.lower_bound),
                   n.lower_bound ? static_cast<double>(n.transient_aliased) / static_cast<double>(n.lower_bound) : 1.0);
  s += fmt::format(
      "groups: {}, signal/wait pairs: {}, aliasing barriers: {} (memory takeovers, each ordered by the "
      "taking resource's first barrier)\n",
      n.groups, n.syncs, n.aliasing_barriers);
  for (const Numbers::PerApi& a : n.apis) {
    if (!a.error.empty())
      s += fmt::format("{:<13} cannot be lowered: {}\n", to_string(a.api), a.error);
    else
      s += fmt::format("{:<13} {} barriers in {} API calls (takeovers included)\n", to_string(a.api),
                       a.barriers, a.calls);
  }
  return s;
}

}  // namespace baton::graph
