// GPU frame benchmark (issue 17, items 3 and 4): a deferred frame shaped like a 1080p one, run by
// Baton's runtime with real compute shaders, per-pass GPU timestamps, and the barrier variants
// measured interleaved, frame by frame:
//   (a) Baton's plan, program order;  (b) full barriers (every pass drains everything before it);
//   (c) no barriers (unsafe: layout transitions only; a lower bound, its data may be wrong);
//   (a2) Baton's plan with split barriers and the latency-hiding schedule (graph::Order::latency);
//   (a3) the latency-hiding schedule without split barriers (what the splits add).
// Each pass's duration comes from (b), where passes run one at a time; the critical path is the
// longest chain of true dependencies (a pass reading what another wrote) over those durations, and
// the bound is max(c, critical path): no correct plan beats either. Data: the tonemapped image is
// read back every frame and (a) and (a2) must equal (b) byte for byte. With --layer-frames N > 0 a second
// device with the Khronos layer (synchronization validation) runs (a) N frames (must be silent)
// and (c) once (must not be: the canary that proves the layer sees this frame's hazards).
//
//   gpu_frame [--device lavapipe|gpu] [--scale D] [--frames N] [--work K] [--layer-frames N]
//             [--trace-events FILE] [--json FILE] [--print-plan]
//
// --scale D divides the 1920x1080 frame's sides by D (lavapipe runs it at --scale 8); --work K
// multiplies every pass's arithmetic. --trace-events writes each variant's median frame as
// Chrome / Perfetto trace-event JSON (one process per variant, one thread per queue).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "baton/exec_vulkan.hpp"
#include "baton/runtime.hpp"

using namespace baton;
using namespace baton::runtime;

namespace {

const uint32_t kWork0[] = {
#include "work0.comp.inc"
};
const uint32_t kWork1[] = {
#include "work1.comp.inc"
};
const uint32_t kWork2[] = {
#include "work2.comp.inc"
};
const uint32_t kWork3[] = {
#include "work3.comp.inc"
};
const uint32_t kWork4[] = {
#include "work4.comp.inc"
};
constexpr uint32_t kMaxInputs = 4;

void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS) throw std::runtime_error(fmt::format("{} failed: VkResult {}", what, static_cast<int>(r)));
}

// ---------------------------------------------------------------------------------------------
// The frame: images and passes.
struct ImageSpec {
  std::string name;
  uint32_t w = 1, h = 1;
};
struct PassSpec {
  std::string name;
  bool async = false;  // async compute
  std::vector<uint32_t> inputs;
  uint32_t output = 0;
  int iterations = 1;
};
struct FrameSpec {
  std::vector<ImageSpec> images;
  std::vector<PassSpec> passes;
  uint32_t final_image = 0;  // read back
};

FrameSpec make_frame(uint32_t scale, double work) {
  FrameSpec f;
  const uint32_t W = std::max(8u, 1920 / scale), H = std::max(8u, 1080 / scale);
  auto image = [&](std::string name, uint32_t w, uint32_t h) {
    f.images.push_back({std::move(name), std::max(1u, w), std::max(1u, h)});
    return static_cast<uint32_t>(f.images.size() - 1);
  };
  auto pass = [&](std::string name, bool async, std::vector<uint32_t> in, uint32_t out, int iterations) {
    f.passes.push_back({std::move(name), async, std::move(in), out,
                        std::max(1, static_cast<int>(std::lround(iterations * work)))});
  };
  // Shadow cascades: independent of the G-buffer.
  std::vector<uint32_t> cascades;
  for (int i = 0; i < 4; ++i) {
    const uint32_t s = image(fmt::format("shadow{}", i), 1024 / scale, 1024 / scale);
    pass(fmt::format("shadow_cascade{}", i), false, {}, s, 40);
    cascades.push_back(s);
  }
  const uint32_t depth = image("depth", W, H), gbuffer = image("gbuffer", W, H);
  pass("depth_prepass", false, {}, depth, 24);
  pass("gbuffer", false, {depth}, gbuffer, 64);
  // Async compute: light culling (a small dispatch) and half-resolution SSAO with its blur.
  const uint32_t lights = image("light_grid", (W + 15) / 16, (H + 15) / 16);
  pass("light_culling", true, {depth}, lights, 256);
  const uint32_t ao = image("ssao", W / 2, H / 2), ao_blur = image("ssao_blur", W / 2, H / 2);
  pass("ssao", true, {depth, gbuffer}, ao, 96);
  pass("ssao_blur", true, {ao}, ao_blur, 24);
  const uint32_t shadow_mask = image("shadow_mask", W, H);
  pass("shadow_mask", false, cascades, shadow_mask, 24);
  const uint32_t hdr = image("hdr", W, H);
  pass("lighting", false, {gbuffer, ao_blur, lights, shadow_mask}, hdr, 96);
  // Bloom: a mip chain down to 8x8 and back up.
  std::vector<uint32_t> down;
  uint32_t w = W / 2, h = H / 2, prev = hdr;
  for (int i = 0; w >= 8 && h >= 8; ++i, w /= 2, h /= 2) {
    const uint32_t d = image(fmt::format("bloom_down{}", i), w, h);
    pass(fmt::format("bloom_down{}", i), false, {prev}, d, 12);
    down.push_back(d);
    prev = d;
  }
  uint32_t up = down.empty() ? hdr : down.back();
  for (size_t i = down.size(); i-- > 1;) {
    const uint32_t u = image(fmt::format("bloom_up{}", i - 1), f.images[down[i - 1]].w, f.images[down[i - 1]].h);
    pass(fmt::format("bloom_up{}", i - 1), false, {down[i - 1], up}, u, 12);
    up = u;
  }
  const uint32_t ldr = image("ldr", W, H);
  pass("tonemap", false, {hdr, up}, ldr, 16);
  f.final_image = ldr;
  return f;
}

// ---------------------------------------------------------------------------------------------
// Pipelines (one per input count), the sampler, descriptor sets for the frame's passes.
struct Pipelines {
  VkDevice dev = VK_NULL_HANDLE;
  std::array<VkDescriptorSetLayout, kMaxInputs + 1> set_layout{};
  std::array<VkPipelineLayout, kMaxInputs + 1> layout{};
  std::array<VkPipeline, kMaxInputs + 1> pipeline{};
  VkSampler sampler = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  std::mutex pool_mutex;  // passes are recorded on several threads

  explicit Pipelines(VkDevice d) : dev(d) {
    const std::array<std::pair<const uint32_t*, size_t>, kMaxInputs + 1> code{
        {{kWork0, sizeof(kWork0)}, {kWork1, sizeof(kWork1)}, {kWork2, sizeof(kWork2)}, {kWork3, sizeof(kWork3)},
         {kWork4, sizeof(kWork4)}}};
    for (uint32_t k = 0; k <= kMaxInputs; ++k) {
      std::vector<VkDescriptorSetLayoutBinding> b;
      b.push_back({0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
      for (uint32_t i = 0; i < k; ++i)
        b.push_back({i + 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
      VkDescriptorSetLayoutCreateInfo li{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
      li.bindingCount = static_cast<uint32_t>(b.size());
      li.pBindings = b.data();
      check(vkCreateDescriptorSetLayout(dev, &li, nullptr, &set_layout[k]), "vkCreateDescriptorSetLayout");
      const VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
      VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      pli.setLayoutCount = 1;
      pli.pSetLayouts = &set_layout[k];
      pli.pushConstantRangeCount = 1;
      pli.pPushConstantRanges = &range;
      check(vkCreatePipelineLayout(dev, &pli, nullptr, &layout[k]), "vkCreatePipelineLayout");
      VkShaderModuleCreateInfo mi{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
      mi.codeSize = code[k].second;
      mi.pCode = code[k].first;
      VkShaderModule m = VK_NULL_HANDLE;
      check(vkCreateShaderModule(dev, &mi, nullptr, &m), "vkCreateShaderModule");
      VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
      ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, m, "main",
                  nullptr};
      ci.layout = layout[k];
      check(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline[k]), "vkCreateComputePipelines");
      vkDestroyShaderModule(dev, m, nullptr);
    }
    VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    si.magFilter = si.minFilter = VK_FILTER_NEAREST;
    si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    check(vkCreateSampler(dev, &si, nullptr, &sampler), "vkCreateSampler");
    const std::array<VkDescriptorPoolSize, 2> sizes{{{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 256},
                                                     {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1024}}};
    VkDescriptorPoolCreateInfo pi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pi.maxSets = 256;
    pi.poolSizeCount = static_cast<uint32_t>(sizes.size());
    pi.pPoolSizes = sizes.data();
    check(vkCreateDescriptorPool(dev, &pi, nullptr, &pool), "vkCreateDescriptorPool");
  }
  ~Pipelines() {
    vkDestroyDescriptorPool(dev, pool, nullptr);
    vkDestroySampler(dev, sampler, nullptr);
    for (uint32_t k = 0; k <= kMaxInputs; ++k) {
      vkDestroyPipeline(dev, pipeline[k], nullptr);
      vkDestroyPipelineLayout(dev, layout[k], nullptr);
      vkDestroyDescriptorSetLayout(dev, set_layout[k], nullptr);
    }
  }
  VkDescriptorSet allocate(uint32_t inputs) {
    std::lock_guard lock(pool_mutex);
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = pool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &set_layout[inputs];
    VkDescriptorSet s = VK_NULL_HANDLE;
    check(vkAllocateDescriptorSets(dev, &ai, &s), "vkAllocateDescriptorSets");
    return s;
  }
  // After the frame that used the sets has finished.
  void reset() { check(vkResetDescriptorPool(dev, pool, 0), "vkResetDescriptorPool"); }
};

// The host-visible buffer the tonemapped image is copied into (the engine's, imported).
struct ReadBack {
  VkDevice dev;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  const uint8_t* bytes = nullptr;
  ReadBack(exec::VulkanContext& c, uint64_t size) : dev(c.device()) {
    info.size = size;
    info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    check(vkCreateBuffer(dev, &info, nullptr, &buffer), "vkCreateBuffer");
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, buffer, &req);
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = c.host_memory_type();
    check(vkAllocateMemory(dev, &ai, nullptr, &memory), "vkAllocateMemory");
    check(vkBindBufferMemory(dev, buffer, memory, 0), "vkBindBufferMemory");
    void* p = nullptr;
    check(vkMapMemory(dev, memory, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
    bytes = static_cast<const uint8_t*>(p);
  }
  ~ReadBack() {
    vkDestroyBuffer(dev, buffer, nullptr);
    vkFreeMemory(dev, memory, nullptr);
  }
  uint64_t hash() const {  // FNV-1a
    uint64_t h = 1469598103934665603ull;
    for (uint64_t i = 0; i < info.size; ++i) h = (h ^ bytes[i]) * 1099511628211ull;
    return h;
  }
};

VkImageCreateInfo image_info(const ImageSpec& s, bool read_back) {
  VkImageCreateInfo ci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ci.imageType = VK_IMAGE_TYPE_2D;
  ci.format = VK_FORMAT_R16G16B16A16_SFLOAT;
  ci.extent = {s.w, s.h, 1};
  ci.mipLevels = 1;
  ci.arrayLayers = 1;
  ci.samples = VK_SAMPLE_COUNT_1_BIT;
  ci.tiling = VK_IMAGE_TILING_OPTIMAL;
  ci.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT | (read_back ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT : 0);
  return ci;
}

// The engine's own image for the frame's result (device-local; imported every frame, resting in
// copy_source), copied into the read-back buffer after the frame, outside its timed span.
struct FinalImage {
  exec::VulkanContext& c;
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageCreateInfo info{};
  bool defined = false;  // written by a frame already
  VkCommandPool pool = VK_NULL_HANDLE;
  FinalImage(exec::VulkanContext& ctx, const ImageSpec& s) : c(ctx), info(image_info(s, true)) {
    check(vkCreateImage(c.device(), &info, nullptr, &image), "vkCreateImage");
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(c.device(), image, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(c.physical_device(), &mp);
    // The first allowed device-local type, else the first allowed one.
    uint32_t type = ~0u;
    for (uint32_t t = 0; t < mp.memoryTypeCount && type == ~0u; ++t)
      if ((req.memoryTypeBits >> t & 1u) && (mp.memoryTypes[t].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
        type = t;
    for (uint32_t t = 0; t < mp.memoryTypeCount && type == ~0u; ++t)
      if (req.memoryTypeBits >> t & 1u) type = t;
    if (type == ~0u) throw std::runtime_error("no memory type for the final image");
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    check(vkAllocateMemory(c.device(), &ai, nullptr, &memory), "vkAllocateMemory");
    check(vkBindImageMemory(c.device(), image, memory, 0), "vkBindImageMemory");
    VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pi.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
    pi.queueFamilyIndex = c.queue_family();
    check(vkCreateCommandPool(c.device(), &pi, nullptr, &pool), "vkCreateCommandPool");
  }
  ~FinalImage() {
    vkDestroyCommandPool(c.device(), pool, nullptr);
    vkDestroyImage(c.device(), image, nullptr);
    vkFreeMemory(c.device(), memory, nullptr);
  }
  // After the frame finished: the image rests in TRANSFER_SRC_OPTIMAL (copy_source).
  void copy_to(const ReadBack& rb) {
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cb = VK_NULL_HANDLE;
    check(vkAllocateCommandBuffers(c.device(), &ai, &cb), "vkAllocateCommandBuffers");
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cb, &bi);
    VkImageMemoryBarrier2 ib{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    ib.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    ib.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
    ib.dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    ib.dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT;
    ib.oldLayout = ib.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    ib.srcQueueFamilyIndex = ib.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    ib.image = image;
    ib.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    di.imageMemoryBarrierCount = 1;
    di.pImageMemoryBarriers = &ib;
    vkCmdPipelineBarrier2(cb, &di);
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = info.extent;
    vkCmdCopyImageToBuffer(cb, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rb.buffer, 1, &region);
    VkBufferMemoryBarrier2 bb{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
    bb.srcStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
    bb.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    bb.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
    bb.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
    bb.srcQueueFamilyIndex = bb.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    bb.buffer = rb.buffer;
    bb.size = VK_WHOLE_SIZE;
    VkDependencyInfo bd{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    bd.bufferMemoryBarrierCount = 1;
    bd.pBufferMemoryBarriers = &bb;
    vkCmdPipelineBarrier2(cb, &bd);
    vkEndCommandBuffer(cb);
    VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cb;
    check(vkQueueSubmit(c.queue(), 1, &si, VK_NULL_HANDLE), "vkQueueSubmit (read-back)");
    check(vkQueueWaitIdle(c.queue()), "vkQueueWaitIdle (read-back)");
    vkFreeCommandBuffers(c.device(), pool, 1, &cb);
  }
};

// Declares the frame to the runtime: every image but the final one a transient in shared memory,
// every pass a compute dispatch over its output.
void build(Frame& f, const FrameSpec& spec, Pipelines& pl, FinalImage& fin_image) {
  std::vector<Res> img;
  for (uint32_t i = 0; i < spec.images.size(); ++i)
    img.push_back(i == spec.final_image
                      ? f.import_image(spec.images[i].name, fin_image.image, fin_image.info, Access::copy_source,
                                       !fin_image.defined)
                      : f.create_image(spec.images[i].name, image_info(spec.images[i], false)));
  fin_image.defined = true;
  const Stages cs = stages(Stage::compute);
  for (uint32_t pi = 0; pi < spec.passes.size(); ++pi) {
    const PassSpec& ps = spec.passes[pi];
    PassDesc p;
    p.name = ps.name;
    p.queue = ps.async ? Queue::compute : Queue::direct;
    p.async = ps.async;
    p.uses.push_back({img[ps.output], Access::unordered_access, cs});
    for (uint32_t in : ps.inputs) p.uses.push_back({img[in], Access::shader_resource, cs});
    const ImageSpec out = spec.images[ps.output];
    std::vector<Res> inputs;
    for (uint32_t in : ps.inputs) inputs.push_back(img[in]);
    const Res output = img[ps.output];
    const int iterations = ps.iterations;
    const float seed = static_cast<float>(pi) / static_cast<float>(spec.passes.size());
    p.execute = [&pl, inputs, output, out, iterations, seed](PassContext& c) {
      const auto k = static_cast<uint32_t>(inputs.size());
      const VkDescriptorSet set = pl.allocate(k);
      std::vector<VkDescriptorImageInfo> ii(k + 1);
      ii[0] = {VK_NULL_HANDLE, c.view(output), c.layout(output)};
      for (uint32_t i = 0; i < k; ++i) ii[i + 1] = {pl.sampler, c.view(inputs[i]), c.layout(inputs[i])};
      std::vector<VkWriteDescriptorSet> w(k + 1, VkWriteDescriptorSet{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET});
      for (uint32_t i = 0; i <= k; ++i) {
        w[i].dstSet = set;
        w[i].dstBinding = i;
        w[i].descriptorCount = 1;
        w[i].descriptorType = i == 0 ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE : VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
        w[i].pImageInfo = &ii[i];
      }
      vkUpdateDescriptorSets(pl.dev, k + 1, w.data(), 0, nullptr);
      vkCmdBindPipeline(c.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pl.pipeline[k]);
      vkCmdBindDescriptorSets(c.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pl.layout[k], 0, 1, &set, 0, nullptr);
      struct {
        int32_t w, h, iterations;
        float seed;
      } push{static_cast<int32_t>(out.w), static_cast<int32_t>(out.h), iterations, seed};
      vkCmdPushConstants(c.cmd, pl.layout[k], VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), &push);
      vkCmdDispatch(c.cmd, (out.w + 7) / 8, (out.h + 7) / 8, 1);
    };
    f.add_pass(std::move(p));
  }
  f.output(img[spec.final_image]);
}

// ---------------------------------------------------------------------------------------------
struct Variant {
  std::string name, what;
  RuntimeOptions::Barriers barriers = RuntimeOptions::Barriers::planned;
  RuntimeOptions::Timestamps timestamps = RuntimeOptions::Timestamps::frame;
  graph::Order order = graph::Order::program;
  bool split = false;
};

struct Sample {
  double frame_us = 0;
  uint64_t hash = 0;
  std::vector<PassTime> lists;
  uint32_t barriers = 0, barrier_calls = 0;
  uint64_t heap_bytes = 0;  // transient memory really bound
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// Each pass's own duration in a frame whose passes ran one at a time (full barriers): from the
// later of its start and the end of the list before it on its queue, to its end.
std::map<std::string, double> durations(const std::vector<PassTime>& lists) {
  std::map<std::string, double> d;
  std::map<Queue, double> last_end;
  for (const PassTime& p : lists) {
    const auto it = last_end.find(p.queue);
    const double start = it == last_end.end() ? p.begin_us : std::max(p.begin_us, it->second);
    d[p.pass] += std::max(0.0, p.end_us - start);
    last_end[p.queue] = p.end_us;
  }
  return d;
}

// The longest chain of true dependencies: a pass depends on the writers of what it reads.
double critical_path(const FrameSpec& spec, const std::map<std::string, double>& dur) {
  std::vector<double> done(spec.passes.size() + 1, 0);
  std::vector<uint32_t> writer(spec.images.size(), ~0u);
  double longest = 0;
  auto own = [&](const std::string& n) {
    const auto it = dur.find(n);
    return it == dur.end() ? 0.0 : it->second;
  };
  for (uint32_t i = 0; i < spec.passes.size(); ++i) {
    double start = 0;
    for (uint32_t in : spec.passes[i].inputs)
      if (writer[in] != ~0u) start = std::max(start, done[writer[in]]);
    done[i] = start + own(spec.passes[i].name);
    writer[spec.passes[i].output] = i;
    longest = std::max(longest, done[i]);
  }
  return longest;
}

struct Args {
  exec::DeviceKind device = exec::DeviceKind::lavapipe;
  uint32_t scale = 1, frames = 60, layer_frames = 3;
  double work = 1;
  std::string trace_events, json;
  bool print_plan = false;  // the plan of (a)'s first frame under the layer
  bool layer_timestamps = true;  // --layer-timestamps off: the layer run without queries
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string s = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(s + " needs a value");
      return argv[++i];
    };
    if (s == "--device") {
      const std::string v = value();
      if (v != "gpu" && v != "lavapipe") throw std::runtime_error("--device: lavapipe or gpu, not '" + v + "'");
      a.device = v == "gpu" ? exec::DeviceKind::gpu : exec::DeviceKind::lavapipe;
    } else if (s == "--scale") {
      a.scale = static_cast<uint32_t>(std::stoul(value()));
    } else if (s == "--frames") {
      a.frames = static_cast<uint32_t>(std::stoul(value()));
    } else if (s == "--layer-frames") {
      a.layer_frames = static_cast<uint32_t>(std::stoul(value()));
    } else if (s == "--work") {
      a.work = std::stod(value());
    } else if (s == "--trace-events") {
      a.trace_events = value();
    } else if (s == "--layer-timestamps") {
      const std::string v = value();
      if (v != "on" && v != "off") throw std::runtime_error("--layer-timestamps: on or off, not '" + v + "'");
      a.layer_timestamps = v == "on";
    } else if (s == "--print-plan") {
      a.print_plan = true;
    } else if (s == "--json") {
      a.json = value();
    } else {
      throw std::runtime_error("unknown argument '" + s + "' (see the comment at the top of bench/gpu_frame.cpp)");
    }
  }
  if (a.scale == 0 || a.frames == 0 || !(a.work > 0)) throw std::runtime_error("--scale, --frames and --work must be positive");
  return a;
}

DeviceDesc desc_of(exec::VulkanContext& c) {
  DeviceDesc d;
  d.physical = c.physical_device();
  d.device = c.device();
  d.graphics = {c.queue(), c.queue_family()};
  if (c.compute_family()) d.compute = QueueDesc{c.compute_queue(), *c.compute_family()};
  return d;
}

// One frame of one variant: build, submit, wait, timings, hash of the read-back image.
Sample run_frame(Runtime& rt, const FrameSpec& spec, Pipelines& pl, FinalImage& fin, const ReadBack& rb,
                 bool print_plan = false) {
  build(rt.begin_frame(), spec, pl, fin);
  Result<FrameInfo> r = rt.submit();
  if (!r) throw std::runtime_error(r.error());
  if (print_plan) std::printf("%s", graph::plan_text(*r.value().graph, *r.value().compiled, Api::vulkan).c_str());
  FrameTimings times;
  if (Result<FrameTimings> t = rt.timings(r.value().ticket); t) {
    if (!t.value().valid) throw std::runtime_error("no timestamps on this device's queues");
    times = std::move(t.value());
  } else if (Status w = rt.wait(r.value().ticket); !w) {  // timestamps off
    throw std::runtime_error(w.error());
  }
  pl.reset();
  fin.copy_to(rb);
  return {times.frame_us, rb.hash(), times.lists, r.value().barriers, r.value().barrier_calls,
          r.value().memory.heap_bytes};
}

int run(const Args& args) {
  const FrameSpec spec = make_frame(args.scale, args.work);
  const ImageSpec& fin = spec.images[spec.final_image];
  const std::vector<Variant> variants{
      {"a", "baton, program order", RuntimeOptions::Barriers::planned},
      // (b) with a timestamp after every pass: its passes run one at a time anyway, and this gives
      // each pass's own duration for the critical path.
      {"b", "full barriers", RuntimeOptions::Barriers::full, RuntimeOptions::Timestamps::lists},
      {"c", "no barriers (unsafe)", RuntimeOptions::Barriers::none},
      {"a2", "baton, split + latency", RuntimeOptions::Barriers::planned, RuntimeOptions::Timestamps::frame,
       graph::Order::latency, true},
      {"a3", "baton, latency, no split", RuntimeOptions::Barriers::planned, RuntimeOptions::Timestamps::frame,
       graph::Order::latency, false},
  };
  nlohmann::json report;
  {
    exec::ContextOptions co;
    co.device = args.device;
    co.validation = false;
    co.async_compute = true;
    exec::VulkanContext ctx(co);
    const DeviceDesc dd = desc_of(ctx);
    std::printf("device: %s, graphics family %u%s; frame %ux%u, %zu passes, %zu images, work x%.2f, %u frames per "
                "variant, interleaved\n",
                ctx.device_name().c_str(), dd.graphics.family,
                dd.compute ? fmt::format(" + compute family {}", dd.compute->family).c_str() : " (no async compute family)",
                fin.w, fin.h, spec.passes.size(), spec.images.size(), args.work, args.frames);
    report["device"] = ctx.device_name();
    report["frame"] = {{"width", fin.w}, {"height", fin.h}, {"passes", spec.passes.size()}, {"work", args.work}};
    Pipelines pl(ctx.device());
    ReadBack rb(ctx, uint64_t{fin.w} * fin.h * 8);
    FinalImage final_image(ctx, fin);
    std::vector<std::unique_ptr<Runtime>> rts;
    for (const Variant& v : variants) {
      RuntimeOptions o;
      o.timestamps = v.timestamps;
      o.barriers = v.barriers;
      o.schedule.order = v.order;
      o.split_barriers = v.split;
      o.frames_in_flight = 1;
      auto rt = Runtime::create(dd, o);
      if (!rt) throw std::runtime_error(rt.error());
      rts.push_back(std::move(rt.value()));
    }
    std::vector<std::vector<Sample>> samples(variants.size());
    constexpr uint32_t kWarmup = 3;
    for (uint32_t f = 0; f < kWarmup + args.frames; ++f)
      for (size_t v = 0; v < variants.size(); ++v) {
        Sample s = run_frame(*rts[v], spec, pl, final_image, rb);
        if (f >= kWarmup) samples[v].push_back(std::move(s));
      }
    // Data: (a) equals (b) every frame.
    uint32_t mismatches = 0, c_differs = 0;
    for (uint32_t f = 0; f < args.frames; ++f) {
      mismatches += samples[0][f].hash != samples[1][f].hash;
      mismatches += samples[3][f].hash != samples[1][f].hash;
      mismatches += samples[4][f].hash != samples[1][f].hash;
      c_differs += samples[2][f].hash != samples[1][f].hash;
    }
    std::vector<double> frame_med(variants.size());
    for (size_t v = 0; v < variants.size(); ++v) {
      std::vector<double> t;
      for (const Sample& s : samples[v]) t.push_back(s.frame_us);
      frame_med[v] = median(t);
    }
    // Pass durations and the critical path from (b).
    std::map<std::string, std::vector<double>> per_pass;
    std::vector<double> cps;
    for (const Sample& s : samples[1]) {
      const auto d = durations(s.lists);
      for (const auto& [n, us] : d) per_pass[n].push_back(us);
      cps.push_back(critical_path(spec, d));
    }
    const double cp = median(cps);
    const double bound = std::max(frame_med[2], cp);
    // Paired per round (a, b and c of one round ran back to back, at the same clocks): the medians
    // of the per-round ratios, robust to the GPU's clock changing between rounds.
    std::vector<double> ab, ac, a2b, a2c, a3b, a2a3;
    for (uint32_t f = 0; f < args.frames; ++f) {
      const double bound_f = std::max(samples[2][f].frame_us, cps[f]);
      ab.push_back(samples[0][f].frame_us / samples[1][f].frame_us);
      ac.push_back(samples[0][f].frame_us / bound_f);
      a2b.push_back(samples[3][f].frame_us / samples[1][f].frame_us);
      a2c.push_back(samples[3][f].frame_us / bound_f);
      a3b.push_back(samples[4][f].frame_us / samples[1][f].frame_us);
      a2a3.push_back(samples[3][f].frame_us / samples[4][f].frame_us);
    }
    for (size_t v = 0; v < variants.size(); ++v) {
      std::vector<double> t;
      for (const Sample& s : samples[v]) t.push_back(s.frame_us);
      std::sort(t.begin(), t.end());
      std::printf("(%s) %-22s median %9.1f us  (min %9.1f, max %9.1f; %u barriers in %u calls per frame)\n",
                  variants[v].name.c_str(), variants[v].what.c_str(), frame_med[v], t.front(), t.back(),
                  samples[v].front().barriers, samples[v].front().barrier_calls);
      report["variants"][variants[v].name] = {{"what", variants[v].what},
                                              {"median_us", frame_med[v]},
                                              {"min_us", t.front()},
                                              {"max_us", t.back()},
                                              {"barriers", samples[v].front().barriers},
                                              {"barrier_calls", samples[v].front().barrier_calls}};
    }
    std::printf("critical path (median over frames of b's pass durations): %.1f us; bound max(c, critical path) = %.1f us\n",
                cp, bound);
    std::printf("a/b = %.3f, a/bound = %.3f, b/bound = %.3f (of the medians); per round: median a/b %.3f, median "
                "a/max(c, critical path) %.3f\n",
                frame_med[0] / frame_med[1], frame_med[0] / bound, frame_med[1] / bound, median(ab), median(ac));
    report["paired"] = {{"a_over_b", median(ab)},   {"a_over_bound", median(ac)}, {"a2_over_b", median(a2b)},
                        {"a2_over_bound", median(a2c)}, {"a3_over_b", median(a3b)}, {"a2_over_a3", median(a2a3)}};
    std::printf("split barriers: per round median a2/a3 (split vs not, both latency order) %.3f: %s; a3/b %.3f\n",
                median(a2a3), median(a2a3) < 0.99 ? "they paid" : median(a2a3) > 1.01 ? "they cost" : "no difference",
                median(a3b));
    const double mem = static_cast<double>(samples[3].front().heap_bytes) /
                       static_cast<double>(std::max<uint64_t>(1, samples[0].front().heap_bytes));
    std::printf("a2 (split + latency): per round median a2/b %.3f (target <= 0.85: %s), a2/max(c, critical path) %.3f "
                "(target <= 1.10: %s); transient memory a2/a = %llu / %llu bytes = %.3f (bound <= 1.25: %s)\n",
                median(a2b), median(a2b) <= 0.85 ? "met" : "MISSED", median(a2c), median(a2c) <= 1.10 ? "met" : "MISSED",
                static_cast<unsigned long long>(samples[3].front().heap_bytes),
                static_cast<unsigned long long>(samples[0].front().heap_bytes), mem, mem <= 1.25 ? "met" : "MISSED");
    report["memory"] = {{"a_heap_bytes", samples[0].front().heap_bytes}, {"a2_heap_bytes", samples[3].front().heap_bytes}};
    std::printf("data: (a), (a2) and (a3) differ from (b) in %u of %u frame pairs; (c) differs in %u\n", mismatches,
                3 * args.frames, c_differs);
    std::printf("pass durations (median, from b):");
    for (const auto& [n, v] : per_pass) std::printf(" %s %.1f", n.c_str(), median(v));
    std::printf("\n");
    report["critical_path_us"] = cp;
    report["bound_us"] = bound;
    report["a_over_b"] = frame_med[0] / frame_med[1];
    report["a_over_bound"] = frame_med[0] / bound;
    report["data_mismatches_a"] = mismatches;
    for (const auto& [n, v] : per_pass) report["pass_us"][n] = median(v);
    if (!args.trace_events.empty()) {
      nlohmann::json events = nlohmann::json::array();
      for (size_t v = 0; v < variants.size(); ++v) {
        // The frame closest to the median.
        const Sample* best = &samples[v].front();
        for (const Sample& s : samples[v])
          if (std::abs(s.frame_us - frame_med[v]) < std::abs(best->frame_us - frame_med[v])) best = &s;
        events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", v},
                          {"args", {{"name", fmt::format("({}) {}", variants[v].name, variants[v].what)}}}});
        for (const PassTime& p : best->lists)
          events.push_back({{"name", p.pass.empty() ? "barriers" : p.pass},
                            {"ph", "X"},
                            {"pid", v},
                            {"tid", p.queue == Queue::direct ? "graphics" : p.queue == Queue::compute ? "compute" : "copy"},
                            {"ts", p.begin_us},
                            {"dur", p.end_us - p.begin_us}});
      }
      std::ofstream(args.trace_events) << nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ns"}}.dump(1);
    }
    if (mismatches) {
      std::printf("result: DATA MISMATCH\n");
      return 1;
    }
  }
  if (args.layer_frames > 0) {
    exec::ContextOptions co;
    co.device = args.device;
    co.validation = true;
    co.async_compute = true;
    exec::VulkanContext ctx(co);
    (void)ctx.take_messages();
    Pipelines pl(ctx.device());
    ReadBack rb(ctx, uint64_t{fin.w} * fin.h * 8);
    FinalImage final_image(ctx, fin);
    auto layer_run = [&](RuntimeOptions::Barriers b, graph::Order order, bool split, uint32_t frames) {
      RuntimeOptions o;
      o.timestamps = args.layer_timestamps ? RuntimeOptions::Timestamps::frame : RuntimeOptions::Timestamps::off;
      o.barriers = b;
      o.schedule.order = order;
      o.split_barriers = split;
      auto rt = Runtime::create(desc_of(ctx), o);
      if (!rt) throw std::runtime_error(rt.error());
      for (uint32_t f = 0; f < frames; ++f)
        run_frame(*rt.value(), spec, pl, final_image, rb,
                  f == 0 && b == RuntimeOptions::Barriers::planned && args.print_plan);
      if (!rt.value()->sync()) throw std::runtime_error("sync failed");
      return ctx.take_messages();
    };
    const exec::ValidationLog a = layer_run(RuntimeOptions::Barriers::planned, graph::Order::program, false, args.layer_frames);
    const exec::ValidationLog a2 = layer_run(RuntimeOptions::Barriers::planned, graph::Order::latency, true, args.layer_frames);
    const exec::ValidationLog c = layer_run(RuntimeOptions::Barriers::none, graph::Order::program, false, 1);
    std::printf("layer: (a) %u frames, %u messages; (a2) %u frames, %u messages; canary (c) 1 frame, %u messages (%u "
                "hazards)\n",
                args.layer_frames, a.total(), args.layer_frames, a2.total(), c.total(), c.hazards());
    for (const auto& [id, text] : a.texts) std::printf("  (a) %s: %.2500s\n", id.c_str(), text.c_str());
    for (const auto& [id, text] : a2.texts) std::printf("  (a2) %s: %.2500s\n", id.c_str(), text.c_str());
    report["layer"] = {{"a_messages", a.total()}, {"a2_messages", a2.total()}, {"canary_messages", c.total()}};
    if (a.total() != 0 || a2.total() != 0 || c.hazards() == 0) {
      std::printf("result: %s\n",
                  a.total() || a2.total() ? "LAYER MESSAGES" : "CANARY SILENT (the layer's silence means nothing)");
      return 1;
    }
  }
  if (!args.json.empty()) std::ofstream(args.json) << report.dump(2) << "\n";
  std::printf("result: clean\n");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gpu_frame: %s\n", e.what());
    return 2;
  }
}
