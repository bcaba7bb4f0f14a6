// VulkanContext internals shared by the executor's files.
#pragma once

#include <array>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "baton/exec_vulkan.hpp"
#include "vk_util.hpp"

namespace baton::exec {

struct GraphicsKey {
  uint32_t colors = 0;
  VkFormat depth = VK_FORMAT_UNDEFINED;
  bool depth_write = false;
  bool stencil = false;
  auto operator<=>(const GraphicsKey&) const = default;
};

struct VulkanContext::Impl {
  ContextOptions options;
  VkInstance instance = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkPhysicalDeviceProperties properties{};
  VkDevice device = VK_NULL_HANDLE;
  uint32_t family = 0;
  VkQueue queue = VK_NULL_HANDLE;
  // ContextOptions::async_compute on a device with a compute-only family: that family, its queue
  // and a command pool for it. Resources are then shared CONCURRENT between `family` and this one.
  std::optional<uint32_t> compute_family;
  VkQueue compute_queue = VK_NULL_HANDLE;
  VkCommandPool compute_pool = VK_NULL_HANDLE;
  uint32_t memory_type = 0;  // host-visible, host-coherent
  bool separate_depth_stencil_layouts = false;

  // ContextOptions::presentation: which surface the player's swapchains get (docs/replay.md,
  // "Swapchains"). X11 only where VK_EXT_headless_surface is missing: `xcb` is the connection
  // (xcb_connection_t*, opened on $DISPLAY) and `windows` the window made for each surface.
  PresentSurface surface_kind = PresentSurface::none;
  bool surface_extension = false;  // VK_KHR_surface enabled on the instance (VK_KHR_swapchain needs it)
  void* xcb = nullptr;
  std::map<VkSurfaceKHR, uint32_t> windows;

  // The timeline every submission signals; `timeline_value` is the last value submitted.
  VkSemaphore timeline = VK_NULL_HANDLE;
  uint64_t timeline_value = 0;
  VkCommandPool pool = VK_NULL_HANDLE;

  // Shared executor objects (created with the device).
  VkSampler sampler = VK_NULL_HANDLE;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
  VkPipeline compute = VK_NULL_HANDLE;
  std::map<GraphicsKey, VkPipeline> graphics;

  std::mutex log_mutex;  // the layer may call back from driver threads
  ValidationLog log;

  void create(const ContextOptions& o);
  // A new presentation surface (headless, or a small X window's), or Error naming what failed.
  VkSurfaceKHR create_surface();
  std::string open_x11();  // "" when connected, else why not
  void destroy_surface(VkSurfaceKHR s);  // and its X window, if any
  void destroy();
  VkPipeline graphics_pipeline(const GraphicsKey& key);
  VkShaderModule shader(const uint32_t* code, size_t words);
  void add_message(const char* id, const char* text);
  // Submits one command buffer, waits for it (host), and returns the elapsed milliseconds.
  double submit_and_wait(VkCommandBuffer cb);
  VkCommandBuffer begin_commands();  // from `pool`
  VkCommandBuffer begin_commands(VkCommandPool from);  // one-time submit, from any pool of this device
  // host_visible: host-visible coherent memory (buffers, staging); otherwise device-local (images).
  uint32_t find_memory(uint32_t bits, bool host_visible = true) const;
};

void create_pipelines(VulkanContext::Impl& c);

}  // namespace baton::exec
