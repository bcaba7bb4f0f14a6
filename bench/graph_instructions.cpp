// One steady-state compile of a generated graph or recording, for instruction counts under callgrind
// (deterministic where timings on a shared machine are not; docs/benchmarks.md, "Instruction counts"):
//
//   valgrind --tool=callgrind --instr-atstart=no build/default/bench/graph_instructions chain 1000
//
// FAMILY: chain, layered (bench/graph_workloads.hpp: compile_graph, every phase and check), example
// (examples/deferred.json), core_deferred, core_random (bench/core_workloads.hpp: plan + compile of
// every group). One warm-up compile runs first; only the measured ones (REPS, default 1) run with
// callgrind's instrumentation on. Without valgrind it just compiles (the requests are no-ops). MODE (graph
// families): `fresh` (default) compiles a new result each time (compile_graph, the previous one freed, as
// graph_bench's BM_Graph*), `reuse` compiles into the previous frame's result (compile_graph_into: the
// steady state of a frame graph compiled every frame, as BM_Graph*Reuse).
//
// Run without valgrind, it also prints the measured compiles' CPU time per compile and this core's clock
// rate (a chain of dependent multiplications, 3 cycles each; x86-64 only), from which
// scripts/instruction-budget.sh turns each time target of issue 16 into instructions per cycle and an
// instruction budget.
#include <time.h>
#include <valgrind/callgrind.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core_workloads.hpp"
#include "graph_workloads.hpp"

namespace {

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

// Prints the CPU time per measured compile and the core clock, when not under valgrind (whose times
// mean nothing). The clock: 4 x 2^26 multiplications, each waiting for the one before, timed in CPU time.
// A 64-bit multiplication takes 3 cycles on every x86-64 core of the last decade (AMD Zen, Intel since
// Nehalem). A chain of additions of an immediate would not do: on the device machine's Intel Xeon it
// read 11.8 GHz (that core does not wait a cycle per such addition). A clock outside 0.5-7 GHz is reported
// as not measured.
void print_times(double seconds, int reps) {
  if (RUNNING_ON_VALGRIND || reps <= 0) return;
  std::printf("cpu_us_per_compile %.4f\n", seconds * 1e6 / reps);
#if defined(__x86_64__)
  uint64_t x = 1;
  constexpr uint64_t kIterations = uint64_t{1} << 26;
  const double t0 = cpu_seconds();
  for (uint64_t i = 0; i < kIterations; ++i)
    asm volatile("imul $3, %0, %0\n\timul $3, %0, %0\n\timul $3, %0, %0\n\timul $3, %0, %0" : "+r"(x));
  const double t1 = cpu_seconds();
  const double ghz = t1 > t0 ? 12.0 * static_cast<double>(kIterations) / (t1 - t0) * 1e-9 : 0.0;
  if (ghz >= 0.5 && ghz <= 7.0)
    std::printf("clock_ghz %.4f\n", ghz);
  else
    std::printf("clock not measured: %.2f GHz from the multiplication chain is not a core clock\n", ghz);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  using namespace baton;
  if (argc < 3) {
    std::fprintf(stderr, "usage: graph_instructions chain|layered|example|core_deferred|core_random N [REPS [fresh|reuse]]\n");
    return 2;
  }
  const std::string family = argv[1];
  const size_t n = std::strtoul(argv[2], nullptr, 10);
  const int reps = argc > 3 ? std::atoi(argv[3]) : 1;
  const std::string mode = argc > 4 ? argv[4] : "fresh";
  if (mode != "fresh" && mode != "reuse") {
    std::fprintf(stderr, "unknown mode '%s' (fresh or reuse)\n", mode.c_str());
    return 2;
  }
  const bool reuse = mode == "reuse";
  if (family == "core_deferred" || family == "core_random") {
    const auto w = family == "core_deferred" ? bench::deferred(n / 20) : bench::random_workload(n);
    auto once = [&] {
      const Plan p = plan(w->rt, w->ptrs, fresh_history(w->rt));
      size_t barriers = 0;
      for (size_t i = 0; i < w->ptrs.size(); ++i) barriers += compile(w->rt, *w->ptrs[i], p.groups[i]).barrier_count();
      return barriers;
    };
    size_t barriers = once();
    const double t0 = cpu_seconds();
    CALLGRIND_START_INSTRUMENTATION;
    for (int i = 0; i < reps; ++i) barriers = once();
    CALLGRIND_STOP_INSTRUMENTATION;
    const double t1 = cpu_seconds();
    std::printf("%s %zu: %zu uses, %zu barriers\n", family.c_str(), n, w->uses, barriers);
    print_times(t1 - t0, reps);
    return 0;
  }
  graph::Graph g;
  if (family == "chain")
    g = bench::graph_chain(n);
  else if (family == "layered")
    g = bench::graph_layered(n);
  else if (family == "example")
    g = graph::load_graph_file(BATON_SOURCE_DIR "/examples/deferred.json");
  else {
    std::fprintf(stderr, "unknown family '%s'\n", family.c_str());
    return 2;
  }
  graph::GraphCompileResult r = graph::compile_graph(g);
  const double t0 = cpu_seconds();
  CALLGRIND_START_INSTRUMENTATION;
  for (int i = 0; i < reps; ++i) {
    if (reuse)
      graph::compile_graph_into(r, g);  // the steady state of a frame compiled every frame into one result
    else
      r = graph::compile_graph(g);  // as graph_bench: the previous result freed here
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  const double t1 = cpu_seconds();
  if (!r.findings.empty()) {
    std::fprintf(stderr, "%s\n", r.findings.front().c_str());
    return 1;
  }
  size_t uses = 0;
  for (const graph::Pass& p : g.passes) uses += p.uses.size();
  std::printf("%s %zu: %zu passes, %zu uses, %zu groups\n", family.c_str(), n, g.passes.size(), uses,
              r.trans.groups.size());
  print_times(t1 - t0, reps);
  return 0;
}
