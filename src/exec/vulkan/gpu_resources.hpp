// Device objects of one run: the recording's buffers and images (all usages, host-visible memory),
// their per-subresource views, and the dummies that fill unused descriptor slots.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "baton/runtime.hpp"
#include "context_impl.hpp"
#include "work.hpp"

namespace baton::exec {

struct GpuBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkBufferView view = VK_NULL_HANDLE;  // R32_UINT texel view of the whole buffer
  uint32_t* map = nullptr;
  VkDeviceSize bytes = 0;
};

struct GpuImage {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkFormat format = VK_FORMAT_UNDEFINED;
  std::vector<VkImageView> sample_views;  // per (layer, mip): colour or depth aspect
  std::vector<VkImageView> attach_views;  // per (layer, mip): colour or depth|stencil
};

VkFormat format_of(const Geometry& g);
VkImageAspectFlags aspect_of_plane(const Geometry& g, uint32_t plane);

// The create infos of a resource's object (every usage the work model may need). `families` must
// outlive the info (concurrent sharing with an async-compute family).
// `exclusive`: VK_SHARING_MODE_EXCLUSIVE even where the device has a compute-only family
// (RunOptions::sharing exclusive, or automatic where pairs can hand the resource over); otherwise
// CONCURRENT over both families there.
VkBufferCreateInfo buffer_create_info(const VulkanContext::Impl& c, VkDeviceSize bytes, std::array<uint32_t, 2>& families,
                                      bool exclusive = false);
VkImageCreateInfo image_create_info(const VulkanContext::Impl& c, const Geometry& g, std::array<uint32_t, 2>& families,
                                    bool exclusive = false);
// Memory requirements of every resource's object, created and destroyed here.
std::vector<VkMemoryRequirements> requirements_of(VulkanContext::Impl& c, const std::vector<Geometry>& geo,
                                                  bool exclusive = false);

class GpuResources {
 public:
  // `shared`: resources with an offset are created unbound and bound by the runtime (`rt`, which
  // owns the heaps: Runtime::place) at those offsets; `table` names them in its messages.
  // `exclusive` (per resource; null: none): those of the work's resources are VK_SHARING_MODE_EXCLUSIVE
  // (RunOptions::sharing); the read-only dummies and the UAV arenas stay CONCURRENT (no transfer
  // plans them).
  GpuResources(VulkanContext::Impl& c, const std::vector<Geometry>& geo, uint32_t uav_dummy_slots,
               bool seed_textures, const RunOptions::SharedMemory* shared = nullptr, runtime::Runtime* rt = nullptr,
               const ResourceTable* table = nullptr, const std::vector<uint8_t>* exclusive = nullptr);
  ~GpuResources();
  GpuResources(const GpuResources&) = delete;
  GpuResources& operator=(const GpuResources&) = delete;

  const GpuBuffer& buffer(ResourceId r) const { return buffers_[r]; }
  const GpuImage& image(ResourceId r) const { return images_[r]; }
  VkImageView sample_view(const Sub& s) const;
  VkImageView attach_view(const Sub& s) const;

  // Read-only dummies (never written, so sharing them cannot create a hazard).
  const GpuBuffer& dummy_buffer() const { return dummy_buffer_; }
  VkImageView dummy_color_view() const { return dummy_color_.sample_views[0]; }
  VkImageView dummy_depth_view() const { return dummy_depth_.sample_views[0]; }
  static constexpr VkImageLayout kDummyColorLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
  static constexpr VkImageLayout kDummyDepthLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL;
  // Storage dummies: every slot is a range or layer of its own, written by one binding only.
  VkDescriptorBufferInfo next_uav_buffer_dummy();
  VkImageView next_uav_image_dummy();
  const RunReport::Memory& memory() const { return memory_; }

 private:
  GpuBuffer make_buffer(VkDeviceSize bytes, std::optional<uint64_t> placed = std::nullopt, bool exclusive = false);
  GpuImage make_image(const Geometry& g, bool dummy, std::optional<uint64_t> placed = std::nullopt,
                      bool exclusive = false);
  void bind_placed(const RunOptions::SharedMemory& shared, runtime::Runtime& rt, const ResourceTable* table);
  void finish_buffer(GpuBuffer& b, void* mapped);
  void views(GpuImage& im, const Geometry& g, bool dummy);
  void destroy(GpuBuffer& b);
  void destroy(GpuImage& i);
  void release();

  VulkanContext::Impl& c_;
  const std::vector<Geometry>& geo_;
  std::vector<GpuBuffer> buffers_;
  std::vector<GpuImage> images_;
  GpuBuffer dummy_buffer_, uav_arena_;
  GpuImage dummy_color_, dummy_depth_;
  std::vector<GpuImage> uav_image_arenas_;
  uint32_t uav_slots_ = 0, next_uav_buffer_ = 0, next_uav_image_ = 0;
  // The runtime's heap of the placed buffers (RunOptions::shared), mapped here (buffers are read and
  // written by the host); the runtime owns it.
  VkDeviceMemory buffer_heap_ = VK_NULL_HANDLE;
  uint8_t* buffer_heap_map_ = nullptr;
  RunReport::Memory memory_;
};

}  // namespace baton::exec
