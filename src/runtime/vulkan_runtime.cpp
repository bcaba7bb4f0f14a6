// The Vulkan runtime: one frame = build a frame graph from the engine's declarations, compile it,
// place the transients in one VkDeviceMemory from their real memory requirements, record one
// command buffer per list in parallel, submit one vkQueueSubmit2 per group with the schedule's
// waits, and retire the frame's objects when the GPU is done (include/runtime/baton/runtime.hpp).
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include "baton/lower_vulkan.hpp"
#include "baton/runtime.hpp"
#include "layout_replay.hpp"
#include "ownership.hpp"
#include "frame_lifecycle.hpp"
#include "thread_pool.hpp"

namespace baton::runtime {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

[[noreturn]] void vk_fail(VkResult r, std::string_view what) {
  throw Error(fmt::format("{} failed: VkResult {}", what, static_cast<int>(r)));
}
void vk_check(VkResult r, std::string_view what) {
  if (r != VK_SUCCESS) vk_fail(r, what);
}

// What PassContext reads: the frame's handles, and per job the views callbacks asked for (each job
// records its lists on one thread at a time, so its vector needs no lock).
struct HandleTable {
  VkDevice device = VK_NULL_HANDLE;
  std::vector<VkImage> images;
  std::vector<VkBuffer> buffers;
  std::vector<ResourceDesc> descs;
  std::vector<VkFormat> formats;
  mutable std::vector<std::vector<VkImageView>> views;  // per job
};

// Per list: what its pass declared, and the layout of every subresource of its declared images
// after the list's before-barriers.
struct ListData {
  uint32_t job = 0;
  std::vector<uint32_t> declared;  // graph resources, sorted
  std::vector<std::pair<uint64_t, VkImageLayout>> layouts;  // (resource << 32 | subresource), sorted
  bool declares(uint32_t r) const { return std::binary_search(declared.begin(), declared.end(), r); }
};

uint32_t sub_index(const ResourceDesc& d, uint32_t mip, uint32_t layer, uint32_t plane) {
  return mip + layer * d.mips + plane * d.mips * d.layers;
}

// A heap of transient memory, reused by later frames once the GPU is done with its frame.
struct Heap {
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint64_t size = 0;
  uint32_t type = 0;
};

// Everything a submitted frame owns until the GPU has finished it.
struct PendingFrame {
  uint64_t ticket = 0;
  std::array<uint64_t, graph::kQueues> values{};  // per logical queue: the timeline value it reached
  std::vector<VkImage> images;
  std::vector<VkBuffer> buffers;
  std::vector<VkSemaphore> binaries;
  std::vector<VkImageView> views;  // made by PassContext::view
  std::vector<VkCommandPool> pools;
  std::vector<VkFence> fences;  // one per queue the frame submitted to, on its last submission there
  std::vector<Heap> heaps;  // the transients' shared memory (place())
  std::vector<VkEvent> events;  // split barriers
  VkQueryPool queries = VK_NULL_HANDLE;  // RuntimeOptions::timestamps: two per list
  std::vector<PassTime> lists;           // names and queues of the lists
  std::vector<uint8_t> timed;            // per list: bit 0 begin written, bit 1 end written
};

}  // namespace

namespace {
VkMemoryBarrier2 full_memory_barrier() {
  VkMemoryBarrier2 m{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  m.srcStageMask = m.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  m.srcAccessMask = m.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
  return m;
}

// RuntimeOptions::barriers other than planned: every barrier of the point widened to a full
// dependency (full), or only its layout transitions and ownership transfers kept, with no scopes
// at all (none: unsafe, a lower bound).
void widen_or_strip(VulkanPoint& pt, RuntimeOptions::Barriers mode) {
  constexpr VkPipelineStageFlags2 kAll = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  constexpr VkAccessFlags2 kRw = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
  const bool full = mode == RuntimeOptions::Barriers::full;
  auto scopes = [&](auto& b) {
    b.srcStageMask = b.dstStageMask = full ? kAll : VK_PIPELINE_STAGE_2_NONE;
    b.srcAccessMask = b.dstAccessMask = full ? kRw : VK_ACCESS_2_NONE;
  };
  for (auto& b : pt.images) scopes(b);
  for (auto& b : pt.buffers) scopes(b);
  for (auto& b : pt.memory) scopes(b);
  if (full) return;
  pt.memory.clear();
  std::vector<VkBufferMemoryBarrier2> buffers;
  for (const auto& b : pt.buffers)
    if (b.srcQueueFamilyIndex != b.dstQueueFamilyIndex) buffers.push_back(b);
  pt.buffers = std::move(buffers);
  std::vector<VkImageMemoryBarrier2> images;
  std::vector<ResourceId> image_resources;
  for (size_t k = 0; k < pt.images.size(); ++k)
    if (pt.images[k].oldLayout != pt.images[k].newLayout ||
        pt.images[k].srcQueueFamilyIndex != pt.images[k].dstQueueFamilyIndex) {
      images.push_back(pt.images[k]);
      image_resources.push_back(pt.image_resources[k]);
    }
  pt.images = std::move(images);
  pt.image_resources = std::move(image_resources);
}

bool declared(const PassContext& c, Res r) {
  const auto* h = static_cast<const HandleTable*>(c.frame);
  const auto* l = static_cast<const ListData*>(c.list);
  return h && l && r.index < h->images.size() && l->declares(r.index);
}
}  // namespace

VkImage PassContext::image(Res r) const {
  return declared(*this, r) ? static_cast<const HandleTable*>(frame)->images[r.index] : VK_NULL_HANDLE;
}
VkBuffer PassContext::buffer(Res r) const {
  return declared(*this, r) ? static_cast<const HandleTable*>(frame)->buffers[r.index] : VK_NULL_HANDLE;
}

VkImageLayout PassContext::layout(Res r, uint32_t mip, uint32_t layer, uint32_t plane) const {
  if (!declared(*this, r)) return VK_IMAGE_LAYOUT_UNDEFINED;
  const auto* h = static_cast<const HandleTable*>(frame);
  const ResourceDesc& d = h->descs[r.index];
  if (d.type != ResourceType::texture || mip >= d.mips || layer >= d.layers || plane >= d.planes)
    return VK_IMAGE_LAYOUT_UNDEFINED;
  const auto* l = static_cast<const ListData*>(list);
  const uint64_t key = uint64_t{r.index} << 32 | sub_index(d, mip, layer, plane);
  const auto it = std::lower_bound(l->layouts.begin(), l->layouts.end(), std::make_pair(key, VK_IMAGE_LAYOUT_UNDEFINED),
                                   [](const auto& a, const auto& b) { return a.first < b.first; });
  return it != l->layouts.end() && it->first == key ? it->second : VK_IMAGE_LAYOUT_UNDEFINED;
}

VkImageView PassContext::view(Res r, const SubresourceRange& range, VkImageViewType type, VkFormat format) const {
  if (!declared(*this, r)) return VK_NULL_HANDLE;
  const auto* h = static_cast<const HandleTable*>(frame);
  const ResourceDesc& d = h->descs[r.index];
  if (d.type != ResourceType::texture) return VK_NULL_HANDLE;
  const Box b = resolve(d, range);
  VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vi.image = h->images[r.index];
  vi.viewType = type;
  vi.format = format == VK_FORMAT_UNDEFINED ? h->formats[r.index] : format;
  vi.subresourceRange.aspectMask = vulkan_aspects(d, b.p0, b.p1);
  vi.subresourceRange.baseMipLevel = b.m0;
  vi.subresourceRange.levelCount = b.m1 - b.m0;
  vi.subresourceRange.baseArrayLayer = b.l0;
  vi.subresourceRange.layerCount = b.l1 - b.l0;
  VkImageView v = VK_NULL_HANDLE;
  if (vkCreateImageView(h->device, &vi, nullptr, &v) != VK_SUCCESS) return VK_NULL_HANDLE;
  h->views[static_cast<const ListData*>(list)->job].push_back(v);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Frame building: cheap, no Vulkan calls; problems are kept and reported by submit.
namespace {
uint32_t add_resource(std::vector<Frame::Resource>& v, Frame::Resource r) {
  v.push_back(std::move(r));
  return static_cast<uint32_t>(v.size() - 1);
}
}  // namespace

Res Frame::import_image(std::string name, VkImage image, const VkImageCreateInfo& info, std::optional<Access> rest,
                        bool undefined) {
  if (image == VK_NULL_HANDLE) errors_.push_back(fmt::format("imported image '{}' has no VkImage", name));
  Resource r;
  r.name = std::move(name);
  r.vk_image = image;
  r.image_info = info;
  r.image_info.pNext = nullptr;
  r.image_info.pQueueFamilyIndices = nullptr;
  r.rest = rest;
  r.undefined = undefined;
  return Res{add_resource(resources_, std::move(r))};
}

Res Frame::import_buffer(std::string name, VkBuffer buffer, const VkBufferCreateInfo& info) {
  if (buffer == VK_NULL_HANDLE) errors_.push_back(fmt::format("imported buffer '{}' has no VkBuffer", name));
  Resource r;
  r.name = std::move(name);
  r.image = false;
  r.vk_buffer = buffer;
  r.buffer_info = info;
  return Res{add_resource(resources_, std::move(r))};
}

Res Frame::create_image(std::string name, const VkImageCreateInfo& info) {
  Resource r;
  r.name = std::move(name);
  r.transient = true;
  r.image_info = info;
  r.image_info.pNext = nullptr;  // chained structs belong to the caller; not kept past this call
  r.image_info.pQueueFamilyIndices = nullptr;
  r.image_info.queueFamilyIndexCount = 0;
  return Res{add_resource(resources_, std::move(r))};
}

Res Frame::create_buffer(std::string name, const VkBufferCreateInfo& info) {
  Resource r;
  r.name = std::move(name);
  r.image = false;
  r.transient = true;
  r.buffer_info = info;
  r.buffer_info.pNext = nullptr;
  r.buffer_info.pQueueFamilyIndices = nullptr;
  r.buffer_info.queueFamilyIndexCount = 0;
  return Res{add_resource(resources_, std::move(r))};
}

void Frame::add_pass(PassDesc pass) { declare_pass(std::move(pass), resources_.size(), passes_, errors_); }

void Frame::output(Res r) { declare_output(r, resources_.size(), outputs_, errors_); }

// ---------------------------------------------------------------------------------------------
struct Runtime::Impl {
  DeviceDesc dev;
  RuntimeOptions opt;
  std::unique_ptr<ThreadPool> pool;
  VkPhysicalDeviceMemoryProperties memory_props{};
  uint64_t buffer_image_granularity = 1;
  std::array<VkSemaphore, graph::kQueues> timeline{};  // per logical queue (direct, compute, copy)
  std::array<uint64_t, graph::kQueues> timeline_value{};
  uint64_t next_ticket = 0, completed_ticket = 0;
  std::deque<PendingFrame> pending;
  std::vector<Heap> free_heaps;
  std::deque<FrameTimings> timings;  // of the last frames retired
  std::vector<uint32_t> timestamp_bits;  // per queue family
  // VK_EXT_debug_utils where the instance has it: transients and command buffers carry the names
  // of their resources and passes, so the layer's messages name them.
  PFN_vkSetDebugUtilsObjectNameEXT set_name = nullptr;
  void name(VkObjectType type, uint64_t handle, const std::string& n) const {
    if (!set_name || !handle) return;
    VkDebugUtilsObjectNameInfoEXT ni{VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT};
    ni.objectType = type;
    ni.objectHandle = handle;
    ni.pObjectName = n.c_str();
    set_name(dev.device, &ni);
  }
  double timestamp_period_ns = 1;
  Frame frame;
  std::mutex mutex;  // the runtime is driven from one thread; this only guards against misuse

  ~Impl() {
    if (dev.device == VK_NULL_HANDLE) return;
    for (VkQueue q : distinct_queues()) vkQueueWaitIdle(q);
    while (!pending.empty()) retire_front();
    for (Heap& h : staged) vkFreeMemory(dev.device, h.memory, nullptr);
    for (Heap& h : free_heaps) vkFreeMemory(dev.device, h.memory, nullptr);
    for (VkSemaphore s : timeline)
      if (s) vkDestroySemaphore(dev.device, s, nullptr);
  }

  bool two_families() const { return dev.compute && dev.compute->family != dev.graphics.family; }
  const QueueDesc& queue_of(Queue q) const {
    return q == Queue::direct || !dev.compute ? dev.graphics : *dev.compute;
  }
  OwnershipInput ownership_input(const Execution& x, const VulkanPlan& plan,
                                 const std::vector<std::vector<uint32_t>>& waits_of) const;
  // RuntimeOptions::Sharing::automatic: transient `r`, created EXCLUSIVE and not yet bound, again as
  // VK_SHARING_MODE_CONCURRENT over both families; its requirements must still fit the plan's.
  void recreate_concurrent(const Frame::Resource& fr, uint32_t r, HandleTable& handles, PendingFrame& pf,
                           VkMemoryRequirements& req);
  void frame_error(std::string text) { frame.errors_.push_back(std::move(text)); }
  // vkQueueWaitIdle (not only a host wait on the timelines): the layer's synchronization validation
  // retires a queue's accesses at a queue-idle wait.
  void wait_idle() {
    for (VkQueue q : distinct_queues()) vk_check(vkQueueWaitIdle(q), "vkQueueWaitIdle");
  }
  std::vector<VkQueue> distinct_queues() const {
    std::vector<VkQueue> v{dev.graphics.queue};
    if (dev.compute && dev.compute->queue != dev.graphics.queue) v.push_back(dev.compute->queue);
    return v;
  }

  void init() {
    vkGetPhysicalDeviceMemoryProperties(dev.physical, &memory_props);
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(dev.physical, &props);
    buffer_image_granularity = std::max<uint64_t>(props.limits.bufferImageGranularity, 1);
    timestamp_period_ns = props.limits.timestampPeriod;
    set_name = reinterpret_cast<PFN_vkSetDebugUtilsObjectNameEXT>(
        vkGetDeviceProcAddr(dev.device, "vkSetDebugUtilsObjectNameEXT"));
    uint32_t nf = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(dev.physical, &nf, nullptr);
    std::vector<VkQueueFamilyProperties> families(nf);
    vkGetPhysicalDeviceQueueFamilyProperties(dev.physical, &nf, families.data());
    for (const VkQueueFamilyProperties& fp : families) timestamp_bits.push_back(fp.timestampValidBits);
    for (VkSemaphore& s : timeline) {
      VkSemaphoreTypeCreateInfo ti{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
      ti.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
      VkSemaphoreCreateInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, &ti};
      vk_check(vkCreateSemaphore(dev.device, &si, nullptr, &s), "vkCreateSemaphore (timeline)");
    }
    uint32_t threads = opt.threads ? opt.threads : std::min(8u, std::max(1u, std::thread::hardware_concurrency()));
    opt.threads = threads;
    if (!opt.jobs) pool = std::make_unique<ThreadPool>(threads);
  }

  void run_jobs(uint32_t count, const std::function<void(uint32_t)>& job) {
    if (opt.jobs)
      opt.jobs(count, job);
    else
      pool->run(count, job);
  }

  // Fences, not the timelines, tell when a frame is done: the Khronos layer (1.3.239) retires a
  // queue's accesses at a fence wait but not at a host wait on a timeline, and a later frame's first
  // touch of recycled memory (srcStage NONE, correct after the host saw the frame finish) would
  // otherwise look like a race to it.
  bool finished(const PendingFrame& f) {
    if (f.fences.empty()) return true;
    const VkResult r = vkWaitForFences(dev.device, static_cast<uint32_t>(f.fences.size()), f.fences.data(), VK_TRUE, 0);
    if (r == VK_TIMEOUT) return false;
    vk_check(r, "vkWaitForFences");
    return true;
  }

  void retire_front() {
    PendingFrame& f = pending.front();
    for (VkImage i : f.images) vkDestroyImage(dev.device, i, nullptr);
    for (VkBuffer b : f.buffers) vkDestroyBuffer(dev.device, b, nullptr);
    for (VkSemaphore s : f.binaries) vkDestroySemaphore(dev.device, s, nullptr);
    for (VkImageView v : f.views) vkDestroyImageView(dev.device, v, nullptr);
    for (VkCommandPool p : f.pools) vkDestroyCommandPool(dev.device, p, nullptr);
    for (VkFence x : f.fences) vkDestroyFence(dev.device, x, nullptr);
    for (VkEvent e : f.events) vkDestroyEvent(dev.device, e, nullptr);
    free_heaps.insert(free_heaps.end(), f.heaps.begin(), f.heaps.end());
    if (opt.timestamps != RuntimeOptions::Timestamps::off) keep_timings(f);
    completed_ticket = std::max(completed_ticket, f.ticket);
    pending.pop_front();
  }

  // The frame is finished: its timestamps are available.
  void keep_timings(PendingFrame& f) {
    FrameTimings ft;
    ft.ticket = f.ticket;
    if (f.queries) {
      const size_t n = f.lists.size();
      std::vector<uint64_t> ticks(2 * n, 0);
      VkResult r = VK_SUCCESS;
      for (uint32_t q = 0; q < 2 * n && r == VK_SUCCESS; ++q)  // only the queries written
        if ((static_cast<uint32_t>(f.timed[q / 2]) >> (q % 2)) & 1u)
          r = vkGetQueryPoolResults(dev.device, f.queries, q, 1, sizeof(uint64_t), &ticks[q], sizeof(uint64_t),
                                    VK_QUERY_RESULT_64_BIT);
      vkDestroyQueryPool(dev.device, f.queries, nullptr);
      f.queries = VK_NULL_HANDLE;
      if (r == VK_SUCCESS && n > 0) {
        uint64_t t0 = ~uint64_t{0};
        for (size_t i = 0; i < n; ++i)
          if (f.timed[i] & 1u) t0 = std::min(t0, ticks[2 * i]);
        const auto us = [&](uint64_t t) { return static_cast<double>(t - t0) * timestamp_period_ns / 1000.0; };
        for (size_t i = 0; i < n; ++i) {
          if (!f.timed[i]) continue;
          PassTime pt = std::move(f.lists[i]);
          const uint64_t begin = f.timed[i] & 1u ? ticks[2 * i] : ticks[2 * i + 1];
          const uint64_t end = f.timed[i] & 2u ? std::max(ticks[2 * i + 1], begin) : begin;
          pt.begin_us = us(begin);
          pt.end_us = us(end);
          ft.frame_us = std::max(ft.frame_us, pt.end_us);
          ft.lists.push_back(std::move(pt));
        }
        ft.valid = true;
      }
    }
    timings.push_back(std::move(ft));
    while (timings.size() > 16) timings.pop_front();
  }

  void retire_finished() {
    while (!pending.empty() && finished(pending.front())) retire_front();
  }

  void wait_front() {
    const PendingFrame& f = pending.front();
    if (!f.fences.empty())
      vk_check(vkWaitForFences(dev.device, static_cast<uint32_t>(f.fences.size()), f.fences.data(), VK_TRUE, UINT64_MAX),
               "vkWaitForFences");
    retire_front();
  }

  // A heap for `size` bytes of a memory type in `type_bits` with the `required` property flags:
  // the smallest free heap that fits, else a new allocation (device-local preferred).
  Heap take_heap(uint64_t size, uint32_t type_bits, VkMemoryPropertyFlags required = 0) {
    auto allowed = [&](uint32_t t) {
      return (type_bits >> t & 1u) && (memory_props.memoryTypes[t].propertyFlags & required) == required;
    };
    size_t best = free_heaps.size();
    for (size_t i = 0; i < free_heaps.size(); ++i)
      if (free_heaps[i].size >= size && allowed(free_heaps[i].type) &&
          (best == free_heaps.size() || free_heaps[i].size < free_heaps[best].size))
        best = i;
    if (best != free_heaps.size()) {
      Heap h = free_heaps[best];
      free_heaps.erase(free_heaps.begin() + static_cast<std::ptrdiff_t>(best));
      return h;
    }
    const uint32_t type = memory_type(type_bits, required);
    if (type == UINT32_MAX)
      throw Error(fmt::format("no memory type fits every transient of the frame (memoryTypeBits {:#x})", type_bits));
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = std::max<uint64_t>(size, 1);
    ai.memoryTypeIndex = type;
    Heap h;
    h.size = ai.allocationSize;
    h.type = type;
    vk_check(vkAllocateMemory(dev.device, &ai, nullptr, &h.memory),
             fmt::format("vkAllocateMemory ({} bytes for the frame's transients)", size));
    return h;
  }
  // A memory type in `type_bits` with the `required` flags, device-local where one is; UINT32_MAX: none.
  uint32_t memory_type(uint32_t type_bits, VkMemoryPropertyFlags required) const {
    for (uint32_t pass = 0; pass < 2; ++pass)
      for (uint32_t t = 0; t < memory_props.memoryTypeCount; ++t) {
        const VkMemoryPropertyFlags f = memory_props.memoryTypes[t].propertyFlags;
        if ((type_bits >> t & 1u) && (f & required) == required && (pass == 1 || (f & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT)))
          return t;
      }
    return UINT32_MAX;
  }

  Placement place_objects(const PlaceRequest& rq);
  FrameInfo record_and_submit(const Execution& x, PendingFrame& pf, const std::function<void()>& after_record);
  FrameInfo submit_frame();

  std::vector<Heap> staged;  // bound by place(), owned by the frame execute() submits next
  MemoryInfo staged_memory;
};

namespace {

// On failure, the objects a frame made so far are destroyed (and its heaps made free again).
struct Cleanup {
  Runtime::Impl& impl;
  PendingFrame& pf;
  bool armed = true;
  ~Cleanup();
};

// The frame's resources as frame-graph resources (runtime_common.hpp's build_graph does the rest).
graph::Graph build_graph(const Frame& f, std::vector<uint32_t> outputs) {
  std::vector<graph::Resource> resources;
  resources.reserve(f.resources().size());
  for (const Frame::Resource& r : f.resources()) {
    graph::Resource gr;
    gr.desc = r.image ? describe_image(r.name, r.image_info) : describe_buffer(r.name, r.buffer_info);
    if (r.rest) gr.desc.resting = r.rest;
    gr.transient = r.transient;
    gr.imported = !r.transient;
    gr.starts_undefined = !r.transient && r.undefined;
    resources.push_back(std::move(gr));
  }
  return runtime::build_graph(std::move(resources), f.passes(), std::move(outputs));
}

// One list being recorded: its points, which were recorded, and how to record one.
struct ListState {
  const CommandListGroup* group = nullptr;
  const CommandList* list = nullptr;
  const VulkanList* vl = nullptr;
  std::vector<uint8_t> done;  // per point
  std::function<void(const VulkanPoint&)> emit;
};

std::string point_name(const ListState& s, uint32_t op, Where w) {
  return fmt::format("group '{}' list '{}': the barriers {} op {}", s.group->name(), s.list->name(), to_string(w), op);
}

}  // namespace

void ListContext::barriers(uint32_t op, Where where) const {
  auto* s = static_cast<ListState*>(state);
  if (!s) throw Error("ListContext::barriers: no list is being recorded");
  for (size_t k = 0; k < s->vl->points.size(); ++k) {
    const VulkanPoint& pt = s->vl->points[k];
    if (pt.op != op || pt.where != where) continue;
    if (s->done[k]++) throw Error(point_name(*s, op, where) + " were recorded twice");
    s->emit(pt);
  }
}

Cleanup::~Cleanup() {
  if (!armed) return;
  const VkDevice d = impl.dev.device;
  for (VkImage i : pf.images) vkDestroyImage(d, i, nullptr);
  for (VkBuffer b : pf.buffers) vkDestroyBuffer(d, b, nullptr);
  for (VkSemaphore s : pf.binaries) vkDestroySemaphore(d, s, nullptr);
  for (VkImageView v : pf.views) vkDestroyImageView(d, v, nullptr);
  for (VkCommandPool p : pf.pools) vkDestroyCommandPool(d, p, nullptr);
  for (VkFence x : pf.fences) vkDestroyFence(d, x, nullptr);
  for (VkEvent e : pf.events) vkDestroyEvent(d, e, nullptr);
  if (pf.queries) vkDestroyQueryPool(d, pf.queries, nullptr);
  impl.free_heaps.insert(impl.free_heaps.end(), pf.heaps.begin(), pf.heaps.end());
}

Placement Runtime::Impl::place_objects(const PlaceRequest& rq) {
  Placement out;
  const size_t n = std::max(rq.images.size(), rq.buffers.size());
  auto name_of = [&](size_t m) {
    return rq.table && m < rq.table->size() ? (*rq.table)[static_cast<ResourceId>(m)].name : fmt::format("member {}", m);
  };
  struct Obj {
    size_t member;
    bool image;
    VkMemoryRequirements req;
  };
  std::vector<Obj> objs;
  uint32_t image_bits = ~0u, buffer_bits = ~0u;
  for (size_t m = 0; m < n; ++m) {
    const bool image = m < rq.images.size() && rq.images[m] != VK_NULL_HANDLE;
    const bool buffer = m < rq.buffers.size() && rq.buffers[m] != VK_NULL_HANDLE;
    if (!image && !buffer) continue;
    VkMemoryRequirements req{};
    if (image)
      vkGetImageMemoryRequirements(dev.device, rq.images[m], &req);
    else
      vkGetBufferMemoryRequirements(dev.device, rq.buffers[m], &req);
    const uint64_t at = m < rq.offset.size() ? rq.offset[m] : MemberPlacement::kNotPlaced;
    if (at == MemberPlacement::kNotPlaced || at % std::max<uint64_t>(req.alignment, 1) != 0 ||
        at > rq.heap_size || req.size > rq.heap_size - at)
      throw Error(fmt::format("transient '{}' ({} bytes, alignment {}) cannot be bound at offset {} of a heap of {} bytes",
                              name_of(m), req.size, req.alignment,
                              at == MemberPlacement::kNotPlaced ? std::string("(none)") : std::to_string(at),
                              rq.heap_size));
    (image ? image_bits : buffer_bits) &= req.memoryTypeBits;
    objs.push_back({m, image, req});
  }
  if (objs.empty()) return out;
  const bool images = std::any_of(objs.begin(), objs.end(), [](const Obj& o) { return o.image; });
  const bool buffers = std::any_of(objs.begin(), objs.end(), [](const Obj& o) { return !o.image; });
  constexpr VkMemoryPropertyFlags kHost = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  const VkMemoryPropertyFlags buffer_flags = rq.host_visible_buffers ? kHost : 0;
  const uint32_t both = image_bits & buffer_bits;
  if (memory_type(both, buffers ? buffer_flags : 0) != UINT32_MAX) {
    staged.push_back(take_heap(rq.heap_size, both, buffers ? buffer_flags : 0));
    out.image_heap = out.buffer_heap = staged.back().memory;
  } else if (!rq.host_visible_buffers || !images || !buffers) {
    throw Error(fmt::format("the frame's placed transients share no memory type (images {:#x}, buffers {:#x})",
                            image_bits, buffer_bits));
  } else {
    out.split_by_kind = true;
    staged.push_back(take_heap(rq.heap_size, image_bits, 0));
    out.image_heap = staged.back().memory;
    staged.push_back(take_heap(rq.heap_size, buffer_bits, buffer_flags));
    out.buffer_heap = staged.back().memory;
  }
  std::vector<std::pair<uint64_t, uint64_t>> image_ranges, buffer_ranges;
  for (const Obj& o : objs) {
    const uint64_t at = rq.offset[o.member];
    if (o.image)
      vk_check(vkBindImageMemory(dev.device, rq.images[o.member], out.image_heap, at),
               fmt::format("vkBindImageMemory (transient '{}' at offset {})", name_of(o.member), at));
    else
      vk_check(vkBindBufferMemory(dev.device, rq.buffers[o.member], out.buffer_heap, at),
               fmt::format("vkBindBufferMemory (transient '{}' at offset {})", name_of(o.member), at));
    (o.image && out.split_by_kind ? image_ranges : buffer_ranges).emplace_back(at, o.req.size);
    ++out.placed;
  }
  out.memory.heaps = out.split_by_kind ? 2u : 1u;
  for (size_t i = staged.size() - out.memory.heaps; i < staged.size(); ++i) out.memory.heap_bytes += staged[i].size;
  out.memory.memory_type = staged[staged.size() - out.memory.heaps].type;
  out.memory.aliased_bytes = aliased_bytes(image_ranges) + aliased_bytes(buffer_ranges);
  staged_memory = out.memory;
  return out;
}

// The ownership planner's view of an execution: per group its VkQueue's family and logical queue,
// per list the members its operations use, the waits, and per member the caller's sharing data.
OwnershipInput Runtime::Impl::ownership_input(const Execution& x, const VulkanPlan& plan,
                                              const std::vector<std::vector<uint32_t>>& waits_of) const {
  const auto& groups = *x.groups;
  const size_t ng = groups.size();
  const size_t nm = x.table->size();
  OwnershipInput oi;
  oi.table = x.table;
  oi.plan = &plan;
  oi.home_family = dev.graphics.family;
  oi.exclusive.assign(nm, 0);
  oi.imported.assign(nm, 0);
  oi.initial_layout.assign(nm, VK_IMAGE_LAYOUT_UNDEFINED);
  std::copy_n(x.exclusive.begin(), std::min(nm, x.exclusive.size()), oi.exclusive.begin());
  std::copy_n(x.imported.begin(), std::min(nm, x.imported.size()), oi.imported.begin());
  std::copy_n(x.initial_layout.begin(), std::min(nm, x.initial_layout.size()), oi.initial_layout.begin());
  oi.touched.resize(ng);
  oi.group_family.resize(ng);
  oi.group_queue.resize(ng);
  oi.waits = waits_of;
  for (uint32_t gi = 0; gi < ng; ++gi) {
    oi.group_family[gi] = queue_of(groups[gi]->queue()).family;
    oi.group_queue[gi] = static_cast<uint32_t>(graph::qi(groups[gi]->queue()));
    for (const CommandList* l : groups[gi]->lists()) {
      std::vector<ResourceId> used;
      for (const Operation& op : l->ops())
        for (const baton::Use& u : op.uses) used.push_back(u.resource);
      std::sort(used.begin(), used.end());
      used.erase(std::unique(used.begin(), used.end()), used.end());
      oi.touched[gi].push_back(std::move(used));
    }
  }
  return oi;
}

void Runtime::Impl::recreate_concurrent(const Frame::Resource& fr, uint32_t r, HandleTable& handles, PendingFrame& pf,
                                        VkMemoryRequirements& req) {
  std::array<uint32_t, 2> families{dev.graphics.family, dev.compute->family};
  auto concurrent = [&](auto& ci) {
    ci.sharingMode = VK_SHARING_MODE_CONCURRENT;
    ci.queueFamilyIndexCount = 2;
    ci.pQueueFamilyIndices = families.data();
  };
  VkMemoryRequirements now{};
  if (fr.image) {
    VkImageCreateInfo ci = fr.image_info;
    ci.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    concurrent(ci);
    VkImage img = VK_NULL_HANDLE;
    vk_check(vkCreateImage(dev.device, &ci, nullptr, &img), fmt::format("vkCreateImage (transient '{}', concurrent)", fr.name));
    std::replace(pf.images.begin(), pf.images.end(), handles.images[r], img);
    vkDestroyImage(dev.device, handles.images[r], nullptr);
    handles.images[r] = img;
    name(VK_OBJECT_TYPE_IMAGE, reinterpret_cast<uint64_t>(img), fr.name);
    vkGetImageMemoryRequirements(dev.device, img, &now);
  } else {
    VkBufferCreateInfo ci = fr.buffer_info;
    ci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    concurrent(ci);
    VkBuffer buf = VK_NULL_HANDLE;
    vk_check(vkCreateBuffer(dev.device, &ci, nullptr, &buf), fmt::format("vkCreateBuffer (transient '{}', concurrent)", fr.name));
    std::replace(pf.buffers.begin(), pf.buffers.end(), handles.buffers[r], buf);
    vkDestroyBuffer(dev.device, handles.buffers[r], nullptr);
    handles.buffers[r] = buf;
    name(VK_OBJECT_TYPE_BUFFER, reinterpret_cast<uint64_t>(buf), fr.name);
    vkGetBufferMemoryRequirements(dev.device, buf, &now);
  }
  // The frame was planned with the EXCLUSIVE object's size and alignment: the concurrent one must fit
  // them (place() checks the offset and the heap again).
  if (now.size > req.size || (req.alignment % std::max<VkDeviceSize>(now.alignment, 1)) != 0 ||
      (now.memoryTypeBits & req.memoryTypeBits) == 0)
    throw Error(fmt::format("transient '{}': as VK_SHARING_MODE_CONCURRENT it needs {} bytes aligned to {} (memory "
                            "types {:#x}), the plan gave it {} bytes aligned to {} (types {:#x}); use "
                            "Sharing::concurrent or Sharing::exclusive",
                            fr.name, now.size, now.alignment, now.memoryTypeBits, req.size, req.alignment,
                            req.memoryTypeBits));
  req.memoryTypeBits &= now.memoryTypeBits;
}

// The barriers an execution records: its own stream, or the plan lowered from its compiled groups
// (into `lowered`); either must have the frame's groups and lists. `who` names the entry in errors.
static const VulkanPlan& barriers_of(const Execution& x, VulkanPlan& lowered, const char* who) {
  const auto& groups = *x.groups;
  if (!x.barriers) lowered = lower_vulkan(*x.table, *x.compiled);
  const VulkanPlan& plan = x.barriers ? *x.barriers : lowered;
  if (plan.groups.size() != groups.size())
    throw Error(fmt::format("{}: the barriers have {} groups, the frame {}", who, plan.groups.size(), groups.size()));
  for (size_t gi = 0; gi < groups.size(); ++gi)
    if (plan.groups[gi].lists.size() != groups[gi]->lists().size())
      throw Error(fmt::format("{}: group '{}' has {} lists, its barriers {}", who, groups[gi]->name(),
                              groups[gi]->lists().size(), plan.groups[gi].lists.size()));
  return plan;
}

static std::vector<std::vector<uint32_t>> sorted_waits(const Execution& x, size_t ng) {
  std::vector<std::vector<uint32_t>> waits_of(ng);
  for (size_t gi = 0; gi < ng && gi < x.waits.size(); ++gi) {
    waits_of[gi] = x.waits[gi];
    std::sort(waits_of[gi].begin(), waits_of[gi].end());
    waits_of[gi].erase(std::unique(waits_of[gi].begin(), waits_of[gi].end()), waits_of[gi].end());
  }
  return waits_of;
}

FrameInfo Runtime::Impl::record_and_submit(const Execution& x, PendingFrame& pf, const std::function<void()>& after_record) {
  if (!x.table || !x.groups || (!x.barriers && !x.compiled) || !x.record)
    throw Error("execute: the Execution needs a table, groups, compiled groups (or barriers) and a record callback");
  FrameInfo info;
  info.memory = staged_memory;
  staged_memory = {};
  pf.heaps.insert(pf.heaps.end(), staged.begin(), staged.end());
  staged.clear();
  const auto& groups = *x.groups;
  const size_t ng = groups.size();
  const size_t nm = x.table->size();
  VulkanPlan lowered;
  const VulkanPlan& plan = barriers_of(x, lowered, "execute");
  auto queue_of_group = [&](size_t gi) { return groups[gi]->queue(); };

  const std::vector<std::vector<uint32_t>> waits_of = sorted_waits(x, ng);
  std::vector<VkImage> member_image(nm, VK_NULL_HANDLE);
  std::vector<VkBuffer> member_buffer(nm, VK_NULL_HANDLE);
  std::copy_n(x.images.begin(), std::min(nm, x.images.size()), member_image.begin());
  std::copy_n(x.buffers.begin(), std::min(nm, x.buffers.size()), member_buffer.begin());

  // Queue-family ownership: exclusive resources handed between families get release/acquire pairs.
  OwnershipPlan ownership;
  if (std::any_of(x.exclusive.begin(), x.exclusive.end(), [](uint8_t e) { return e != 0; })) {
    ownership = plan_ownership(ownership_input(x, plan, waits_of));
    info.ownership_transfers = static_cast<uint32_t>(ownership.pairs);
  }

  // Recording: one command buffer per list, lists split into contiguous chunks, one chunk per job,
  // each job with its own command pools (pools are externally synchronized).
  const auto t1 = Clock::now();
  struct ListRef {
    uint32_t group, list;
  };
  std::vector<ListRef> lists;
  for (uint32_t gi = 0; gi < ng; ++gi)
    for (uint32_t li = 0; li < groups[gi]->lists().size(); ++li) lists.push_back({gi, li});
  std::vector<VkCommandBuffer> cbs(lists.size(), VK_NULL_HANDLE);
  std::vector<const TransferBarriers*> acquire_of(lists.size(), nullptr), release_of(lists.size(), nullptr);
  {
    size_t i = 0;
    for (const TransferBarriers& t : ownership.transfers) {
      while (i < lists.size() && std::tie(lists[i].group, lists[i].list) < std::tie(t.group, t.list)) ++i;
      if (i < lists.size() && lists[i].group == t.group && lists[i].list == t.list)
        (t.release ? release_of : acquire_of)[i] = &t;
    }
  }
  const uint32_t jobs = static_cast<uint32_t>(std::min<size_t>(std::max(1u, opt.threads), std::max<size_t>(lists.size(), 1)));
  // Timestamps: where every queue family the frame uses counts time.
  if (opt.timestamps != RuntimeOptions::Timestamps::off && !lists.empty()) {
    bool timed = true;
    for (uint32_t gi = 0; gi < ng; ++gi) {
      const uint32_t fam = queue_of(queue_of_group(gi)).family;
      timed = timed && fam < timestamp_bits.size() && timestamp_bits[fam] != 0;
    }
    if (timed) {
      VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
      qi.queryCount = static_cast<uint32_t>(2 * lists.size());
      vk_check(vkCreateQueryPool(dev.device, &qi, nullptr, &pf.queries), "vkCreateQueryPool (timestamps)");
      const bool every = opt.timestamps == RuntimeOptions::Timestamps::lists;
      pf.timed.assign(lists.size(), every ? 3u : 0u);
      std::array<size_t, graph::kQueues> first_on, last_on;
      first_on.fill(lists.size());
      last_on.fill(lists.size());
      for (size_t i = 0; i < lists.size(); ++i) {
        const ListRef& lr = lists[i];
        PassTime pt;
        pt.pass = groups[lr.group]->lists()[lr.list]->name();
        pt.queue = queue_of_group(lr.group);
        pt.group = lr.group;
        pf.lists.push_back(std::move(pt));
        const size_t q = graph::qi(queue_of_group(lr.group));
        if (first_on[q] == lists.size()) first_on[q] = i;
        last_on[q] = i;
      }
      for (size_t q = 0; q < graph::kQueues; ++q)
        if (first_on[q] < lists.size()) {
          pf.timed[first_on[q]] |= 1u;
          pf.timed[last_on[q]] |= 2u;
        }
    }
  }
  // Split barriers: the frame's events, unsignaled, made before the jobs record (event_first[group]
  // [list] + index).
  std::vector<std::vector<uint32_t>> event_first(ng);
  for (uint32_t gi = 0; gi < ng; ++gi)
    for (const VulkanList& vl : plan.groups[gi].lists) {
      event_first[gi].push_back(static_cast<uint32_t>(pf.events.size()));
      for (uint32_t e = 0; e < vl.events; ++e) {
        VkEventCreateInfo ei{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
        ei.flags = VK_EVENT_CREATE_DEVICE_ONLY_BIT;
        VkEvent ev = VK_NULL_HANDLE;
        vk_check(vkCreateEvent(dev.device, &ei, nullptr, &ev), "vkCreateEvent (split barrier)");
        pf.events.push_back(ev);
      }
    }
  std::vector<std::array<VkCommandPool, 2>> pools(jobs, {VK_NULL_HANDLE, VK_NULL_HANDLE});
  std::vector<std::string> job_error(jobs);
  std::vector<uint32_t> job_barriers(jobs, 0), job_calls(jobs, 0);
  const std::function<void(uint32_t)> record_job = [&](uint32_t j) {
    try {
      const size_t begin = lists.size() * j / jobs, end = lists.size() * (j + 1) / jobs;
      for (size_t i = begin; i < end; ++i) {
        const ListRef& lr = lists[i];
        const QueueDesc& qd = queue_of(queue_of_group(lr.group));
        const size_t slot = qd.family == dev.graphics.family ? 0 : 1;
        if (!pools[j][slot]) {
          VkCommandPoolCreateInfo pi{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
          pi.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
          pi.queueFamilyIndex = qd.family;
          vk_check(vkCreateCommandPool(dev.device, &pi, nullptr, &pools[j][slot]), "vkCreateCommandPool");
        }
        VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
        ai.commandPool = pools[j][slot];
        ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
        ai.commandBufferCount = 1;
        VkCommandBuffer cb = VK_NULL_HANDLE;
        vk_check(vkAllocateCommandBuffers(dev.device, &ai, &cb), "vkAllocateCommandBuffers");
        const CommandList& list = *groups[lr.group]->lists()[lr.list];
        if (set_name)
          name(VK_OBJECT_TYPE_COMMAND_BUFFER, reinterpret_cast<uint64_t>(cb),
               fmt::format("{}/{}", groups[lr.group]->name(), list.name()));
        cbs[i] = cb;
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
        vk_check(vkBeginCommandBuffer(cb, &bi), "vkBeginCommandBuffer");
        const VulkanList& vl = plan.groups[lr.group].lists[lr.list];
        ListState state;
        state.group = groups[lr.group];
        state.list = &list;
        state.vl = &vl;
        state.done.assign(vl.points.size(), 0);
        state.emit = [&](const VulkanPoint& pt) {
          VulkanPoint filled = pt;
          for (size_t k = 0; k < filled.images.size(); ++k) filled.images[k].image = member_image.at(pt.image_resources[k]);
          for (size_t k = 0; k < filled.buffers.size(); ++k) filled.buffers[k].buffer = member_buffer.at(pt.buffer_resources[k]);
          if (opt.barriers != RuntimeOptions::Barriers::planned) widen_or_strip(filled, opt.barriers);
          if (filled.size() == 0) return;
          const VkDependencyInfo di = filled.dependency_info();
          if (filled.half == SplitHalf::none) {
            vkCmdPipelineBarrier2(cb, &di);
          } else {
            const VkEvent ev = pf.events.at(event_first[lr.group].at(filled.event_list) + filled.event);
            if (filled.half == SplitHalf::begin) {
              vkCmdSetEvent2(cb, ev, &di);
              ++job_calls[j];
              return;  // a split barrier counts once, at its end
            }
            vkCmdWaitEvents2(cb, 1, &ev, &di);
          }
          job_barriers[j] += static_cast<uint32_t>(filled.size());
          ++job_calls[j];
        };
        // An ownership transfer is its own call, before (acquire) or after (release) the plan's
        // barriers: barriers of one call are unordered, and the acquire must precede the transitions.
        auto transfer = [&](const TransferBarriers* t) {
          if (!t) return;
          VulkanPoint pt;
          pt.images = t->images;
          pt.buffers = t->buffers;
          for (size_t k = 0; k < pt.images.size(); ++k) pt.images[k].image = member_image.at(t->image_resources[k]);
          for (size_t k = 0; k < pt.buffers.size(); ++k) pt.buffers[k].buffer = member_buffer.at(t->buffer_resources[k]);
          const VkDependencyInfo di = pt.dependency_info();
          vkCmdPipelineBarrier2(cb, &di);
          job_barriers[j] += static_cast<uint32_t>(pt.size());
          ++job_calls[j];
        };
        if (pf.queries && pf.timed[i]) {
          vkCmdResetQueryPool(cb, pf.queries, static_cast<uint32_t>(2 * i), 2);
          if (pf.timed[i] & 1u)
            vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, pf.queries, static_cast<uint32_t>(2 * i));
        }
        transfer(acquire_of[i]);
        if (opt.barriers == RuntimeOptions::Barriers::full) {
          VulkanPoint all;
          all.memory.push_back(full_memory_barrier());
          const VkDependencyInfo di = all.dependency_info();
          vkCmdPipelineBarrier2(cb, &di);
          ++job_barriers[j];
          ++job_calls[j];
        }
        ListContext ctx;
        ctx.cmd = cb;
        ctx.group = lr.group;
        ctx.list = lr.list;
        ctx.ops = static_cast<uint32_t>(list.ops().size());
        ctx.job = j;
        ctx.queue_family = qd.family;
        ctx.state = &state;
        x.record(ctx);
        for (size_t k = 0; k < vl.points.size(); ++k)
          if (!state.done[k])
            throw Error(point_name(state, vl.points[k].op, vl.points[k].where) + " were not recorded by the record callback");
        transfer(release_of[i]);
        if (pf.queries && (pf.timed[i] & 2u))
          vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pf.queries, static_cast<uint32_t>(2 * i + 1));
        vk_check(vkEndCommandBuffer(cb), fmt::format("vkEndCommandBuffer (list '{}')", list.name()));
      }
    } catch (const std::exception& e) {
      job_error[j] = e.what();
    }
  };
  run_jobs(jobs, record_job);
  for (auto& pp : pools)
    for (VkCommandPool p : pp)
      if (p) pf.pools.push_back(p);
  if (after_record) after_record();
  for (const std::string& e : job_error)
    if (!e.empty()) throw Error(e);
  for (uint32_t j = 0; j < jobs; ++j) {
    info.barriers += job_barriers[j];
    info.barrier_calls += job_calls[j];
  }
  info.command_buffers = static_cast<uint32_t>(cbs.size());
  info.record_ms = ms_since(t1);

  // Submission: only waits across logical queues need a semaphore (one queue orders its own
  // submissions, and the plan's barriers cover the rest).
  const auto t2 = Clock::now();
  std::vector<std::vector<VkSemaphore>> binary_signals(ng);
  std::vector<std::vector<VkSemaphoreSubmitInfo>> wait_infos(ng);
  std::vector<uint64_t> value_of(ng, 0);
  std::array<uint64_t, graph::kQueues> value = timeline_value;
  for (uint32_t gi = 0; gi < ng; ++gi) value_of[gi] = ++value[graph::qi(queue_of_group(gi))];
  for (uint32_t gi = 0; gi < ng; ++gi) {
    for (uint32_t from : waits_of[gi]) {
      if (from >= gi)
        throw Error(fmt::format("group {} waits for later group {}", groups[gi]->name(),
                                from < ng ? groups[from]->name() : std::to_string(from)));
      if (queue_of_group(from) == queue_of_group(gi)) continue;
      VkSemaphoreSubmitInfo tw{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
      tw.semaphore = timeline[graph::qi(queue_of_group(from))];
      tw.value = value_of[from];
      tw.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
      wait_infos[gi].push_back(tw);
      VkSemaphore b = VK_NULL_HANDLE;
      VkSemaphoreCreateInfo si{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
      vk_check(vkCreateSemaphore(dev.device, &si, nullptr, &b), "vkCreateSemaphore (binary)");
      pf.binaries.push_back(b);
      binary_signals[from].push_back(b);
      VkSemaphoreSubmitInfo bw = tw;
      bw.semaphore = b;
      bw.value = 0;
      wait_infos[gi].push_back(bw);
      ++info.semaphore_waits;
    }
  }
  std::array<uint32_t, graph::kQueues> last_on{graph::kNone, graph::kNone, graph::kNone};
  for (uint32_t gi = 0; gi < ng; ++gi) last_on[graph::qi(queue_of_group(gi))] = gi;
  size_t next_cb = 0;
  std::vector<VkQueue> used;
  for (uint32_t gi = 0; gi < ng; ++gi) {
    const size_t q = graph::qi(queue_of_group(gi));
    std::vector<VkCommandBufferSubmitInfo> cbi;
    for (size_t li = 0; li < groups[gi]->lists().size(); ++li)
      cbi.push_back({VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, nullptr, cbs[next_cb++], 0});
    std::vector<VkSemaphoreSubmitInfo> signals;
    VkSemaphoreSubmitInfo ts{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
    ts.semaphore = timeline[q];
    ts.value = value_of[gi];
    ts.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
    signals.push_back(ts);
    for (VkSemaphore b : binary_signals[gi]) {
      VkSemaphoreSubmitInfo bs = ts;
      bs.semaphore = b;
      bs.value = 0;
      signals.push_back(bs);
    }
    VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
    si.waitSemaphoreInfoCount = static_cast<uint32_t>(wait_infos[gi].size());
    si.pWaitSemaphoreInfos = wait_infos[gi].data();
    si.commandBufferInfoCount = static_cast<uint32_t>(cbi.size());
    si.pCommandBufferInfos = cbi.data();
    si.signalSemaphoreInfoCount = static_cast<uint32_t>(signals.size());
    si.pSignalSemaphoreInfos = signals.data();
    VkFence fence = VK_NULL_HANDLE;
    if (last_on[q] == gi) {
      VkFenceCreateInfo fi{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      vk_check(vkCreateFence(dev.device, &fi, nullptr, &fence), "vkCreateFence");
      pf.fences.push_back(fence);
    }
    const VkQueue vq = queue_of(queue_of_group(gi)).queue;
    vk_check(vkQueueSubmit2(vq, 1, &si, fence), fmt::format("vkQueueSubmit2 (group {})", groups[gi]->name()));
    if (std::find(used.begin(), used.end(), vq) == used.end()) used.push_back(vq);
    ++info.submits;
  }
  info.groups = static_cast<uint32_t>(ng);
  info.queues_used = static_cast<uint32_t>(used.size());
  for (size_t q = 0; q < graph::kQueues; ++q)
    if (value[q] != timeline_value[q]) pf.values[q] = value[q];
  timeline_value = value;
  info.submit_ms = ms_since(t2);
  pf.ticket = info.ticket = ++next_ticket;
  return info;
}

FrameInfo Runtime::Impl::submit_frame() {
  Frame f = std::move(frame);
  frame = Frame{};
  if (!f.errors_.empty()) throw Error(f.errors_.front());
  const auto t0 = Clock::now();

  auto g = std::make_shared<graph::Graph>(build_graph(f, f.outputs_));
  const size_t nr = g->resources.size();

  // Which logical queues touch each resource (for sharing modes).
  std::vector<uint8_t> queues_of(nr, 0);
  for (const graph::Pass& p : g->passes)
    for (const graph::PassUse& u : p.uses) queues_of[u.resource] |= static_cast<uint8_t>(1u << graph::qi(graph::exec_queue(p)));
  auto families_of = [&](uint32_t r) {
    std::vector<uint32_t> fam;
    for (size_t q = 0; q < graph::kQueues; ++q)
      if ((static_cast<uint32_t>(queues_of[r]) >> q) & 1u) {
        const uint32_t fa = queue_of(static_cast<Queue>(q)).family;
        if (std::find(fam.begin(), fam.end(), fa) == fam.end()) fam.push_back(fa);
      }
    return fam;
  };

  // Transients: real objects and their memory requirements before the one compile.
  PendingFrame pf;
  Cleanup cleanup{*this, pf};
  HandleTable handles;
  handles.images.assign(nr, VK_NULL_HANDLE);
  handles.buffers.assign(nr, VK_NULL_HANDLE);
  graph::CompileOptions co;
  co.schedule = opt.schedule;
  co.aliasing.enabled = opt.aliasing;
  co.run_checks = opt.checks;
  co.split_barriers = opt.split_barriers && opt.barriers == RuntimeOptions::Barriers::planned;
  std::vector<VkMemoryRequirements> reqs(nr, VkMemoryRequirements{0, 1, ~0u});
  std::vector<uint32_t> concurrent{dev.graphics.family};
  if (two_families()) concurrent.push_back(dev.compute->family);
  for (uint32_t r = 0; r < nr; ++r) {
    const Frame::Resource& fr = f.resources_[r];
    if (!fr.transient) {
      handles.images[r] = fr.vk_image;
      handles.buffers[r] = fr.vk_buffer;
      continue;
    }
    // Automatic: EXCLUSIVE first; those the ownership planner cannot hand over are recreated
    // CONCURRENT below, before memory is bound.
    const bool shared = families_of(r).size() > 1 && opt.transient_sharing == RuntimeOptions::Sharing::concurrent;
    auto share = [&](auto& ci) {
      ci.sharingMode = shared ? VK_SHARING_MODE_CONCURRENT : VK_SHARING_MODE_EXCLUSIVE;
      ci.queueFamilyIndexCount = shared ? static_cast<uint32_t>(concurrent.size()) : 0;
      ci.pQueueFamilyIndices = shared ? concurrent.data() : nullptr;
    };
    if (fr.image) {
      VkImageCreateInfo ci = fr.image_info;
      ci.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
      ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      share(ci);
      VkImage img = VK_NULL_HANDLE;
      vk_check(vkCreateImage(dev.device, &ci, nullptr, &img), fmt::format("vkCreateImage (transient '{}')", fr.name));
      name(VK_OBJECT_TYPE_IMAGE, reinterpret_cast<uint64_t>(img), fr.name);
      pf.images.push_back(img);
      handles.images[r] = img;
      vkGetImageMemoryRequirements(dev.device, img, &reqs[r]);
    } else {
      VkBufferCreateInfo ci = fr.buffer_info;
      ci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
      share(ci);
      VkBuffer buf = VK_NULL_HANDLE;
      vk_check(vkCreateBuffer(dev.device, &ci, nullptr, &buf), fmt::format("vkCreateBuffer (transient '{}')", fr.name));
      name(VK_OBJECT_TYPE_BUFFER, reinterpret_cast<uint64_t>(buf), fr.name);
      pf.buffers.push_back(buf);
      handles.buffers[r] = buf;
      vkGetBufferMemoryRequirements(dev.device, buf, &reqs[r]);
    }
  }
  // Linear (buffers) and optimal (images) resources in one allocation: every offset a multiple of
  // bufferImageGranularity keeps neighbours on separate pages.
  set_real_sizes(*g, reqs, buffer_image_granularity, co.aliasing);

  auto compiled = std::make_shared<graph::GraphCompileResult>(graph::compile_graph(*g, co));
  if (!compiled->findings.empty()) throw Error("frame graph check failed: " + compiled->findings.front());
  const graph::Transitions& t = compiled->trans;
  const graph::Aliasing& al = compiled->aliasing;

  const VulkanPlan plan = lower_vulkan(t.table, t.compiled);

  // The execution: the schedule's waits (and the frame_start / frame_end groups' own), handles per
  // member, queue-family ownership for exclusive resources used on two families.
  const size_t ng = plan.groups.size();
  Execution x;
  x.table = &t.table;
  x.groups = &t.groups;
  x.compiled = &t.compiled;
  x.barriers = &plan;
  x.waits = group_waits(*g, *compiled);
  x.images.assign(t.table.size(), VK_NULL_HANDLE);
  x.buffers.assign(t.table.size(), VK_NULL_HANDLE);
  x.exclusive.assign(t.table.size(), 0);
  x.imported.assign(t.table.size(), 0);
  x.initial_layout.assign(t.table.size(), VK_IMAGE_LAYOUT_UNDEFINED);
  for (uint32_t r = 0; r < nr; ++r) {
    const Frame::Resource& fr = f.resources_[r];
    const ResourceId m = t.first_member[r];
    x.images[m] = handles.images[r];
    x.buffers[m] = handles.buffers[r];
    const bool exclusive = fr.transient ? opt.transient_sharing == RuntimeOptions::Sharing::exclusive
                                        : (fr.image ? fr.image_info.sharingMode : fr.buffer_info.sharingMode) ==
                                              VK_SHARING_MODE_EXCLUSIVE;
    x.exclusive[m] = exclusive && families_of(r).size() > 1;
    x.imported[m] = !fr.transient;
    if (fr.image && !fr.transient && !fr.undefined)
      x.initial_layout[m] = lower_vulkan_state(resting_state(t.table[m]), true, true).layout;
  }
  uint32_t exclusive_transients = 0;
  std::vector<std::string> concurrent_why;
  if (opt.transient_sharing == RuntimeOptions::Sharing::automatic && two_families()) {
    const std::vector<std::string> why =
        runtime::exclusive_blockers(ownership_input(x, plan, sorted_waits(x, plan.groups.size())));
    for (uint32_t r = 0; r < nr; ++r) {
      const Frame::Resource& fr = f.resources_[r];
      const ResourceId m = t.first_member[r];
      if (!fr.transient || families_of(r).size() < 2) continue;
      if (why[m].empty()) {
        x.exclusive[m] = 1;
        ++exclusive_transients;
        continue;
      }
      concurrent_why.push_back(why[m]);
      x.exclusive[m] = 0;
      recreate_concurrent(fr, r, handles, pf, reqs[r]);
      x.images[m] = handles.images[r];
      x.buffers[m] = handles.buffers[r];
    }
  }
  // Memory: the placed transients bound into one heap at their planned offsets (place()).
  // Culled transients were never placed: they stay unbound and are only destroyed.
  {
    const MemberPlacement mp = member_placement(*g, *compiled, reqs, co.aliasing);
    PlaceRequest pr;
    pr.table = &t.table;
    pr.images.assign(t.table.size(), VK_NULL_HANDLE);
    pr.buffers.assign(t.table.size(), VK_NULL_HANDLE);
    for (const graph::Placement& p : al.placements) {
      pr.images[t.first_member[p.resource]] = f.resources_[p.resource].image ? handles.images[p.resource] : VK_NULL_HANDLE;
      pr.buffers[t.first_member[p.resource]] = f.resources_[p.resource].image ? VK_NULL_HANDLE : handles.buffers[p.resource];
    }
    pr.offset = mp.offset;
    pr.heap_size = al.heap_size;
    place_objects(pr);
  }
  staged_memory.unaliased_bytes = staged_memory.heaps ? al.unaliased : 0;
  staged_memory.alignment = staged_memory.heaps ? co.aliasing.alignment : 0;

  // What each list's pass may touch, and the layout of each subresource of its declared images once
  // its before-barriers ran (PassContext::layout): the barriers' new layouts replayed in submission
  // order from where the frame starts (imports at rest, or undefined; transients undefined).
  handles.device = dev.device;
  handles.descs.reserve(nr);
  handles.formats.assign(nr, VK_FORMAT_UNDEFINED);
  for (uint32_t r = 0; r < nr; ++r) {
    handles.descs.push_back(g->resources[r].desc);
    if (f.resources_[r].image) handles.formats[r] = f.resources_[r].image_info.format;
  }
  handles.views.assign(std::max(1u, opt.threads), {});
  std::vector<uint32_t> list_base(ng + 1, 0);
  for (uint32_t gi = 0; gi < ng; ++gi) list_base[gi + 1] = list_base[gi] + static_cast<uint32_t>(t.info[gi].passes.size());
  std::vector<ListData> list_data(list_base[ng]);
  {
    std::vector<uint32_t> res_of(t.table.size(), graph::kNone);
    for (uint32_t r = 0; r < nr; ++r) res_of[t.first_member[r]] = r;
    LayoutReplay replay(t.table, [&](ResourceId m) {
      const uint32_t r = res_of[m];
      const bool undefined = r == graph::kNone || f.resources_[r].transient || f.resources_[r].undefined;
      return undefined ? VK_IMAGE_LAYOUT_UNDEFINED : lower_vulkan_state(resting_state(t.table[m]), true, true).layout;
    });
    for (uint32_t gi = 0; gi < ng; ++gi)
      for (uint32_t li = 0; li < t.info[gi].passes.size(); ++li) {
        const VulkanList& vl = plan.groups[gi].lists[li];
        for (const VulkanPoint& pt : vl.points)
          if (pt.where == Where::before) replay.apply(pt);
        const uint32_t pass = t.info[gi].passes[li];
        ListData& ld = list_data[list_base[gi] + li];
        if (pass != graph::kNone) {
          for (const Use& u : f.passes_[pass].uses) ld.declared.push_back(u.res.index);
          std::sort(ld.declared.begin(), ld.declared.end());
          ld.declared.erase(std::unique(ld.declared.begin(), ld.declared.end()), ld.declared.end());
          for (uint32_t r : ld.declared) {
            const std::vector<VkImageLayout>& cur = replay.of(t.first_member[r]);
            for (uint32_t sub = 0; sub < cur.size(); ++sub) ld.layouts.emplace_back(uint64_t{r} << 32 | sub, cur[sub]);
          }
        }
        for (const VulkanPoint& pt : vl.points)
          if (pt.where == Where::after) replay.apply(pt);
      }
  }
  // Each pass list: its before-barriers, the pass's callback, its after-barriers.
  x.record = [&](ListContext& c) {
    const uint32_t pass = t.info[c.group].passes[c.list];
    ListData& ld = list_data[list_base[c.group] + c.list];
    ld.job = c.job;
    for (uint32_t op = 0; op < std::max(c.ops, 1u); ++op) {
      c.barriers(op, Where::before);
      if (op == 0 && pass != graph::kNone && f.passes_[pass].execute) {
        PassContext ctx;
        ctx.cmd = c.cmd;
        ctx.queue_family = c.queue_family;
        ctx.pass = f.passes_[pass].name;
        ctx.frame = &handles;
        ctx.list = &ld;
        f.passes_[pass].execute(ctx);
      }
      c.barriers(op, Where::after);
    }
  };
  const double compile_ms = ms_since(t0);
  FrameInfo info = record_and_submit(x, pf, [&] {
    for (auto& v : handles.views) pf.views.insert(pf.views.end(), v.begin(), v.end());
  });
  cleanup.armed = false;
  pending.push_back(std::move(pf));
  info.compile_ms = compile_ms;
  info.exclusive_transients = exclusive_transients;
  info.concurrent_transients = static_cast<uint32_t>(concurrent_why.size());
  info.concurrent_why = std::move(concurrent_why);
  info.culled = static_cast<uint32_t>(compiled->culled.culled.size());
  info.graph = std::move(g);
  info.compiled = std::move(compiled);
  return info;
}

// ---------------------------------------------------------------------------------------------
Runtime::Runtime(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Runtime::~Runtime() = default;

Result<std::unique_ptr<Runtime>> Runtime::create(const DeviceDesc& device, RuntimeOptions options) {
  using R = Result<std::unique_ptr<Runtime>>;
  if (!device.device || !device.physical || !device.graphics.queue)
    return R::failure("runtime: DeviceDesc needs a VkPhysicalDevice, a VkDevice and a graphics queue");
  if (options.frames_in_flight == 0) return R::failure("runtime: frames_in_flight must be at least 1");
  auto impl = std::make_unique<Impl>();
  impl->dev = device;
  impl->opt = std::move(options);
  try {
    impl->init();
  } catch (const std::exception& e) {
    return R::failure(std::string("runtime: ") + e.what());
  }
  return R(std::unique_ptr<Runtime>(new Runtime(std::move(impl))));
}

Frame& Runtime::begin_frame() { return lifecycle::begin_frame(*impl_); }
Result<FrameInfo> Runtime::submit() { return lifecycle::submit(*impl_); }
uint64_t Runtime::completed() { return lifecycle::completed(*impl_); }
Status Runtime::wait(uint64_t ticket) { return lifecycle::wait(*impl_, ticket); }
Status Runtime::sync() { return lifecycle::sync(*impl_); }

size_t Runtime::frames_pending() const { return impl_->pending.size(); }

Result<Placement> Runtime::place(const PlaceRequest& request) {
  std::lock_guard lock(impl_->mutex);
  try {
    return impl_->place_objects(request);
  } catch (const std::exception& e) {
    return Result<Placement>::failure(e.what());
  }
}

Result<FrameInfo> Runtime::execute(const Execution& frame) {
  std::lock_guard lock(impl_->mutex);
  try {
    PendingFrame pf;
    Cleanup cleanup{*impl_, pf};
    FrameInfo info = impl_->record_and_submit(frame, pf, {});
    cleanup.armed = false;
    impl_->pending.push_back(std::move(pf));
    return info;
  } catch (const std::exception& e) {
    return Result<FrameInfo>::failure(e.what());
  }
}

const QueueDesc& Runtime::queue(Queue q) const { return impl_->queue_of(q); }

Result<std::vector<std::string>> Runtime::exclusive_blockers(const Execution& x) const {
  using R = Result<std::vector<std::string>>;
  try {
    if (!x.table || !x.groups || (!x.barriers && !x.compiled))
      return R::failure("exclusive_blockers: the Execution needs a table, groups and compiled groups (or barriers)");
    VulkanPlan lowered;
    const VulkanPlan& plan = barriers_of(x, lowered, "exclusive_blockers");
    return runtime::exclusive_blockers(impl_->ownership_input(x, plan, sorted_waits(x, x.groups->size())));
  } catch (const std::exception& e) {
    return R::failure(e.what());
  }
}

Result<FrameTimings> Runtime::timings(uint64_t ticket) {
  using R = Result<FrameTimings>;
  if (impl_->opt.timestamps == RuntimeOptions::Timestamps::off)
    return R::failure("timings: RuntimeOptions::timestamps is off");
  if (const Status s = wait(ticket); !s) return R::failure(s.error());
  std::lock_guard lock(impl_->mutex);
  for (const FrameTimings& t : impl_->timings)
    if (t.ticket == ticket) return t;
  return R::failure(fmt::format("timings({}): not kept (the last 16 frames retired are)", ticket));
}

}  // namespace baton::runtime
