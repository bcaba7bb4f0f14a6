// D3D12 legacy lowering: implicit promotion and decay make some barriers unnecessary; they stay in
// the view as omitted, and later barriers start from the real (tracked) state.
#include <gtest/gtest.h>

#include "baton/lower_d3d12.hpp"
#include "baton/rules.hpp"
#include "helpers.hpp"

namespace baton {
namespace {

using test::barrier;
using test::use;

const LoweredBarrier& only(const std::vector<LoweredGroup>& v, size_t g = 0, size_t p = 0) {
  return v.at(g).lists.at(0).points.at(p).barriers.at(0);
}

TEST(LowerLegacy, BufferFirstUseIsPromotedFromCommonAndOmitted) {
  ResourceTable t;
  const ResourceId b = t.add(test::buffer("particles"));
  const State uav = use(t[b], Access::unordered_access, stages(Stage::compute));
  const State srv = use(t[b], Access::shader_resource, stages(Stage::compute));
  std::vector<CompiledGroup> gs;
  gs.push_back(test::group("frame", Queue::direct,
                           {test::list("sim", Queue::direct,
                                       {{0, Where::before, {barrier(t, b, resting_state(t[b]), uav, Reason::from_rest)}},
                                        {1, Where::before, {barrier(t, b, uav, srv, Reason::state_change)}}})}));
  const auto view = lower(Api::d3d12_legacy, t, gs);
  const LoweredBarrier& first = only(view);
  EXPECT_TRUE(first.omitted);
  EXPECT_EQ(first.omitted_why, "implicit promotion from COMMON");
  EXPECT_EQ(first.before, "COMMON");
  EXPECT_EQ(first.after, "UNORDERED_ACCESS");
  const LoweredBarrier& second = only(view, 0, 1);
  EXPECT_FALSE(second.omitted);
  EXPECT_EQ(second.before, "UNORDERED_ACCESS");
  EXPECT_EQ(second.after, "NON_PIXEL_SHADER_RESOURCE");
  EXPECT_EQ(view[0].barrier_count(), 1u);
  EXPECT_EQ(view[0].call_count(), 1u);

  const D3D12LegacyPlan plan = lower_d3d12_legacy(t, gs);
  ASSERT_EQ(plan.groups[0].lists[0].points.size(), 1u);  // the promoted point needs no call
  const D3D12LegacyPoint& p = plan.groups[0].lists[0].points[0];
  EXPECT_EQ(p.op, 1u);
  ASSERT_EQ(p.barriers.size(), 1u);
  EXPECT_EQ(p.barriers[0].Type, D3D12_RESOURCE_BARRIER_TYPE_TRANSITION);
  EXPECT_EQ(p.barriers[0].Transition.StateBefore, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
  EXPECT_EQ(p.barriers[0].Transition.StateAfter, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
  EXPECT_EQ(p.barriers[0].Transition.Subresource, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES);
  EXPECT_EQ(p.barriers[0].Transition.pResource, nullptr);
  EXPECT_EQ(p.resources, std::vector<ResourceId>{b});
}

// A buffer's first-ever touch needs no neutral barrier, so the legacy pass never sees the use that
// implicitly promoted it; the next barrier's before-state (produced inside the group) tells it, and the
// change of use out of that promoted write state must be an explicit transition (found by the validator
// on the demo: particles promoted to UNORDERED_ACCESS, then read as vertex buffer).
TEST(LowerLegacy, UnseenPromotionToAWriteStateNeedsAnExplicitTransitionAfterIt) {
  ResourceTable t;
  const ResourceId b = t.add(test::buffer("particles"));
  const State uav = use(t[b], Access::unordered_access, stages(Stage::compute));
  const State vb = use(t[b], Access::vertex_buffer);
  std::vector<CompiledGroup> gs;
  gs.push_back(test::group("frame", Queue::direct,
                           {test::list("draw", Queue::direct,
                                       {{1, Where::before, {barrier(t, b, uav, vb, Reason::state_change)}}})}));
  const auto view = lower(Api::d3d12_legacy, t, gs);
  const LoweredBarrier& x = only(view);
  EXPECT_FALSE(x.omitted) << x.omitted_why;
  EXPECT_EQ(x.before, "UNORDERED_ACCESS");
  EXPECT_EQ(x.after, "VERTEX_AND_CONSTANT_BUFFER");
}

TEST(LowerLegacy, BufferDecaysToCommonBetweenGroups) {
  ResourceTable t;
  const ResourceId b = t.add(test::buffer("args"));
  const State uav = use(t[b], Access::unordered_access, stages(Stage::compute));
  const State args = use(t[b], Access::indirect_argument);
  std::vector<CompiledGroup> gs;
  // Group 1 leaves it explicitly in INDIRECT_ARGUMENT; buffers decay anyway.
  gs.push_back(test::group("a", Queue::direct,
                           {test::list("l", Queue::direct,
                                       {{0, Where::before, {barrier(t, b, resting_state(t[b]), uav, Reason::from_rest)}},
                                        {1, Where::before, {barrier(t, b, uav, args, Reason::state_change)}}})}));
  gs.push_back(test::group("b", Queue::direct,
                           {test::list("l2", Queue::direct,
                                       {{0, Where::before, {barrier(t, b, resting_state(t[b]), uav, Reason::from_rest)}}})}));
  const auto view = lower(Api::d3d12_legacy, t, gs);
  const LoweredBarrier& again = only(view, 1);
  EXPECT_TRUE(again.omitted);
  EXPECT_EQ(again.before, "COMMON");
}

TEST(LowerLegacy, TextureShaderReadIsPromotedThenDecaysSoTheNextGroupStartsFromCommon) {
  ResourceTable t;
  const ResourceId tex = t.add(test::texture("albedo", bit(Access::shader_resource) | bit(Access::render_target)));
  const State srv = use(t[tex], Access::shader_resource, stages(Stage::pixel));
  const State rt = use(t[tex], Access::render_target);
  std::vector<CompiledGroup> gs;
  gs.push_back(test::single_group(Queue::direct, {barrier(t, tex, kFirstTouch, srv, Reason::first_touch)}));
  gs.push_back(test::group("next", Queue::direct,
                           {test::list("l", Queue::direct,
                                       {{2, Where::before, {barrier(t, tex, resting_state(t[tex]), rt, Reason::from_rest)}}})}));
  const auto view = lower(Api::d3d12_legacy, t, gs);
  EXPECT_TRUE(only(view, 0).omitted);
  EXPECT_EQ(only(view, 0).omitted_why, "implicit promotion from COMMON");
  const LoweredBarrier& next = only(view, 1);
  EXPECT_FALSE(next.omitted);
  EXPECT_EQ(next.before, "COMMON");  // decayed: it was only promoted to a read state
  EXPECT_EQ(next.after, "RENDER_TARGET");
  const D3D12LegacyPlan plan = lower_d3d12_legacy(t, gs);
  EXPECT_TRUE(plan.groups[0].lists[0].points.empty());
  EXPECT_EQ(plan.groups[1].lists[0].points.at(0).barriers.at(0).Transition.StateBefore, D3D12_RESOURCE_STATE_COMMON);
}

TEST(LowerLegacy, TexturePromotedToCopyDestOnDirectQueueDoesNotDecay) {
  ResourceTable t;
  const ResourceId tex = t.add(test::texture("lut", bit(Access::shader_resource) | bit(Access::copy_dest)));
  const State cd = use(t[tex], Access::copy_dest);
  const State srv = use(t[tex], Access::shader_resource, kAllShading);
  std::vector<CompiledGroup> gs;
  gs.push_back(test::single_group(Queue::direct, {barrier(t, tex, kFirstTouch, cd, Reason::first_touch)}));
  gs.push_back(test::single_group(Queue::direct, {barrier(t, tex, cd, srv, Reason::entry_state)}));
  const auto view = lower(Api::d3d12_legacy, t, gs);
  EXPECT_TRUE(only(view, 0).omitted);
  EXPECT_EQ(only(view, 1).before, "COPY_DEST");
}

TEST(LowerLegacy, EverythingOnACopyQueueDecays) {
  ResourceTable t;
  const ResourceId tex = t.add(test::texture("upload", bit(Access::copy_dest)));
  const State cd = use(t[tex], Access::copy_dest);
  const State srv = use(t[tex], Access::shader_resource, kAllShading);
  std::vector<CompiledGroup> gs;
  gs.push_back(test::single_group(Queue::copy, {barrier(t, tex, kFirstTouch, cd, Reason::first_touch)}));
  gs.push_back(test::single_group(Queue::direct, {barrier(t, tex, cd, srv, Reason::entry_state)}));
  const auto view = lower(Api::d3d12_legacy, t, gs);
  EXPECT_TRUE(only(view, 0).omitted);
  // COMMON again, and a texture may be promoted to a shader read: no barrier at all.
  EXPECT_TRUE(only(view, 1).omitted);
  EXPECT_EQ(only(view, 1).before, "COMMON");
}

TEST(LowerLegacy, DepthIsNeverPromoted) {
  ResourceTable t;
  const ResourceId depth = t.add(test::texture("depth", bit(Access::depth_write), FormatClass::depth));
  const State dw = use(t[depth], Access::depth_write);
  const auto view = lower(Api::d3d12_legacy, t, test::single(Queue::direct, {barrier(t, depth, kFirstTouch, dw, Reason::first_touch)}));
  EXPECT_FALSE(only(view).omitted);
  EXPECT_EQ(only(view).before, "COMMON");
  EXPECT_EQ(only(view).after, "DEPTH_WRITE");
  // Also for depth reads. A simultaneous-access depth texture does not exist (D3D12 forbids
  // ALLOW_SIMULTANEOUS_ACCESS with ALLOW_DEPTH_STENCIL): the table refuses it (rule R0106).
  ResourceTable t2;
  ResourceDesc d = test::texture("d2", bit(Access::depth_read), FormatClass::depth);
  d.simultaneous_access = true;
  try {
    t2.add(d);
    ADD_FAILURE() << "a simultaneous-access depth texture was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(rule_id_of(e.what()), "R0106") << e.what();
  }
  d.simultaneous_access = false;
  const ResourceId r = t2.add(d);
  const auto v2 = lower(Api::d3d12_legacy, t2,
                        test::single(Queue::direct, {barrier(t2, r, kFirstTouch, use(t2[r], Access::depth_read), Reason::first_touch)}));
  EXPECT_FALSE(only(v2).omitted);
}

TEST(LowerLegacy, RenderTargetOfAPlainTextureIsNotPromotedButOfASimultaneousOneIs) {
  ResourceTable t;
  const ResourceId plain = t.add(test::texture("plain", bit(Access::render_target)));
  ResourceDesc sim = test::texture("sim", bit(Access::render_target));
  sim.simultaneous_access = true;
  const ResourceId simul = t.add(sim);
  const auto view = lower(Api::d3d12_legacy, t,
                          test::single(Queue::direct, {barrier(t, plain, kFirstTouch, use(t[plain], Access::render_target), Reason::first_touch),
                                                       barrier(t, simul, kFirstTouch, use(t[simul], Access::render_target), Reason::first_touch)}));
  const auto& bs = view[0].lists[0].points[0].barriers;
  ASSERT_EQ(bs.size(), 2u);
  EXPECT_FALSE(bs[0].omitted);
  EXPECT_TRUE(bs[1].omitted);
}

TEST(LowerLegacy, PromotedReadStatesAccumulate) {
  ResourceTable t;
  const ResourceId b = t.add(test::buffer("b"));
  const State srv = use(t[b], Access::shader_resource, stages(Stage::compute));
  const State args = use(t[b], Access::indirect_argument);
  const State uav = use(t[b], Access::unordered_access, stages(Stage::compute));
  std::vector<CompiledGroup> gs;
  gs.push_back(test::group("g", Queue::direct,
                           {test::list("l", Queue::direct,
                                       {{0, Where::before, {barrier(t, b, resting_state(t[b]), srv, Reason::from_rest)}},
                                        {1, Where::before, {barrier(t, b, srv, args, Reason::state_change)}},
                                        {2, Where::before, {barrier(t, b, args, uav, Reason::state_change)}}})}));
  const auto view = lower(Api::d3d12_legacy, t, gs);
  EXPECT_TRUE(only(view, 0, 0).omitted);
  EXPECT_TRUE(only(view, 0, 1).omitted);
  EXPECT_EQ(only(view, 0, 1).omitted_why, "implicit promotion: read states accumulate");
  EXPECT_FALSE(only(view, 0, 2).omitted);
  EXPECT_EQ(only(view, 0, 2).before, "NON_PIXEL_SHADER_RESOURCE|INDIRECT_ARGUMENT");
}

TEST(LowerLegacy, SameStateWriteOrderHasNoLegacyEquivalentAndUavOrderIsAUavBarrier) {
  ResourceTable t;
  const ResourceId rt = t.add(test::texture("rt", bit(Access::render_target)));
  const ResourceId u = t.add(test::texture("u", bit(Access::unordered_access)));
  const State rts = use(t[rt], Access::render_target);
  const State uav = use(t[u], Access::unordered_access, stages(Stage::compute));
  std::vector<CompiledGroup> gs;
  gs.push_back(test::group("g", Queue::direct,
                           {test::list("l", Queue::direct,
                                       {{0, Where::before,
                                         {barrier(t, rt, kFirstTouch, rts, Reason::first_touch),
                                          barrier(t, u, kFirstTouch, uav, Reason::first_touch)}},
                                        {1, Where::before,
                                         {barrier(t, rt, rts, rts, Reason::write_order),
                                          barrier(t, u, uav, uav, Reason::uav_order)}}})}));
  const auto view = lower(Api::d3d12_legacy, t, gs);
  const auto& bs = view[0].lists[0].points[1].barriers;
  ASSERT_EQ(bs.size(), 2u);
  EXPECT_TRUE(bs[0].omitted);
  EXPECT_EQ(bs[0].omitted_why, "same-state write_order barrier has no legacy equivalent");
  EXPECT_FALSE(bs[1].omitted);
  EXPECT_EQ(bs[1].note, "UAV barrier");
  const D3D12LegacyPlan plan = lower_d3d12_legacy(t, gs);
  const D3D12LegacyPoint& p = plan.groups[0].lists[0].points.at(1);
  ASSERT_EQ(p.barriers.size(), 1u);
  EXPECT_EQ(p.barriers[0].Type, D3D12_RESOURCE_BARRIER_TYPE_UAV);
  EXPECT_EQ(p.resources[0], u);
}

TEST(LowerLegacy, PartialBoxBecomesOneTransitionPerSubresource) {
  ResourceTable t;
  // Two planes: a depth_stencil texture (only that format has two, rule R0105).
  ResourceDesc d = test::texture("mipped", bit(Access::depth_write) | bit(Access::shader_resource),
                                 FormatClass::depth_stencil);
  d.mips = 3;
  d.layers = 2;
  d.planes = 2;
  const ResourceId r = t.add(d);
  const State rt = use(t[r], Access::depth_write);
  Barrier b = barrier(t, r, kFirstTouch, rt, Reason::first_touch);
  b.box = Box{1, 3, 1, 2, 1, 2};  // mips 1..2 of layer 1, plane 1
  const auto gs = test::single(Queue::direct, {b});
  const D3D12LegacyPlan plan = lower_d3d12_legacy(t, gs);
  const auto& bars = plan.groups[0].lists[0].points.at(0).barriers;
  ASSERT_EQ(bars.size(), 2u);
  EXPECT_EQ(bars[0].Transition.Subresource, 1u + 1u * 3u + 1u * 3u * 2u);
  EXPECT_EQ(bars[1].Transition.Subresource, 2u + 1u * 3u + 1u * 3u * 2u);
  const auto view = lower(Api::d3d12_legacy, t, gs);
  EXPECT_EQ(only(view).api_barriers, 2u);
  EXPECT_EQ(view[0].barrier_count(), 2u);
  EXPECT_EQ(view[0].call_count(), 1u);
}

TEST(LowerLegacy, MixedRealStatesSplitOneNeutralBarrier) {
  ResourceTable t;
  ResourceDesc d = test::texture("chain", bit(Access::unordered_access) | bit(Access::shader_resource));
  d.mips = 2;
  const ResourceId r = t.add(d);
  const State uav = use(t[r], Access::unordered_access, stages(Stage::compute));
  const State srv = use(t[r], Access::shader_resource, stages(Stage::compute));
  Barrier mip0 = barrier(t, r, kFirstTouch, uav, Reason::first_touch);
  mip0.box = Box{0, 1, 0, 1, 0, 1};
  // Mip 0 is explicitly UNORDERED_ACCESS; mip 1 is still COMMON and promotes to a shader read.
  const auto view = lower(Api::d3d12_legacy, t,
                          std::vector<CompiledGroup>{test::group(
                              "g", Queue::direct,
                              {test::list("l", Queue::direct,
                                          {{0, Where::before, {mip0}},
                                           {1, Where::before, {barrier(t, r, uav, srv, Reason::state_change)}}})})});
  const auto& bs = view[0].lists[0].points[1].barriers;
  ASSERT_EQ(bs.size(), 2u);
  EXPECT_FALSE(bs[0].omitted);
  EXPECT_EQ(bs[0].before, "UNORDERED_ACCESS");
  EXPECT_EQ(bs[0].range, "all [subresources 0]");
  EXPECT_TRUE(bs[1].omitted);
  EXPECT_EQ(bs[1].before, "COMMON");
}

TEST(LowerLegacy, PlacedFirstTouchGetsAliasingBarrierAndDiscard) {
  ResourceTable t;
  ResourceDesc d = test::texture("transient", bit(Access::render_target));
  d.placed = true;
  const ResourceId r = t.add(d);
  const auto gs = test::single(Queue::direct,
                               {barrier(t, r, kFirstTouch, use(t[r], Access::render_target), Reason::discard, true)});
  const D3D12LegacyPlan plan = lower_d3d12_legacy(t, gs);
  const D3D12LegacyPoint& p = plan.groups[0].lists[0].points.at(0);
  ASSERT_EQ(p.barriers.size(), 2u);
  EXPECT_EQ(p.barriers[0].Type, D3D12_RESOURCE_BARRIER_TYPE_ALIASING);
  EXPECT_EQ(p.barriers[1].Type, D3D12_RESOURCE_BARRIER_TYPE_TRANSITION);
  EXPECT_EQ(p.barriers[1].Transition.StateAfter, D3D12_RESOURCE_STATE_RENDER_TARGET);
  EXPECT_EQ(p.discards, std::vector<ResourceId>{r});
  EXPECT_EQ(lower(Api::d3d12_legacy, t, gs)[0].barrier_count(), 2u);
}

TEST(LowerLegacy, GlobalBarrierIsAUavBarrierOnNull) {
  ResourceTable t;
  const D3D12LegacyPlan plan = lower_d3d12_legacy(t, test::single(Queue::direct, {test::global_barrier()}));
  const D3D12LegacyPoint& p = plan.groups[0].lists[0].points.at(0);
  ASSERT_EQ(p.barriers.size(), 1u);
  EXPECT_EQ(p.barriers[0].Type, D3D12_RESOURCE_BARRIER_TYPE_UAV);
  EXPECT_EQ(p.barriers[0].UAV.pResource, nullptr);
  EXPECT_EQ(p.resources[0], kGlobalResource);
}

}  // namespace
}  // namespace baton

namespace baton {
namespace {

TEST(LowerLegacy, RestoreNeedsTheExactRestingStateNotASuperset) {
  // A merged read (SRV + copy source) must go back to exactly the resting SRV state at group end,
  // or the next frame's StateBefore would not match the real state.
  ResourceTable t;
  const ResourceId r = t.add(test::texture("taa", bit(Access::shader_resource) | bit(Access::render_target)));
  const State rt = test::use(t[r], Access::render_target);
  const State merged{sync::pixel_shading | sync::copy, bit(Access::shader_resource) | bit(Access::copy_source),
                     Layout::generic_read};
  std::vector<CompiledGroup> groups;
  groups.push_back(test::group(
      "g", Queue::direct,
      {test::list("l", Queue::direct,
                  {{0, Where::before, {test::barrier(t, r, kFirstTouch, rt, Reason::first_touch)}},
                   {1, Where::before, {test::barrier(t, r, rt, merged, Reason::read_merge)}},
                   {1, Where::after, {test::barrier(t, r, merged, resting_state(t[r]), Reason::restore)}}})}));
  const auto view = lower(Api::d3d12_legacy, t, groups);
  const LoweredBarrier& restore = view[0].lists[0].points[2].barriers.at(0);
  EXPECT_FALSE(restore.omitted);
  EXPECT_EQ(restore.before, "PIXEL_SHADER_RESOURCE|COPY_SOURCE");
  EXPECT_EQ(restore.after, "PIXEL_SHADER_RESOURCE|NON_PIXEL_SHADER_RESOURCE");
}

TEST(LowerLegacy, FinalStatesCarryIntoTheNextFrame) {
  ResourceTable t;
  const ResourceId r = t.add(test::texture("rt", bit(Access::render_target)));
  const ResourceId b = t.add(test::buffer("b"));
  const State rt = test::use(t[r], Access::render_target);
  const State uav = test::use(t[b], Access::unordered_access, stages(Stage::compute));
  const auto frame1 = test::single(Queue::direct, {test::barrier(t, r, kFirstTouch, rt, Reason::first_touch),
                                                    test::barrier(t, b, kFirstTouchBuffer, uav, Reason::first_touch)});
  const D3D12LegacyPlan p1 = lower_d3d12_legacy(t, frame1);
  ASSERT_EQ(p1.final_states.resources.size(), 2u);
  EXPECT_EQ(p1.final_states.expanded(r),
            std::vector<D3D12_RESOURCE_STATES>{D3D12_RESOURCE_STATE_RENDER_TARGET});
  EXPECT_EQ(p1.final_states.expanded(b), std::vector<D3D12_RESOURCE_STATES>{D3D12_RESOURCE_STATE_COMMON});
  // Frame 2 starts from rest (render target): already there, nothing to do.
  const auto frame2 = test::single(Queue::direct, {test::barrier(t, r, resting_state(t[r]), rt, Reason::from_rest)});
  const D3D12LegacyPlan p2 = lower_d3d12_legacy(t, frame2, p1.final_states);
  EXPECT_TRUE(p2.groups[0].lists[0].points.empty());
  // Without the carried states the lowering would wrongly believe it is COMMON.
  const D3D12LegacyPlan fresh = lower_d3d12_legacy(t, frame2);
  EXPECT_EQ(fresh.groups[0].lists[0].points.size(), 1u);
}

}  // namespace
}  // namespace baton

namespace baton {
namespace {

// The real states are runs over the subresource index: a texture of 32,768 subresources with one
// subresource in another state costs two runs, and the plan is what per-subresource tracking gives.
TEST(LowerLegacy, RealStatesAreRunsOfEqualStates) {
  ResourceTable t;
  ResourceDesc d = test::texture("big", bit(Access::render_target) | bit(Access::shader_resource));
  d.width = d.height = 65536;
  d.mips = 16;
  d.layers = 2048;
  const ResourceId r = t.add(d);
  const State rt = test::use(t[r], Access::render_target);
  const State srv = test::use(t[r], Access::shader_resource, stages(Stage::pixel));
  Barrier first = test::barrier(t, r, kFirstTouch, rt, Reason::first_touch);
  first.box = Box{0, 1, 0, 1, 0, 1};
  std::vector<CompiledGroup> gs;
  gs.push_back(test::group(
      "frame", Queue::direct,
      {test::list("l", Queue::direct,
                  {{0, Where::before, {first}},
                   {1, Where::before, {test::barrier(t, r, kFirstTouch, srv, Reason::first_touch)}}})}));
  const D3D12LegacyPlan plan = lower_d3d12_legacy(t, gs);
  ASSERT_EQ(plan.groups[0].lists[0].points.size(), 2u);
  const D3D12LegacyPoint& p = plan.groups[0].lists[0].points[1];
  ASSERT_EQ(p.barriers.size(), 1u);  // only subresource 0 needs a transition; the rest is promoted
  EXPECT_EQ(p.barriers[0].Transition.Subresource, 0u);
  EXPECT_EQ(p.barriers[0].Transition.StateBefore, D3D12_RESOURCE_STATE_RENDER_TARGET);
  EXPECT_EQ(p.barriers[0].Transition.StateAfter, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
  // Subresource 0 stays where the transition put it; the promoted reads decay to COMMON.
  ASSERT_EQ(plan.final_states.resources.size(), 1u);
  EXPECT_EQ(plan.final_states.resources[r].size(), 32768u);
  EXPECT_EQ(plan.final_states.resources[r].run_count(), 2u);
  EXPECT_EQ(plan.final_states.at(r, 0), D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
  EXPECT_EQ(plan.final_states.at(r, 32767), D3D12_RESOURCE_STATE_COMMON);
  const auto view = lower(Api::d3d12_legacy, t, gs);
  const auto& bs = view[0].lists[0].points[1].barriers;
  ASSERT_EQ(bs.size(), 2u);
  EXPECT_FALSE(bs[0].omitted);
  EXPECT_TRUE(bs[0].range.ends_with("[subresources 0]")) << bs[0].range;
  EXPECT_TRUE(bs[1].omitted);
  // The other 32,767 as one run, first..last: the text follows the runs, not the subresources.
  EXPECT_TRUE(bs[1].range.ends_with("[subresources 1..32767]")) << bs[1].range.substr(0, 80);
}

// The API has no subresource ranges, so each barrier over part of a texture is one transition per
// subresource; a frame that would need more than kMaxLegacyApiBarriers is refused with an Error naming
// where it went past (found by fuzz_structured: a set of 4,096 members of 34,816 subresources each,
// partly rendered from COMMON, took 26 million transitions and 2 GB). 31 textures of 34,816
// subresources, each transitioned but for one layer, need 31 x 34,799 = 1,078,769.
TEST(LowerLegacy, AFrameOfMoreTransitionsThanTheLimitIsRefused) {
  ResourceTable t;
  std::vector<test::PointSpec> points;
  constexpr uint32_t kTextures = 31;
  for (uint32_t i = 0; i < kTextures; ++i) {
    ResourceDesc d = test::texture("big" + std::to_string(i), bit(Access::render_target));
    d.width = d.height = 65536;
    d.mips = 17;
    d.layers = 2048;
    const ResourceId r = t.add(d);
    Barrier b = test::barrier(t, r, kFirstTouch, test::use(t[r], Access::render_target), Reason::first_touch);
    b.box = Box{0, 17, 1, 2048, 0, 1};  // all but layer 0
    points.push_back({i, Where::before, {b}});
  }
  const std::vector<CompiledGroup> gs{
      test::group("frame", Queue::direct, {test::list("l", Queue::direct, points)})};
  static_assert(kTextures * 17 * 2047 > kMaxLegacyApiBarriers &&
                (kTextures - 1) * 17 * 2047 <= kMaxLegacyApiBarriers);
  try {
    (void)lower_d3d12_legacy(t, gs);
    FAIL() << "no error past the limit";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("group 'frame' list 'l' op 30: resource 'big30'"), std::string::npos) << m;
    EXPECT_NE(m.find("needs 34799 more transition barriers"), std::string::npos) << m;
    EXPECT_NE(m.find("past the 1048576"), std::string::npos) << m;
  }
  // One texture fewer fits, and makes every transition.
  ResourceTable fewer;
  std::vector<test::PointSpec> under;
  for (uint32_t i = 0; i + 1 < kTextures; ++i) {
    fewer.add(t[i]);
    under.push_back(points[i]);
  }
  const std::vector<CompiledGroup> gs_under{
      test::group("frame", Queue::direct, {test::list("l", Queue::direct, under)})};
  const D3D12LegacyPlan plan = lower_d3d12_legacy(fewer, gs_under);
  size_t made = 0;
  for (const D3D12LegacyPoint& p : plan.groups[0].lists[0].points) made += p.barriers.size();
  EXPECT_EQ(made, size_t{kTextures - 1} * 17 * 2047);
}

}  // namespace
}  // namespace baton
