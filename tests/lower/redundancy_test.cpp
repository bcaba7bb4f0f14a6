// Issue 17 item 6: barriers a graphics programmer questions, same-state barriers between two
// render-target writes or two depth-stencil writes of one texture (`write order` inside a list,
// `hand-off` between lists, `from rest`). D3D12 orders those writes itself (legacy cannot even
// express the barrier: #525 RESOURCE_BARRIER_MATCHING_STATES), so both D3D12 lowerings omit them with
// the rule; Vulkan keeps them (rasterization order holds only within a subpass; the validator test
// VulkanRedundancy.* shows the hazard when they are dropped).
#include <gtest/gtest.h>

#include "baton/lower_d3d12.hpp"
#include "baton/lower_vulkan.hpp"
#include "helpers.hpp"

namespace baton {
namespace {

using test::barrier;
using test::use;

struct SameState {
  ResourceTable t;
  std::vector<CompiledGroup> groups;
  ResourceId color{}, depth{}, uav{};
  SameState() {
    color = t.add(test::texture("color", bit(Access::render_target) | bit(Access::shader_resource)));
    depth = t.add(test::texture("depth", bit(Access::depth_write) | bit(Access::shader_resource),
                                FormatClass::depth_stencil));
    uav = t.add(test::texture("uav", bit(Access::unordered_access)));
    const State rt = use(t[color], Access::render_target);
    const State dw = use(t[depth], Access::depth_write);
    const State ua = use(t[uav], Access::unordered_access, stages(Stage::compute));
    const State srv = use(t[color], Access::shader_resource, stages(Stage::pixel));
    groups.push_back(test::group(
        "g", Queue::direct,
        {test::list("a", Queue::direct,
                    {{0, Where::before, {barrier(t, depth, dw, dw, Reason::from_rest)}},
                     {1, Where::before,
                      {barrier(t, depth, dw, dw, Reason::write_order), barrier(t, uav, ua, ua, Reason::uav_order)}}}),
         test::list("b", Queue::direct,
                    {{0, Where::before, {barrier(t, color, rt, rt, Reason::hand_off)}},
                     {1, Where::before, {barrier(t, color, rt, srv, Reason::state_change)}}})}));
  }
};

// Every lowered barrier in plan order: (resource, reason, omitted).
std::vector<const LoweredBarrier*> flat(const std::vector<LoweredGroup>& v) {
  std::vector<const LoweredBarrier*> out;
  for (const LoweredGroup& g : v)
    for (const LoweredList& l : g.lists)
      for (const LoweredPoint& p : l.points)
        for (const LoweredBarrier& b : p.barriers) out.push_back(&b);
  return out;
}

TEST(Redundancy, EnhancedOmitsSameStateRenderTargetAndDepthWrites) {
  SameState f;
  const std::vector<LoweredGroup> lowered = lower(Api::d3d12, f.t, f.groups);
  const std::vector<const LoweredBarrier*> v = flat(lowered);
  ASSERT_EQ(v.size(), 5u);
  // from rest DSV->DSV, write order DSV->DSV, hand-off RT->RT: omitted, each with the rule.
  for (size_t i : {0u, 1u, 3u}) {
    EXPECT_TRUE(v[i]->omitted) << i << " " << to_string(v[i]->reason);
    EXPECT_NE(v[i]->omitted_why.find("ordered by the queue"), std::string::npos) << v[i]->omitted_why;
  }
  EXPECT_NE(v[3]->omitted_why.find("render-target"), std::string::npos);
  EXPECT_NE(v[0]->omitted_why.find("depth-stencil"), std::string::npos);
  // UAV order is a real UAV barrier, and a state change is a state change.
  EXPECT_FALSE(v[2]->omitted);
  EXPECT_FALSE(v[4]->omitted);
  // The native plan holds exactly the two kept barriers.
  const D3D12EnhancedPlan plan = lower_d3d12_enhanced(f.t, f.groups);
  size_t textures = 0;
  for (const auto& g : plan.groups)
    for (const auto& l : g.lists)
      for (const auto& p : l.points) textures += p.textures.size();
  EXPECT_EQ(textures, 2u);
}

TEST(Redundancy, LegacyOmitsThemTooAndVulkanKeepsThem) {
  SameState f;
  const std::vector<LoweredGroup> legacy = lower(Api::d3d12_legacy, f.t, f.groups);
  const std::vector<LoweredGroup> vulkan = lower(Api::vulkan, f.t, f.groups);
  const auto l = flat(legacy), k = flat(vulkan);
  ASSERT_EQ(l.size(), 5u);
  ASSERT_EQ(k.size(), 5u);
  // Legacy tracks the real state: this frame's textures start in COMMON, so the from-rest and the
  // list's first RT use are real transitions there; the write order in DEPTH_WRITE is omitted.
  EXPECT_TRUE(l[1]->omitted);
  EXPECT_FALSE(l[0]->omitted);
  for (size_t i : {0u, 1u, 3u}) EXPECT_FALSE(k[i]->omitted) << i;
  EXPECT_EQ(vulkan[0].barrier_count(), 5u);
}

// A takeover of aliased memory into a render target is not a same-state barrier, even when the
// previous occupant was a render target too (its before side becomes UNDEFINED / NO_ACCESS).
TEST(Redundancy, TakeoverIsNeverOmitted) {
  SameState f;
  const State rt = use(f.t[f.color], Access::render_target);
  std::vector<CompiledGroup> g{test::single_group(Queue::direct, {barrier(f.t, f.color, rt, rt, Reason::takeover)})};
  const std::vector<LoweredGroup> v = lower(Api::d3d12, f.t, g);
  ASSERT_EQ(flat(v).size(), 1u);
  EXPECT_FALSE(flat(v)[0]->omitted);
}

}  // namespace
}  // namespace baton
