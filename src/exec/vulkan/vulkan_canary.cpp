// The canary: proves the validation oracle is live before anything it says (or does not say) is
// believed. Two dispatches, src0 -> a then a -> b, with the barrier between them left out.
#include "context_impl.hpp"

namespace baton::exec {
namespace {

const uint32_t kCanaryComp[] = {
#include "canary.comp.inc"
};

constexpr uint32_t kWords = 64;

}  // namespace

CanaryResult run_canary(VulkanContext& ctx) {
  VulkanContext::Impl& c = ctx.impl();
  (void)ctx.take_messages();
  VkDescriptorSetLayout dsl = VK_NULL_HANDLE;
  VkPipelineLayout pl = VK_NULL_HANDLE;
  VkPipeline pipe = VK_NULL_HANDLE;
  VkDescriptorPool dp = VK_NULL_HANDLE;
  std::array<VkBuffer, 3> bufs{};
  std::array<VkDeviceMemory, 3> mems{};
  auto cleanup = [&] {
    vkDeviceWaitIdle(c.device);
    if (dp) vkDestroyDescriptorPool(c.device, dp, nullptr);
    if (pipe) vkDestroyPipeline(c.device, pipe, nullptr);
    if (pl) vkDestroyPipelineLayout(c.device, pl, nullptr);
    if (dsl) vkDestroyDescriptorSetLayout(c.device, dsl, nullptr);
    for (size_t i = 0; i < 3; ++i) {
      if (bufs[i]) vkDestroyBuffer(c.device, bufs[i], nullptr);
      if (mems[i]) vkFreeMemory(c.device, mems[i], nullptr);
    }
  };
  try {
    std::array<VkDescriptorSetLayoutBinding, 2> b{};
    for (uint32_t i = 0; i < 2; ++i)
      b[i] = {i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    VkDescriptorSetLayoutCreateInfo dli{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dli.bindingCount = 2;
    dli.pBindings = b.data();
    BATON_VK(vkCreateDescriptorSetLayout(c.device, &dli, nullptr, &dsl));
    VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &dsl;
    BATON_VK(vkCreatePipelineLayout(c.device, &pli, nullptr, &pl));
    VkShaderModule m = c.shader(kCanaryComp, std::size(kCanaryComp));
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = m;
    ci.stage.pName = "main";
    ci.layout = pl;
    const VkResult r = vkCreateComputePipelines(c.device, VK_NULL_HANDLE, 1, &ci, nullptr, &pipe);
    vkDestroyShaderModule(c.device, m, nullptr);
    vk_check(r, "vkCreateComputePipelines (canary)");

    for (size_t i = 0; i < 3; ++i) {
      VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
      bi.size = kWords * 4;
      bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
      BATON_VK(vkCreateBuffer(c.device, &bi, nullptr, &bufs[i]));
      VkMemoryRequirements mr;
      vkGetBufferMemoryRequirements(c.device, bufs[i], &mr);
      VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
      ai.allocationSize = mr.size;
      ai.memoryTypeIndex = c.find_memory(mr.memoryTypeBits);
      BATON_VK(vkAllocateMemory(c.device, &ai, nullptr, &mems[i]));
      BATON_VK(vkBindBufferMemory(c.device, bufs[i], mems[i], 0));
    }
    VkDescriptorPoolSize ps{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4};
    VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.maxSets = 2;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &ps;
    BATON_VK(vkCreateDescriptorPool(c.device, &dpi, nullptr, &dp));
    std::array<VkDescriptorSet, 2> sets{};
    const std::array<VkDescriptorSetLayout, 2> layouts{dsl, dsl};
    VkDescriptorSetAllocateInfo sai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    sai.descriptorPool = dp;
    sai.descriptorSetCount = 2;
    sai.pSetLayouts = layouts.data();
    BATON_VK(vkAllocateDescriptorSets(c.device, &sai, sets.data()));
    // set 0: src0 -> a; set 1: a -> b.
    const std::array<std::array<VkDescriptorBufferInfo, 2>, 2> infos{
        {{{{bufs[0], 0, VK_WHOLE_SIZE}, {bufs[1], 0, VK_WHOLE_SIZE}}},
         {{{bufs[1], 0, VK_WHOLE_SIZE}, {bufs[2], 0, VK_WHOLE_SIZE}}}}};
    std::array<VkWriteDescriptorSet, 4> w{};
    for (size_t s = 0; s < 2; ++s)
      for (uint32_t i = 0; i < 2; ++i) {
        VkWriteDescriptorSet& x = w[s * 2 + i];
        x = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        x.dstSet = sets[s];
        x.dstBinding = i;
        x.descriptorCount = 1;
        x.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        x.pBufferInfo = &infos[s][i];
      }
    vkUpdateDescriptorSets(c.device, 4, w.data(), 0, nullptr);

    VkCommandBuffer cb = c.begin_commands();
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    for (size_t s = 0; s < 2; ++s) {
      vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &sets[s], 0, nullptr);
      vkCmdDispatch(cb, 1, 1, 1);  // no barrier between the two: the hazard on purpose
    }
    c.submit_and_wait(cb);
  } catch (...) {
    cleanup();
    throw;
  }
  cleanup();
  CanaryResult out;
  out.log = ctx.take_messages();
  out.live = out.log.total() == 1 && out.log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE") == 1;
  return out;
}

}  // namespace baton::exec
