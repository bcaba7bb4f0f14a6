// Rules every API output keeps: SyncBefore NONE / srcStage NONE only on the first-ever touch, the
// DISCARD flag only with LayoutBefore UNDEFINED, one call per point, readable names.
#include <gtest/gtest.h>

#include "baton/lower_d3d12.hpp"
#include "baton/lower_vulkan.hpp"
#include "helpers.hpp"

namespace baton {
namespace {

using test::barrier;
using test::use;

// A small frame with every kind of barrier: first touches, discards, hand-offs, merged reads,
// UAV order, restore, present, host access and a full barrier.
struct Frame {
  ResourceTable t;
  std::vector<CompiledGroup> groups;
  ResourceId color{}, depth{}, hdr{}, buf{}, swap{};
  Frame() {
    color = t.add(test::texture("color", bit(Access::render_target) | bit(Access::shader_resource)));
    ResourceDesc dd = test::texture("depth", bit(Access::depth_write) | bit(Access::shader_resource),
                                    FormatClass::depth_stencil);
    dd.planes = 2;
    dd.placed = true;
    depth = t.add(dd);
    ResourceDesc hd = test::texture("hdr", bit(Access::unordered_access) | bit(Access::shader_resource));
    hd.mips = 4;
    hdr = t.add(hd);
    buf = t.add(test::buffer("readback"));
    ResourceDesc sd = test::texture("swap", bit(Access::render_target));
    sd.swapchain = true;
    swap = t.add(sd);

    const State rt = use(t[color], Access::render_target);
    const State dw = use(t[depth], Access::depth_write);
    const State merged{sync::depth_stencil | sync::pixel_shading,
                       bit(Access::depth_read) | bit(Access::shader_resource), Layout::generic_read};
    const State uav = use(t[hdr], Access::unordered_access, stages(Stage::compute));
    const State srv_px = use(t[color], Access::shader_resource, stages(Stage::pixel));
    const State bcopy = use(t[buf], Access::copy_dest);
    const State host = use(t[buf], Access::host_read);
    const State srt = use(t[swap], Access::render_target);
    Barrier hdr_mip0 = barrier(t, hdr, kFirstTouch, uav, Reason::first_touch);
    hdr_mip0.box = Box{0, 1, 0, 1, 0, 1};
    groups.push_back(test::group(
        "main", Queue::direct,
        {test::list("gbuffer", Queue::direct,
                    {{0, Where::before,
                      {barrier(t, color, kFirstTouch, rt, Reason::first_touch),
                       barrier(t, depth, kFirstTouch, dw, Reason::discard, true)}},
                     {1, Where::before, {barrier(t, depth, dw, merged, Reason::read_merge), hdr_mip0}},
                     {2, Where::before, {barrier(t, hdr, uav, uav, Reason::uav_order), test::global_barrier()}}}),
         test::list("post", Queue::direct,
                    {{0, Where::before,
                      {barrier(t, color, rt, srv_px, Reason::hand_off),
                       barrier(t, buf, kFirstTouchBuffer, bcopy, Reason::first_touch),
                       barrier(t, swap, resting_state(t[swap]), srt, Reason::from_rest)}},
                     {1, Where::before,
                      {barrier(t, buf, bcopy, host, Reason::state_change),
                       barrier(t, swap, srt, resting_state(t[swap]), Reason::restore)}},
                     {1, Where::after,
                      {barrier(t, depth, merged, resting_state(t[depth]), Reason::restore),
                       barrier(t, color, srv_px, resting_state(t[color]), Reason::restore)}}})}));
    // The next frame's group: from rest again, and a discard over a texture that is not new.
    groups.push_back(test::group(
        "next", Queue::direct,
        {test::list("again", Queue::direct,
                    {{0, Where::before,
                      {barrier(t, depth, resting_state(t[depth]), dw, Reason::discard, true),
                       barrier(t, color, resting_state(t[color]), rt, Reason::from_rest)}}})}));
  }
  bool first_touch(const Barrier& b) const { return b.before == kFirstTouch || b.before == kFirstTouchBuffer; }
  // The neutral barriers, flattened in the order the native arrays are filled.
  std::vector<const Barrier*> flat(bool textures) const {
    std::vector<const Barrier*> out;
    for (const CompiledGroup& g : groups)
      for (const CompiledList& l : g.lists)
        for (const Barrier& b : l.barriers)
          if (b.resource != kGlobalResource && (t[b.resource].type == ResourceType::texture) == textures) out.push_back(&b);
    return out;
  }
};

TEST(LowerApi, EnhancedSyncBeforeNoneOnlyOnFirstTouchAndDiscardOnlyWithUndefined) {
  Frame f;
  const D3D12EnhancedPlan plan = lower_d3d12_enhanced(f.t, f.groups);
  std::vector<const D3D12_TEXTURE_BARRIER*> tex;
  std::vector<const D3D12_BUFFER_BARRIER*> buf;
  for (const auto& g : plan.groups)
    for (const auto& l : g.lists)
      for (const auto& p : l.points) {
        for (const auto& b : p.textures) tex.push_back(&b);
        for (const auto& b : p.buffers) buf.push_back(&b);
        EXPECT_EQ(p.textures.size(), p.texture_resources.size());
        EXPECT_EQ(p.buffers.size(), p.buffer_resources.size());
      }
  const auto ntex = f.flat(true);
  ASSERT_EQ(tex.size(), ntex.size());
  int discards = 0;
  for (size_t i = 0; i < tex.size(); ++i) {
    EXPECT_EQ(tex[i]->SyncBefore == D3D12_BARRIER_SYNC_NONE, f.first_touch(*ntex[i])) << i;
    if (tex[i]->SyncBefore == D3D12_BARRIER_SYNC_NONE) {
      EXPECT_EQ(tex[i]->AccessBefore, D3D12_BARRIER_ACCESS_NO_ACCESS);
      EXPECT_EQ(tex[i]->LayoutBefore, D3D12_BARRIER_LAYOUT_UNDEFINED);
    }
    EXPECT_EQ(tex[i]->Flags == D3D12_TEXTURE_BARRIER_FLAG_DISCARD, ntex[i]->discard) << i;
    if (tex[i]->Flags & D3D12_TEXTURE_BARRIER_FLAG_DISCARD) {
      ++discards;
      EXPECT_EQ(tex[i]->LayoutBefore, D3D12_BARRIER_LAYOUT_UNDEFINED) << i;
      EXPECT_EQ(tex[i]->AccessBefore, D3D12_BARRIER_ACCESS_NO_ACCESS) << i;
    }
  }
  EXPECT_EQ(discards, 2);
  // The non-first discard still waits for the earlier depth work.
  EXPECT_EQ(plan.groups[1].lists[0].points[0].textures[0].SyncBefore, D3D12_BARRIER_SYNC_DEPTH_STENCIL);
  // Buffers: the host read has no D3D12 barrier, so only the first touch remains.
  ASSERT_EQ(buf.size(), 1u);
  EXPECT_EQ(buf[0]->SyncBefore, D3D12_BARRIER_SYNC_NONE);
  EXPECT_EQ(buf[0]->Size, UINT64_MAX);
}

TEST(LowerApi, VulkanSrcStageNoneOnlyOnFirstTouchWithUndefinedLayout) {
  Frame f;
  const VulkanPlan plan = lower_vulkan(f.t, f.groups);
  std::vector<const VkImageMemoryBarrier2*> img;
  std::vector<const VkBufferMemoryBarrier2*> buf;
  size_t memory = 0;
  for (const auto& g : plan.groups)
    for (const auto& l : g.lists)
      for (const auto& p : l.points) {
        for (const auto& b : p.images) img.push_back(&b);
        for (const auto& b : p.buffers) buf.push_back(&b);
        memory += p.memory.size();
        const VkDependencyInfo info = p.dependency_info();
        EXPECT_EQ(info.sType, VK_STRUCTURE_TYPE_DEPENDENCY_INFO);
        EXPECT_EQ(info.imageMemoryBarrierCount, p.images.size());
        EXPECT_EQ(info.bufferMemoryBarrierCount, p.buffers.size());
        EXPECT_EQ(info.memoryBarrierCount, p.memory.size());
      }
  EXPECT_EQ(memory, 1u);
  const auto ntex = f.flat(true);
  ASSERT_EQ(img.size(), ntex.size());
  for (size_t i = 0; i < img.size(); ++i) {
    EXPECT_EQ(img[i]->srcStageMask == VK_PIPELINE_STAGE_2_NONE, f.first_touch(*ntex[i])) << i;
    if (f.first_touch(*ntex[i]) || ntex[i]->discard) {
      EXPECT_EQ(img[i]->oldLayout, VK_IMAGE_LAYOUT_UNDEFINED) << i;
    }
    EXPECT_EQ(img[i]->image, VK_NULL_HANDLE);
    EXPECT_EQ(img[i]->srcQueueFamilyIndex, VK_QUEUE_FAMILY_IGNORED);
    EXPECT_NE(img[i]->newLayout, VK_IMAGE_LAYOUT_UNDEFINED);
  }
  const auto nbuf = f.flat(false);
  ASSERT_EQ(buf.size(), nbuf.size());
  for (size_t i = 0; i < buf.size(); ++i)
    EXPECT_EQ(buf[i]->srcStageMask == VK_PIPELINE_STAGE_2_NONE, f.first_touch(*nbuf[i])) << i;
  // The readback ends in a host read.
  EXPECT_EQ(buf.back()->dstStageMask, VK_PIPELINE_STAGE_2_HOST_BIT);
  EXPECT_EQ(buf.back()->dstAccessMask, VK_ACCESS_2_HOST_READ_BIT);
}

TEST(LowerApi, VulkanSubresourceRangesAndAspects) {
  Frame f;
  const VulkanPlan plan = lower_vulkan(f.t, f.groups);
  const auto& p1 = plan.groups[0].lists[0].points.at(1);
  // Depth read merge: both planes, DEPTH_STENCIL_READ_ONLY_OPTIMAL.
  EXPECT_EQ(p1.images.at(0).subresourceRange.aspectMask,
            static_cast<VkImageAspectFlags>(VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT));
  EXPECT_EQ(p1.images.at(0).newLayout, VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL);
  // hdr mip 0 only.
  EXPECT_EQ(p1.images.at(1).subresourceRange.baseMipLevel, 0u);
  EXPECT_EQ(p1.images.at(1).subresourceRange.levelCount, 1u);
  EXPECT_EQ(p1.images.at(1).newLayout, VK_IMAGE_LAYOUT_GENERAL);
  EXPECT_EQ(p1.image_resources, (std::vector<ResourceId>{f.depth, f.hdr}));
}

TEST(LowerApi, EnhancedSubresourceRangeIsAllOrTheBox) {
  Frame f;
  const D3D12EnhancedPlan plan = lower_d3d12_enhanced(f.t, f.groups);
  const auto& p1 = plan.groups[0].lists[0].points.at(1);
  EXPECT_EQ(p1.textures.at(0).Subresources.IndexOrFirstMipLevel, 0xffffffffu);
  EXPECT_EQ(p1.textures.at(0).Subresources.NumMipLevels, 0u);
  EXPECT_EQ(p1.textures.at(0).LayoutAfter, D3D12_BARRIER_LAYOUT_DIRECT_QUEUE_GENERIC_READ);
  EXPECT_EQ(p1.textures.at(1).Subresources.IndexOrFirstMipLevel, 0u);
  EXPECT_EQ(p1.textures.at(1).Subresources.NumMipLevels, 1u);
  EXPECT_EQ(p1.textures.at(1).Subresources.NumArraySlices, 1u);
  EXPECT_EQ(p1.textures.at(1).Subresources.NumPlanes, 1u);
  const auto groups = p1.barrier_groups();
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].Type, D3D12_BARRIER_TYPE_TEXTURE);
  EXPECT_EQ(groups[0].NumBarriers, 2u);
  EXPECT_EQ(groups[0].pTextureBarriers, p1.textures.data());
  const auto& p2 = plan.groups[0].lists[0].points.at(2);
  const auto g2 = p2.barrier_groups();
  ASSERT_EQ(g2.size(), 2u);  // global + texture (UAV order)
  EXPECT_EQ(g2[0].Type, D3D12_BARRIER_TYPE_GLOBAL);
  EXPECT_EQ(p2.globals.at(0).SyncBefore, D3D12_BARRIER_SYNC_ALL);
}

TEST(LowerApi, ViewNamesAndCounts) {
  Frame f;
  const auto en = lower(Api::d3d12, f.t, f.groups);
  const auto& post = en[0].lists[1].points[0].barriers;
  EXPECT_EQ(post[0].before, "SYNC_RENDER_TARGET ACCESS_RENDER_TARGET LAYOUT_RENDER_TARGET");
  EXPECT_EQ(post[0].after, "SYNC_PIXEL_SHADING ACCESS_SHADER_RESOURCE LAYOUT_SHADER_RESOURCE");
  EXPECT_EQ(post[1].before, "SYNC_NONE ACCESS_NO_ACCESS");
  const auto& host = en[0].lists[1].points[1].barriers[0];
  EXPECT_TRUE(host.omitted);
  EXPECT_EQ(en[0].lists[0].points[0].barriers[1].note, "FLAG_DISCARD");

  const auto vk = lower(Api::vulkan, f.t, f.groups);
  EXPECT_EQ(vk[0].lists[1].points[0].barriers[0].after, "FRAGMENT_SHADER SHADER_SAMPLED_READ SHADER_READ_ONLY_OPTIMAL");
  EXPECT_EQ(vk[0].lists[1].points[1].barriers[1].after, "ALL_COMMANDS NONE PRESENT_SRC_KHR");

  const auto legacy = lower(Api::d3d12_legacy, f.t, f.groups);
  EXPECT_EQ(legacy[0].lists[1].points[0].barriers[0].after, "PIXEL_SHADER_RESOURCE");

  // Counting: barriers issued (omitted excluded), calls = points with something issued.
  for (const auto* view : {&en, &vk, &legacy}) {
    for (const LoweredGroup& g : *view) {
      size_t barriers = 0, calls = 0;
      for (const LoweredList& l : g.lists)
        for (const LoweredPoint& p : l.points) {
          bool any = false;
          for (const LoweredBarrier& b : p.barriers)
            if (!b.omitted) {
              barriers += b.api_barriers;
              any = true;
            }
          calls += any ? 1 : 0;
        }
      EXPECT_EQ(g.barrier_count(), barriers);
      EXPECT_EQ(g.call_count(), calls);
    }
  }
  // Vulkan issues every neutral barrier; enhanced omits only the host read.
  EXPECT_EQ(vk[0].barrier_count(), f.groups[0].barrier_count());
  EXPECT_EQ(en[0].barrier_count(), f.groups[0].barrier_count() - 1);
}

TEST(LowerApi, ParseApiRoundTrips) {
  for (Api a : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) EXPECT_EQ(parse_api(to_string(a)), a);
  EXPECT_EQ(to_string(Api::d3d12_legacy), "d3d12-legacy");
  EXPECT_FALSE(parse_api("metal").has_value());
  EXPECT_FALSE(parse_api("D3D12").has_value());
}

}  // namespace
}  // namespace baton
