// Baton runtime sample: a small deferred renderer whose frames Baton's runtime runs. The engine
// (this file) owns the instance, the device, the queues, its pipelines and descriptors, the images
// that persist across frames and a host-visible read-back buffer; Baton places the transients in
// one shared allocation, computes and records every barrier (the imported images' first
// transitions included), owns the image views the passes ask for, and submits with the semaphores
// the schedule needs. No pass below records a barrier or names a layout: each asks Baton
// (PassContext::layout) which layout its barriers left the subresource in.
//
// One frame (128x128):
//   gbuffer          graphics  albedo + normal (render targets), depth (depth_write); a procedural
//                              scene, jittered by a sub-pixel offset per frame for TAA
//   ssao             async     depth + normal (sampled) -> ao (storage); on a compute-only queue
//                    compute   family where the device has one, on the graphics queue otherwise
//   lighting         graphics  albedo, normal, depth, ao (sampled) -> hdr (render target)
//   bloom_prefilter  compute   hdr -> bloom mip 0 (the bright part, half resolution)
//   bloom_down1..3   compute   bloom mip i-1 (sampled) -> mip i (storage): one transient image, a
//                              use per mip
//   bloom_up2..0     compute   bloom mip i+1 (sampled) added into mip i (storage, read-modify-write)
//   taa              compute   hdr (sampled) blended into `history` (storage, read and written in
//                              place): an imported image that persists across frames
//   tonemap          graphics  history + bloom mip 0 (sampled) -> `final` (render target), imported
//   readback         copy      final -> the read-back buffer; `host` declares the CPU's read
//
// Four frames run (two in flight); then the last frame's image is written to frame.png (or the
// path given as the first argument) and compared with reference.png next to this file. Exit 0 only
// if the Khronos validation layer (with synchronization validation) reported nothing and the image
// matches: at most kMaxDifferentFraction of the pixels may have a channel more than
// kChannelTolerance away from the reference. BATON_SAMPLE_UPDATE_REFERENCE=1 rewrites the reference
// instead (still failing on any layer message); BATON_SAMPLE_REFERENCE=PATH reads (or rewrites) the
// reference at PATH. BATON_VK_DEVICE=gpu picks the first non-CPU device. BATON_SAMPLE_PRINT_PLAN=1
// prints the first frame's plan (every barrier and semaphore Baton computed).
#include <algorithm>
#include <baton/runtime.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "png.hpp"

using namespace baton;
using namespace baton::runtime;

namespace {

// SPIR-V compiled by glslc at build time (CMakeLists.txt).
const uint32_t kFullscreenVert[] = {
#include "fullscreen.vert.inc"
};
const uint32_t kGbufferVert[] = {
#include "gbuffer.vert.inc"
};
const uint32_t kGbufferFrag[] = {
#include "gbuffer.frag.inc"
};
const uint32_t kSsaoComp[] = {
#include "ssao.comp.inc"
};
const uint32_t kLightingFrag[] = {
#include "lighting.frag.inc"
};
const uint32_t kBloomPrefilterComp[] = {
#include "bloom_prefilter.comp.inc"
};
const uint32_t kBloomDownComp[] = {
#include "bloom_down.comp.inc"
};
const uint32_t kBloomUpComp[] = {
#include "bloom_up.comp.inc"
};
const uint32_t kTaaComp[] = {
#include "taa.comp.inc"
};
const uint32_t kTonemapFrag[] = {
#include "tonemap.frag.inc"
};

constexpr uint32_t kSide = 128;
constexpr uint32_t kBloomMips = 4;  // 64, 32, 16, 8
constexpr uint32_t kFrames = 4;
constexpr uint32_t kGbufferVertices = 3 * (4 + 3 * 4);  // floor, wall, three pyramids
constexpr VkDeviceSize kImageBytes = VkDeviceSize{kSide} * kSide * 4;
// The comparison with the reference: lavapipe and a real GPU rasterize triangle edges and round
// half floats a little differently.
constexpr int kChannelTolerance = 8;            // of 255, per channel
constexpr double kMaxDifferentFraction = 0.01;  // pixels beyond the channel tolerance

constexpr VkFormat kAlbedoFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr VkFormat kHalfFormat = VK_FORMAT_R16G16B16A16_SFLOAT;  // normal, hdr, bloom, history
constexpr VkFormat kDepthFormat = VK_FORMAT_D32_SFLOAT;
constexpr VkFormat kAoFormat = VK_FORMAT_R32_SFLOAT;
constexpr VkFormat kFinalFormat = VK_FORMAT_R8G8B8A8_UNORM;

int g_messages = 0;

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT type,
                                          const VkDebugUtilsMessengerCallbackDataEXT* data, void*) {
  if ((type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) &&
      severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    ++g_messages;
    std::fprintf(stderr, "layer: %s\n", data->pMessage);
  }
  return VK_FALSE;
}

#define CHECK(call)                                                         \
  do {                                                                      \
    const VkResult r_ = (call);                                             \
    if (r_ != VK_SUCCESS) {                                                 \
      std::fprintf(stderr, "%s failed: %d\n", #call, static_cast<int>(r_)); \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)

uint32_t memory_type(VkPhysicalDevice pd, uint32_t bits, VkMemoryPropertyFlags want) {
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(pd, &mp);
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
    if ((bits >> i & 1u) && (mp.memoryTypes[i].propertyFlags & want) == want) return i;
  std::fprintf(stderr, "no memory type\n");
  std::exit(1);
}

VkImageCreateInfo image_info(VkFormat format, uint32_t side, uint32_t mips, VkImageUsageFlags usage) {
  VkImageCreateInfo i{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  i.imageType = VK_IMAGE_TYPE_2D;
  i.format = format;
  i.extent = {side, side, 1};
  i.mipLevels = mips;
  i.arrayLayers = 1;
  i.samples = VK_SAMPLE_COUNT_1_BIT;
  i.usage = usage;
  i.sharingMode = VK_SHARING_MODE_EXCLUSIVE;  // transients: the runtime picks the sharing mode
  return i;
}

// A pipeline whose descriptors are pushed (VK_KHR_push_descriptor): no pools to share between
// recording threads.
struct Pipeline {
  VkPipelineBindPoint bind = VK_PIPELINE_BIND_POINT_COMPUTE;
  VkDescriptorSetLayout set = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline pipeline = VK_NULL_HANDLE;
};

struct Binding {
  VkDescriptorType type;
  VkImageView view;
  VkImageLayout layout;
};

struct Gpu {
  VkDevice dev = VK_NULL_HANDLE;
  VkSampler sampler = VK_NULL_HANDLE;  // nearest; the shaders only texelFetch
  PFN_vkCmdPushDescriptorSetKHR push_descriptors = nullptr;

  VkShaderModule module(const uint32_t* code, size_t bytes) const {
    VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    ci.codeSize = bytes;
    ci.pCode = code;
    VkShaderModule m;
    CHECK(vkCreateShaderModule(dev, &ci, nullptr, &m));
    return m;
  }

  void layout(Pipeline& p, const std::vector<VkDescriptorType>& types, VkShaderStageFlags stages,
              uint32_t push_bytes) const {
    std::vector<VkDescriptorSetLayoutBinding> b(types.size());
    for (uint32_t i = 0; i < types.size(); ++i) b[i] = {i, types[i], 1, stages, nullptr};
    VkDescriptorSetLayoutCreateInfo dli{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dli.flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR;
    dli.bindingCount = static_cast<uint32_t>(b.size());
    dli.pBindings = b.data();
    CHECK(vkCreateDescriptorSetLayout(dev, &dli, nullptr, &p.set));
    const VkPushConstantRange range{stages, 0, push_bytes};
    VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &p.set;
    pli.pushConstantRangeCount = push_bytes ? 1 : 0;
    pli.pPushConstantRanges = &range;
    CHECK(vkCreatePipelineLayout(dev, &pli, nullptr, &p.layout));
  }

  template <size_t N>
  Pipeline compute(const uint32_t (&code)[N], const std::vector<VkDescriptorType>& types,
                   uint32_t push_bytes = 0) const {
    Pipeline p;
    layout(p, types, VK_SHADER_STAGE_COMPUTE_BIT, push_bytes);
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                nullptr,
                0,
                VK_SHADER_STAGE_COMPUTE_BIT,
                module(code, sizeof(code)),
                "main",
                nullptr};
    ci.layout = p.layout;
    CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &ci, nullptr, &p.pipeline));
    vkDestroyShaderModule(dev, ci.stage.module, nullptr);
    return p;
  }

  // Dynamic rendering into `colours` (+ depth where given), a fixed kSide x kSide viewport.
  template <size_t V, size_t F>
  Pipeline graphics(const uint32_t (&vs)[V], const uint32_t (&fs)[F],
                    const std::vector<VkDescriptorType>& types, const std::vector<VkFormat>& colours,
                    VkFormat depth, uint32_t push_bytes = 0) const {
    Pipeline p;
    p.bind = VK_PIPELINE_BIND_POINT_GRAPHICS;
    layout(p, types, VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, push_bytes);
    const VkPipelineShaderStageCreateInfo st[2] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT,
         module(vs, sizeof(vs)), "main", nullptr},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT,
         module(fs, sizeof(fs)), "main", nullptr}};
    VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    const VkViewport viewport{0, 0, float(kSide), float(kSide), 0, 1};
    const VkRect2D scissor{{0, 0}, {kSide, kSide}};
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
    vp.viewportCount = vp.scissorCount = 1;
    vp.pViewports = &viewport;
    vp.pScissors = &scissor;
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.cullMode = VK_CULL_MODE_NONE;
    rs.lineWidth = 1;
    VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineDepthStencilStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
    ds.depthTestEnable = ds.depthWriteEnable = depth != VK_FORMAT_UNDEFINED;
    ds.depthCompareOp = VK_COMPARE_OP_LESS;
    std::vector<VkPipelineColorBlendAttachmentState> blend(colours.size());
    for (auto& b : blend) b.colorWriteMask = 0xF;
    VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = static_cast<uint32_t>(blend.size());
    cb.pAttachments = blend.data();
    VkPipelineRenderingCreateInfo ri{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    ri.colorAttachmentCount = static_cast<uint32_t>(colours.size());
    ri.pColorAttachmentFormats = colours.data();
    ri.depthAttachmentFormat = depth;
    VkGraphicsPipelineCreateInfo ci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &ri};
    ci.stageCount = 2;
    ci.pStages = st;
    ci.pVertexInputState = &vi;
    ci.pInputAssemblyState = &ia;
    ci.pViewportState = &vp;
    ci.pRasterizationState = &rs;
    ci.pMultisampleState = &ms;
    ci.pDepthStencilState = &ds;
    ci.pColorBlendState = &cb;
    ci.layout = p.layout;
    CHECK(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &ci, nullptr, &p.pipeline));
    for (const auto& s : st) vkDestroyShaderModule(dev, s.module, nullptr);
    return p;
  }

  void destroy(Pipeline& p) const {
    vkDestroyPipeline(dev, p.pipeline, nullptr);
    vkDestroyPipelineLayout(dev, p.layout, nullptr);
    vkDestroyDescriptorSetLayout(dev, p.set, nullptr);
  }

  // Binds the pipeline and pushes its descriptors, each image in the layout the binding names (the
  // one Baton's barriers put it in for the pass: PassContext::layout).
  void bind(VkCommandBuffer cmd, const Pipeline& p, const std::vector<Binding>& bindings) const {
    vkCmdBindPipeline(cmd, p.bind, p.pipeline);
    if (bindings.empty()) return;
    std::vector<VkDescriptorImageInfo> infos(bindings.size());
    std::vector<VkWriteDescriptorSet> writes(bindings.size());
    for (uint32_t i = 0; i < bindings.size(); ++i) {
      const bool sampled = bindings[i].type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
      infos[i] = {sampled ? sampler : VK_NULL_HANDLE, bindings[i].view, bindings[i].layout};
      writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      writes[i].dstBinding = i;
      writes[i].descriptorCount = 1;
      writes[i].descriptorType = bindings[i].type;
      writes[i].pImageInfo = &infos[i];
    }
    push_descriptors(cmd, p.bind, p.layout, 0, static_cast<uint32_t>(writes.size()), writes.data());
  }
};

constexpr VkDescriptorType kSampled = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
constexpr VkDescriptorType kStorage = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;

void dispatch(VkCommandBuffer cmd, uint32_t side) {
  vkCmdDispatch(cmd, (side + 7) / 8, (side + 7) / 8, 1);
}

// One mip of a declared image as a descriptor: a view owned by the runtime (destroyed when the
// frame retires; transient images exist only while the frame is recorded) in the layout Baton's
// barriers put that mip in for this pass.
Binding sampled(const PassContext& c, Res r, uint32_t mip = 0) {
  return {kSampled, c.view(r, {mip, 1}), c.layout(r, mip)};
}
Binding storage(const PassContext& c, Res r, uint32_t mip = 0) {
  return {kStorage, c.view(r, {mip, 1}), c.layout(r, mip)};
}

// A declared image as a cleared and stored attachment, in the layout Baton gave it.
VkRenderingAttachmentInfo attachment(const PassContext& c, Res r) {
  VkRenderingAttachmentInfo a{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  a.imageView = c.view(r);
  a.imageLayout = c.layout(r);
  a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  return a;
}

void begin_rendering(VkCommandBuffer cmd, const std::vector<VkRenderingAttachmentInfo>& colours,
                     const VkRenderingAttachmentInfo* depth = nullptr) {
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {kSide, kSide}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = static_cast<uint32_t>(colours.size());
  ri.pColorAttachments = colours.data();
  ri.pDepthAttachment = depth;
  vkCmdBeginRendering(cmd, &ri);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string out_path = argc > 1 ? argv[1] : "frame.png";
  const char* update = std::getenv("BATON_SAMPLE_UPDATE_REFERENCE");
  const bool update_reference = update && std::strcmp(update, "1") == 0;
  const char* print = std::getenv("BATON_SAMPLE_PRINT_PLAN");  // the barriers Baton planned, frame 0
  const bool print_plan = print && std::strcmp(print, "1") == 0;

  // Instance with the validation layer and synchronization validation.
  const char* layer = "VK_LAYER_KHRONOS_validation";
  const char* ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, &features};
  ici.pApplicationInfo = &app;
  ici.enabledLayerCount = 1;
  ici.ppEnabledLayerNames = &layer;
  ici.enabledExtensionCount = 1;
  ici.ppEnabledExtensionNames = &ext;
  VkInstance instance;
  CHECK(vkCreateInstance(&ici, nullptr, &instance));
  auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  mci.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  mci.pfnUserCallback = on_message;
  VkDebugUtilsMessengerEXT messenger;
  CHECK(create_messenger(instance, &mci, nullptr, &messenger));

  // The first device (the first non-CPU one with BATON_VK_DEVICE=gpu); a graphics family and,
  // where there is one, a compute-only family for the async pass.
  uint32_t n = 0;
  CHECK(vkEnumeratePhysicalDevices(instance, &n, nullptr));
  std::vector<VkPhysicalDevice> devices(n);
  CHECK(vkEnumeratePhysicalDevices(instance, &n, devices.data()));
  const char* want = std::getenv("BATON_VK_DEVICE");
  const bool want_gpu = want && std::strcmp(want, "gpu") == 0;
  VkPhysicalDevice pd = VK_NULL_HANDLE;
  for (VkPhysicalDevice d : devices) {
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(d, &props);
    if (!want_gpu || props.deviceType != VK_PHYSICAL_DEVICE_TYPE_CPU) {
      pd = d;
      std::printf("device: %s\n", props.deviceName);
      break;
    }
  }
  if (pd == VK_NULL_HANDLE) return std::fprintf(stderr, "no device\n"), 1;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> fams(n);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams.data());
  uint32_t gfx = UINT32_MAX, comp = UINT32_MAX;
  for (uint32_t i = 0; i < n; ++i) {
    if (gfx == UINT32_MAX && (fams[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) gfx = i;
    if (comp == UINT32_MAX && (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT) &&
        !(fams[i].queueFlags & VK_QUEUE_GRAPHICS_BIT))
      comp = i;
  }
  const float prio = 1;
  VkDeviceQueueCreateInfo qci[2] = {{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, gfx, 1, &prio},
                                    {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, comp, 1, &prio}};
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  f13.synchronization2 = VK_TRUE;
  f13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f13};
  f12.timelineSemaphore = VK_TRUE;
  const char* device_ext = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f12};
  dci.queueCreateInfoCount = comp == UINT32_MAX ? 1 : 2;
  dci.pQueueCreateInfos = qci;
  dci.enabledExtensionCount = 1;
  dci.ppEnabledExtensionNames = &device_ext;
  VkDevice dev;
  CHECK(vkCreateDevice(pd, &dci, nullptr, &dev));

  DeviceDesc desc;
  desc.physical = pd;
  desc.device = dev;
  vkGetDeviceQueue(dev, gfx, 0, &desc.graphics.queue);
  desc.graphics.family = gfx;
  if (comp != UINT32_MAX) {
    QueueDesc q{VK_NULL_HANDLE, comp};
    vkGetDeviceQueue(dev, comp, 0, &q.queue);
    desc.compute = q;
  }
  std::printf(
      "queues: graphics family %u, async compute %s\n", gfx,
      comp == UINT32_MAX ? "on the graphics queue (no compute-only family)" : "on a compute-only family");

  // Pipelines, the sampler and the push-descriptor entry point.
  Gpu gpu;
  gpu.dev = dev;
  gpu.push_descriptors =
      reinterpret_cast<PFN_vkCmdPushDescriptorSetKHR>(vkGetDeviceProcAddr(dev, "vkCmdPushDescriptorSetKHR"));
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  CHECK(vkCreateSampler(dev, &sci, nullptr, &gpu.sampler));
  Pipeline gbuffer_pipe = gpu.graphics(kGbufferVert, kGbufferFrag, {}, {kAlbedoFormat, kHalfFormat},
                                       kDepthFormat, sizeof(float) * 2);
  Pipeline ssao_pipe = gpu.compute(kSsaoComp, {kSampled, kSampled, kStorage});
  Pipeline lighting_pipe =
      gpu.graphics(kFullscreenVert, kLightingFrag, {kSampled, kSampled, kSampled, kSampled}, {kHalfFormat},
                   VK_FORMAT_UNDEFINED);
  Pipeline prefilter_pipe = gpu.compute(kBloomPrefilterComp, {kSampled, kStorage});
  Pipeline down_pipe = gpu.compute(kBloomDownComp, {kSampled, kStorage});
  Pipeline up_pipe = gpu.compute(kBloomUpComp, {kSampled, kStorage});
  Pipeline taa_pipe = gpu.compute(kTaaComp, {kSampled, kStorage}, sizeof(uint32_t));
  Pipeline tonemap_pipe =
      gpu.graphics(kFullscreenVert, kTonemapFrag, {kSampled, kSampled}, {kFinalFormat}, VK_FORMAT_UNDEFINED);

  // The engine's own resources: `final` (frames end in it, resting in TRANSFER_SRC_OPTIMAL),
  // `history` (TAA, persists across frames, resting in GENERAL) and the read-back buffer.
  const VkImageCreateInfo final_info = image_info(
      kFinalFormat, kSide, 1, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
  const VkImageCreateInfo history_info =
      image_info(kHalfFormat, kSide, 1, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT);
  VkImage final_image, history;
  CHECK(vkCreateImage(dev, &final_info, nullptr, &final_image));
  CHECK(vkCreateImage(dev, &history_info, nullptr, &history));
  VkDeviceMemory image_memory[2];
  const VkImage owned[2] = {final_image, history};
  for (int i = 0; i < 2; ++i) {
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(dev, owned[i], &req);
    VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size,
                             memory_type(pd, req.memoryTypeBits, 0)};
    CHECK(vkAllocateMemory(dev, &mai, nullptr, &image_memory[i]));
    CHECK(vkBindImageMemory(dev, owned[i], image_memory[i], 0));
  }
  VkBufferCreateInfo readback_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  readback_info.size = kImageBytes;
  readback_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkBuffer readback;
  CHECK(vkCreateBuffer(dev, &readback_info, nullptr, &readback));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, readback, &req);
  VkMemoryAllocateInfo mai{
      VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size,
      memory_type(pd, req.memoryTypeBits,
                  VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)};
  VkDeviceMemory readback_memory;
  CHECK(vkAllocateMemory(dev, &mai, nullptr, &readback_memory));
  CHECK(vkBindBufferMemory(dev, readback, readback_memory, 0));
  void* mapped;
  CHECK(vkMapMemory(dev, readback_memory, 0, VK_WHOLE_SIZE, 0, &mapped));

  auto rt = Runtime::create(desc);
  if (!rt) return std::fprintf(stderr, "%s\n", rt.error().c_str()), 1;
  Runtime& runtime = *rt.value();
  const Gpu* g = &gpu;

  // Sub-pixel jitter per frame (pixels), for TAA.
  const float jitter[kFrames][2] = {{0.25f, -0.25f}, {-0.25f, 0.25f}, {-0.125f, -0.375f}, {0.375f, 0.125f}};
  const Stages cs = stages(Stage::compute), ps = stages(Stage::pixel);
  for (uint32_t frame = 0; frame < kFrames; ++frame) {
    Frame& f = runtime.begin_frame();
    // The engine's images start undefined on the first frame (Baton's first barrier on each starts
    // from UNDEFINED); from then on they are at rest at the start of every frame. `history` needs no
    // initial value: the first frame's taa writes the current frame without reading it (`first`).
    const bool first_frame = frame == 0;
    const Res fin = f.import_image("final", final_image, final_info, Access::copy_source, first_frame);
    const Res hist = f.import_image("history", history, history_info, Access::unordered_access, first_frame);
    const Res rb = f.import_buffer("readback", readback, readback_info);
    const VkImageUsageFlags rt_sampled = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    const VkImageUsageFlags storage_sampled = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
    const Res albedo = f.create_image("albedo", image_info(kAlbedoFormat, kSide, 1, rt_sampled));
    const Res normal = f.create_image("normal", image_info(kHalfFormat, kSide, 1, rt_sampled));
    const Res depth = f.create_image(
        "depth", image_info(kDepthFormat, kSide, 1,
                            VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT));
    const Res ao = f.create_image("ao", image_info(kAoFormat, kSide, 1, storage_sampled));
    const Res hdr = f.create_image("hdr", image_info(kHalfFormat, kSide, 1, rt_sampled));
    const Res bloom =
        f.create_image("bloom", image_info(kHalfFormat, kSide / 2, kBloomMips, storage_sampled));

    const float jx = jitter[frame][0] * 2.0f / kSide, jy = jitter[frame][1] * 2.0f / kSide;
    f.add_pass(
        {.name = "gbuffer",
         .queue = Queue::direct,
         .uses = {{albedo, Access::render_target},
                  {normal, Access::render_target},
                  {depth, Access::depth_write}},
         .execute = [=](PassContext& c) {
           std::vector<VkRenderingAttachmentInfo> colours{attachment(c, albedo), attachment(c, normal)};
           VkRenderingAttachmentInfo d = attachment(c, depth);
           d.clearValue.depthStencil = {1.0f, 0};
           begin_rendering(c.cmd, colours, &d);
           g->bind(c.cmd, gbuffer_pipe, {});
           const float push[2] = {jx, jy};
           vkCmdPushConstants(c.cmd, gbuffer_pipe.layout,
                              VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(push),
                              push);
           vkCmdDraw(c.cmd, kGbufferVertices, 1, 0, 0);
           vkCmdEndRendering(c.cmd);
         }});
    f.add_pass({.name = "ssao",
                .queue = Queue::compute,
                .async = true,
                .uses = {{depth, Access::shader_resource, cs},
                         {normal, Access::shader_resource, cs},
                         {ao, Access::unordered_access, cs}},
                .execute = [=](PassContext& c) {
                  g->bind(c.cmd, ssao_pipe, {sampled(c, depth), sampled(c, normal), storage(c, ao)});
                  dispatch(c.cmd, kSide);
                }});
    f.add_pass({.name = "lighting",
                .queue = Queue::direct,
                .uses = {{albedo, Access::shader_resource, ps},
                         {normal, Access::shader_resource, ps},
                         {depth, Access::shader_resource, ps},
                         {ao, Access::shader_resource, ps},
                         {hdr, Access::render_target}},
                .execute = [=](PassContext& c) {
                  begin_rendering(c.cmd, {attachment(c, hdr)});
                  g->bind(c.cmd, lighting_pipe,
                          {sampled(c, albedo), sampled(c, normal), sampled(c, depth), sampled(c, ao)});
                  vkCmdDraw(c.cmd, 3, 1, 0, 0);
                  vkCmdEndRendering(c.cmd);
                }});
    // The bloom chain: one transient image, each pass declaring the single mips it reads and writes.
    f.add_pass({.name = "bloom_prefilter",
                .queue = Queue::compute,
                .uses = {{hdr, Access::shader_resource, cs}, {bloom, Access::unordered_access, cs, {0, 1}}},
                .execute = [=](PassContext& c) {
                  g->bind(c.cmd, prefilter_pipe, {sampled(c, hdr), storage(c, bloom, 0)});
                  dispatch(c.cmd, kSide / 2);
                }});
    for (uint32_t m = 1; m < kBloomMips; ++m)
      f.add_pass({.name = "bloom_down" + std::to_string(m),
                  .queue = Queue::compute,
                  .uses = {{bloom, Access::shader_resource, cs, {m - 1, 1}},
                           {bloom, Access::unordered_access, cs, {m, 1}}},
                  .execute = [=](PassContext& c) {
                    g->bind(c.cmd, down_pipe, {sampled(c, bloom, m - 1), storage(c, bloom, m)});
                    dispatch(c.cmd, (kSide / 2) >> m);
                  }});
    for (uint32_t m = kBloomMips - 1; m-- > 0;)
      f.add_pass({.name = "bloom_up" + std::to_string(m),
                  .queue = Queue::compute,
                  .uses = {{bloom, Access::shader_resource, cs, {m + 1, 1}},
                           {bloom, Access::unordered_access, cs, {m, 1}}},
                  .execute = [=](PassContext& c) {
                    g->bind(c.cmd, up_pipe, {sampled(c, bloom, m + 1), storage(c, bloom, m)});
                    dispatch(c.cmd, (kSide / 2) >> m);
                  }});
    const uint32_t first = first_frame;
    f.add_pass({.name = "taa",
                .queue = Queue::compute,
                .uses = {{hdr, Access::shader_resource, cs}, {hist, Access::unordered_access, cs}},
                .execute = [=](PassContext& c) {
                  g->bind(c.cmd, taa_pipe, {sampled(c, hdr), storage(c, hist)});
                  vkCmdPushConstants(c.cmd, taa_pipe.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(first),
                                     &first);
                  dispatch(c.cmd, kSide);
                }});
    f.add_pass({.name = "tonemap",
                .queue = Queue::direct,
                .uses = {{hist, Access::shader_resource, ps},
                         {bloom, Access::shader_resource, ps, {0, 1}},
                         {fin, Access::render_target}},
                .execute = [=](PassContext& c) {
                  begin_rendering(c.cmd, {attachment(c, fin)});
                  g->bind(c.cmd, tonemap_pipe, {sampled(c, hist), sampled(c, bloom, 0)});
                  vkCmdDraw(c.cmd, 3, 1, 0, 0);
                  vkCmdEndRendering(c.cmd);
                }});
    f.add_pass({.name = "readback",
                .queue = Queue::direct,
                .uses = {{fin, Access::copy_source}, {rb, Access::copy_dest}},
                .execute = [=](PassContext& c) {
                  VkBufferImageCopy r{};
                  r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
                  r.imageExtent = {kSide, kSide, 1};
                  vkCmdCopyImageToBuffer(c.cmd, c.image(fin), c.layout(fin), c.buffer(rb), 1, &r);
                }});
    // The CPU reads the buffer after the frame: declared, so the copy is made visible to the host.
    f.add_pass(
        {.name = "host", .queue = Queue::direct, .side_effect = true, .uses = {{rb, Access::host_read}}});
    f.output(fin);

    Result<FrameInfo> r = runtime.submit();
    if (!r) return std::fprintf(stderr, "frame %u: %s\n", frame, r.error().c_str()), 1;
    const FrameInfo& i = r.value();
    if (print_plan && frame == 0)
      std::printf("%s", graph::plan_text(*i.graph, *i.compiled, Api::vulkan).c_str());
    std::printf(
        "frame %u: %u groups, %u submits, %u command buffers, %u barriers, %u semaphore waits, "
        "heap %llu bytes (%llu aliased, %llu without aliasing)\n",
        frame, i.groups, i.submits, i.command_buffers, i.barriers, i.semaphore_waits,
        static_cast<unsigned long long>(i.memory.heap_bytes),
        static_cast<unsigned long long>(i.memory.aliased_bytes),
        static_cast<unsigned long long>(i.memory.unaliased_bytes));
  }
  if (!runtime.sync()) return 1;

  sample::Image image{kSide, kSide, std::vector<uint8_t>(kImageBytes)};
  std::memcpy(image.rgba.data(), mapped, kImageBytes);
  int status = 0;
  if (!sample::write_png(out_path, image)) {
    std::fprintf(stderr, "cannot write %s\n", out_path.c_str());
    status = 1;
  }
  const char* ref_env = std::getenv("BATON_SAMPLE_REFERENCE");  // a copy elsewhere (another machine)
  const std::string ref_path = ref_env && *ref_env ? ref_env : BATON_SAMPLE_REFERENCE;
  if (update_reference) {
    if (!sample::write_png(ref_path, image)) {
      std::fprintf(stderr, "cannot write %s\n", ref_path.c_str());
      status = 1;
    }
    std::printf("reference rewritten: %s\n", ref_path.c_str());
  } else {
    std::string error;
    const sample::Image ref = sample::read_png(ref_path, error);
    if (!error.empty() || ref.width != kSide || ref.height != kSide) {
      std::fprintf(stderr, "reference: %s\n", error.empty() ? "wrong size" : error.c_str());
      status = 1;
    } else {
      size_t different = 0;
      int max_diff = 0;
      for (size_t p = 0; p < size_t{kSide} * kSide; ++p) {
        int d = 0;
        for (size_t ch = 0; ch < 4; ++ch)
          d = std::max(d, std::abs(int{image.rgba[4 * p + ch]} - int{ref.rgba[4 * p + ch]}));
        max_diff = std::max(max_diff, d);
        different += d > kChannelTolerance;
      }
      const double fraction = double(different) / (kSide * kSide);
      std::printf(
          "reference: %zu of %u pixels differ by more than %d (allowed: %.1f%%), largest difference %d\n",
          different, kSide * kSide, kChannelTolerance, 100.0 * kMaxDifferentFraction, max_diff);
      if (fraction > kMaxDifferentFraction) status = 1;
    }
  }

  rt.value().reset();
  for (Pipeline* p : {&gbuffer_pipe, &ssao_pipe, &lighting_pipe, &prefilter_pipe, &down_pipe, &up_pipe,
                      &taa_pipe, &tonemap_pipe})
    gpu.destroy(*p);
  vkDestroySampler(dev, gpu.sampler, nullptr);
  vkDestroyImage(dev, final_image, nullptr);
  vkDestroyImage(dev, history, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  for (VkDeviceMemory m : image_memory) vkFreeMemory(dev, m, nullptr);
  vkFreeMemory(dev, readback_memory, nullptr);
  vkDestroyDevice(dev, nullptr);
  auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  destroy_messenger(instance, messenger, nullptr);
  vkDestroyInstance(instance, nullptr);
  std::printf("validation messages: %d\n", g_messages);
  return g_messages == 0 ? status : 1;
}
