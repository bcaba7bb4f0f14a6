// External renderer hand-off on D3D12: Baton exports a texture in a declared state, another
// renderer (seeded with its own idea of the state) issues its own barriers and leaves the texture
// in COMMON, Baton imports it in a declared state. Exact states pinned; zero validation messages
// both ways; the next Baton pass reads what the other renderer wrote.
#include "d3d12_fixture.hpp"

namespace baton::d3d12::test {
namespace {

// Shared as a swapchain-like texture, the overlay's resting state PRESENT is the export declaration
// (the state every Baton group leaves it in) and the entry of list "consume" the import
// declaration (it arrives in PRESENT == COMMON). Otherwise it rests in shader-resource state and
// the import is the real state handed to the lowering (Baton's vocabulary has no COMMON access to
// declare as an entry for a texture that is not a swapchain's).
std::string handoff_json(bool swapchain) {
  return std::string(R"({
  "resources": [
    {"name": "overlay", "type": "texture", "width": 64, "height": 64,
     "usage": ["render_target", "copy_source", "shader_resource"])") +
         (swapchain ? R"(, "swapchain": true)" : "") + std::string(R"(},
    {"name": "out", "type": "buffer", "size": 4096, "usage": ["copy_dest"]}
  ],
  "groups": [
    {"name": "before", "queue": "direct", "lists": [{"name": "prepare", "ops": [
      {"kind": "clear", "label": "baton draws first", "uses": [{"resource": "overlay", "access": "render_target"}]}]}]},
    {"name": "after", "queue": "direct", "lists": [{"name": "consume",)") +
         (swapchain ? R"("entry": [{"resource": "overlay", "access": "present"}],)" : "") + std::string(R"(
      "ops": [
      {"kind": "copy", "label": "read the overlay", "uses": [
        {"resource": "overlay", "access": "copy_source"}, {"resource": "out", "access": "copy_dest"}]}]}]}
  ]
})");
}

struct Handoff {
  PlainPlan before, after;
  LegacyStates exported;  // the real states Baton left after group "before"
  D3D12RunResult result;
  std::vector<PlainBarrier> renderer_barriers;
  uint32_t renderer_final = 0;
};

// Runs before -> renderer -> after in one session. `seed` is the renderer's initial tracked state;
// nullopt: seed it from what Baton really exported.
Handoff run_handoff(bool swapchain, std::optional<uint32_t> seed) {
  const Recording rec = load_recording(handoff_json(swapchain), "handoff");
  const ResourceId overlay = *rec.resources.find("overlay");
  const std::vector<CommandListGroup*> groups = rec.group_ptrs();
  const CompileResult c = compile_all(rec.resources, groups, fresh_history(rec.resources));
  Handoff h;
  h.before = legacy_plan(rec.resources, std::span(c.groups).subspan(0, 1));
  h.exported = h.before.final_states;
  Device& device = shared_device();
  device.take_messages();
  {
    Session session(device, rec);
    session.execute(0, h.before.groups[0]);
    ExternalRenderer renderer(seed ? *seed : state_at(h.exported, overlay, 0));
    renderer.render(session, overlay, 4242);
    h.renderer_barriers = renderer.issued();
    h.renderer_final = renderer.tracked_state();
    // Import: the lowering continues from the states the other renderer really left.
    LegacyStates arrived = h.exported;
    arrived.resize(rec.resources.size());
    arrived[overlay].assign(1, renderer.tracked_state());
    h.after = legacy_plan(rec.resources, std::span(c.groups).subspan(1, 1), &arrived);
    session.execute(1, h.after.groups[0]);
    session.finish(h.after.final_states, h.result);
  }
  h.result.validation = device.take_messages();
  return h;
}

PlainBarrier whole(ResourceId r, uint32_t before, uint32_t after) {
  return PlainBarrier{BarrierKind::transition, r, kAllSubresources, before, after};
}

// Reconcile by decay: Baton exports the overlay in PRESENT (== COMMON), which is exactly what the
// renderer's PRESENT-seeded tracking assumes.
TEST(D3D12Handoff, ExportPresentMatchesPresentSeededRenderer) {
  const Handoff h = run_handoff(true, std::nullopt);
  const ResourceId overlay = 0;
  // Export: Baton's last barrier in "before" takes the overlay from RENDER_TARGET to PRESENT.
  const PlainPoint& last = h.before.groups[0].lists[0].points.back();
  ASSERT_FALSE(last.barriers.empty());
  EXPECT_EQ(last.barriers.back(), whole(overlay, state::render_target, state::present));
  EXPECT_EQ(state_at(h.exported, overlay, 0), state::present);
  // The renderer: PRESENT -> RENDER_TARGET, its clear, RENDER_TARGET -> COMMON.
  EXPECT_EQ(h.renderer_barriers, (std::vector<PlainBarrier>{whole(overlay, state::present, state::render_target),
                                                            whole(overlay, state::render_target, state::common)}));
  EXPECT_EQ(h.renderer_final, state::common);
  // Import: arriving in COMMON, the copy read is an implicit promotion: no barrier before op 0.
  for (const PlainPoint& p : h.after.groups[0].lists[0].points) {
    if (p.op != 0 || p.where != Where::before) continue;
    for (const PlainBarrier& b : p.barriers) EXPECT_NE(b.resource, overlay);
  }
  EXPECT_TRUE(h.result.clean()) << describe(h.result);
  EXPECT_GE(h.result.subresources_checked, 2u) << describe(h.result);
}

// Reconcile by seeding: Baton's overlay rests in shader-resource state; the renderer is told that
// instead of assuming PRESENT.
TEST(D3D12Handoff, RendererSeededWithTheExportedState) {
  const Handoff h = run_handoff(false, std::nullopt);
  const ResourceId overlay = 0;
  const uint32_t srv = state::pixel_shader_resource | state::non_pixel_shader_resource;
  EXPECT_EQ(state_at(h.exported, overlay, 0), srv);
  EXPECT_EQ(h.renderer_barriers, (std::vector<PlainBarrier>{whole(overlay, srv, state::render_target),
                                                            whole(overlay, state::render_target, state::common)}));
  EXPECT_TRUE(h.result.clean()) << describe(h.result);
}

// The oracle sees a hand-off mistake: the renderer assumes PRESENT while the texture really is in
// shader-resource state.
TEST(D3D12Handoff, WrongSeedIsReported) {
  const Handoff h = run_handoff(false, state::present);
  EXPECT_FALSE(h.result.validation.empty()) << describe(h.result);
}

}  // namespace
}  // namespace baton::d3d12::test
