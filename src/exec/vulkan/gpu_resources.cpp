#include "gpu_resources.hpp"

#include <array>
#include <cstring>

#include <fmt/format.h>

#include "baton/runtime.hpp"
#include "model.hpp"

namespace baton::exec {
namespace {

constexpr VkDeviceSize kUavSlotBytes = 256;  // >= minStorageBufferOffsetAlignment everywhere
constexpr uint32_t kArenaLayers = 256;

}  // namespace

VkFormat format_of(const Geometry& g) {
  switch (g.format) {
    case FormatClass::color:
      return kColorFormat;
    case FormatClass::depth:
      return VK_FORMAT_D32_SFLOAT;
    case FormatClass::depth_stencil:
      return VK_FORMAT_D32_SFLOAT_S8_UINT;
  }
  return kColorFormat;
}

VkImageAspectFlags aspect_of_plane(const Geometry& g, uint32_t plane) {
  if (!g.depth()) return VK_IMAGE_ASPECT_COLOR_BIT;
  return plane == 0 ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_STENCIL_BIT;
}

namespace {
// With an async-compute queue, a resource is VK_SHARING_MODE_CONCURRENT over the graphics and the
// compute-only family by default: Baton's Vulkan lowering leaves queue family indices IGNORED, valid
// as written only for concurrent resources (docs/executor.md). RunOptions::sharing exclusive /
// automatic: EXCLUSIVE (the create infos' default), ownership moved by the runtime's release/acquire
// pairs.
template <class CreateInfo>
void share(const VulkanContext::Impl& c, CreateInfo& ci, std::array<uint32_t, 2>& families, bool exclusive) {
  if (!c.compute_family || exclusive) return;
  families = {c.family, *c.compute_family};
  ci.sharingMode = VK_SHARING_MODE_CONCURRENT;
  ci.queueFamilyIndexCount = 2;
  ci.pQueueFamilyIndices = families.data();
}
}  // namespace

VkBufferCreateInfo buffer_create_info(const VulkanContext::Impl& c, VkDeviceSize bytes, std::array<uint32_t, 2>& families,
                                      bool exclusive) {
  VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bi.size = bytes;
  bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
             VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
             VK_BUFFER_USAGE_INDEX_BUFFER_BIT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT |
             VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  share(c, bi, families, exclusive);
  return bi;
}

VkImageCreateInfo image_create_info(const VulkanContext::Impl& c, const Geometry& g, std::array<uint32_t, 2>& families,
                                    bool exclusive) {
  VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ii.imageType = VK_IMAGE_TYPE_2D;
  ii.format = format_of(g);
  ii.extent = {g.width, g.height, 1};
  ii.mipLevels = g.mips;
  ii.arrayLayers = g.layers;
  ii.samples = VK_SAMPLE_COUNT_1_BIT;
  ii.tiling = VK_IMAGE_TILING_OPTIMAL;
  ii.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
             (g.depth() ? VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT
                        : VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
  ii.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  share(c, ii, families, exclusive);
  return ii;
}

std::vector<VkMemoryRequirements> requirements_of(VulkanContext::Impl& c, const std::vector<Geometry>& geo,
                                                  bool exclusive) {
  std::vector<VkMemoryRequirements> out(geo.size());
  for (size_t r = 0; r < geo.size(); ++r) {
    std::array<uint32_t, 2> families{};
    if (geo[r].buffer) {
      const VkBufferCreateInfo bi = buffer_create_info(c, VkDeviceSize{geo[r].words} * 4, families, exclusive);
      VkBuffer b = VK_NULL_HANDLE;
      BATON_VK(vkCreateBuffer(c.device, &bi, nullptr, &b));
      vkGetBufferMemoryRequirements(c.device, b, &out[r]);
      vkDestroyBuffer(c.device, b, nullptr);
    } else {
      const VkImageCreateInfo ii = image_create_info(c, geo[r], families, exclusive);
      VkImage i = VK_NULL_HANDLE;
      BATON_VK(vkCreateImage(c.device, &ii, nullptr, &i));
      vkGetImageMemoryRequirements(c.device, i, &out[r]);
      vkDestroyImage(c.device, i, nullptr);
    }
  }
  return out;
}

// `placed`: created only; bound by the runtime (bind_placed), then mapped and given its view.
GpuBuffer GpuResources::make_buffer(VkDeviceSize bytes, std::optional<uint64_t> placed, bool exclusive) {
  GpuBuffer b;
  b.bytes = bytes;
  std::array<uint32_t, 2> families{};
  const VkBufferCreateInfo bi = buffer_create_info(c_, bytes, families, exclusive);
  BATON_VK(vkCreateBuffer(c_.device, &bi, nullptr, &b.buffer));
  if (placed) return b;
  VkMemoryRequirements mr;
  vkGetBufferMemoryRequirements(c_.device, b.buffer, &mr);
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.allocationSize = mr.size;
  ai.memoryTypeIndex = c_.find_memory(mr.memoryTypeBits);
  BATON_VK(vkAllocateMemory(c_.device, &ai, nullptr, &b.memory));
  BATON_VK(vkBindBufferMemory(c_.device, b.buffer, b.memory, 0));
  void* p = nullptr;
  BATON_VK(vkMapMemory(c_.device, b.memory, 0, VK_WHOLE_SIZE, 0, &p));
  finish_buffer(b, p);
  return b;
}

void GpuResources::finish_buffer(GpuBuffer& b, void* mapped) {
  b.map = static_cast<uint32_t*>(mapped);
  std::memset(mapped, 0, b.bytes);
  VkBufferViewCreateInfo vi{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO};
  vi.buffer = b.buffer;
  vi.format = kColorFormat;
  vi.range = VK_WHOLE_SIZE;
  BATON_VK(vkCreateBufferView(c_.device, &vi, nullptr, &b.view));
}

GpuImage GpuResources::make_image(const Geometry& g, bool dummy, std::optional<uint64_t> placed, bool exclusive) {
  GpuImage im;
  im.format = format_of(g);
  std::array<uint32_t, 2> families{};
  const VkImageCreateInfo ii = image_create_info(c_, g, families, exclusive);
  BATON_VK(vkCreateImage(c_.device, &ii, nullptr, &im.image));
  if (placed) return im;  // views once the runtime has bound it (bind_placed)
  VkMemoryRequirements mr;
  vkGetImageMemoryRequirements(c_.device, im.image, &mr);
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.allocationSize = mr.size;
  ai.memoryTypeIndex = c_.find_memory(mr.memoryTypeBits, /*host_visible=*/false);
  BATON_VK(vkAllocateMemory(c_.device, &ai, nullptr, &im.memory));
  BATON_VK(vkBindImageMemory(c_.device, im.image, im.memory, 0));
  views(im, g, dummy);
  return im;
}

void GpuResources::views(GpuImage& im, const Geometry& g, bool dummy) {
  for (uint32_t l = 0; l < g.layers; ++l)
    for (uint32_t m = 0; m < g.mips; ++m) {
      VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
      vi.image = im.image;
      vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
      vi.format = im.format;
      vi.subresourceRange = {aspect_of_plane(g, 0), m, 1, l, 1};
      VkImageView v;
      BATON_VK(vkCreateImageView(c_.device, &vi, nullptr, &v));
      im.sample_views.push_back(v);
      if (dummy) continue;
      if (g.planes == 2) {
        vi.subresourceRange.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
        BATON_VK(vkCreateImageView(c_.device, &vi, nullptr, &v));
      }
      im.attach_views.push_back(v);
    }
}

void GpuResources::destroy(GpuBuffer& b) {
  if (b.view) vkDestroyBufferView(c_.device, b.view, nullptr);
  if (b.buffer) vkDestroyBuffer(c_.device, b.buffer, nullptr);
  if (b.memory) vkFreeMemory(c_.device, b.memory, nullptr);
  b = {};
}

void GpuResources::destroy(GpuImage& im) {
  for (size_t i = 0; i < im.sample_views.size(); ++i) {
    if (i < im.attach_views.size() && im.attach_views[i] != im.sample_views[i])
      vkDestroyImageView(c_.device, im.attach_views[i], nullptr);
    vkDestroyImageView(c_.device, im.sample_views[i], nullptr);
  }
  if (im.image) vkDestroyImage(c_.device, im.image, nullptr);
  if (im.memory) vkFreeMemory(c_.device, im.memory, nullptr);
  im = {};
}

// The placed resources go to the runtime, which reads their real memory requirements, checks the
// offsets, allocates the heap(s) and binds them (Runtime::place: the engines' path); buffers are
// mapped through their heap afterwards.
void GpuResources::bind_placed(const RunOptions::SharedMemory& shared, runtime::Runtime& rt, const ResourceTable* table) {
  if (shared.offset.size() != geo_.size())
    throw Error("executor: RunOptions::shared needs one offset per resource (internal)");
  runtime::PlaceRequest pr;
  pr.table = table;
  pr.images.assign(geo_.size(), VK_NULL_HANDLE);
  pr.buffers.assign(geo_.size(), VK_NULL_HANDLE);
  for (ResourceId r = 0; r < geo_.size(); ++r) {
    if (shared.offset[r] == RunOptions::SharedMemory::kNotPlaced) continue;
    if (geo_[r].buffer)
      pr.buffers[r] = buffers_[r].buffer;
    else
      pr.images[r] = images_[r].image;
  }
  pr.offset = shared.offset;
  pr.heap_size = shared.heap_size;
  pr.host_visible_buffers = true;
  runtime::Result<runtime::Placement> placed = rt.place(pr);
  if (!placed) throw Error("executor: " + placed.error());
  const runtime::Placement& p = placed.value();
  memory_.heaps = p.memory.heaps;
  memory_.heap_bytes = p.memory.heap_bytes;
  memory_.aliased_bytes = p.memory.aliased_bytes;
  memory_.placed = p.placed;
  memory_.split_by_kind = p.split_by_kind;
  bool any_buffer = false;
  for (ResourceId r = 0; r < geo_.size(); ++r)
    any_buffer = any_buffer || (geo_[r].buffer && pr.buffers[r] != VK_NULL_HANDLE);
  if (any_buffer) {
    void* m = nullptr;
    BATON_VK(vkMapMemory(c_.device, p.buffer_heap, 0, VK_WHOLE_SIZE, 0, &m));
    buffer_heap_ = p.buffer_heap;
    buffer_heap_map_ = static_cast<uint8_t*>(m);
  }
  for (ResourceId r = 0; r < geo_.size(); ++r) {
    if (geo_[r].buffer && pr.buffers[r] != VK_NULL_HANDLE) finish_buffer(buffers_[r], buffer_heap_map_ + shared.offset[r]);
    if (!geo_[r].buffer && pr.images[r] != VK_NULL_HANDLE) views(images_[r], geo_[r], false);
  }
}

GpuResources::GpuResources(VulkanContext::Impl& c, const std::vector<Geometry>& geo, uint32_t uav_dummy_slots,
                           bool seed_textures, const RunOptions::SharedMemory* shared, runtime::Runtime* rt,
                           const ResourceTable* table, const std::vector<uint8_t>* exclusive)
    : c_(c), geo_(geo), uav_slots_(uav_dummy_slots) {
  try {
    buffers_.resize(geo.size());
    images_.resize(geo.size());
    if (shared && !rt) throw Error("executor: placed resources need the runtime that binds them (internal)");
    auto placed = [&](ResourceId r) -> std::optional<uint64_t> {
      if (!shared || shared->offset[r] == RunOptions::SharedMemory::kNotPlaced) return std::nullopt;
      return shared->offset[r];
    };
    for (ResourceId r = 0; r < geo.size(); ++r) {
      if (geo[r].buffer)
        buffers_[r] = make_buffer(VkDeviceSize{geo[r].words} * 4, placed(r), exclusive && (*exclusive)[r]);
      else
        images_[r] = make_image(geo[r], false, placed(r), exclusive && (*exclusive)[r]);
    }
    if (shared) bind_placed(*shared, *rt, table);
    for (ResourceId r = 0; r < geo.size(); ++r)
      if (geo[r].buffer)
        for (uint32_t j = 0; j < geo[r].words; ++j) buffers_[r].map[j] = initial_word(r, j, geo[r].structural);
    dummy_buffer_ = make_buffer(kUniformWords * 4);
    uav_arena_ = make_buffer(kUavSlotBytes * std::max(1u, uav_slots_));
    Geometry one;
    one.buffer = false;
    dummy_color_ = make_image(one, true);
    one.format = FormatClass::depth;
    dummy_depth_ = make_image(one, true);
    Geometry arena;
    arena.buffer = false;
    for (uint32_t left = uav_slots_; left > 0; left -= std::min(left, kArenaLayers)) {
      arena.layers = std::min(left, kArenaLayers);
      uav_image_arenas_.push_back(make_image(arena, true));
    }

    // Dummies get their layouts once, before any work (host wait, so no hazard can involve them).
    std::vector<VkImageMemoryBarrier2> to;
    auto transition = [&](VkImage image, VkImageAspectFlags aspect, VkImageLayout layout) {
      VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
      b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
      b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
      b.newLayout = layout;
      b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      b.image = image;
      b.subresourceRange = {aspect, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
      to.push_back(b);
    };
    transition(dummy_color_.image, VK_IMAGE_ASPECT_COLOR_BIT, kDummyColorLayout);
    std::vector<ResourceId> seeded;
    for (ResourceId r = 0; seed_textures && r < geo.size(); ++r) {
      // Placed (transient) textures are never read before they are written, and seeding them
      // would write through the memory of the resources they share it with.
      if (geo[r].buffer || placed(r)) continue;
      transition(images_[r].image,
                 geo[r].planes == 2 ? VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT
                                    : aspect_of_plane(geo[r], 0),
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
      seeded.push_back(r);
    }
    transition(dummy_depth_.image, VK_IMAGE_ASPECT_DEPTH_BIT, kDummyDepthLayout);
    for (const GpuImage& a : uav_image_arenas_)
      transition(a.image, VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_LAYOUT_GENERAL);
    VkCommandBuffer cb = c_.begin_commands();
    VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
    di.imageMemoryBarrierCount = static_cast<uint32_t>(to.size());
    di.pImageMemoryBarriers = to.data();
    vkCmdPipelineBarrier2(cb, &di);
    for (ResourceId r : seeded)
      for (const Sub& s : all_subs(r, geo[r])) {
        if (s.plane != 0) continue;
        VkImageSubresourceRange range{aspect_of_plane(geo[r], 0), s.mip, 1, s.layer, 1};
        if (geo[r].depth()) {
          range.aspectMask = geo[r].planes == 2 ? VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT
                                                : VK_IMAGE_ASPECT_DEPTH_BIT;
          const VkClearDepthStencilValue v{depth_of(initial_texel(s)), 0};
          vkCmdClearDepthStencilImage(cb, images_[r].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &v, 1,
                                      &range);
        } else {
          VkClearColorValue v{};
          v.uint32[0] = initial_texel(s);
          vkCmdClearColorImage(cb, images_[r].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &v, 1, &range);
        }
      }
    // The host waits below, which orders these clears before any work of the run.
    c_.submit_and_wait(cb);
  } catch (...) {
    release();
    throw;
  }
}

GpuResources::~GpuResources() {
  release();
}

void GpuResources::release() {
  vkDeviceWaitIdle(c_.device);
  for (auto& b : buffers_) destroy(b);
  for (auto& i : images_) destroy(i);
  for (auto& i : uav_image_arenas_) destroy(i);
  uav_image_arenas_.clear();
  destroy(dummy_buffer_);
  destroy(uav_arena_);
  destroy(dummy_color_);
  destroy(dummy_depth_);
  if (buffer_heap_map_) vkUnmapMemory(c_.device, buffer_heap_);  // the runtime frees its heaps
  buffer_heap_ = VK_NULL_HANDLE;
  buffer_heap_map_ = nullptr;
}

VkImageView GpuResources::sample_view(const Sub& s) const {
  return images_[s.res].sample_views[s.layer * geo_[s.res].mips + s.mip];
}

VkImageView GpuResources::attach_view(const Sub& s) const {
  return images_[s.res].attach_views[s.layer * geo_[s.res].mips + s.mip];
}

VkDescriptorBufferInfo GpuResources::next_uav_buffer_dummy() {
  if (next_uav_buffer_ >= uav_slots_) throw Error("executor: out of storage-buffer dummies (internal)");
  return VkDescriptorBufferInfo{uav_arena_.buffer, kUavSlotBytes * next_uav_buffer_++, 4};
}

VkImageView GpuResources::next_uav_image_dummy() {
  if (next_uav_image_ >= uav_slots_) throw Error("executor: out of storage-image dummies (internal)");
  const uint32_t i = next_uav_image_++;
  return uav_image_arenas_[i / kArenaLayers].sample_views[i % kArenaLayers];
}

}  // namespace baton::exec
