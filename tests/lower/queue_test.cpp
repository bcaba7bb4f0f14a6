// Queue legality: what a compute or copy list cannot express is an error naming group, list, op and
// resource, in every API.
#include <gtest/gtest.h>

#include "baton/lower_d3d12.hpp"
#include "baton/lower_vulkan.hpp"
#include "helpers.hpp"

namespace baton {
namespace {

using test::barrier;
using test::use;

std::string error_of(Api api, const ResourceTable& t, const std::vector<CompiledGroup>& gs) {
  try {
    lower(api, t, gs);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

std::vector<CompiledGroup> one(const std::string& g, const std::string& l, Queue q, uint32_t op,
                               std::vector<Barrier> bs) {
  std::vector<CompiledGroup> gs;
  gs.push_back(test::group(g, q, {test::list(l, q, {{op, Where::before, std::move(bs)}})}));
  return gs;
}

TEST(LowerQueue, RenderTargetOnComputeListIsAnErrorInEveryApi) {
  ResourceTable t;
  const ResourceId gbuf = t.add(test::texture("gbuf", bit(Access::render_target) | bit(Access::unordered_access)));
  const State uav = use(t[gbuf], Access::unordered_access, stages(Stage::compute));
  const auto gs = one("async", "sim", Queue::compute, 3,
                      {barrier(t, gbuf, uav, use(t[gbuf], Access::render_target), Reason::state_change)});
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) {
    const std::string e = error_of(api, t, gs);
    EXPECT_NE(e.find("group 'async' list 'sim' op 3: resource 'gbuf' access render_target is not allowed on a "
                     "compute list"),
              std::string::npos)
        << to_string(api) << ": " << e;
  }
}

TEST(LowerQueue, ShaderResourceOnCopyListIsAnError) {
  ResourceTable t;
  const ResourceId tex = t.add(test::texture("tex", bit(Access::shader_resource) | bit(Access::copy_dest)));
  const auto gs = one("upload", "copy", Queue::copy, 0,
                      {barrier(t, tex, use(t[tex], Access::copy_dest), use(t[tex], Access::shader_resource, kAllShading),
                               Reason::state_change)});
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) {
    const std::string e = error_of(api, t, gs);
    EXPECT_NE(e.find("group 'upload' list 'copy' op 0: resource 'tex' access shader_resource is not allowed on a "
                     "copy list"),
              std::string::npos)
        << to_string(api) << ": " << e;
  }
}

TEST(LowerQueue, PixelStageInsideAComputeListIsAnError) {
  ResourceTable t;
  const ResourceId tex = t.add(test::texture("tex", bit(Access::shader_resource) | bit(Access::unordered_access)));
  const auto gs = one("async", "ao", Queue::compute, 1,
                      {barrier(t, tex, use(t[tex], Access::unordered_access, stages(Stage::compute)),
                               use(t[tex], Access::shader_resource, stages(Stage::pixel)), Reason::state_change)});
  for (Api api : {Api::d3d12, Api::vulkan}) {
    const std::string e = error_of(api, t, gs);
    EXPECT_NE(e.find("resource 'tex' sync pixel_shading is not allowed on a compute list"), std::string::npos)
        << to_string(api) << ": " << e;
  }
}

TEST(LowerQueue, StagesOfOtherQueuesInTheRestingStateAreClampedNotRejected) {
  // The resting state names every shader stage; on a compute list the earlier graphics work is
  // ordered by the fence, so only the compute stage is waited for.
  ResourceTable t;
  const ResourceId tex = t.add(test::texture("ao", bit(Access::shader_resource) | bit(Access::unordered_access)));
  const auto gs = one("async", "ao", Queue::compute, 0,
                      {barrier(t, tex, resting_state(t[tex]), use(t[tex], Access::unordered_access, stages(Stage::compute)),
                               Reason::from_rest)});
  const VulkanPlan vk = lower_vulkan(t, gs);
  EXPECT_EQ(vk.groups[0].lists[0].points.at(0).images.at(0).srcStageMask, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
  const D3D12EnhancedPlan en = lower_d3d12_enhanced(t, gs);
  const D3D12_TEXTURE_BARRIER& tb = en.groups[0].lists[0].points.at(0).textures.at(0);
  EXPECT_EQ(tb.SyncBefore, D3D12_BARRIER_SYNC_COMPUTE_SHADING);
  EXPECT_EQ(tb.LayoutBefore, D3D12_BARRIER_LAYOUT_SHADER_RESOURCE);
  EXPECT_EQ(tb.LayoutAfter, D3D12_BARRIER_LAYOUT_UNORDERED_ACCESS);
}

TEST(LowerQueue, LegacyComputeListCannotLeavePixelShaderResource) {
  // The direct group leaves the texture explicitly in PIXEL|NON_PIXEL_SHADER_RESOURCE; a compute
  // list cannot name PIXEL_SHADER_RESOURCE as StateBefore.
  ResourceTable t;
  const ResourceId tex = t.add(test::texture("ao", bit(Access::shader_resource) | bit(Access::render_target)));
  const State rt = use(t[tex], Access::render_target);
  std::vector<CompiledGroup> gs;
  gs.push_back(test::group("main", Queue::direct,
                           {test::list("draw", Queue::direct,
                                       {{0, Where::before, {barrier(t, tex, kFirstTouch, rt, Reason::first_touch)}},
                                        {0, Where::after, {barrier(t, tex, rt, resting_state(t[tex]), Reason::restore)}}})}));
  const auto more = one("async", "blur", Queue::compute, 2,
                        {barrier(t, tex, resting_state(t[tex]), use(t[tex], Access::unordered_access, stages(Stage::compute)),
                                 Reason::from_rest)});
  gs.push_back(more[0]);
  const std::string e = error_of(Api::d3d12_legacy, t, gs);
  EXPECT_NE(e.find("group 'async' list 'blur' op 2: resource 'ao'"), std::string::npos) << e;
  EXPECT_NE(e.find("PIXEL_SHADER_RESOURCE is not allowed on a compute list"), std::string::npos) << e;
  // Enhanced barriers and Vulkan carry only the layout across: fine there.
  EXPECT_NO_THROW(lower(Api::d3d12, t, gs));
  EXPECT_NO_THROW(lower(Api::vulkan, t, gs));
}

TEST(LowerQueue, CopyListsOnlyNameCopyStates) {
  ResourceTable t;
  const ResourceId b = t.add(test::buffer("staging"));
  const auto gs = one("upload", "copy", Queue::copy, 0,
                      {barrier(t, b, resting_state(t[b]), use(t[b], Access::copy_dest), Reason::from_rest)});
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) EXPECT_NO_THROW(lower(api, t, gs)) << to_string(api);
  const D3D12EnhancedPlan en = lower_d3d12_enhanced(t, gs);
  const D3D12_BUFFER_BARRIER& bb = en.groups[0].lists[0].points.at(0).buffers.at(0);
  EXPECT_EQ(bb.SyncBefore, D3D12_BARRIER_SYNC_ALL);
  EXPECT_EQ(bb.AccessBefore, D3D12_BARRIER_ACCESS_COMMON);
  EXPECT_EQ(bb.SyncAfter, D3D12_BARRIER_SYNC_COPY);
  EXPECT_EQ(bb.AccessAfter, D3D12_BARRIER_ACCESS_COPY_DEST);
}

}  // namespace
}  // namespace baton
