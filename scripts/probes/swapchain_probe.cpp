// Probe (not built with the project): what the Khronos layer (1.3.239 here) reports for swapchain acquire
// and present, on lavapipe through an X11 swapchain, since lavapipe of Mesa 22.3 has no
// VK_EXT_headless_surface (docs/replay.md, "Swapchains", D14). Run with an X server of its own:
//   apt-get install xvfb; Xvfb :93 -screen 0 64x64x24 &
//   g++ scripts/probes/swapchain_probe.cpp -o /tmp/probe -lvulkan -lX11 && DISPLAY=:93 /tmp/probe
// Each scenario acquires (semaphore), clears the image between two transitions and presents; the layer
// prints its messages itself. Seen 2026-12-05: "clean dst NONE" PRESENT-AFTER-WRITE (D14), the other
// "clean" ones nothing, "transition src NONE" WRITE-AFTER-READ, "no acquire wait" WRITE-AFTER-PRESENT;
// the run then crashed (SIGSEGV) around the layout scenario: inside the layer, in vkDeviceWaitIdle after
// the "no acquire wait" scenario left its acquire semaphore unwaited (the player drains such semaphores;
// docs/replay.md, "Swapchains"), printf's buffered output hiding where.
#define VK_USE_PLATFORM_XLIB_KHR
#include <vulkan/vulkan.h>
#include <X11/Xlib.h>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#define CK(x) do { VkResult r_ = (x); if (r_ != VK_SUCCESS && r_ != VK_SUBOPTIMAL_KHR) { printf("FAIL %s = %d\n", #x, r_); exit(1);} } while(0)
static VKAPI_ATTR VkBool32 VKAPI_CALL cb(VkDebugUtilsMessageSeverityFlagBitsEXT s, VkDebugUtilsMessageTypeFlagsEXT t, const VkDebugUtilsMessengerCallbackDataEXT* d, void*) {
  if (!(t & VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT) || s < VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return VK_FALSE;
  printf("   MSG %s: %.300s\n", d->pMessageIdName, d->pMessage); return VK_FALSE; }
int main() {
  setenv("VK_DRIVER_FILES", "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json", 1);
  setenv("VK_LAYER_ENABLES", "VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT:VALIDATION_CHECK_ENABLE_SYNCHRONIZATION_VALIDATION_QUEUE_SUBMIT", 1);
  Display* dpy = XOpenDisplay(nullptr); if (!dpy) { printf("no display\n"); return 1; }
  Window win = XCreateSimpleWindow(dpy, DefaultRootWindow(dpy), 0, 0, 16, 16, 0, 0, 0); XMapWindow(dpy, win); XFlush(dpy);
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO}; app.apiVersion = VK_API_VERSION_1_3;
  const char* layers[] = {"VK_LAYER_KHRONOS_validation"};
  const char* exts[] = {"VK_EXT_debug_utils", "VK_KHR_surface", "VK_KHR_xlib_surface"};
  VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  mci.messageType = 7; mci.pfnUserCallback = cb;
  VkValidationFeatureEnableEXT en[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT vf{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT}; vf.pNext = &mci; vf.enabledValidationFeatureCount = 1; vf.pEnabledValidationFeatures = en;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO}; ici.pNext = &vf; ici.pApplicationInfo = &app; ici.enabledLayerCount = 1; ici.ppEnabledLayerNames = layers; ici.enabledExtensionCount = 3; ici.ppEnabledExtensionNames = exts;
  VkInstance inst; CK(vkCreateInstance(&ici, nullptr, &inst));
  uint32_t n = 1; VkPhysicalDevice pd; vkEnumeratePhysicalDevices(inst, &n, &pd);
  VkXlibSurfaceCreateInfoKHR xci{VK_STRUCTURE_TYPE_XLIB_SURFACE_CREATE_INFO_KHR}; xci.dpy = dpy; xci.window = win;
  VkSurfaceKHR surf; CK(vkCreateXlibSurfaceKHR(inst, &xci, nullptr, &surf));
  VkBool32 sup; vkGetPhysicalDeviceSurfaceSupportKHR(pd, 0, surf, &sup);
  VkSurfaceCapabilitiesKHR caps; vkGetPhysicalDeviceSurfaceCapabilitiesKHR(pd, surf, &caps);
  uint32_t nf = 0; vkGetPhysicalDeviceSurfaceFormatsKHR(pd, surf, &nf, nullptr); std::vector<VkSurfaceFormatKHR> fm(nf); vkGetPhysicalDeviceSurfaceFormatsKHR(pd, surf, &nf, fm.data());
  float pr = 1; VkDeviceQueueCreateInfo q{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO}; q.queueCount = 1; q.pQueuePriorities = &pr;
  VkPhysicalDeviceVulkan13Features f13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES}; f13.synchronization2 = 1;
  const char* dext[] = {"VK_KHR_swapchain"};
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO}; dci.pNext = &f13; dci.queueCreateInfoCount = 1; dci.pQueueCreateInfos = &q; dci.enabledExtensionCount = 1; dci.ppEnabledExtensionNames = dext;
  VkDevice dev; CK(vkCreateDevice(pd, &dci, nullptr, &dev)); VkQueue queue; vkGetDeviceQueue(dev, 0, 0, &queue);
  VkSwapchainCreateInfoKHR sci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR}; sci.surface = surf; sci.minImageCount = caps.minImageCount; sci.imageFormat = fm[0].format; sci.imageColorSpace = fm[0].colorSpace;
  sci.imageExtent = caps.currentExtent; sci.imageArrayLayers = 1; sci.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT; sci.preTransform = caps.currentTransform;
  sci.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR; sci.presentMode = VK_PRESENT_MODE_FIFO_KHR; sci.clipped = 1;
  VkSwapchainKHR sc; CK(vkCreateSwapchainKHR(dev, &sci, nullptr, &sc));
  uint32_t ni = 0; vkGetSwapchainImagesKHR(dev, sc, &ni, nullptr); std::vector<VkImage> imgs(ni); vkGetSwapchainImagesKHR(dev, sc, &ni, imgs.data());
  printf("images %u min %u\n", ni, caps.minImageCount);
  VkCommandPoolCreateInfo cpi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO}; VkCommandPool pool; vkCreateCommandPool(dev, &cpi, nullptr, &pool);
  auto scenario = [&](const char* name, VkPipelineStageFlags2 first, bool wait_acq, bool wait_rendered, VkImageLayout final, VkPipelineStageFlags2 fdst = VK_PIPELINE_STAGE_2_NONE, VkAccessFlags2 fsrc = VK_ACCESS_2_TRANSFER_WRITE_BIT) {
    printf("== %s\n", name);
    VkSemaphoreCreateInfo semi{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO}; VkSemaphore acq, ren; vkCreateSemaphore(dev, &semi, nullptr, &acq); vkCreateSemaphore(dev, &semi, nullptr, &ren);
    uint32_t idx; CK(vkAcquireNextImageKHR(dev, sc, UINT64_MAX, acq, VK_NULL_HANDLE, &idx));
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO}; ai.commandPool = pool; ai.commandBufferCount = 1; VkCommandBuffer cb; vkAllocateCommandBuffers(dev, &ai, &cb);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO}; vkBeginCommandBuffer(cb, &bi);
    VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2}; b.srcStageMask = first; b.dstStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT; b.dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT;
    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED; b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL; b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED; b.image = imgs[idx]; b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO}; di.imageMemoryBarrierCount = 1; di.pImageMemoryBarriers = &b; vkCmdPipelineBarrier2(cb, &di);
    VkClearColorValue cv{}; VkImageSubresourceRange rr{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}; vkCmdClearColorImage(cb, imgs[idx], VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &cv, 1, &rr);
    VkImageMemoryBarrier2 c = b; c.srcStageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT; c.srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT; c.dstStageMask = fdst; c.srcAccessMask = fsrc; c.dstAccessMask = 0; c.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL; c.newLayout = final;
    di.pImageMemoryBarriers = &c; vkCmdPipelineBarrier2(cb, &di); vkEndCommandBuffer(cb);
    VkSemaphoreSubmitInfo w{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO}; w.semaphore = acq; w.stageMask = VK_PIPELINE_STAGE_2_CLEAR_BIT;
    VkSemaphoreSubmitInfo s{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO}; s.semaphore = ren; s.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO}; cbi.commandBuffer = cb;
    VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2}; si.waitSemaphoreInfoCount = wait_acq; si.pWaitSemaphoreInfos = &w; si.commandBufferInfoCount = 1; si.pCommandBufferInfos = &cbi; si.signalSemaphoreInfoCount = 1; si.pSignalSemaphoreInfos = &s;
    CK(vkQueueSubmit2(queue, 1, &si, VK_NULL_HANDLE));
    VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR}; pi.waitSemaphoreCount = wait_rendered; pi.pWaitSemaphores = &ren; pi.swapchainCount = 1; pi.pSwapchains = &sc; pi.pImageIndices = &idx;
    CK(vkQueuePresentKHR(queue, &pi));
    vkDeviceWaitIdle(dev);
  };
  scenario("clean dst NONE", VK_PIPELINE_STAGE_2_CLEAR_BIT, true, true, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);
  scenario("clean dst BOTTOM", VK_PIPELINE_STAGE_2_CLEAR_BIT, true, true, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT);
  scenario("clean dst ALL_COMMANDS", VK_PIPELINE_STAGE_2_CLEAR_BIT, true, true, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
  scenario("clean dst CLEAR", VK_PIPELINE_STAGE_2_CLEAR_BIT, true, true, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_CLEAR_BIT);
  scenario("transition src NONE, dst ALL", VK_PIPELINE_STAGE_2_NONE, true, true, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
  scenario("no acquire wait, dst ALL", VK_PIPELINE_STAGE_2_CLEAR_BIT, false, true, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
  scenario("present layout wrong", VK_PIPELINE_STAGE_2_CLEAR_BIT, true, true, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT);
  printf("done\n");
}
