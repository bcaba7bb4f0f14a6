// Documented differences of layer 1.3.239 found by the differential run with dynamic rendering in the
// generator (docs/replay.md, D9 and D4): each stream is judged by Baton's validator and played on
// lavapipe, and both verdicts are pinned, so a test fails when a layer stops doing it.
#ifdef BATON_HAVE_TRACE_PLAYER

#include <gtest/gtest.h>

#include "baton/trace_player.hpp"
#include "baton/validate.hpp"
#include "differential.hpp"
#include "exec_fixture.hpp"

namespace baton::exec::test {
namespace {

struct Both {
  uint32_t validator = 0, layer = 0;
  std::string layer_text;
};
Both judge(const std::string& json) {
  const validate::Trace t = validate::load_trace(json, "t");
  TracePlayer player(lavapipe());
  const ReplayReport r = player.play(t);
  Both b{kinds_of(validate::validate(t)), kinds_of(r.log), {}};
  for (const auto& [id, text] : r.log.texts) b.layer_text += id + ": " + text.substr(0, 400) + "\n";
  return b;
}

// A compute write of image `r`, `between` (commands), then a transition to TRANSFER_DST_OPTIMAL whose first
// scope is COMPUTE_SHADER with source access `src_access`, then a copy into it.
std::string write_then_transition(const std::string& between, const std::string& src_access) {
  return R"({"api":"vulkan","resources":[{"name":"r","type":"texture"}],"lists":[{"name":"L","commands":[
    {"barrier":[{"type":"image","resource":"r","src_stage":"NONE","dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_WRITE","old_layout":"UNDEFINED","new_layout":"GENERAL"}]},
    {"use":{"resource":"r","subresource":0,"as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_WRITE","layout":"GENERAL"}}},)" +
         between + R"(
    {"barrier":[{"type":"image","resource":"r","src_stage":"COMPUTE_SHADER","src_access":")" +
         src_access +
         R"(","dst_stage":"COPY","dst_access":"TRANSFER_WRITE","old_layout":"GENERAL","new_layout":"TRANSFER_DST_OPTIMAL"}]},
    {"use":{"resource":"r","subresource":0,"as":{"stage":"COPY","access":"TRANSFER_WRITE","layout":"TRANSFER_DST_OPTIMAL"}}}]}],
    "submissions":[{"queue":"g","lists":["L"]}]})";
}
const std::string kMadeAvailable =
    R"({"barrier":[{"type":"image","resource":"r","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_WRITE","dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_SAMPLED_READ","old_layout":"GENERAL","new_layout":"GENERAL"}]},)";

// D4 (seed 12351 of the one-submission run with rendering, reduced): the write is made available and
// chained to COMPUTE_SHADER by the first barrier; the transition's first execution scope (COMPUTE_SHADER)
// chains with it, so by the spec ("Execution Dependencies": dependency chains; "Image Layout
// Transitions": after the availability operations) it is ordered after the write. Layer 1.3.239 judges
// the transition by its own source access scope only: write-after-write.
TEST(LayerDifferences, DocumentedDifferenceD4TransitionChainedByAnEarlierBarrier) {
  const Both chained = judge(write_then_transition(kMadeAvailable, "NONE"));
  EXPECT_EQ(chained.validator, 0u);
  EXPECT_EQ(chained.layer, uint32_t{kWaw}) << chained.layer_text;
  // Naming the write in the transition's own source access scope: both clean.
  const Both named = judge(write_then_transition(kMadeAvailable, "SHADER_STORAGE_WRITE"));
  EXPECT_EQ(named.validator, 0u);
  EXPECT_EQ(named.layer, 0u) << named.layer_text;
  // With no barrier in between both report the write-after-write (the layer's check is live).
  const Both unordered = judge(write_then_transition("", "NONE"));
  EXPECT_EQ(unordered.validator, uint32_t{kWaw});
  EXPECT_EQ(unordered.layer, uint32_t{kWaw}) << unordered.layer_text;
}

// D9, the attachment's layout (seeds 81 and 93 of the same run): vkCmdBeginRendering with a color
// attachment whose imageLayout (GENERAL) is not the image's (UNDEFINED). Baton: the use of a layout
// the image is not in (UNASSIGNED-CoreValidation-DrawState-InvalidImageLayout); layer 1.3.239: nothing.
TEST(LayerDifferences, DocumentedDifferenceD9AttachmentLayoutNotChecked) {
  const Both b =
      judge(R"({"api":"vulkan","resources":[{"name":"rt","type":"texture"}],"lists":[{"name":"L","commands":[
    {"begin_rendering":{"color":[{"resource":"rt","subresource":0,"layout":"GENERAL","load":"CLEAR","store":"STORE"}]}},
    {"end_rendering":{}}]}],"submissions":[{"queue":"g","lists":["L"]}]})");
  EXPECT_EQ(b.validator, uint32_t{kLayout});
  EXPECT_EQ(b.layer, 0u) << b.layer_text;
}

}  // namespace
}  // namespace baton::exec::test

#endif  // BATON_HAVE_TRACE_PLAYER
