// The external-renderer hand-off scenario on Vulkan (include/exec/baton/exec_vulkan_handoff.hpp).
#include "baton/exec_vulkan_handoff.hpp"

#include <fmt/format.h>

#include <cstring>

#include "baton/lower_vulkan.hpp"
#include "context_impl.hpp"

namespace baton::exec {
namespace {

constexpr uint32_t kSize = 64;
constexpr uint32_t kTexels = kSize * kSize;
constexpr uint32_t kUploaded = 0x1111u, kRendered = 0x4242u;

struct Rig {
  VulkanContext::Impl& c;
  VkImage image = VK_NULL_HANDLE;
  VkBuffer staging = VK_NULL_HANDLE, out = VK_NULL_HANDLE;
  std::vector<VkDeviceMemory> memory;
  VkCommandPool renderer_pool = VK_NULL_HANDLE;
  std::vector<VkSemaphore> semaphores;

  explicit Rig(VulkanContext::Impl& ctx) : c(ctx) {}
  ~Rig() {
    vkDeviceWaitIdle(c.device);
    if (image) vkDestroyImage(c.device, image, nullptr);
    if (staging) vkDestroyBuffer(c.device, staging, nullptr);
    if (out) vkDestroyBuffer(c.device, out, nullptr);
    for (VkDeviceMemory m : memory) vkFreeMemory(c.device, m, nullptr);
    for (VkSemaphore s : semaphores) vkDestroySemaphore(c.device, s, nullptr);
    if (renderer_pool) vkDestroyCommandPool(c.device, renderer_pool, nullptr);
  }
  VkDeviceMemory allocate(VkMemoryRequirements mr, bool host) {
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = mr.size;
    ai.memoryTypeIndex = c.find_memory(mr.memoryTypeBits, host);
    VkDeviceMemory m;
    BATON_VK(vkAllocateMemory(c.device, &ai, nullptr, &m));
    memory.push_back(m);
    return m;
  }
  VkBuffer buffer(VkBufferUsageFlags usage, uint32_t** map) {
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = kTexels * 4;
    bi.usage = usage;
    VkBuffer b;
    BATON_VK(vkCreateBuffer(c.device, &bi, nullptr, &b));
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(c.device, b, &mr);
    VkDeviceMemory m = allocate(mr, true);
    BATON_VK(vkBindBufferMemory(c.device, b, m, 0));
    BATON_VK(vkMapMemory(c.device, m, 0, VK_WHOLE_SIZE, 0, reinterpret_cast<void**>(map)));
    return b;
  }
  VkSemaphore semaphore() {
    VkSemaphoreCreateInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore s;
    BATON_VK(vkCreateSemaphore(c.device, &si, nullptr, &s));
    semaphores.push_back(s);
    return s;
  }
  VkCommandBuffer begin(VkCommandPool pool) { return c.begin_commands(pool); }
  void submit(VkQueue q, VkCommandBuffer cb, VkSemaphore wait, VkSemaphore signal) {
    BATON_VK(vkEndCommandBuffer(cb));
    VkCommandBufferSubmitInfo ci{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, cb, 0};
    VkSemaphoreSubmitInfo w{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO}, s{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    w.semaphore = wait;
    w.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    s.semaphore = signal;
    s.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    si.commandBufferInfoCount = 1;
    si.pCommandBufferInfos = &ci;
    si.waitSemaphoreInfoCount = wait ? 1u : 0u;
    si.pWaitSemaphoreInfos = &w;
    si.signalSemaphoreInfoCount = signal ? 1u : 0u;
    si.pSignalSemaphoreInfos = &s;
    BATON_VK(vkQueueSubmit2(q, 1, &si, VK_NULL_HANDLE));
  }
};

void barrier(VkCommandBuffer cb, VkImageMemoryBarrier2 b, VkImage image) {
  b.image = image;
  VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  di.imageMemoryBarrierCount = 1;
  di.pImageMemoryBarriers = &b;
  vkCmdPipelineBarrier2(cb, &di);
}

// Baton's plan for one group's list at one point, handles filled in.
void record_point(VkCommandBuffer cb, const VulkanList& list, Where where, VkImage image, VkBuffer staging,
                  VkBuffer out, const std::array<ResourceId, 3>& ids) {
  for (VulkanPoint p : list.points) {
    if (p.op != 0 || p.where != where) continue;
    for (size_t i = 0; i < p.images.size(); ++i) p.images[i].image = image;
    for (size_t i = 0; i < p.buffers.size(); ++i)
      p.buffers[i].buffer = p.buffer_resources[i] == ids[1] ? staging : out;
    const VkDependencyInfo di = p.dependency_info();
    vkCmdPipelineBarrier2(cb, &di);
  }
}

// The stand-in renderer: its own barriers from the layout it tracks; clears; leaves GENERAL.
struct Renderer {
  VkImageLayout tracked;
  std::vector<VkImageMemoryBarrier2> issued;
  void render(VkCommandBuffer cb, VkImage image, uint32_t value) {
    const VkImageSubresourceRange all{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageMemoryBarrier2 to_dst{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    to_dst.srcStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT;
    to_dst.dstStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT;
    to_dst.dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    to_dst.oldLayout = tracked;
    to_dst.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    to_dst.srcQueueFamilyIndex = to_dst.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_dst.subresourceRange = all;
    barrier(cb, to_dst, image);
    issued.push_back(to_dst);
    VkClearColorValue v{};
    v.uint32[0] = value;
    vkCmdClearColorImage(cb, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &v, 1, &all);
    VkImageMemoryBarrier2 to_general = to_dst;
    to_general.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    to_general.dstAccessMask = VK_ACCESS_2_NONE;
    to_general.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    to_general.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    barrier(cb, to_general, image);
    issued.push_back(to_general);
    tracked = VK_IMAGE_LAYOUT_GENERAL;
  }
};

Recording handoff_recording() {
  Recording rec;
  ResourceDesc t;
  t.name = "overlay";
  t.type = ResourceType::texture;
  t.width = t.height = kSize;
  t.format = FormatClass::color;
  t.usage = bit(Access::copy_dest) | bit(Access::copy_source) | bit(Access::shader_resource);
  rec.resources.add(t);
  for (auto [name, a] : {std::pair{"staging", Access::copy_source}, std::pair{"out", Access::copy_dest}}) {
    ResourceDesc b;
    b.name = name;
    b.type = ResourceType::buffer;
    b.size = kTexels * 4;
    b.usage = bit(a);
    rec.resources.add(b);
  }
  auto group = [&](const char* g, const char* l, std::vector<Use> uses) {
    auto grp = std::make_unique<CommandListGroup>(g, Queue::direct);
    auto list = std::make_unique<CommandList>(l, Queue::direct);
    Operation op;
    op.kind = OpKind::copy;
    op.uses = std::move(uses);
    list->append_operation(op);
    list->close();
    grp->add(*list);
    rec.lists.push_back(std::move(list));
    rec.groups.push_back(std::move(grp));
  };
  group("before", "upload", {{1, Access::copy_source, kNoStages, {}}, {0, Access::copy_dest, kNoStages, {}}});
  group("after", "readout", {{0, Access::copy_source, kNoStages, {}}, {2, Access::copy_dest, kNoStages, {}}});
  return rec;
}

}  // namespace

VulkanHandoffResult run_vulkan_handoff(VulkanContext& ctx, const VulkanHandoffOptions& o) {
  VulkanContext::Impl& c = ctx.impl();
  if (o.cross_family && !c.compute_family)
    throw Error("hand-off: cross_family needs a context with a compute-only queue family (async_compute)");
  const Recording rec = handoff_recording();
  const std::vector<CommandListGroup*> groups = rec.group_ptrs();
  const CompileResult compiled = compile_all(rec.resources, groups, fresh_history(rec.resources));
  const VulkanPlan plan = lower_vulkan(rec.resources, compiled.groups);
  const ResourceDesc& desc = rec.resources[0];

  VulkanHandoffResult r;
  r.baton_family = c.family;
  r.renderer_family = o.cross_family ? *c.compute_family : c.family;
  const VkQueue renderer_queue = o.cross_family ? c.compute_queue : c.queue;
  // The renderer's declarations: it clears in GENERAL's company (wants GENERAL, leaves GENERAL).
  const VulkanExternal wants{VK_IMAGE_LAYOUT_GENERAL, r.renderer_family, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                             VK_ACCESS_2_TRANSFER_WRITE_BIT};
  const VulkanExternal leaves{VK_IMAGE_LAYOUT_GENERAL, r.renderer_family, VK_PIPELINE_STAGE_2_CLEAR_BIT,
                              VK_ACCESS_2_TRANSFER_WRITE_BIT};
  // Baton's side of the boundary: the texture rests between groups (the plan restores it after
  // "before" and starts "after" from rest).
  const State rest = resting_state(desc);
  r.exported = vulkan_export(desc, rest, c.family, wants);
  r.imported = vulkan_import(desc, leaves, rest, c.family);

  Rig rig(c);
  VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ii.imageType = VK_IMAGE_TYPE_2D;
  ii.format = VK_FORMAT_R32_UINT;
  ii.extent = {kSize, kSize, 1};
  ii.mipLevels = ii.arrayLayers = 1;
  ii.samples = VK_SAMPLE_COUNT_1_BIT;
  ii.tiling = VK_IMAGE_TILING_OPTIMAL;
  ii.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  ii.sharingMode = VK_SHARING_MODE_EXCLUSIVE;  // ownership moves by release/acquire across families
  ii.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  BATON_VK(vkCreateImage(c.device, &ii, nullptr, &rig.image));
  VkMemoryRequirements mr;
  vkGetImageMemoryRequirements(c.device, rig.image, &mr);
  BATON_VK(vkBindImageMemory(c.device, rig.image, rig.allocate(mr, false), 0));
  uint32_t *staging_map = nullptr, *out_map = nullptr;
  rig.staging = rig.buffer(VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &staging_map);
  rig.out = rig.buffer(VK_BUFFER_USAGE_TRANSFER_DST_BIT, &out_map);
  for (uint32_t i = 0; i < kTexels; ++i) staging_map[i] = kUploaded + i;
  std::memset(out_map, 0, kTexels * 4);
  VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pi.queueFamilyIndex = r.renderer_family;
  BATON_VK(vkCreateCommandPool(c.device, &pi, nullptr, &rig.renderer_pool));
  const std::array<ResourceId, 3> ids{0, 1, 2};
  const VkBufferImageCopy region{0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {kSize, kSize, 1}};
  ctx.take_messages();

  // Baton, group "before": its plan around the upload, then the export's release (across families).
  VkCommandBuffer before = rig.begin(c.pool);
  const VulkanList& upload = plan.groups[0].lists[0];
  record_point(before, upload, Where::before, rig.image, rig.staging, rig.out, ids);
  vkCmdCopyBufferToImage(before, rig.staging, rig.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
  record_point(before, upload, Where::after, rig.image, rig.staging, rig.out, ids);
  if (r.exported.before_release) barrier(before, *r.exported.before_release, rig.image);
  if (r.exported.release) barrier(before, *r.exported.release, rig.image);

  // The renderer: Baton's export acquire (within one family the whole barrier), its own barriers
  // from the layout it tracks, its clear; then the import's release (across families).
  VkCommandBuffer theirs = rig.begin(rig.renderer_pool);
  barrier(theirs, r.exported.acquire, rig.image);
  Renderer renderer{o.renderer_seed.value_or(r.exported.acquire.newLayout), {}};
  renderer.render(theirs, rig.image, kRendered);
  if (r.imported.before_release) barrier(theirs, *r.imported.before_release, rig.image);
  if (r.imported.release) barrier(theirs, *r.imported.release, rig.image);
  r.renderer_barriers = renderer.issued;

  // Baton, group "after": the import's acquire, then its plan around the copy out.
  VkCommandBuffer after = rig.begin(c.pool);
  if (!o.skip_import) barrier(after, r.imported.acquire, rig.image);
  const VulkanList& readout = plan.groups[1].lists[0];
  record_point(after, readout, Where::before, rig.image, rig.staging, rig.out, ids);
  vkCmdCopyImageToBuffer(after, rig.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rig.out, 1, &region);
  record_point(after, readout, Where::after, rig.image, rig.staging, rig.out, ids);
  copy_to_host_barrier(after);

  const VkSemaphore to_renderer = o.cross_family ? rig.semaphore() : VK_NULL_HANDLE;
  const VkSemaphore to_baton = o.cross_family ? rig.semaphore() : VK_NULL_HANDLE;
  rig.submit(c.queue, before, VK_NULL_HANDLE, to_renderer);
  rig.submit(renderer_queue, theirs, to_renderer, to_baton);
  rig.submit(c.queue, after, to_baton, VK_NULL_HANDLE);
  BATON_VK(vkQueueWaitIdle(c.queue));
  if (o.cross_family) BATON_VK(vkQueueWaitIdle(renderer_queue));

  r.expected = kRendered;
  r.first_got = out_map[0];
  for (uint32_t i = 0; i < kTexels; ++i) {
    ++r.texels_checked;
    if (out_map[i] != kRendered) ++r.texels_wrong;
  }
  r.validation = ctx.take_messages();
  return r;
}

}  // namespace baton::exec
