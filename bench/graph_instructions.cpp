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
#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core_workloads.hpp"
#include "graph_workloads.hpp"

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
    CALLGRIND_START_INSTRUMENTATION;
    for (int i = 0; i < reps; ++i) barriers = once();
    CALLGRIND_STOP_INSTRUMENTATION;
    std::printf("%s %zu: %zu uses, %zu barriers\n", family.c_str(), n, w->uses, barriers);
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
  CALLGRIND_START_INSTRUMENTATION;
  for (int i = 0; i < reps; ++i) {
    if (reuse)
      graph::compile_graph_into(r, g);  // the steady state of a frame compiled every frame into one result
    else
      r = graph::compile_graph(g);  // as graph_bench: the previous result freed here
  }
  CALLGRIND_STOP_INSTRUMENTATION;
  if (!r.findings.empty()) {
    std::fprintf(stderr, "%s\n", r.findings.front().c_str());
    return 1;
  }
  std::printf("%s %zu: %zu passes, %zu groups\n", family.c_str(), n, g.passes.size(), r.trans.groups.size());
  return 0;
}
