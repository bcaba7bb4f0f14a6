// Runs a recording: through the runtime's lower-level entry (Runtime::place binds the placed
// resources into shared memory; Runtime::execute records every list, with the barriers of the plan
// given at the reserved points and this file's work of every operation between them, and submits
// each group as one vkQueueSubmit2), then reads everything back and compares it with the CPU
// reference model. What the executor's tests run is what an engine's frame runs.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <tuple>

#include "baton/runtime.hpp"
#include "gpu_resources.hpp"
#include "model.hpp"
#include "vulkan_at_rest.hpp"

namespace baton::exec {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// The layout of every image subresource as the plan leaves it: descriptors, attachments and
// copies name it. Mutations do not change it (a deleted transition must show up as a wrong layout).
class LayoutTracker {
 public:
  explicit LayoutTracker(const std::vector<Geometry>& geo) : geo_(geo), layouts_(geo.size()) {
    for (size_t r = 0; r < geo.size(); ++r)
      if (!geo[r].buffer)
        layouts_[r].assign(size_t{geo[r].planes} * geo[r].layers * geo[r].mips, VK_IMAGE_LAYOUT_UNDEFINED);
  }
  VkImageLayout get(const Sub& s) const { return layouts_[s.res][index(s)]; }
  void set_all(VkImageLayout l) {
    for (auto& v : layouts_) std::fill(v.begin(), v.end(), l);
  }
  void apply(ResourceId r, const VkImageSubresourceRange& range, VkImageLayout layout) {
    const Geometry& g = geo_.at(r);
    const uint32_t m1 =
        range.levelCount == VK_REMAINING_MIP_LEVELS ? g.mips : range.baseMipLevel + range.levelCount;
    const uint32_t l1 =
        range.layerCount == VK_REMAINING_ARRAY_LAYERS ? g.layers : range.baseArrayLayer + range.layerCount;
    for (uint32_t p = 0; p < g.planes; ++p) {
      if (!(range.aspectMask & aspect_of_plane(g, p))) continue;
      for (uint32_t l = range.baseArrayLayer; l < std::min(l1, g.layers); ++l)
        for (uint32_t m = range.baseMipLevel; m < std::min(m1, g.mips); ++m)
          layouts_[r][index(Sub{r, m, l, p})] = layout;
    }
  }

 private:
  size_t index(const Sub& s) const {
    const Geometry& g = geo_[s.res];
    return (size_t{s.plane} * g.layers + s.layer) * g.mips + s.mip;
  }
  const std::vector<Geometry>& geo_;
  std::vector<std::vector<VkImageLayout>> layouts_;
};

struct SlotCounts {
  uint32_t sets = 0, uav_dummies = 0;
};
SlotCounts count_slots(const std::vector<OpWork>& work) {
  SlotCounts n;
  uint32_t buf = 0, img = 0;
  auto add = [&](const StageSet& s) {
    ++n.sets;
    buf += kSlots - static_cast<uint32_t>(s.slots[uav_buf].size());
    img += kSlots - static_cast<uint32_t>(s.slots[uav_tex].size());
  };
  for (const OpWork& o : work)
    for (const Work& w : o.items) {
      if (const auto* c = std::get_if<ComputeWork>(&w)) add(c->set);
      if (const auto* d = std::get_if<DrawPass>(&w)) {
        add(d->vs);
        add(d->fs);
      }
    }
  n.uav_dummies = std::max(buf, img);
  return n;
}

uint32_t family_timestamp_bits(const VulkanContext::Impl& c, uint32_t family) {
  uint32_t nf = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(c.physical, &nf, nullptr);
  std::vector<VkQueueFamilyProperties> families(nf);
  vkGetPhysicalDeviceQueueFamilyProperties(c.physical, &nf, families.data());
  return family < nf ? families[family].timestampValidBits : 0u;
}
uint32_t queue_timestamp_bits(const VulkanContext::Impl& c) { return family_timestamp_bits(c, c.family); }

bool seeds(const VulkanContext::Impl& c, const RunOptions& o) {
  return o.seed_textures && c.options.device == DeviceKind::lavapipe;
}

// RunOptions::shared as the executor applies it: structural buffers (indices, indirect arguments)
// keep memory of their own, because the work model presets their fixed words at creation and
// copies skip those words, which a resource sharing the memory would overwrite.
std::optional<RunOptions::SharedMemory> shared_for(const RunOptions& o, const std::vector<Geometry>& geo) {
  if (!o.shared) return std::nullopt;
  RunOptions::SharedMemory s = *o.shared;
  if (s.offset.size() != geo.size()) throw Error("executor: RunOptions::shared needs one offset per resource");
  s.taken_over.resize(geo.size(), 0);
  for (size_t r = 0; r < geo.size(); ++r)
    if (geo[r].buffer && geo[r].structural) s.offset[r] = RunOptions::SharedMemory::kNotPlaced;
  return s;
}
std::vector<uint8_t> placed_of(const std::optional<RunOptions::SharedMemory>& s) {
  std::vector<uint8_t> p;
  if (!s) return p;
  for (uint64_t o : s->offset) p.push_back(o != RunOptions::SharedMemory::kNotPlaced);
  return p;
}

// The runtime the run goes through: the context's device and queues, one recording job (the
// reference model advances in step with recording, so lists are recorded in submission order),
// frame timestamps where the queues count time.
std::unique_ptr<runtime::Runtime> make_runtime(VulkanContext::Impl& c) {
  runtime::DeviceDesc d;
  d.physical = c.physical;
  d.device = c.device;
  d.graphics = {c.queue, c.family};
  if (c.compute_family) d.compute = runtime::QueueDesc{c.compute_queue, *c.compute_family};
  runtime::RuntimeOptions o;
  o.threads = 1;
  o.jobs = [](uint32_t count, const std::function<void(uint32_t)>& job) {
    for (uint32_t i = 0; i < count; ++i) job(i);
  };
  o.frames_in_flight = 1;
  const bool compute_timed = !c.compute_family || family_timestamp_bits(c, *c.compute_family) > 0;
  o.timestamps = queue_timestamp_bits(c) > 0 && compute_timed ? runtime::RuntimeOptions::Timestamps::frame
                                                              : runtime::RuntimeOptions::Timestamps::off;
  runtime::Result<std::unique_ptr<runtime::Runtime>> rt = runtime::Runtime::create(d, std::move(o));
  if (!rt) throw Error("executor: " + rt.error());
  return std::move(rt.value());
}

class Runner {
 public:
  Runner(VulkanContext::Impl& c, const Recording& rec, const History& history_in, const ExecPlan& plan,
         const RunOptions& opt)
      : c_(c),
        rec_(rec),
        plan_(plan),
        opt_(opt),
        geo_(make_geometry(rec, opt.max_side, opt.max_words)),
        work_(plan_work(rec, geo_)),
        slots_(count_slots(work_)),
        shared_(shared_for(opt, geo_)),
        placed_(placed_of(shared_)),
        rt_(make_runtime(c)),
        imported_(imported_of()),
        initial_layout_(initial_layouts(history_in)),
        exclusive_(choose_sharing()),
        res_(c, geo_, slots_.uav_dummies, seeds(c, opt), shared_ ? &*shared_ : nullptr, rt_.get(), &rec.resources,
             exclusive_.empty() ? nullptr : &exclusive_),
        layouts_(geo_),
        model_(geo_, seeds(c, opt), placed_) {
    if (opt.max_side > 16 || opt.max_words > 256) {
      uint64_t most = 0;
      for (const Geometry& g : geo_) most = std::max<uint64_t>(most, g.buffer ? g.words : uint64_t{g.width} * g.height);
      dispatch_groups_ = static_cast<uint32_t>(std::clamp<uint64_t>((most + 63) / 64, 1, 65535));
    }
    for (size_t i = 0; i < plan.points.size(); ++i) {
      const ExecBarrierPoint& p = plan.points[i];
      points_[{p.group, p.list, p.op, p.where}].push_back(i);
    }
    std::array<VkDescriptorPoolSize, kCategories> sizes{};
    for (uint32_t i = 0; i < kCategories; ++i)
      sizes[i] = {kCategoryTypes[i], kSlots * std::max(1u, slots_.sets)};
    VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.maxSets = std::max(1u, slots_.sets);
    dpi.poolSizeCount = kCategories;
    dpi.pPoolSizes = sizes.data();
    BATON_VK(vkCreateDescriptorPool(c.device, &dpi, nullptr, &pool_));
    // A compute-only family writes timestamps too.
    const bool compute_timed = !c.compute_family || family_timestamp_bits(c, *c.compute_family) > 0;
    if (queue_timestamp_bits(c) > 0 && opt.op_timestamps && compute_timed && !work_.empty()) {
      VkQueryPoolCreateInfo qi{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
      qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
      qi.queryCount = static_cast<uint32_t>(2 * work_.size());
      BATON_VK(vkCreateQueryPool(c.device, &qi, nullptr, &op_timestamps_));
    }
  }
  ~Runner() {
    vkDeviceWaitIdle(c_.device);
    vkDestroyDescriptorPool(c_.device, pool_, nullptr);
    if (op_timestamps_) vkDestroyQueryPool(c_.device, op_timestamps_, nullptr);
    vkDestroyBuffer(c_.device, staging_.buffer, nullptr);
    vkFreeMemory(c_.device, staging_.memory, nullptr);
  }
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  RunReport run(const History& history_in);

 private:
  VulkanPlan stream() const;
  std::vector<std::vector<uint32_t>> group_waits() const;
  runtime::Execution execution(const VulkanPlan& barriers) const;
  std::vector<uint8_t> imported_of() const;
  std::vector<VkImageLayout> initial_layouts(const History& history_in) const;
  std::vector<uint8_t> choose_sharing();
  void record_points(const runtime::ListContext& lc, uint32_t op, Where where);
  void record_list(const runtime::ListContext& lc, RunReport& report);
  void record_reference_barrier(VkCommandBuffer cb, bool setup);
  void record(VkCommandBuffer cb, const Work& w);
  void order_slices(VkCommandBuffer cb, const ComputeWork& earlier);
  void record(VkCommandBuffer cb, const ComputeWork& w);
  void record(VkCommandBuffer cb, const DrawPass& w);
  void record(VkCommandBuffer cb, const CopyWork& w);
  void record(VkCommandBuffer cb, const ClearWork& w);
  VkDescriptorSet make_set(const StageSet& s);
  uint32_t stage_masks(const StageSet& s) const;
  void read_back(RunReport& report);

  VulkanContext::Impl& c_;
  const Recording& rec_;
  const ExecPlan& plan_;
  RunOptions opt_;
  std::vector<Geometry> geo_;
  std::vector<OpWork> work_;
  SlotCounts slots_;
  std::optional<RunOptions::SharedMemory> shared_;
  std::vector<uint8_t> placed_;  // per resource: bound into the shared heap
  std::unique_ptr<runtime::Runtime> rt_;  // before res_: its heaps outlive the objects bound to them
  // RunOptions::sharing (empty for concurrent): per resource, whether its objects are EXCLUSIVE, and
  // what the ownership planner is told (filled and read back on the graphics family; the layout it
  // starts the frame in).
  RunReport::Sharing sharing_;  // before exclusive_, which choose_sharing() fills it with
  std::vector<uint8_t> imported_;
  std::vector<VkImageLayout> initial_layout_;
  std::vector<uint8_t> exclusive_;
  GpuResources res_;
  LayoutTracker layouts_;
  Model model_;  // advanced in step with recording
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, Where>, std::vector<size_t>> points_;
  GpuBuffer staging_;
  uint32_t barriers_ = 0, calls_ = 0;
  uint32_t dispatch_groups_ = 1;  // workgroups of 64 per direct dispatch (RunOptions::max_side/max_words)
  VkQueryPool op_timestamps_ = VK_NULL_HANDLE;  // RunOptions::op_timestamps: [2i] op i begins, [2i+1] ends
  size_t next_op_ = 0;     // operations recorded so far (submission order)
  bool first_list_ = true;  // the reference sources' layout set-up goes into the first list
};

// The barriers the runtime records: the plan's points as given (a mutation's plan included), less
// the one barrier RunOptions::skip names and the wait RunOptions::skip_wait names, buffer byte ranges
// scaled to the executor's smaller buffers; none for the reference sources (full / none), whose
// barriers record_points adds itself. Handles are filled by the runtime from the resource ids.
VulkanPlan Runner::stream() const {
  VulkanPlan out;
  out.groups.resize(rec_.groups.size());
  for (size_t g = 0; g < rec_.groups.size(); ++g) {
    out.groups[g].name = rec_.groups[g]->name();
    out.groups[g].queue = rec_.groups[g]->queue();
    for (const CommandList* l : rec_.groups[g]->lists()) {
      VulkanList vl;
      vl.name = l->name();
      vl.queue = rec_.groups[g]->queue();
      out.groups[g].lists.push_back(std::move(vl));
    }
  }
  if (opt_.source != BarrierSource::plan) return out;
  auto list_of = [&](uint32_t g, uint32_t l) -> VulkanList& {
    if (g >= out.groups.size() || l >= out.groups[g].lists.size())
      throw Error(fmt::format("executor: a barrier point names group {} list {}, which the recording does not have", g, l));
    return out.groups[g].lists[l];
  };
  for (const ExecBarrierPoint& p : plan_.points)
    if (p.half != SplitHalf::none) {
      VulkanList& owner = list_of(p.group, p.event_list);
      owner.events = std::max(owner.events, p.event + 1);
    }
  for (size_t pi = 0; pi < plan_.points.size(); ++pi) {
    const ExecBarrierPoint& p = plan_.points[pi];
    VulkanList& vl = list_of(p.group, p.list);
    auto skipped = [&](BarrierRef::Kind k, size_t i) {
      return opt_.skip && opt_.skip->point == pi && opt_.skip->kind == k && opt_.skip->index == i;
    };
    VulkanPoint v;
    v.op = p.op;
    v.where = p.where;
    v.half = p.half;
    v.event = p.event;
    v.event_list = p.event_list;
    for (size_t i = 0; i < p.memory.size(); ++i)
      if (!skipped(BarrierRef::Kind::memory, i)) v.memory.push_back(p.memory[i]);
    for (size_t i = 0; i < p.buffers.size(); ++i) {
      const ResourceId r = p.buffer_resources.at(i);
      if (r >= geo_.size() || !geo_[r].buffer)
        throw Error(fmt::format("executor: a buffer barrier names resource {}, which is not a buffer", r));
      if (skipped(BarrierRef::Kind::buffer, i)) continue;
      VkBufferMemoryBarrier2 b = p.buffers[i];
      if (b.offset != 0 || b.size != VK_WHOLE_SIZE) {  // a byte range: the same share of the scaled buffer
        const auto [first, end] = scaled_words(geo_[r], rec_.resources[r], b.offset,
                                               b.size == VK_WHOLE_SIZE ? kWholeBytes : b.size);
        b.offset = uint64_t{first} * 4u;
        b.size = end > first ? uint64_t{end - first} * 4u : 4u;
      }
      v.buffers.push_back(b);
      v.buffer_resources.push_back(r);
    }
    for (size_t i = 0; i < p.images.size(); ++i) {
      const ResourceId r = p.image_resources.at(i);
      if (r >= geo_.size() || geo_[r].buffer)
        throw Error(fmt::format("executor: an image barrier names resource {}, which is not a texture", r));
      if (skipped(BarrierRef::Kind::image, i)) continue;
      v.images.push_back(p.images[i]);
      v.image_resources.push_back(r);
    }
    if (v.size() == 0) continue;
    if (p.half == SplitHalf::end && opt_.skip_wait && *opt_.skip_wait == pi) continue;
    vl.points.push_back(std::move(v));
  }
  return out;
}

// At one point of a list: the layouts the plan's barriers leave (mutations do not change them: a
// deleted transition must show up as a wrong layout; a split barrier's at its wait), then the
// runtime records the point's barriers; the reference sources record their own instead.
void Runner::record_points(const runtime::ListContext& lc, uint32_t op, Where where) {
  if (opt_.source != BarrierSource::plan) {
    if (opt_.source == BarrierSource::full && where == Where::before) record_reference_barrier(lc.cmd, false);
    return;
  }
  if (auto it = points_.find({lc.group, lc.list, op, where}); it != points_.end())
    for (size_t pi : it->second) {
      const ExecBarrierPoint& p = plan_.points[pi];
      if (p.half == SplitHalf::begin) continue;
      for (size_t i = 0; i < p.images.size(); ++i)
        layouts_.apply(p.image_resources.at(i), p.images[i].subresourceRange, p.images[i].newLayout);
    }
  lc.barriers(op, where);
}

// The executor's own reference barriers (BarrierSource::full / none): every image to GENERAL once,
// then (full only) one barrier from everything to everything before every operation.
void Runner::record_reference_barrier(VkCommandBuffer cb, bool setup) {
  VkMemoryBarrier2 mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  mb.srcStageMask = mb.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  mb.srcAccessMask = mb.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
  std::vector<VkImageMemoryBarrier2> images;
  if (setup) {
    for (ResourceId r = 0; r < geo_.size(); ++r) {
      if (geo_[r].buffer) continue;
      VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
      b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
      b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
      b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
      b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      b.image = res_.image(r).image;
      VkImageAspectFlags aspects = 0;
      for (uint32_t p = 0; p < geo_[r].planes; ++p) aspects |= aspect_of_plane(geo_[r], p);
      b.subresourceRange = {aspects, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
      images.push_back(b);
    }
    layouts_.set_all(VK_IMAGE_LAYOUT_GENERAL);
  }
  VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  di.memoryBarrierCount = setup ? 0 : 1;
  di.pMemoryBarriers = &mb;
  di.imageMemoryBarrierCount = static_cast<uint32_t>(images.size());
  di.pImageMemoryBarriers = images.data();
  if (di.memoryBarrierCount + di.imageMemoryBarrierCount == 0) return;
  vkCmdPipelineBarrier2(cb, &di);
  barriers_ += di.memoryBarrierCount + di.imageMemoryBarrierCount;
  ++calls_;
}

VkDescriptorSet Runner::make_set(const StageSet& s) {
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  ai.descriptorPool = pool_;
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &c_.set_layout;
  VkDescriptorSet set;
  BATON_VK(vkAllocateDescriptorSets(c_.device, &ai, &set));

  std::array<VkBufferView, kSlots> texel{};
  std::array<VkDescriptorImageInfo, kSlots> tex{}, depth{}, storage_img{};
  std::array<VkDescriptorBufferInfo, kSlots> cb{}, storage_buf{};
  for (uint32_t k = 0; k < kSlots; ++k) {
    const auto& sb = s.slots[srv_buf];
    texel[k] = k < sb.size() ? res_.buffer(sb[k].res).view : res_.dummy_buffer().view;
    const auto& st = s.slots[srv_tex];
    tex[k] = k < st.size() ? VkDescriptorImageInfo{c_.sampler, res_.sample_view(st[k]), layouts_.get(st[k])}
                           : VkDescriptorImageInfo{c_.sampler, res_.dummy_color_view(),
                                                   GpuResources::kDummyColorLayout};
    const auto& sd = s.slots[srv_depth];
    depth[k] = k < sd.size() ? VkDescriptorImageInfo{c_.sampler, res_.sample_view(sd[k]), layouts_.get(sd[k])}
                             : VkDescriptorImageInfo{c_.sampler, res_.dummy_depth_view(),
                                                     GpuResources::kDummyDepthLayout};
    const auto& sc = s.slots[cbuf];
    cb[k] = VkDescriptorBufferInfo{k < sc.size() ? res_.buffer(sc[k].res).buffer : res_.dummy_buffer().buffer,
                                   0, kUniformWords * 4};
    const auto& ub = s.slots[uav_buf];
    storage_buf[k] = k < ub.size() ? VkDescriptorBufferInfo{res_.buffer(ub[k].res).buffer, 0, VK_WHOLE_SIZE}
                                   : res_.next_uav_buffer_dummy();
    const auto& ut = s.slots[uav_tex];
    storage_img[k] =
        k < ut.size()
            ? VkDescriptorImageInfo{VK_NULL_HANDLE, res_.sample_view(ut[k]), layouts_.get(ut[k])}
            : VkDescriptorImageInfo{VK_NULL_HANDLE, res_.next_uav_image_dummy(), VK_IMAGE_LAYOUT_GENERAL};
  }
  std::array<VkWriteDescriptorSet, kCategories> writes{};
  for (uint32_t i = 0; i < kCategories; ++i) {
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = kSlots;
    writes[i].descriptorType = kCategoryTypes[i];
  }
  writes[srv_buf].pTexelBufferView = texel.data();
  writes[srv_tex].pImageInfo = tex.data();
  writes[srv_depth].pImageInfo = depth.data();
  writes[cbuf].pBufferInfo = cb.data();
  writes[uav_buf].pBufferInfo = storage_buf.data();
  writes[uav_tex].pImageInfo = storage_img.data();
  vkUpdateDescriptorSets(c_.device, kCategories, writes.data(), 0, nullptr);
  return set;
}

uint32_t Runner::stage_masks(const StageSet& s) const {
  uint32_t m = s.rmw;
  for (uint32_t k = 0; k < s.slots[uav_buf].size(); ++k)
    if (geo_[s.slots[uav_buf][k].res].structural) m |= 1u << k;
  return m;
}

// Between two slices of one wide dispatch: the earlier slice's storage writes happen before, and are
// visible to, the later slice (which mixes them into its own, as the model does). Only the storage
// the slice wrote is named, so a missing plan barrier for anything else stays visible to the layer.
void Runner::order_slices(VkCommandBuffer cb, const ComputeWork& earlier) {
  std::vector<VkBufferMemoryBarrier2> buffers;
  std::vector<VkImageMemoryBarrier2> images;
  auto scopes = [](auto& b) {
    b.srcStageMask = b.dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
    b.srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  };
  for (const Sub& s : earlier.set.slots[uav_buf]) {
    VkBufferMemoryBarrier2 b{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
    scopes(b);
    b.buffer = res_.buffer(s.res).buffer;
    b.size = VK_WHOLE_SIZE;
    buffers.push_back(b);
  }
  for (const Sub& s : earlier.set.slots[uav_tex]) {
    VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
    scopes(b);
    b.oldLayout = b.newLayout = layouts_.get(s);
    b.image = res_.image(s.res).image;
    b.subresourceRange = {aspect_of_plane(geo_[s.res], s.plane), s.mip, 1, s.layer, 1};
    images.push_back(b);
  }
  if (buffers.empty() && images.empty()) return;
  VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  di.bufferMemoryBarrierCount = static_cast<uint32_t>(buffers.size());
  di.pBufferMemoryBarriers = buffers.data();
  di.imageMemoryBarrierCount = static_cast<uint32_t>(images.size());
  di.pImageMemoryBarriers = images.data();
  vkCmdPipelineBarrier2(cb, &di);
}

void Runner::record(VkCommandBuffer cb, const Work& w) {
  std::visit([&](const auto& item) { record(cb, item); }, w);
}

void Runner::record(VkCommandBuffer cb, const ComputeWork& w) {
  VkDescriptorSet set = make_set(w.set);
  PushConstants pc;
  pc.seed = w.seed;
  pc.flags = w.indirect ? kFlagIndirect : 0;
  pc.counts[0] = w.set.counts();
  pc.masks[0] = stage_masks(w.set);
  pc.spin = opt_.spin;
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c_.compute);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c_.pipeline_layout, 0, 1, &set, 0, nullptr);
  vkCmdPushConstants(cb, c_.pipeline_layout, kPushStages, 0, sizeof(pc), &pc);
  if (w.indirect)
    vkCmdDispatchIndirect(cb, res_.buffer(*w.indirect).buffer, kDispatchArgsOffset);
  else
    vkCmdDispatch(cb, dispatch_groups_, 1, 1);
}

void Runner::record(VkCommandBuffer cb, const DrawPass& w) {
  std::array<VkRenderingAttachmentInfo, 4> colors{};
  for (size_t i = 0; i < w.colors.size(); ++i) {
    const Attachment& a = w.colors[i];
    colors[i] = {VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    colors[i].imageView = res_.attach_view(a.sub);
    colors[i].imageLayout = layouts_.get(a.sub);
    colors[i].loadOp = a.load ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    colors[i].storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  }
  VkRenderingAttachmentInfo depth{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  VkRenderingAttachmentInfo stencil{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {w.area_w, w.area_h}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = static_cast<uint32_t>(w.colors.size());
  ri.pColorAttachments = colors.data();
  GraphicsKey key;
  key.colors = ri.colorAttachmentCount;
  if (w.depth) {
    const Sub& s = w.depth->sub;
    depth.imageView = res_.attach_view(s);
    depth.imageLayout = layouts_.get(s);
    depth.loadOp = w.depth->load ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_DONT_CARE;
    // A read-only depth attachment must not be stored (STORE counts as a write).
    depth.storeOp = w.depth_write ? VK_ATTACHMENT_STORE_OP_STORE : VK_ATTACHMENT_STORE_OP_NONE;
    ri.pDepthAttachment = &depth;
    key.depth = res_.image(s.res).format;
    key.depth_write = w.depth_write;
    if (w.stencil) {
      stencil = depth;
      stencil.imageLayout = layouts_.get(Sub{s.res, s.mip, s.layer, 1});
      stencil.loadOp = VK_ATTACHMENT_LOAD_OP_LOAD;
      ri.pStencilAttachment = &stencil;
      key.stencil = true;
    }
  }
  VkDescriptorSet sets[2] = {make_set(w.vs), make_set(w.fs)};
  PushConstants pc;
  pc.seed = w.seed;
  pc.flags = (w.storage_writes ? kFlagStorageWrites : 0) | (w.vertex ? kFlagVertexAttr : 0) |
             (w.depth ? kFlagDepth : 0);
  pc.counts[0] = w.vs.counts();
  pc.counts[1] = w.fs.counts();
  pc.masks[0] = stage_masks(w.vs);
  pc.masks[1] = stage_masks(w.fs);
  pc.area_w = w.area_w;
  pc.area_h = w.area_h;
  pc.spin = opt_.spin;

  vkCmdBeginRendering(cb, &ri);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, c_.graphics_pipeline(key));
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, c_.pipeline_layout, 0, 2, sets, 0, nullptr);
  vkCmdPushConstants(cb, c_.pipeline_layout, kPushStages, 0, sizeof(pc), &pc);
  const VkViewport vp{0, 0, static_cast<float>(w.area_w), static_cast<float>(w.area_h), 0, 1};
  vkCmdSetViewport(cb, 0, 1, &vp);
  vkCmdSetScissor(cb, 0, 1, &ri.renderArea);
  const VkBuffer vb = w.vertex ? res_.buffer(*w.vertex).buffer : res_.dummy_buffer().buffer;
  const VkDeviceSize zero = 0;
  vkCmdBindVertexBuffers(cb, 0, 1, &vb, &zero);
  if (w.index) vkCmdBindIndexBuffer(cb, res_.buffer(*w.index).buffer, kIndexOffset, VK_INDEX_TYPE_UINT32);
  if (w.indirect) {
    const VkBuffer args = res_.buffer(*w.indirect).buffer;
    if (w.index)
      vkCmdDrawIndexedIndirect(cb, args, kDrawArgsOffset, 1, 0);
    else
      vkCmdDrawIndirect(cb, args, kDrawArgsOffset, 1, 0);
    if (!w.more_indirect.empty()) {  // the same draw again, storage writes off (work.hpp)
      pc.flags &= ~kFlagStorageWrites;
      vkCmdPushConstants(cb, c_.pipeline_layout, kPushStages, 0, sizeof(pc), &pc);
    }
    for (ResourceId r : w.more_indirect) {
      if (w.index)
        vkCmdDrawIndexedIndirect(cb, res_.buffer(r).buffer, kDrawArgsOffset, 1, 0);
      else
        vkCmdDrawIndirect(cb, res_.buffer(r).buffer, kDrawArgsOffset, 1, 0);
    }
  } else if (w.index) {
    vkCmdDrawIndexed(cb, 3, 1, 0, 0, 0);
  } else {
    vkCmdDraw(cb, 3, 1, 0, 0);
  }
  vkCmdEndRendering(cb);
}

void Runner::record(VkCommandBuffer cb, const CopyWork& w) {
  const Geometry& gs = geo_[w.src.res];
  const Geometry& gd = geo_[w.dst.res];
  if (gs.buffer && gd.buffer) {
    const uint32_t base = gd.structural ? kStructWords : 0;
    const uint32_t m = std::min(gs.words, gd.words);
    if (m <= base) return;
    const VkBufferCopy region{base * 4u, base * 4u, (m - base) * 4u};
    vkCmdCopyBuffer(cb, res_.buffer(w.src.res).buffer, res_.buffer(w.dst.res).buffer, 1, &region);
  } else if (gs.buffer) {
    const Extent2 e = linear_extent(gs.words, gd.w(w.dst.mip), gd.h(w.dst.mip));
    VkBufferImageCopy region{};
    region.imageSubresource = {aspect_of_plane(gd, w.dst.plane), w.dst.mip, w.dst.layer, 1};
    region.imageExtent = {e.w, e.h, 1};
    vkCmdCopyBufferToImage(cb, res_.buffer(w.src.res).buffer, res_.image(w.dst.res).image,
                           layouts_.get(w.dst), 1, &region);
  } else if (gd.buffer) {
    const uint32_t base = gd.structural ? kStructWords : 0;
    const Extent2 e = linear_extent(gd.words - base, gs.w(w.src.mip), gs.h(w.src.mip));
    VkBufferImageCopy region{};
    region.bufferOffset = base * 4u;
    region.imageSubresource = {aspect_of_plane(gs, w.src.plane), w.src.mip, w.src.layer, 1};
    region.imageExtent = {e.w, e.h, 1};
    vkCmdCopyImageToBuffer(cb, res_.image(w.src.res).image, layouts_.get(w.src),
                           res_.buffer(w.dst.res).buffer, 1, &region);
  } else {
    VkImageCopy region{};
    region.srcSubresource = {aspect_of_plane(gs, w.src.plane), w.src.mip, w.src.layer, 1};
    region.dstSubresource = {aspect_of_plane(gd, w.dst.plane), w.dst.mip, w.dst.layer, 1};
    region.extent = {std::min(gs.w(w.src.mip), gd.w(w.dst.mip)), std::min(gs.h(w.src.mip), gd.h(w.dst.mip)),
                     1};
    vkCmdCopyImage(cb, res_.image(w.src.res).image, layouts_.get(w.src), res_.image(w.dst.res).image,
                   layouts_.get(w.dst), 1, &region);
  }
}

void Runner::record(VkCommandBuffer cb, const ClearWork& w) {
  const Geometry& g = geo_[w.dst.res];
  if (w.how == ClearWork::How::attachment) {
    VkRenderingAttachmentInfo a{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
    a.imageView = res_.attach_view(w.dst);
    a.imageLayout = layouts_.get(w.dst);
    a.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
    a.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
    VkRenderingAttachmentInfo s = a;
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
    ri.renderArea = {{0, 0}, {g.w(w.dst.mip), g.h(w.dst.mip)}};
    ri.layerCount = 1;
    if (g.depth()) {
      a.clearValue.depthStencil = {depth_of(w.value), w.value & 0xffu};
      ri.pDepthAttachment = &a;
      if (w.both_planes) {
        s = a;
        s.imageLayout = layouts_.get(Sub{w.dst.res, w.dst.mip, w.dst.layer, 1});
        ri.pStencilAttachment = &s;
      }
    } else {
      a.clearValue.color.uint32[0] = w.value;
      ri.colorAttachmentCount = 1;
      ri.pColorAttachments = &a;
    }
    vkCmdBeginRendering(cb, &ri);
    vkCmdEndRendering(cb);
    return;
  }
  if (g.buffer) {
    const uint32_t base = g.structural ? kStructWords : 0;
    if (w.count != 0)  // a byte range
      vkCmdFillBuffer(cb, res_.buffer(w.dst.res).buffer, w.first * 4u, w.count * 4u, w.value);
    else
      vkCmdFillBuffer(cb, res_.buffer(w.dst.res).buffer, base * 4u, (g.words - base) * 4u, w.value);
    return;
  }
  const VkImageSubresourceRange range{aspect_of_plane(g, w.dst.plane), w.dst.mip, 1, w.dst.layer, 1};
  if (g.depth()) {
    const VkClearDepthStencilValue v{depth_of(w.value), 0};
    vkCmdClearDepthStencilImage(cb, res_.image(w.dst.res).image, layouts_.get(w.dst), &v, 1, &range);
  } else {
    VkClearColorValue v{};
    v.uint32[0] = w.value;
    vkCmdClearColorImage(cb, res_.image(w.dst.res).image, layouts_.get(w.dst), &v, 1, &range);
  }
}

// One list, called by the runtime with its command buffer: per operation its barriers (the runtime
// records them, ListContext::barriers) around the work, with op timestamps where asked for.
void Runner::record_list(const runtime::ListContext& lc, RunReport& report) {
  const VkCommandBuffer cb = lc.cmd;
  if (first_list_ && opt_.source != BarrierSource::plan) record_reference_barrier(cb, true);
  first_list_ = false;
  const CommandListGroup& group = *rec_.groups[lc.group];
  const CommandList& list = *group.lists()[lc.list];
  for (uint32_t oi = 0; oi < list.ops().size(); ++oi) {
    const uint32_t query = static_cast<uint32_t>(2 * next_op_);
    const OpWork& w = work_.at(next_op_++);
    if (op_timestamps_) {
      vkCmdResetQueryPool(cb, op_timestamps_, query, 2);
      vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT, op_timestamps_, query);
      report.op_times.push_back({group.name(), std::string(list.name()), oi, group.queue(), 0, 0});
    }
    record_points(lc, oi, Where::before);
    for (size_t i = 0; i < w.items.size(); ++i) {
      Work item = w.items[i];
      model_.prepare(item);
      // Slices of one wide dispatch (work.cpp) write the same storage one after the other.
      const auto* previous = i > 0 ? std::get_if<ComputeWork>(&w.items[i - 1]) : nullptr;
      if (previous && std::holds_alternative<ComputeWork>(item)) order_slices(cb, *previous);
      record(cb, item);
      model_.apply(item);
    }
    record_points(lc, oi, Where::after);
    if (op_timestamps_) vkCmdWriteTimestamp2(cb, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, op_timestamps_, query + 1);
    ++report.ops;
  }
}

// The run's frame for the runtime: the recording's table and groups, these barriers, the waits.
runtime::Execution Runner::execution(const VulkanPlan& barriers) const {
  runtime::Execution x;
  x.table = &rec_.resources;
  x.groups = &rec_.groups;
  x.barriers = &barriers;
  x.waits = group_waits();
  return x;
}

std::vector<std::vector<uint32_t>> Runner::group_waits() const {
  // Groups run in submission order. Consecutive groups on one queue get no semaphore wait (a wait
  // would be a full dependency and hide missing cross-group barriers). A group on another queue
  // than the group before it waits for that group (the runtime makes it a timeline + binary
  // semaphore wait): Baton plans groups serially in submission order, and this wait is what makes
  // the other queue honour that order. RunOptions::sync_queue_switches: a switch of the groups'
  // own logical queue counts as a hand-off even when both run on one VkQueue (frame graphs).
  std::vector<std::vector<uint32_t>> waits(rec_.groups.size());
  if (opt_.waits) {
    if (opt_.waits->size() != rec_.groups.size())
      throw Error(fmt::format("executor: RunOptions::waits has {} groups, the recording {}", opt_.waits->size(),
                              rec_.groups.size()));
    waits = *opt_.waits;
  }
  for (size_t gi = 1; gi < rec_.groups.size() && !opt_.waits; ++gi) {
    const Queue a = rec_.groups[gi - 1]->queue(), b = rec_.groups[gi]->queue();
    if (rt_->queue(a).queue != rt_->queue(b).queue || (opt_.sync_queue_switches && a != b))
      waits[gi].push_back(static_cast<uint32_t>(gi - 1));
  }
  return waits;
}

// Every resource starts the frame owned by the graphics family (seeded there or by the host) and
// ends it there (read back there), except those a later transient took over (never read back).
std::vector<uint8_t> Runner::imported_of() const {
  std::vector<uint8_t> out(geo_.size(), 1);
  if (shared_)
    for (ResourceId r = 0; r < geo_.size() && r < shared_->taken_over.size(); ++r)
      if (shared_->taken_over[r]) out[r] = 0;
  return out;
}

// The layout each image starts the frame in as the plan's first barriers see it: at rest where the
// history marks it touched (put_at_rest), else UNDEFINED.
std::vector<VkImageLayout> Runner::initial_layouts(const History& history_in) const {
  std::vector<VkImageLayout> out(geo_.size(), VK_IMAGE_LAYOUT_UNDEFINED);
  for (ResourceId r = 0; r < geo_.size() && r < history_in.size(); ++r)
    if (!geo_[r].buffer && history_in[r].touched)
      out[r] = rest_layout(rec_.resources[r]);
  return out;
}

// RunOptions::sharing: EXCLUSIVE where the runtime's ownership planner can hand the resource over.
std::vector<uint8_t> Runner::choose_sharing() {
  if (opt_.sharing == RunOptions::Sharing::concurrent) {
    // One family: the objects are EXCLUSIVE (the create infos' default), with nothing to transfer.
    (c_.compute_family ? sharing_.concurrent : sharing_.exclusive) = static_cast<uint32_t>(geo_.size());
    return {};
  }
  sharing_.mode = opt_.sharing == RunOptions::Sharing::exclusive ? "exclusive" : "automatic";
  if (opt_.source != BarrierSource::plan)
    throw Error("executor: exclusive or automatic sharing needs the plan's barriers (the reference sources plan no "
                "ownership transfers)");
  const VulkanPlan barriers = stream();
  runtime::Execution x = execution(barriers);
  x.imported = imported_;
  x.initial_layout = initial_layout_;
  const runtime::Result<std::vector<std::string>> why = rt_->exclusive_blockers(x);
  if (!why) throw Error("executor: " + why.error());
  std::vector<uint8_t> out(geo_.size(), 1);
  for (ResourceId r = 0; r < geo_.size(); ++r) {
    const std::string& w = why.value()[r];
    if (w.empty()) continue;
    if (opt_.sharing == RunOptions::Sharing::exclusive) throw Error("executor: --sharing exclusive: " + w);
    out[r] = 0;
    sharing_.concurrent_why.emplace_back(rec_.resources[r].name, w);
  }
  for (uint8_t e : out) (e ? sharing_.exclusive : sharing_.concurrent) += 1;
  return out;
}

RunReport Runner::run(const History& history_in) {
  RunReport report;
  // Resources the history marks touched start at rest, not untouched (frame graphs).
  for (const auto& [r, layout] : put_at_rest(c_, res_, geo_, rec_.resources, history_in, seeds(c_, opt_)))
    layouts_.apply(r, {VK_IMAGE_ASPECT_COLOR_BIT | VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT, 0,
                       VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS}, layout);
  const VulkanPlan barriers = stream();
  runtime::Execution x = execution(barriers);
  if (!exclusive_.empty()) {
    x.exclusive = exclusive_;
    x.imported = imported_;
    x.initial_layout = initial_layout_;
  }
  x.images.resize(geo_.size(), VK_NULL_HANDLE);
  x.buffers.resize(geo_.size(), VK_NULL_HANDLE);
  for (ResourceId r = 0; r < geo_.size(); ++r) {
    if (geo_[r].buffer)
      x.buffers[r] = res_.buffer(r).buffer;
    else
      x.images[r] = res_.image(r).image;
  }
  x.record = [&](runtime::ListContext& lc) { record_list(lc, report); };
  const runtime::Result<runtime::FrameInfo> frame = rt_->execute(x);
  if (!frame) throw Error(frame.error());
  const runtime::FrameInfo& fi = frame.value();
  report.record_ms = fi.record_ms;
  const auto t1 = Clock::now();
  // vkQueueWaitIdle on every queue used: layer 1.3.239 orders later submissions (the read-back)
  // after a queue-idle wait, not after a host wait on a timeline (Runtime::sync).
  if (const runtime::Status s = rt_->sync(); !s) throw Error("executor: " + s.error());
  report.gpu_ms = fi.submit_ms + ms_since(t1);
  report.submits = fi.submits;
  report.semaphore_waits = fi.semaphore_waits;
  report.queues_used = fi.queues_used;
  report.sharing = sharing_;
  report.sharing.ownership_transfers = fi.ownership_transfers;
  if (const runtime::Result<runtime::FrameTimings> t = rt_->timings(fi.ticket); t && t.value().valid)
    report.frame_gpu_us = t.value().frame_us;
  if (op_timestamps_ && !report.op_times.empty()) {
    std::vector<uint64_t> ticks(2 * report.op_times.size(), 0);
    BATON_VK(vkGetQueryPoolResults(c_.device, op_timestamps_, 0, static_cast<uint32_t>(ticks.size()),
                                   ticks.size() * sizeof(uint64_t), ticks.data(), sizeof(uint64_t),
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    const uint64_t earliest = *std::min_element(ticks.begin(), ticks.end());
    const double period = static_cast<double>(c_.properties.limits.timestampPeriod) / 1000.0;
    for (size_t i = 0; i < report.op_times.size(); ++i) {
      report.op_times[i].begin_us = static_cast<double>(ticks[2 * i] - earliest) * period;
      report.op_times[i].end_us = static_cast<double>(std::max(ticks[2 * i + 1], ticks[2 * i]) - earliest) * period;
    }
  }
  report.groups = static_cast<uint32_t>(rec_.groups.size());
  report.barriers = barriers_ + fi.barriers;
  report.barrier_calls = calls_ + fi.barrier_calls;
  report.memory = res_.memory();
  const auto t2 = Clock::now();
  if (opt_.check_data) read_back(report);
  report.check_ms = ms_since(t2);
  return report;
}

void Runner::read_back(RunReport& report) {
  // Images: every defined colour or depth subresource goes to TRANSFER_SRC and into one staging
  // buffer. These barriers are the executor's own and come after the last group.
  struct Item {
    Sub sub;
    VkDeviceSize offset;
  };
  std::vector<Item> items;
  VkDeviceSize bytes = 4;
  std::vector<VkImageMemoryBarrier2> to_src;
  auto taken_over = [&](ResourceId r) { return shared_ && shared_->taken_over[r] && placed_[r]; };
  for (ResourceId r = 0; r < geo_.size(); ++r) {
    const Geometry& g = geo_[r];
    if (g.buffer) continue;
    if (taken_over(r)) {  // a later transient owns (part of) this memory now
      report.subresources_taken_over += static_cast<uint32_t>(all_subs(r, g).size());
      continue;
    }
    for (const Sub& s : all_subs(r, g)) {
      if (layouts_.get(s) == VK_IMAGE_LAYOUT_UNDEFINED) continue;
      VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
      b.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
      b.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
      b.dstStageMask = VK_PIPELINE_STAGE_2_COPY_BIT;
      b.dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT;
      b.oldLayout = layouts_.get(s);
      b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
      b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
      b.image = res_.image(r).image;
      b.subresourceRange = {aspect_of_plane(g, s.plane), s.mip, 1, s.layer, 1};
      if (g.planes == 2 && !c_.separate_depth_stencil_layouts) {
        if (s.plane == 1) continue;  // both aspects move together with plane 0
        b.subresourceRange.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT;
      }
      to_src.push_back(b);
      if (g.depth() && s.plane != 0) continue;  // stencil contents are not modelled
      items.push_back(Item{s, bytes});
      bytes += VkDeviceSize{g.texels(s)} * 4;
    }
  }
  staging_ = GpuBuffer{};
  VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bi.size = bytes;
  bi.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  BATON_VK(vkCreateBuffer(c_.device, &bi, nullptr, &staging_.buffer));
  VkMemoryRequirements mr;
  vkGetBufferMemoryRequirements(c_.device, staging_.buffer, &mr);
  VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  ai.allocationSize = mr.size;
  ai.memoryTypeIndex = c_.find_memory(mr.memoryTypeBits);
  BATON_VK(vkAllocateMemory(c_.device, &ai, nullptr, &staging_.memory));
  BATON_VK(vkBindBufferMemory(c_.device, staging_.buffer, staging_.memory, 0));

  VkCommandBuffer cb = c_.begin_commands();
  VkMemoryBarrier2 all{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
  all.srcStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
  all.srcAccessMask = VK_ACCESS_2_MEMORY_WRITE_BIT;
  all.dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT;
  all.dstAccessMask = VK_ACCESS_2_HOST_READ_BIT;
  VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
  di.memoryBarrierCount = 1;
  di.pMemoryBarriers = &all;
  di.imageMemoryBarrierCount = static_cast<uint32_t>(to_src.size());
  di.pImageMemoryBarriers = to_src.data();
  vkCmdPipelineBarrier2(cb, &di);
  for (const Item& it : items) {
    const Geometry& g = geo_[it.sub.res];
    VkBufferImageCopy region{};
    region.bufferOffset = it.offset;
    region.imageSubresource = {aspect_of_plane(g, it.sub.plane), it.sub.mip, it.sub.layer, 1};
    region.imageExtent = {g.w(it.sub.mip), g.h(it.sub.mip), 1};
    vkCmdCopyImageToBuffer(cb, res_.image(it.sub.res).image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           staging_.buffer, 1, &region);
  }
  copy_to_host_barrier(cb);
  c_.submit_and_wait(cb);
  void* mapped = nullptr;
  BATON_VK(vkMapMemory(c_.device, staging_.memory, 0, VK_WHOLE_SIZE, 0, &mapped));
  const auto* staged = static_cast<const uint32_t*>(mapped);

  auto compare = [&](const Sub& s, const uint32_t* got) {
    const auto& want = model_.at(s);
    Mismatch m;
    bool any_defined = false;
    for (uint32_t j = 0; j < want.size(); ++j) {
      if (want[j] & kUndefined) continue;
      any_defined = true;
      ++m.checked;
      if (got[j] != static_cast<uint32_t>(want[j])) {
        if (m.wrong++ == 0) {
          m.first_texel = j;
          m.expected = static_cast<uint32_t>(want[j]);
          m.got = got[j];
        }
      }
    }
    if (!any_defined) {
      ++report.subresources_undefined;
      report.undefined.push_back(
          fmt::format("{} mip {} layer {} plane {}", rec_.resources[s.res].name, s.mip, s.layer, s.plane));
      return;
    }
    ++report.subresources_checked;
    if (m.wrong == 0) return;
    m.resource = s.res;
    m.resource_name = rec_.resources[s.res].name;
    m.mip = s.mip;
    m.layer = s.layer;
    m.plane = s.plane;
    report.mismatches.push_back(m);
  };
  for (ResourceId r = 0; r < geo_.size(); ++r) {
    if (!geo_[r].buffer) continue;
    if (taken_over(r)) {
      ++report.subresources_taken_over;
      continue;
    }
    compare(Sub{r, 0, 0, 0}, res_.buffer(r).map);
  }
  for (const Item& it : items) compare(it.sub, staged + it.offset / 4);
  vkUnmapMemory(c_.device, staging_.memory);
}

}  // namespace

std::string to_string(const Mismatch& m) {
  return fmt::format(
      "resource '{}' mip {} layer {} plane {}: {} of {} texels wrong (first: texel {} expected {:#010x} got "
      "{:#010x})",
      m.resource_name, m.mip, m.layer, m.plane, m.wrong, m.checked, m.first_texel, m.expected, m.got);
}

std::vector<VkMemoryRequirements> memory_requirements(VulkanContext& ctx, const Recording& rec, const RunOptions& options) {
  return requirements_of(ctx.impl(), make_geometry(rec, options.max_side, options.max_words),
                         options.sharing != RunOptions::Sharing::concurrent);
}

void check_executable(const Recording& rec) {
  plan_work(rec, make_geometry(rec));
}

RunReport run(VulkanContext& ctx, const Recording& rec, const ExecPlan& plan, const RunOptions& options) {
  return run(ctx, rec, History{}, plan, options);
}

RunReport run(VulkanContext& ctx, const Recording& rec, const History& history_in, const ExecPlan& plan,
              const RunOptions& options) {
  VulkanContext::Impl& c = ctx.impl();
  (void)ctx.take_messages();  // earlier messages belong to earlier runs
  RunReport report;
  {
    Runner runner(c, rec, history_in, plan, options);
    report = runner.run(history_in);
  }
  report.validation = ctx.take_messages();
  return report;
}

}  // namespace baton::exec
