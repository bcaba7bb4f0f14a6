// Lowering of split barriers (Barrier::split_after) in the three APIs: a begin half right after the
// producer's operation, an end half at the barrier's own point, the same barriers in both.
#include <gtest/gtest.h>

#include "baton/lower_d3d12.hpp"
#include "baton/lower_vulkan.hpp"
#include "helpers.hpp"

namespace baton::test {
namespace {

constexpr Stages kCompute = stages(Stage::compute);

struct Fixture {
  ResourceTable t;
  ResourceId tex = 0, buf = 0;
  std::vector<CompiledGroup> groups;
  Fixture() {
    tex = t.add(texture("t", bit(Access::unordered_access) | bit(Access::shader_resource)));
    buf = t.add(buffer("b"));
    Barrier bt = barrier(t, tex, use(t[tex], Access::unordered_access, kCompute),
                         use(t[tex], Access::shader_resource, kCompute), Reason::state_change);
    Barrier bb = barrier(t, buf, use(t[buf], Access::unordered_access, kCompute),
                         use(t[buf], Access::shader_resource, kCompute), Reason::state_change);
    bt.split_after = bb.split_after = 0;
    bt.split_list = bb.split_list = 0;
    // A whole barrier at the same point stays an ordinary call.
    const ResourceId other = t.add(buffer("other"));
    Barrier bo = barrier(t, other, use(t[other], Access::unordered_access, kCompute),
                         use(t[other], Access::shader_resource, kCompute), Reason::state_change);
    groups.push_back(
        group("g", Queue::direct, {list("l", Queue::direct, {PointSpec{2, Where::before, {bt, bb, bo}}})}));
  }
};

TEST(LowerSplit, VulkanSetsAndWaitsOneEventWithTheSameDependency) {
  Fixture f;
  const VulkanPlan p = lower_vulkan(f.t, f.groups);
  const VulkanList& l = p.groups.at(0).lists.at(0);
  EXPECT_EQ(l.events, 1u);
  ASSERT_EQ(l.points.size(), 3u);
  const VulkanPoint& set = l.points[0];
  EXPECT_EQ(set.op, 0u);
  EXPECT_EQ(set.where, Where::after);
  EXPECT_EQ(set.half, SplitHalf::begin);
  const VulkanPoint& wait = l.points[1];
  EXPECT_EQ(wait.op, 2u);
  EXPECT_EQ(wait.half, SplitHalf::end);
  EXPECT_EQ(set.event, 0u);
  EXPECT_EQ(wait.event, 0u);
  ASSERT_EQ(set.images.size(), 1u);
  ASSERT_EQ(wait.images.size(), 1u);
  ASSERT_EQ(set.buffers.size(), 1u);
  EXPECT_EQ(set.images[0].oldLayout, VK_IMAGE_LAYOUT_GENERAL);
  EXPECT_EQ(set.images[0].newLayout, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  EXPECT_EQ(set.images[0].srcStageMask, wait.images[0].srcStageMask);
  EXPECT_EQ(set.images[0].dstAccessMask, wait.images[0].dstAccessMask);
  EXPECT_EQ(set.buffers[0].srcAccessMask, wait.buffers[0].srcAccessMask);
  EXPECT_EQ(l.points[2].half, SplitHalf::none);
  EXPECT_EQ(l.points[2].buffer_resources, std::vector<ResourceId>{2});
}

TEST(LowerSplit, EnhancedHalvesUseSyncSplit) {
  Fixture f;
  const D3D12EnhancedPlan p = lower_d3d12_enhanced(f.t, f.groups);
  const D3D12EnhancedList& l = p.groups.at(0).lists.at(0);
  ASSERT_EQ(l.points.size(), 3u);
  const D3D12EnhancedPoint& begin = l.points[0];
  const D3D12EnhancedPoint& end = l.points[1];
  EXPECT_EQ(begin.half, SplitHalf::begin);
  EXPECT_EQ(begin.op, 0u);
  EXPECT_EQ(end.half, SplitHalf::end);
  ASSERT_EQ(begin.textures.size(), 1u);
  EXPECT_EQ(begin.textures[0].SyncBefore, D3D12_BARRIER_SYNC_COMPUTE_SHADING);
  EXPECT_EQ(begin.textures[0].SyncAfter, D3D12_BARRIER_SYNC_SPLIT);
  EXPECT_EQ(end.textures[0].SyncBefore, D3D12_BARRIER_SYNC_SPLIT);
  EXPECT_EQ(end.textures[0].SyncAfter, D3D12_BARRIER_SYNC_COMPUTE_SHADING);
  EXPECT_EQ(begin.textures[0].LayoutBefore, end.textures[0].LayoutBefore);
  EXPECT_EQ(begin.textures[0].LayoutAfter, end.textures[0].LayoutAfter);
  EXPECT_EQ(begin.textures[0].AccessAfter, end.textures[0].AccessAfter);
  ASSERT_EQ(begin.buffers.size(), 1u);
  EXPECT_EQ(begin.buffers[0].SyncAfter, D3D12_BARRIER_SYNC_SPLIT);
  EXPECT_EQ(end.buffers[0].SyncBefore, D3D12_BARRIER_SYNC_SPLIT);
  EXPECT_EQ(l.points[2].half, SplitHalf::none);
  EXPECT_EQ(l.points[2].buffers.at(0).SyncBefore, D3D12_BARRIER_SYNC_COMPUTE_SHADING);
}

TEST(LowerSplit, LegacyBeginOnlyAndEndOnlyWithIdenticalTransitions) {
  Fixture f;
  const D3D12LegacyPlan p = lower_d3d12_legacy(f.t, f.groups);
  const D3D12LegacyList& l = p.groups.at(0).lists.at(0);
  ASSERT_EQ(l.points.size(), 3u);
  const D3D12LegacyPoint& begin = l.points[0];
  const D3D12LegacyPoint& end = l.points[1];
  EXPECT_EQ(begin.half, SplitHalf::begin);
  EXPECT_EQ(begin.where, Where::after);
  ASSERT_EQ(begin.barriers.size(), end.barriers.size());
  ASSERT_FALSE(begin.barriers.empty());
  for (size_t i = 0; i < begin.barriers.size(); ++i) {
    EXPECT_EQ(begin.barriers[i].Flags, D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY);
    EXPECT_EQ(end.barriers[i].Flags, D3D12_RESOURCE_BARRIER_FLAG_END_ONLY);
    EXPECT_EQ(begin.barriers[i].Transition.StateBefore, end.barriers[i].Transition.StateBefore);
    EXPECT_EQ(begin.barriers[i].Transition.StateAfter, end.barriers[i].Transition.StateAfter);
    EXPECT_EQ(begin.barriers[i].Transition.StateBefore, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    EXPECT_EQ(begin.resources[i], end.resources[i]);
  }
}

// A legacy UAV barrier cannot carry split flags (#533): it stays whole, in the end half.
TEST(LowerSplit, LegacyUavBarrierOfASplitStaysWholeAtTheEnd) {
  ResourceTable t;
  const ResourceId b = t.add(buffer("b"));
  const State uav = use(t[b], Access::unordered_access, kCompute);
  Barrier ub = barrier(t, b, uav, uav, Reason::uav_order);
  ub.split_after = 0;
  ub.split_list = 0;
  const std::vector<CompiledGroup> gs = single(Queue::direct, {ub}, 2);
  const D3D12LegacyPlan p = lower_d3d12_legacy(t, gs);
  const D3D12LegacyList& l = p.groups.at(0).lists.at(0);
  ASSERT_EQ(l.points.size(), 1u);
  EXPECT_EQ(l.points[0].half, SplitHalf::end);
  ASSERT_EQ(l.points[0].barriers.size(), 1u);
  EXPECT_EQ(l.points[0].barriers[0].Type, D3D12_RESOURCE_BARRIER_TYPE_UAV);
  EXPECT_EQ(l.points[0].barriers[0].Flags, D3D12_RESOURCE_BARRIER_FLAG_NONE);
}

TEST(LowerSplit, ViewCarriesTheSplitReasonAndCountsBothHalves) {
  Fixture f;
  for (Api api : {Api::vulkan, Api::d3d12, Api::d3d12_legacy}) {
    const std::vector<LoweredGroup> v = lower(api, f.t, f.groups);
    const LoweredPoint& p = v.at(0).lists.at(0).points.at(0);
    ASSERT_EQ(p.barriers.size(), 3u) << to_string(api);
    EXPECT_EQ(p.barriers[0].split_after, 0u);
    EXPECT_EQ(p.barriers[0].split, "split: begins after op 0, op 1 between does not touch it");
    EXPECT_EQ(p.barriers[2].split_after, kNoSplit);
    EXPECT_EQ(v[0].call_count(), 3u) << to_string(api);  // the ordinary call + begin + end
  }
}

}  // namespace
}  // namespace baton::test
