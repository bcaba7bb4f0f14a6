// Instance, validation messenger and device of the Vulkan executor.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "context_impl.hpp"

#ifdef BATON_HAVE_XCB
#include <xcb/xcb.h>
#include <vulkan/vulkan_xcb.h>  // after xcb.h: it uses its types
#endif

namespace baton::exec {
namespace {

constexpr const char* kLayer = "VK_LAYER_KHRONOS_validation";
constexpr const char* kLavapipeIcd = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";
// Submit-time checks exist only through this variable (or a settings file); colon-separated on
// Linux: a comma silently disables everything (REFERENCE.md, "Vulkan on these machines").
constexpr const char* kLayerEnables =
    "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT:"
    "VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT";

VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                          VkDebugUtilsMessageTypeFlagsEXT type,
                                          const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  // Only VALIDATION-type warnings and errors count: the loader and the layer also send
  // informational GENERAL messages that say nothing about the program.
  if (!(type & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT)) return VK_FALSE;
  if (severity < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
  static_cast<VulkanContext::Impl*>(user)->add_message(data->pMessageIdName, data->pMessage);
  return VK_FALSE;
}

bool is_cpu(VkPhysicalDevice d) {
  VkPhysicalDeviceProperties p;
  vkGetPhysicalDeviceProperties(d, &p);
  return p.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
}

bool has_device_extension(VkPhysicalDevice d, const char* name) {
  uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(d, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> ext(n);
  vkEnumerateDeviceExtensionProperties(d, nullptr, &n, ext.data());
  return std::any_of(ext.begin(), ext.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

bool has_instance_extension(const char* name) {
  uint32_t n = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> ext(n);
  vkEnumerateInstanceExtensionProperties(nullptr, &n, ext.data());
  return std::any_of(ext.begin(), ext.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

}  // namespace

std::optional<DeviceKind> parse_device_kind(std::string_view s) {
  if (s == "lavapipe") return DeviceKind::lavapipe;
  if (s == "gpu") return DeviceKind::gpu;
  return std::nullopt;
}

std::string_view to_string(DeviceKind d) {
  return d == DeviceKind::lavapipe ? "lavapipe" : "gpu";
}

uint32_t ValidationLog::total() const {
  uint32_t n = 0;
  for (const auto& [id, c] : counts) n += c;
  return n;
}

uint32_t ValidationLog::hazards() const {
  uint32_t n = 0;
  for (const auto& [id, c] : counts)
    if (id.starts_with(kHazardPrefix)) n += c;
  return n;
}

void VulkanContext::Impl::add_message(const char* id, const char* text) {
  const std::string key = id ? id : "(no id)";
  std::lock_guard lock(log_mutex);
  log.add(key, text ? text : "");
}

// Where VK_EXT_headless_surface is missing: connects to the X server of $DISPLAY for VK_KHR_xcb_surface
// windows. Returns "" on success, else why not.
std::string VulkanContext::Impl::open_x11() {
#ifdef BATON_HAVE_XCB
  if (!has_instance_extension("VK_KHR_xcb_surface")) return "the instance lacks VK_KHR_xcb_surface too";
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') return "DISPLAY is not set (run under an X server, e.g. Xvfb)";
  xcb_connection_t* conn = xcb_connect(nullptr, nullptr);
  if (xcb_connection_has_error(conn)) {
    xcb_disconnect(conn);
    return fmt::format("cannot connect to the X server of DISPLAY={}", display);
  }
  xcb = conn;
  return "";
#else
  return "built without libxcb (apt-get install libxcb1-dev, then reconfigure)";
#endif
}

VkSurfaceKHR VulkanContext::Impl::create_surface() {
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  if (surface_kind == PresentSurface::headless) {
    const auto create = reinterpret_cast<PFN_vkCreateHeadlessSurfaceEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateHeadlessSurfaceEXT"));
    if (!create) throw Error("Vulkan: vkCreateHeadlessSurfaceEXT is not available");
    VkHeadlessSurfaceCreateInfoEXT hci{VK_STRUCTURE_TYPE_HEADLESS_SURFACE_CREATE_INFO_EXT};
    const VkResult r = create(instance, &hci, nullptr, &surface);
    if (r != VK_SUCCESS)
      throw Error(fmt::format("Vulkan: vkCreateHeadlessSurfaceEXT failed ({})", static_cast<int>(r)));
    return surface;
  }
#ifdef BATON_HAVE_XCB
  if (surface_kind == PresentSurface::xcb) {
    // A 4x4 window (the headless surface's extent in the player), mapped: an unmapped window's
    // swapchain never gets its images back from the X server.
    auto* conn = static_cast<xcb_connection_t*>(xcb);
    const xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(conn)).data;
    const xcb_window_t window = xcb_generate_id(conn);
    xcb_create_window(conn, XCB_COPY_FROM_PARENT, window, screen->root, 0, 0, 4, 4, 0,
                      XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, 0, nullptr);
    xcb_map_window(conn, window);
    xcb_flush(conn);
    const auto create =
        reinterpret_cast<PFN_vkCreateXcbSurfaceKHR>(vkGetInstanceProcAddr(instance, "vkCreateXcbSurfaceKHR"));
    VkXcbSurfaceCreateInfoKHR xci{VK_STRUCTURE_TYPE_XCB_SURFACE_CREATE_INFO_KHR};
    xci.connection = conn;
    xci.window = window;
    const VkResult r = create ? create(instance, &xci, nullptr, &surface) : VK_ERROR_EXTENSION_NOT_PRESENT;
    if (r != VK_SUCCESS) {
      xcb_destroy_window(conn, window);
      xcb_flush(conn);
      throw Error(fmt::format("Vulkan: vkCreateXcbSurfaceKHR failed ({})", static_cast<int>(r)));
    }
    windows[surface] = window;
    return surface;
  }
#endif
  throw Error("Vulkan: the context was created without presentation (ContextOptions::presentation)");
}

void VulkanContext::Impl::destroy_surface(VkSurfaceKHR s) {
  vkDestroySurfaceKHR(instance, s, nullptr);
#ifdef BATON_HAVE_XCB
  if (auto it = windows.find(s); it != windows.end()) {
    xcb_destroy_window(static_cast<xcb_connection_t*>(xcb), it->second);
    xcb_flush(static_cast<xcb_connection_t*>(xcb));
    windows.erase(it);
  }
#endif
}

void VulkanContext::Impl::create(const ContextOptions& o) {
  options = o;
  if (o.device == DeviceKind::lavapipe) setenv("VK_DRIVER_FILES", kLavapipeIcd, 1);
  if (o.validation) setenv("VK_LAYER_ENABLES", kLayerEnables, 1);

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "baton-exec";
  app.apiVersion = VK_API_VERSION_1_3;

  VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  mci.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                    VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  mci.pfnUserCallback = on_message;
  mci.pUserData = this;
  const VkValidationFeatureEnableEXT enables[] = {
      VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT};
  features.pNext = &mci;  // messages during vkCreateInstance are counted too
  features.enabledValidationFeatureCount = 1;
  features.pEnabledValidationFeatures = enables;
  const char* layers[] = {kLayer};
  std::vector<const char*> extensions;
  if (o.validation) extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  // VK_KHR_surface wherever the instance has it: the device enables VK_KHR_swapchain (for the
  // PRESENT_SRC_KHR layout) whenever it can, and that extension requires this one
  // (VUID-vkCreateDevice-ppEnabledExtensionNames-01387).
  surface_extension = has_instance_extension(VK_KHR_SURFACE_EXTENSION_NAME);
  if (surface_extension) extensions.push_back(VK_KHR_SURFACE_EXTENSION_NAME);
  if (o.presentation) {
    if (!surface_extension)
      throw Error("Vulkan: the instance lacks VK_KHR_surface (presentation was asked for)");
    if (has_instance_extension(VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME)) {
      extensions.push_back(VK_EXT_HEADLESS_SURFACE_EXTENSION_NAME);
      surface_kind = PresentSurface::headless;
    } else {
      // lavapipe of Mesa 22.3 has no headless surface, but presents to X11 windows (docs/replay.md).
      const std::string why = open_x11();
      if (!why.empty())
        throw Error(fmt::format(
            "Vulkan: the instance lacks VK_EXT_headless_surface (presentation was asked for), and there is "
            "no X11 surface instead: {}",
            why));
      extensions.push_back("VK_KHR_xcb_surface");
      surface_kind = PresentSurface::xcb;
    }
  }
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  ici.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  ici.ppEnabledExtensionNames = extensions.data();
  if (o.validation) {
    ici.pNext = &features;
    ici.enabledLayerCount = 1;
    ici.ppEnabledLayerNames = layers;
  }
  const VkResult r = vkCreateInstance(&ici, nullptr, &instance);
  if (r == VK_ERROR_LAYER_NOT_PRESENT)
    throw Error(
        "Vulkan: VK_LAYER_KHRONOS_validation is not installed (apt-get install vulkan-validationlayers)");
  vk_check(r, "vkCreateInstance");
  if (o.validation) {
    auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    BATON_VK(create_messenger(instance, &mci, nullptr, &messenger));
  }

  uint32_t n = 0;
  BATON_VK(vkEnumeratePhysicalDevices(instance, &n, nullptr));
  std::vector<VkPhysicalDevice> devices(n);
  BATON_VK(vkEnumeratePhysicalDevices(instance, &n, devices.data()));
  for (VkPhysicalDevice d : devices) {
    if ((o.device == DeviceKind::lavapipe) == is_cpu(d)) {
      physical = d;
      break;
    }
  }
  if (!physical)
    throw Error(o.device == DeviceKind::lavapipe
                    ? "Vulkan: lavapipe not found (apt-get install mesa-vulkan-drivers)"
                    : "Vulkan: no physical device other than a CPU implementation");
  vkGetPhysicalDeviceProperties(physical, &properties);

  uint32_t nf = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &nf, nullptr);
  std::vector<VkQueueFamilyProperties> families(nf);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &nf, families.data());
  const auto want = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
  family = nf;
  for (uint32_t i = 0; i < nf; ++i)
    if ((families[i].queueFlags & want) == want) {
      family = i;
      break;
    }
  if (family == nf) throw Error("Vulkan: no graphics+compute queue family");

  VkPhysicalDeviceVulkan12Features have12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  VkPhysicalDeviceFeatures2 have{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  have.pNext = &have12;
  vkGetPhysicalDeviceFeatures2(physical, &have);
  if (!have.features.fragmentStoresAndAtomics || !have.features.vertexPipelineStoresAndAtomics ||
      !have.features.shaderStorageBufferArrayDynamicIndexing ||
      !have.features.shaderUniformBufferArrayDynamicIndexing)
    throw Error(
        "Vulkan: the device lacks storage writes in vertex/fragment shaders or dynamic buffer-array "
        "indexing");

  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  f13.synchronization2 = VK_TRUE;
  f13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceVulkan12Features f12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
  f12.pNext = &f13;
  f12.timelineSemaphore = VK_TRUE;
  separate_depth_stencil_layouts = have12.separateDepthStencilLayouts == VK_TRUE;
  f12.separateDepthStencilLayouts = have12.separateDepthStencilLayouts;
  VkPhysicalDeviceFeatures2 f{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
  f.pNext = &f12;
  f.features.fragmentStoresAndAtomics = VK_TRUE;
  f.features.vertexPipelineStoresAndAtomics = VK_TRUE;
  f.features.shaderStorageBufferArrayDynamicIndexing = VK_TRUE;
  f.features.shaderUniformBufferArrayDynamicIndexing = VK_TRUE;

  // PRESENT_SRC_KHR is a valid layout only with the swapchain extension enabled.
  std::vector<const char*> device_extensions;
  if (surface_extension && has_device_extension(physical, VK_KHR_SWAPCHAIN_EXTENSION_NAME))
    device_extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  else if (o.presentation)
    throw Error("Vulkan: the device lacks VK_KHR_swapchain (presentation was asked for)");

  const float priority = 1.0f;
  std::array<VkDeviceQueueCreateInfo, 2> qci{};
  qci[0] = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci[0].queueFamilyIndex = family;
  qci[0].queueCount = 1;
  qci[0].pQueuePriorities = &priority;
  if (o.async_compute) {
    const std::vector<uint32_t> async = VulkanContext::compute_only_families(physical);
    if (!async.empty()) {
      compute_family = async.front();
      qci[1] = qci[0];
      qci[1].queueFamilyIndex = *compute_family;
    }
  }
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.pNext = &f;
  dci.queueCreateInfoCount = compute_family ? 2u : 1u;
  dci.pQueueCreateInfos = qci.data();
  dci.enabledExtensionCount = static_cast<uint32_t>(device_extensions.size());
  dci.ppEnabledExtensionNames = device_extensions.data();
  BATON_VK(vkCreateDevice(physical, &dci, nullptr, &device));
  vkGetDeviceQueue(device, family, 0, &queue);
  if (compute_family) vkGetDeviceQueue(device, *compute_family, 0, &compute_queue);

  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(physical, &mp);
  memory_type = mp.memoryTypeCount;
  const VkMemoryPropertyFlags host =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
    if ((mp.memoryTypes[i].propertyFlags & host) == host) {
      memory_type = i;
      break;
    }
  if (memory_type == mp.memoryTypeCount) throw Error("Vulkan: no host-visible coherent memory type");

  VkSemaphoreTypeCreateInfo tci{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
  tci.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  sci.pNext = &tci;
  BATON_VK(vkCreateSemaphore(device, &sci, nullptr, &timeline));

  VkCommandPoolCreateInfo cpi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  cpi.queueFamilyIndex = family;
  cpi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  BATON_VK(vkCreateCommandPool(device, &cpi, nullptr, &pool));
  if (compute_family) {
    cpi.queueFamilyIndex = *compute_family;
    BATON_VK(vkCreateCommandPool(device, &cpi, nullptr, &compute_pool));
  }

  VkSamplerCreateInfo smi{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  smi.magFilter = smi.minFilter = VK_FILTER_NEAREST;
  smi.addressModeU = smi.addressModeV = smi.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  BATON_VK(vkCreateSampler(device, &smi, nullptr, &sampler));
  create_pipelines(*this);
}

void VulkanContext::Impl::destroy() {
  if (device) {
    vkDeviceWaitIdle(device);
    for (auto& [key, p] : graphics) vkDestroyPipeline(device, p, nullptr);
    if (compute) vkDestroyPipeline(device, compute, nullptr);
    if (pipeline_layout) vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
    if (set_layout) vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
    if (sampler) vkDestroySampler(device, sampler, nullptr);
    if (pool) vkDestroyCommandPool(device, pool, nullptr);
    if (compute_pool) vkDestroyCommandPool(device, compute_pool, nullptr);
    if (timeline) vkDestroySemaphore(device, timeline, nullptr);
    vkDestroyDevice(device, nullptr);
  }
  if (messenger) {
    auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    destroy_messenger(instance, messenger, nullptr);
  }
  if (instance) vkDestroyInstance(instance, nullptr);
#ifdef BATON_HAVE_XCB
  if (xcb) xcb_disconnect(static_cast<xcb_connection_t*>(xcb));  // its windows go with it
#endif
}

uint32_t VulkanContext::Impl::find_memory(uint32_t bits, bool host_visible) const {
  if (host_visible) {
    if (!(bits & (1u << memory_type))) throw Error("Vulkan: a resource cannot live in host-visible memory");
    return memory_type;
  }
  // Optimal-tiling images on a discrete GPU cannot be host-visible: device-local memory, read back
  // through a staging buffer.
  VkPhysicalDeviceMemoryProperties mp;
  vkGetPhysicalDeviceMemoryProperties(physical, &mp);
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
    if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)) return i;
  for (uint32_t i = 0; i < mp.memoryTypeCount; ++i)
    if (bits & (1u << i)) return i;
  throw Error("Vulkan: no memory type for an image");
}

VkCommandBuffer VulkanContext::Impl::begin_commands() { return begin_commands(pool); }

VkCommandBuffer VulkanContext::Impl::begin_commands(VkCommandPool from) {
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = from;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cb;
  BATON_VK(vkAllocateCommandBuffers(device, &ai, &cb));
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  BATON_VK(vkBeginCommandBuffer(cb, &bi));
  return cb;
}

double VulkanContext::Impl::submit_and_wait(VkCommandBuffer cb) {
  BATON_VK(vkEndCommandBuffer(cb));
  VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
  cbi.commandBuffer = cb;
  VkSemaphoreSubmitInfo signal{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
  signal.semaphore = timeline;
  signal.value = ++timeline_value;
  signal.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
  si.commandBufferInfoCount = 1;
  si.pCommandBufferInfos = &cbi;
  si.signalSemaphoreInfoCount = 1;
  si.pSignalSemaphoreInfos = &signal;
  const auto t0 = std::chrono::steady_clock::now();
  BATON_VK(vkQueueSubmit2(queue, 1, &si, VK_NULL_HANDLE));
  VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
  wi.semaphoreCount = 1;
  wi.pSemaphores = &timeline;
  wi.pValues = &timeline_value;
  BATON_VK(vkWaitSemaphores(device, &wi, UINT64_MAX));
  // The validation layer (1.3.239) does not order later submissions after a host wait on a
  // timeline, but it does after vkQueueWaitIdle: without this, set-up work (seeding, dummies)
  // would look like it races with the run's first-touch barriers.
  BATON_VK(vkQueueWaitIdle(queue));
  const auto t1 = std::chrono::steady_clock::now();
  vkFreeCommandBuffers(device, pool, 1, &cb);
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

VulkanContext::VulkanContext(const ContextOptions& options) : impl_(std::make_unique<Impl>()) {
  try {
    impl_->create(options);
  } catch (...) {
    impl_->destroy();
    throw;
  }
}

VulkanContext::~VulkanContext() {
  impl_->destroy();
}

VkDevice VulkanContext::device() const {
  return impl_->device;
}
VkPhysicalDevice VulkanContext::physical_device() const {
  return impl_->physical;
}
VkQueue VulkanContext::queue() const {
  return impl_->queue;
}
uint32_t VulkanContext::queue_family() const {
  return impl_->family;
}
uint32_t VulkanContext::host_memory_type() const {
  return impl_->memory_type;
}
std::optional<uint32_t> VulkanContext::compute_family() const {
  return impl_->compute_family;
}
VkQueue VulkanContext::compute_queue() const {
  return impl_->compute_queue;
}

std::vector<uint32_t> VulkanContext::compute_only_families(VkPhysicalDevice physical) {
  uint32_t nf = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &nf, nullptr);
  std::vector<VkQueueFamilyProperties> families(nf);
  vkGetPhysicalDeviceQueueFamilyProperties(physical, &nf, families.data());
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < nf; ++i)
    if ((families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && !(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT))
      out.push_back(i);
  return out;
}

std::string VulkanContext::device_name() const {
  return impl_->properties.deviceName;
}
DeviceKind VulkanContext::device_kind() const {
  return impl_->options.device;
}
bool VulkanContext::validation_enabled() const {
  return impl_->options.validation;
}
bool VulkanContext::presentation_enabled() const {
  return impl_->options.presentation;
}
PresentSurface VulkanContext::present_surface() const {
  return impl_->surface_kind;
}
std::string_view to_string(PresentSurface s) {
  switch (s) {
    case PresentSurface::headless: return "headless (VK_EXT_headless_surface)";
    case PresentSurface::xcb: return "X11 (VK_KHR_xcb_surface)";
    case PresentSurface::none: break;
  }
  return "none";
}

ValidationLog VulkanContext::take_messages() {
  std::lock_guard lock(impl_->log_mutex);
  ValidationLog out = std::move(impl_->log);
  impl_->log = {};
  return out;
}

}  // namespace baton::exec
