// D3D12 legacy decay at the end of an ExecuteCommandLists call (REFERENCE.md; Microsoft's "Implicit
// state transitions": decay applies to the resources that call accessed). The lowering once decayed,
// at a copy group's end, every resource touched since the last copy group (and every resource given
// an initial state), so a direct group's explicit transitions, and textures resting in a read state,
// were lost after an async upload: its plan was rejected with #538/#527.
#include <gtest/gtest.h>

#include <baton/validate.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "../graph/random_graph.hpp"
#include "baton/frame.hpp"
#include "baton/validated_compile.hpp"

namespace baton {
namespace {

validate::ValidationResult validate_plan(const CompiledFrame& f, Api api) {
  return validate::validate(validate::load_trace(trace_of(f, api), "plan"));
}

// examples/copy_graph.json with its upload on the async copy queue: the copy group runs first and
// touches only staging and scratch_a; history, resting in a shader-read state, keeps it.
TEST(LegacyDecay, ACopyGroupDecaysOnlyWhatItUsed) {
  std::ifstream in(std::string(BATON_SOURCE_DIR) + "/examples/copy_graph.json");
  nlohmann::json g = nlohmann::json::parse(in);
  ASSERT_EQ(g["passes"][0]["name"], "upload");
  g["passes"][0]["async"] = true;
  const CompiledFrame f = compile_frame(parse_frame_input(g.dump(), "copy_graph_async.json"));
  ASSERT_TRUE(f.findings.empty());
  ASSERT_EQ(f.compiled.size(), 2u);
  EXPECT_EQ(f.compiled[0].queue, Queue::copy);
  for (Api api : {Api::d3d12_legacy, Api::d3d12, Api::vulkan}) {
    const validate::ValidationResult v = validate_plan(f, api);
    EXPECT_TRUE(v.clean()) << to_string(api) << "\n" << validate::to_text(v);
  }
}

// Generated graphs (tests/graph/random_graph.hpp: async compute and copy queues, buffers and
// textures, 40 seeds): the legacy plan of every one validates clean, as the other APIs' do. 9 of 40
// were #538/#527 after the decay fix above, for another reason: a buffer handed on in a read state
// decays to COMMON at its group's end; the next group's first lists read it with no barrier (their
// entry state is that read), which promotes it; a later list's write has a barrier with reason
// entry_state, and the lowering, which sees barriers but not uses, kept the buffer in COMMON and
// omitted the transition to UNORDERED_ACCESS as a promotion (seed 1: r0 in graphics#1, lists p1..p3).
// The planner now says so (Barrier::before_used). BATON_DUMP_SEED=1 prints a failing seed's trace.
TEST(LegacyDecay, GeneratedGraphsGiveCleanLegacyPlans) {
  size_t unclean = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    FrameInput in;
    in.source = "seed " + std::to_string(seed);
    in.graph = graph::test::random_graph(seed, 10 + static_cast<uint32_t>(seed % 7) * 5);
    const CompiledFrame f = compile_frame(std::move(in));
    const validate::ValidationResult v = validate_plan(f, Api::d3d12_legacy);
    unclean += !v.clean();
    if (!v.clean() && std::getenv("BATON_DUMP_SEED")) std::printf("%s\n", trace_of(f, Api::d3d12_legacy).c_str());
    EXPECT_TRUE(v.clean()) << "seed " << seed << "\n" << validate::to_text(v);
  }
  std::printf("generated graphs: %zu of 40 legacy plans with validator errors\n", unclean);
}

}  // namespace
}  // namespace baton
