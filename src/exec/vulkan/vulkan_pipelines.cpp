// The executor's pipelines: one compute pipeline and graphics pipelines per attachment shape, all
// sharing one pipeline layout (set 0: vertex or compute stage, set 1: fragment stage).
#include "context_impl.hpp"
#include "shader_interface.hpp"

namespace baton::exec {
namespace {

const uint32_t kOpComp[] = {
#include "op.comp.inc"
};
const uint32_t kOpVert[] = {
#include "op.vert.inc"
};
const uint32_t kOpFrag0[] = {
#include "op0.frag.inc"
};
const uint32_t kOpFrag1[] = {
#include "op1.frag.inc"
};
const uint32_t kOpFrag2[] = {
#include "op2.frag.inc"
};
const uint32_t kOpFrag3[] = {
#include "op3.frag.inc"
};
const uint32_t kOpFrag4[] = {
#include "op4.frag.inc"
};

struct Code {
  const uint32_t* words;
  size_t count;
};
template <size_t N>
constexpr Code code(const uint32_t (&a)[N]) {
  return Code{a, N};
}
const Code kFragments[] = {code(kOpFrag0), code(kOpFrag1), code(kOpFrag2), code(kOpFrag3), code(kOpFrag4)};

}  // namespace

VkShaderModule VulkanContext::Impl::shader(const uint32_t* words, size_t count) {
  VkShaderModuleCreateInfo si{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  si.codeSize = count * sizeof(uint32_t);
  si.pCode = words;
  VkShaderModule m;
  BATON_VK(vkCreateShaderModule(device, &si, nullptr, &m));
  return m;
}

void create_pipelines(VulkanContext::Impl& c) {
  std::array<VkDescriptorSetLayoutBinding, kCategories> bindings{};
  for (uint32_t i = 0; i < kCategories; ++i) {
    bindings[i].binding = i;
    bindings[i].descriptorType = kCategoryTypes[i];
    bindings[i].descriptorCount = kSlots;
    bindings[i].stageFlags =
        VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT | VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo dli{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dli.bindingCount = kCategories;
  dli.pBindings = bindings.data();
  BATON_VK(vkCreateDescriptorSetLayout(c.device, &dli, nullptr, &c.set_layout));
  const VkDescriptorSetLayout sets[2] = {c.set_layout, c.set_layout};
  VkPushConstantRange range{kPushStages, 0, sizeof(PushConstants)};
  VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pli.setLayoutCount = 2;
  pli.pSetLayouts = sets;
  pli.pushConstantRangeCount = 1;
  pli.pPushConstantRanges = &range;
  BATON_VK(vkCreatePipelineLayout(c.device, &pli, nullptr, &c.pipeline_layout));

  VkShaderModule m = c.shader(kOpComp, std::size(kOpComp));
  VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = m;
  ci.stage.pName = "main";
  ci.layout = c.pipeline_layout;
  const VkResult r = vkCreateComputePipelines(c.device, VK_NULL_HANDLE, 1, &ci, nullptr, &c.compute);
  vkDestroyShaderModule(c.device, m, nullptr);
  vk_check(r, "vkCreateComputePipelines");
}

VkPipeline VulkanContext::Impl::graphics_pipeline(const GraphicsKey& key) {
  if (auto it = graphics.find(key); it != graphics.end()) return it->second;
  VkShaderModule vs = shader(kOpVert, std::size(kOpVert));
  VkShaderModule fs = shader(kFragments[key.colors].words, kFragments[key.colors].count);
  VkPipelineShaderStageCreateInfo stages[2]{};
  stages[0] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = vs;
  stages[0].pName = "main";
  stages[1] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = fs;
  stages[1].pName = "main";

  // One uint attribute with stride 0: every vertex reads word 0 of the bound vertex buffer.
  VkVertexInputBindingDescription vb{0, 0, VK_VERTEX_INPUT_RATE_VERTEX};
  VkVertexInputAttributeDescription va{0, 0, VK_FORMAT_R32_UINT, 0};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vi.vertexBindingDescriptionCount = 1;
  vi.pVertexBindingDescriptions = &vb;
  vi.vertexAttributeDescriptionCount = 1;
  vi.pVertexAttributeDescriptions = &va;
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  vp.viewportCount = 1;
  vp.scissorCount = 1;
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  ds.depthTestEnable = key.depth != VK_FORMAT_UNDEFINED;
  ds.depthWriteEnable = key.depth_write;
  // depth_write: every fragment passes and writes; depth_read: the stored depth decides which
  // pixels the colour outputs reach, so the read shows up in the data.
  ds.depthCompareOp = key.depth_write ? VK_COMPARE_OP_ALWAYS : VK_COMPARE_OP_LESS_OR_EQUAL;
  std::array<VkPipelineColorBlendAttachmentState, 4> blend{};
  for (auto& b : blend) b.colorWriteMask = VK_COLOR_COMPONENT_R_BIT;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = key.colors;
  cb.pAttachments = blend.data();
  const VkDynamicState dyn[] = {VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo dy{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dy.dynamicStateCount = 2;
  dy.pDynamicStates = dyn;
  std::array<VkFormat, 4> formats;
  formats.fill(kColorFormat);
  VkPipelineRenderingCreateInfo ri{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  ri.colorAttachmentCount = key.colors;
  ri.pColorAttachmentFormats = formats.data();
  ri.depthAttachmentFormat = key.depth;
  ri.stencilAttachmentFormat = key.stencil ? key.depth : VK_FORMAT_UNDEFINED;

  VkGraphicsPipelineCreateInfo gi{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  gi.pNext = &ri;
  gi.stageCount = 2;
  gi.pStages = stages;
  gi.pVertexInputState = &vi;
  gi.pInputAssemblyState = &ia;
  gi.pViewportState = &vp;
  gi.pRasterizationState = &rs;
  gi.pMultisampleState = &ms;
  gi.pDepthStencilState = &ds;
  gi.pColorBlendState = &cb;
  gi.pDynamicState = &dy;
  gi.layout = pipeline_layout;
  VkPipeline p;
  const VkResult r = vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &gi, nullptr, &p);
  vkDestroyShaderModule(device, vs, nullptr);
  vkDestroyShaderModule(device, fs, nullptr);
  vk_check(r, "vkCreateGraphicsPipelines");
  graphics.emplace(key, p);
  return p;
}

}  // namespace baton::exec
