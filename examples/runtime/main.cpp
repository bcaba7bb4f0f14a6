// Baton runtime sample: the engine owns the instance, the device, the queues and a host-visible
// read-back buffer; Baton's runtime runs each frame: transients placed in one shared allocation,
// a pass on the async compute queue (the graphics queue where the device has no compute-only
// family), barriers and semaphores computed. Exits 0 only if the Khronos validation layer (with
// synchronization validation) reported nothing and every frame's read-back data is right.
//
// The frame: `scene` (transient image) is cleared to a per-frame colour and copied into `blur`,
// `blur` into `sharpen` (a transient that takes over the memory `scene` no longer needs), `sharpen`
// into `present` (the engine's image, resting in TRANSFER_DST_OPTIMAL); `histogram` (transient
// buffer) is filled on the compute queue; the read-back buffer receives `present` and `histogram`.
#include <baton/runtime.hpp>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace baton;
using namespace baton::runtime;

namespace {

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

#define CHECK(call)                                                  \
  do {                                                               \
    const VkResult r_ = (call);                                      \
    if (r_ != VK_SUCCESS) {                                          \
      std::fprintf(stderr, "%s failed: %d\n", #call, static_cast<int>(r_)); \
      std::exit(1);                                                  \
    }                                                                \
  } while (0)

constexpr uint32_t kSide = 32;
constexpr VkDeviceSize kImageBytes = kSide * kSide * 4, kHistogramBytes = 1024;

uint32_t memory_type(VkPhysicalDevice pd, uint32_t bits, VkMemoryPropertyFlags want) {
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(pd, &mp);
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
    if ((bits >> i & 1u) && (mp.memoryTypes[i].propertyFlags & want) == want) return i;
  std::fprintf(stderr, "no memory type\n");
  std::exit(1);
}

}  // namespace

int main() {
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
  mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  mci.pfnUserCallback = on_message;
  VkDebugUtilsMessengerEXT messenger;
  CHECK(create_messenger(instance, &mci, nullptr, &messenger));

  // First physical device; a graphics family and, where there is one, a compute-only family.
  uint32_t n = 1;
  VkPhysicalDevice pd;
  if (vkEnumeratePhysicalDevices(instance, &n, &pd) < 0 || n == 0) return std::fprintf(stderr, "no device\n"), 1;
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, nullptr);
  std::vector<VkQueueFamilyProperties> fams(n);
  vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams.data());
  uint32_t gfx = UINT32_MAX, comp = UINT32_MAX;
  for (uint32_t i = 0; i < n; ++i) {
    if (gfx == UINT32_MAX && (fams[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) gfx = i;
    if (comp == UINT32_MAX && (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && !(fams[i].queueFlags & VK_QUEUE_GRAPHICS_BIT)) comp = i;
  }
  const float prio = 1;
  VkDeviceQueueCreateInfo qci[2] = {{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, gfx, 1, &prio},
                                    {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, comp, 1, &prio}};
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  f13.synchronization2 = VK_TRUE;
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &f13};
  f12.timelineSemaphore = VK_TRUE;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f12};
  dci.queueCreateInfoCount = comp == UINT32_MAX ? 1 : 2;
  dci.pQueueCreateInfos = qci;
  VkDevice dev;
  CHECK(vkCreateDevice(pd, &dci, nullptr, &dev));

  DeviceDesc desc;
  desc.physical = pd;
  desc.device = dev;
  vkGetDeviceQueue(dev, gfx, 0, &desc.graphics.queue);
  desc.graphics.family = gfx;
  std::vector<uint32_t> families{gfx};
  if (comp != UINT32_MAX) {
    QueueDesc q{VK_NULL_HANDLE, comp};
    vkGetDeviceQueue(dev, comp, 0, &q.queue);
    desc.compute = q;
    families.push_back(comp);
  }
  const VkSharingMode sharing = families.size() > 1 ? VK_SHARING_MODE_CONCURRENT : VK_SHARING_MODE_EXCLUSIVE;

  // The engine's own resources: the image frames end in, and a host-visible read-back buffer.
  VkImageCreateInfo image{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  image.imageType = VK_IMAGE_TYPE_2D;
  image.format = VK_FORMAT_R8G8B8A8_UNORM;
  image.extent = {kSide, kSide, 1};
  image.mipLevels = image.arrayLayers = 1;
  image.samples = VK_SAMPLE_COUNT_1_BIT;
  image.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkImage present;
  CHECK(vkCreateImage(dev, &image, nullptr, &present));
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(dev, present, &req);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size,
                           memory_type(pd, req.memoryTypeBits, 0)};
  VkDeviceMemory present_memory;
  CHECK(vkAllocateMemory(dev, &mai, nullptr, &present_memory));
  CHECK(vkBindImageMemory(dev, present, present_memory, 0));
  VkBufferCreateInfo readback_info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  readback_info.size = kImageBytes + kHistogramBytes;
  readback_info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  readback_info.sharingMode = sharing;
  readback_info.queueFamilyIndexCount = static_cast<uint32_t>(families.size());
  readback_info.pQueueFamilyIndices = families.data();
  VkBuffer readback;
  CHECK(vkCreateBuffer(dev, &readback_info, nullptr, &readback));
  vkGetBufferMemoryRequirements(dev, readback, &req);
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = memory_type(pd, req.memoryTypeBits,
                                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  VkDeviceMemory readback_memory;
  CHECK(vkAllocateMemory(dev, &mai, nullptr, &readback_memory));
  CHECK(vkBindBufferMemory(dev, readback, readback_memory, 0));
  void* mapped;
  CHECK(vkMapMemory(dev, readback_memory, 0, VK_WHOLE_SIZE, 0, &mapped));

  auto rt = Runtime::create(desc);
  if (!rt) return std::fprintf(stderr, "%s\n", rt.error().c_str()), 1;
  Runtime& runtime = *rt.value();

  // `present` rests in TRANSFER_DST_OPTIMAL (Baton's resting layout for a copy target, returned
  // there at the end of every frame): put it there once, before the first frame.
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, nullptr, 0, gfx};
  VkCommandPool pool;
  CHECK(vkCreateCommandPool(dev, &pci, nullptr, &pool));
  VkCommandBufferAllocateInfo cai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cb;
  CHECK(vkAllocateCommandBuffers(dev, &cai, &cb));
  VkCommandBufferBeginInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  CHECK(vkBeginCommandBuffer(cb, &cbi));
  VkImageMemoryBarrier2 to_rest{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
  to_rest.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  to_rest.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
  to_rest.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  to_rest.srcQueueFamilyIndex = to_rest.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  to_rest.image = present;
  to_rest.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  di.imageMemoryBarrierCount = 1;
  di.pImageMemoryBarriers = &to_rest;
  vkCmdPipelineBarrier2(cb, &di);
  CHECK(vkEndCommandBuffer(cb));
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  CHECK(vkQueueSubmit(desc.graphics.queue, 1, &si, VK_NULL_HANDLE));
  CHECK(vkQueueWaitIdle(desc.graphics.queue));

  int wrong_frames = 0;
  for (uint32_t frame = 0; frame < 3; ++frame) {
    Frame& f = runtime.begin_frame();
    const Res p = f.import_image("present", present, image, Access::copy_dest);
    const Res rb = f.import_buffer("readback", readback, readback_info);
    VkImageCreateInfo t = image;
    t.sharingMode = VK_SHARING_MODE_EXCLUSIVE;  // the runtime picks the sharing mode of transients
    const Res scene = f.create_image("scene", t);
    const Res blur = f.create_image("blur", t);
    const Res sharpen = f.create_image("sharpen", t);
    VkBufferCreateInfo h{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    h.size = kHistogramBytes;
    h.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
    const Res histogram = f.create_buffer("histogram", h);
    const uint8_t shade = static_cast<uint8_t>(40 + 60 * frame);
    const VkImageSubresourceLayers layers{VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    const VkImageCopy whole{layers, {0, 0, 0}, layers, {0, 0, 0}, {kSide, kSide, 1}};

    f.add_pass({"scene", Queue::direct, false, false, {{scene, Access::copy_dest}}, [=](PassContext& c) {
                  VkClearColorValue v{};
                  v.float32[0] = shade / 255.0f;
                  v.float32[3] = 1.0f;
                  const VkImageSubresourceRange r{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
                  vkCmdClearColorImage(c.cmd, c.image(scene), VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &v, 1, &r);
                }});
    f.add_pass({"histogram", Queue::compute, true, false, {{histogram, Access::copy_dest}}, [=](PassContext& c) {
                  vkCmdFillBuffer(c.cmd, c.buffer(histogram), 0, kHistogramBytes, shade);
                }});
    f.add_pass({"blur", Queue::direct, false, false, {{scene, Access::copy_source}, {blur, Access::copy_dest}},
                [=](PassContext& c) {
                  vkCmdCopyImage(c.cmd, c.image(scene), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c.image(blur),
                                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &whole);
                }});
    f.add_pass({"sharpen", Queue::direct, false, false, {{blur, Access::copy_source}, {sharpen, Access::copy_dest}},
                [=](PassContext& c) {
                  vkCmdCopyImage(c.cmd, c.image(blur), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c.image(sharpen),
                                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &whole);
                }});
    f.add_pass({"compose", Queue::direct, false, false, {{sharpen, Access::copy_source}, {p, Access::copy_dest}},
                [=](PassContext& c) {
                  vkCmdCopyImage(c.cmd, c.image(sharpen), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c.image(p),
                                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &whole);
                }});
    f.add_pass({"readback", Queue::direct, false, true,
                {{p, Access::copy_source}, {histogram, Access::copy_source}, {rb, Access::copy_dest}},
                [=](PassContext& c) {
                  VkBufferImageCopy r{};
                  r.imageSubresource = layers;
                  r.imageExtent = {kSide, kSide, 1};
                  vkCmdCopyImageToBuffer(c.cmd, c.image(p), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, c.buffer(rb), 1, &r);
                  const VkBufferCopy b{0, kImageBytes, kHistogramBytes};
                  vkCmdCopyBuffer(c.cmd, c.buffer(histogram), c.buffer(rb), 1, &b);
                }});
    Result<FrameInfo> r = runtime.submit();
    if (!r) return std::fprintf(stderr, "frame %u: %s\n", frame, r.error().c_str()), 1;
    if (!runtime.wait(r.value().ticket)) return 1;
    const auto* px = static_cast<const uint8_t*>(mapped);
    size_t wrong = 0;
    for (size_t i = 0; i < kSide * kSide; ++i)
      wrong += px[4 * i] != shade || px[4 * i + 1] != 0 || px[4 * i + 2] != 0 || px[4 * i + 3] != 255;
    for (size_t i = 0; i < kHistogramBytes / 4; ++i) {  // vkCmdFillBuffer writes 32-bit words
      uint32_t word;
      std::memcpy(&word, px + kImageBytes + 4 * i, 4);
      wrong += word != shade;
    }
    wrong_frames += wrong != 0;
    std::printf("frame %u: %u groups, %u submits, %u barriers, heap %llu bytes (%llu aliased), %zu wrong bytes\n",
                frame, r.value().groups, r.value().submits, r.value().barriers,
                static_cast<unsigned long long>(r.value().memory.heap_bytes),
                static_cast<unsigned long long>(r.value().memory.aliased_bytes), wrong);
  }
  if (!runtime.sync()) return 1;
  rt.value().reset();
  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyImage(dev, present, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  vkFreeMemory(dev, present_memory, nullptr);
  vkFreeMemory(dev, readback_memory, nullptr);
  vkDestroyDevice(dev, nullptr);
  auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  destroy_messenger(instance, messenger, nullptr);
  vkDestroyInstance(instance, nullptr);
  std::printf("validation messages: %d, frames with wrong data: %d\n", g_messages, wrong_frames);
  return g_messages == 0 && wrong_frames == 0 ? 0 : 1;
}
