// libFuzzer target: the frame-graph loader (src/graph/load_graph.cpp) and every graph phase on
// whatever it accepts (validate, cull, schedule, lifetimes, aliasing, transitions, restores, checks).
#include "baton/graph.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return baton::fuzz::run_one(data, size, [](std::string_view text) {
    const baton::graph::Graph g = baton::graph::load_graph_text(text, "fuzz");
    // Inputs the fuzzer makes can declare huge resources; the memory estimate must still not
    // crash, and the phases must either accept the graph or throw baton::Error.
    const baton::graph::GraphCompileResult r = baton::graph::compile_graph(g);
    for (std::string_view phase : baton::graph::kPhases) (void)baton::graph::dump(g, r, phase);
  });
}
