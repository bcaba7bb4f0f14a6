// The trace player: a Vulkan trace through real API calls under the Khronos layer (docs/replay.md).
#include "baton/trace_player.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "context_impl.hpp"

namespace baton::exec {
namespace {

// Mesh and task shading, ray tracing and acceleration-structure builds (VK_EXT_mesh_shader,
// VK_KHR_ray_tracing_pipeline, VK_KHR_acceleration_structure): the player records no such work (lavapipe
// of Mesa 22.3 has none of these extensions), so a barrier or wait naming their stages or accesses is
// refused, never passed on with a feature the device lacks. Uses in those stages have no row in the
// table (op_for) and are refused as any other unplayable use.
constexpr uint64_t kUnplayedStages =
    VK_PIPELINE_STAGE_2_TASK_SHADER_BIT_EXT | VK_PIPELINE_STAGE_2_MESH_SHADER_BIT_EXT |
    VK_PIPELINE_STAGE_2_RAY_TRACING_SHADER_BIT_KHR | VK_PIPELINE_STAGE_2_ACCELERATION_STRUCTURE_BUILD_BIT_KHR;
constexpr uint64_t kUnplayedAccesses =
    VK_ACCESS_2_ACCELERATION_STRUCTURE_READ_BIT_KHR | VK_ACCESS_2_ACCELERATION_STRUCTURE_WRITE_BIT_KHR;
constexpr const char* kUnplayedWhy =
    "mesh/task shader, ray tracing and acceleration-structure stages and accesses are not played";

using validate::Trace;

const uint32_t kPlayer0[] = {
#include "player0.comp.inc"
};
const uint32_t kPlayer1[] = {
#include "player1.comp.inc"
};
const uint32_t kPlayer2[] = {
#include "player2.comp.inc"
};
const uint32_t kPlayer3[] = {
#include "player3.comp.inc"
};
const uint32_t kPlayer4[] = {
#include "player4.comp.inc"
};

// One command per use: which one.
enum class Op : uint8_t { fill, clear_color, copy_in, copy_out, sbuf_r, sbuf_w, simg_r, simg_w, sampled };
// Dispatch modes = shader variants (player.comp MODE).
constexpr size_t kModes = 5;
size_t mode_of(Op op) {
  switch (op) {
    case Op::sbuf_r:
      return 0;
    case Op::sbuf_w:
      return 1;
    case Op::simg_r:
      return 2;
    case Op::simg_w:
      return 3;
    case Op::sampled:
      return 4;
    default:
      return kModes;
  }
}
constexpr VkDescriptorType kModeTypes[kModes] = {
    VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
    VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER};

constexpr VkFormat kFormat = VK_FORMAT_R32_UINT;
constexpr VkDeviceSize kBufferBytes = 256;
constexpr VkDeviceSize kScratchBytes = 64 * 1024;
constexpr uint32_t kMaxMips = 5;

std::string where(const Trace& t, size_t list, size_t cmd) {
  return fmt::format("{}: lists[{}] '{}' commands[{}]", t.source, list, t.lists[list].name, cmd);
}

bool layout_in(uint32_t layout, std::initializer_list<VkImageLayout> ok) {
  return std::any_of(ok.begin(), ok.end(),
                     [&](VkImageLayout l) { return static_cast<uint32_t>(l) == layout; });
}

// The command for a use (or a clear), or an Error naming the entry.
Op op_for(const Trace& t, size_t li, size_t ci, int resource, const validate::UseState& as) {
  const validate::TraceResource& r = t.resources[static_cast<size_t>(resource)];
  const uint64_t stage = as.vk_stage, access = as.vk_access;
  auto bad = [&](std::string_view why) -> Error {
    return Error(
        fmt::format("{}: the player cannot express this use of '{}': {}", where(t, li, ci), r.name, why));
  };
  auto need_layout = [&](std::initializer_list<VkImageLayout> ok, std::string_view what) {
    if (!r.buffer && !layout_in(as.vk_layout, ok))
      throw bad(fmt::format("{} cannot take layout {}", what, as.vk_layout));
  };
  const uint64_t tw = VK_ACCESS_2_TRANSFER_WRITE_BIT, tr = VK_ACCESS_2_TRANSFER_READ_BIT;
  if (stage == VK_PIPELINE_STAGE_2_CLEAR_BIT && access == tw) {
    need_layout({VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL}, "vkCmdClearColorImage");
    return r.buffer ? Op::fill : Op::clear_color;
  }
  if (stage == VK_PIPELINE_STAGE_2_COPY_BIT && access == tw) {
    need_layout({VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL}, "a copy destination");
    return Op::copy_in;
  }
  if (stage == VK_PIPELINE_STAGE_2_COPY_BIT && access == tr) {
    need_layout({VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL}, "a copy source");
    return Op::copy_out;
  }
  if (stage == VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT) {
    if (access == VK_ACCESS_2_SHADER_STORAGE_READ_BIT || access == VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT) {
      const bool w = access == VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
      if (r.buffer) return w ? Op::sbuf_w : Op::sbuf_r;
      need_layout({VK_IMAGE_LAYOUT_GENERAL}, "a storage image");
      return w ? Op::simg_w : Op::simg_r;
    }
    if (access == VK_ACCESS_2_SHADER_SAMPLED_READ_BIT) {
      if (r.buffer) throw bad("sampled reads of buffers (texel buffers) are not played");
      need_layout({VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL,
                   VK_IMAGE_LAYOUT_GENERAL},
                  "a sampled image");
      return Op::sampled;
    }
  }
  throw bad(fmt::format(
      "stage {:#x} access {:#x} has no one command (played: CLEAR or COPY with TRANSFER_WRITE, COPY with "
      "TRANSFER_READ, COMPUTE_SHADER with SHADER_STORAGE_READ, SHADER_STORAGE_WRITE or SHADER_SAMPLED_READ)",
      stage, access));
}

struct Box {
  uint32_t mip0 = 0, mips = 1, layer0 = 0, layers = 1;
};
Box box_of(const validate::TraceResource& r, const validate::TraceRange& g) {
  if (g.all) return {0, r.mips, 0, r.layers};
  Box b{g.mip0, g.mips ? g.mips : r.mips - g.mip0, g.layer0, g.layers ? g.layers : r.layers - g.layer0};
  return b;
}
Box box_of(const validate::TraceResource& r, const validate::Subresources& s) {
  if (s.index == validate::kAllSubresources) return box_of(r, s.range);
  const auto i = static_cast<uint32_t>(s.index);
  return {i % r.mips, 1, (i / r.mips) % r.layers, 1};
}

// Device queue families per trace family: the first submission's family runs on the context's
// queue, a second one on its compute-only queue when there is one, else on the same queue.
struct FamilyMap {
  std::map<uint32_t, uint32_t> to_device;
  std::map<std::string, int> queue_slot;  // trace queue name -> 0 (main) or 1 (compute)
  bool merged = false;
};
FamilyMap map_families(const Trace& t, std::optional<uint32_t> main, std::optional<uint32_t> second) {
  FamilyMap m;
  for (size_t si = 0; si < t.submissions.size(); ++si) {
    const validate::TraceSubmission& s = t.submissions[si];
    if (s.step == validate::Step::acquire) continue;  // host-side: no queue
    if (!m.queue_slot.count(s.queue)) {
      if (m.queue_slot.size() == 2)
        throw Error(fmt::format("{}: submissions[{}]: a third queue '{}' (the player runs at most two)",
                                t.source, si, s.queue));
      const int slot = static_cast<int>(m.queue_slot.size());
      m.queue_slot[s.queue] = slot;
      if (slot == 1 && !second) m.merged = true;
    }
    const int slot = m.queue_slot[s.queue];
    const uint32_t dev = slot == 1 && second ? *second : main.value_or(0);
    auto [it, fresh] = m.to_device.emplace(s.family, dev);
    if (!fresh && it->second != dev)
      throw Error(fmt::format("{}: submissions[{}]: family {} on two queues of different families", t.source,
                              si, s.family));
  }
  return m;
}

void check_trace(const Trace& t, std::optional<uint32_t> main, std::optional<uint32_t> second) {
  if (t.api != validate::Api::vulkan)
    throw Error(fmt::format("{}: the player replays Vulkan traces only", t.source));
  for (size_t i = 0; i < t.resources.size(); ++i) {
    const validate::TraceResource& r = t.resources[i];
    auto bad = [&](std::string_view why) {
      return Error(fmt::format("{}: resources[{}] '{}': {}", t.source, i, r.name, why));
    };
    if (r.planes != 1) throw bad("multi-plane / depth-stencil images are not played");
    if (r.flags & validate::flag::depth_stencil) throw bad("depth/stencil images are not played");
    if (r.flags & validate::flag::placed) throw bad("placed resources are not played");
    if ((r.flags & validate::flag::swapchain) && r.swapchain == validate::kNoSwapchain)
      throw bad("a \"swapchain\" flag without a named swapchain is not played (give \"swapchain\": NAME)");
    if (r.placement.heap != validate::kNotPlaced)
      throw bad("resources placed in heaps are not played (no memory aliasing in the player yet)");
    if (!r.buffer && r.mips > kMaxMips) throw bad(fmt::format("more than {} mips", kMaxMips));
    if (!r.buffer && r.initial == VK_IMAGE_LAYOUT_PREINITIALIZED)
      throw bad("PREINITIALIZED needs linear images");
  }
  const FamilyMap fm = map_families(t, main, second);
  for (size_t li = 0; li < t.lists.size(); ++li) {
    const validate::TraceList& l = t.lists[li];
    bool rendering = false;  // inside begin_rendering ... end_rendering (the loader pairs them)
    for (size_t ci = 0; ci < l.commands.size(); ++ci) {
      const validate::Command& c = l.commands[ci];
      if (const auto* br = std::get_if<validate::BeginRenderingCmd>(&c)) {
        for (const validate::RenderingAttachment& a : br->attachments)
          if (a.load == validate::LoadOp::none)
            throw Error(
                fmt::format("{}: load op NONE is not played (VK_EXT_load_store_op_none is not enabled)",
                            where(t, li, ci)));
        rendering = true;
        continue;
      }
      if (std::holds_alternative<validate::EndRenderingCmd>(c)) {
        rendering = false;
        continue;
      }
      if (rendering)
        throw Error(fmt::format("{}: draws inside a render pass instance are not played", where(t, li, ci)));
      auto whole = [&](const validate::ByteRange& b) {
        if (!b.whole())
          throw Error(fmt::format("{}: buffer byte ranges are not played yet", where(t, li, ci)));
      };
      if (const auto* u = std::get_if<validate::UseCmd>(&c)) {
        whole(u->subresources.bytes);
        const Op op = op_for(t, li, ci, u->resource, u->as);
        if (l.secondary && mode_of(op) < kModes)
          throw Error(
              fmt::format("{}: dispatches in secondary command buffers are not played (lavapipe of Mesa "
                          "22.3 crashes recording one)",
                          where(t, li, ci)));
        if (mode_of(op) < kModes &&
            t.resources[static_cast<size_t>(u->resource)].swapchain != validate::kNoSwapchain)
          throw Error(
              fmt::format("{}: dispatches on swapchain images are not played (their format is the "
                          "surface's; copies, clears and rendering are)",
                          where(t, li, ci)));
      } else if (const auto* k = std::get_if<validate::ClearCmd>(&c)) {
        whole(k->subresources.bytes);
        (void)op_for(t, li, ci, k->resource, k->as);
      } else if (std::holds_alternative<validate::DiscardCmd>(c)) {
        throw Error(fmt::format("{}: discard is a D3D12 command", where(t, li, ci)));
      } else {
        std::vector<const validate::Barrier*> all;
        if (const auto* bc = std::get_if<validate::BarrierCmd>(&c))
          for (const validate::Barrier& b : bc->barriers) all.push_back(&b);
        else if (const auto* se = std::get_if<validate::SetEventCmd>(&c))
          for (const validate::Barrier& b : se->barriers) all.push_back(&b);
        else if (const auto* we = std::get_if<validate::WaitEventsCmd>(&c))
          for (const auto& w : we->waits)
            for (const validate::Barrier& b : w.barriers) all.push_back(&b);
        for (const validate::Barrier* bp : all) {
          const validate::Barrier& b = *bp;
          const auto* v = std::get_if<validate::VkBarrier>(&b);
          if (!v) throw Error(fmt::format("{}: not a Vulkan barrier", where(t, li, ci)));
          whole(v->bytes);
          if (((v->src_stage | v->dst_stage) & kUnplayedStages) != 0 ||
              ((v->src_access | v->dst_access) & kUnplayedAccesses) != 0)
            throw Error(fmt::format("{}: {}", where(t, li, ci), kUnplayedWhy));
          if (v->kind != validate::VkBarrierKind::memory) {
            const bool buf = t.resources[static_cast<size_t>(v->resource)].buffer;
            if (buf != (v->kind == validate::VkBarrierKind::buffer))
              throw Error(fmt::format("{}: {} barrier on a {}", where(t, li, ci),
                                      buf ? "an image" : "a buffer", buf ? "buffer" : "image"));
            if (!buf) {
              const validate::TraceResource& r = t.resources[static_cast<size_t>(v->resource)];
              const Box bx = box_of(r, v->range);
              if (bx.mip0 + bx.mips > r.mips || bx.layer0 + bx.layers > r.layers || bx.mips == 0 ||
                  bx.layers == 0)
                throw Error(fmt::format("{}: a barrier range outside '{}' (the API rejects it)",
                                        where(t, li, ci), r.name));
            }
          }
          for (uint32_t f : {v->src_family, v->dst_family})
            if (f != validate::kVkQueueFamilyIgnored && !fm.to_device.count(f))
              throw Error(fmt::format("{}: queue family {} has no submission", where(t, li, ci), f));
          if (v->src_family != validate::kVkQueueFamilyIgnored &&
              v->dst_family != validate::kVkQueueFamilyIgnored && v->src_family != v->dst_family &&
              fm.to_device.at(v->src_family) == fm.to_device.at(v->dst_family))
            throw Error(
                fmt::format("{}: an ownership transfer between families {} and {} needs two device queue "
                            "families",
                            where(t, li, ci), v->src_family, v->dst_family));
        }
      }
    }
  }
  std::map<std::string, bool> signaled;
  for (size_t si = 0; si < t.submissions.size(); ++si) {
    const validate::TraceSubmission& s = t.submissions[si];
    for (size_t w = 0; w < s.wait.size(); ++w)
      if ((s.wait_stage_of(w) & kUnplayedStages) != 0)
        throw Error(fmt::format("{}: submissions[{}].wait[{}]: {}", t.source, si, w, kUnplayedWhy));
    for (size_t g = 0; g < s.signal.size(); ++g)
      if ((s.signal_stage_of(g) & kUnplayedStages) != 0)
        throw Error(fmt::format("{}: submissions[{}].signal[{}]: {}", t.source, si, g, kUnplayedWhy));
    if (!s.present.empty())
      throw Error(fmt::format("{}: submissions[{}]: presents are not played", t.source, si));
    // Binary semaphores only (a timeline value may be waited for any number of times; the loader checks
    // that an earlier submission signals it).
    for (size_t w = 0; w < s.wait.size(); ++w) {
      if (s.wait_value_of(w)) continue;
      if (!signaled[s.wait[w]])
        throw Error(fmt::format("{}: submissions[{}]: waits on binary semaphore '{}' with no pending signal",
                                t.source, si, s.wait[w]));
      signaled[s.wait[w]] = false;
    }
    for (size_t g = 0; g < s.signal.size(); ++g) {
      if (s.signal_value_of(g)) continue;
      if (signaled[s.signal[g]])
        throw Error(fmt::format("{}: submissions[{}]: signals binary semaphore '{}' that is still signaled",
                                t.source, si, s.signal[g]));
      signaled[s.signal[g]] = true;
    }
  }
}

}  // namespace

struct TracePlayer::Impl {
  VulkanContext& ctx;
  VulkanContext::Impl& c;
  VkSampler sampler = VK_NULL_HANDLE;
  std::array<VkDescriptorSetLayout, kModes> dsl{};
  std::array<VkPipelineLayout, kModes> pipe_layout{};
  std::array<VkPipeline, kModes> pipe{};
  VkCommandPool pool = VK_NULL_HANDLE, compute_pool = VK_NULL_HANDLE;

  explicit Impl(VulkanContext& x) : ctx(x), c(x.impl()) {}
  // A surface (headless or X11) and a swapchain per trace swapchain (created into `surfaces` / `swapchains`).
  struct Chain {
    VkSwapchainKHR swapchain = VK_NULL_HANDLE;
    std::vector<VkImage> images;
    VkFormat format = VK_FORMAT_UNDEFINED;
    uint32_t side = 4;
    uint32_t max_held = 1;  // images - minImageCount + 1 may be held at once
  };
  std::vector<Chain> make_swapchains(const Trace& t, const FamilyMap& fm, std::vector<VkSurfaceKHR>& surfaces,
                                     std::vector<VkSwapchainKHR>& swapchains);
  void create();
  void destroy();
  ReplayReport play(const Trace& t);
};

void TracePlayer::Impl::create() {
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
  sci.maxLod = VK_LOD_CLAMP_NONE;
  BATON_VK(vkCreateSampler(c.device, &sci, nullptr, &sampler));
  const uint32_t* code[kModes] = {kPlayer0, kPlayer1, kPlayer2, kPlayer3, kPlayer4};
  const size_t words[kModes] = {std::size(kPlayer0), std::size(kPlayer1), std::size(kPlayer2),
                                std::size(kPlayer3), std::size(kPlayer4)};
  for (size_t m = 0; m < kModes; ++m) {
    VkDescriptorSetLayoutBinding b{0, kModeTypes[m], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    if (kModeTypes[m] == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) b.pImmutableSamplers = &sampler;
    VkDescriptorSetLayoutCreateInfo dli{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dli.bindingCount = 1;
    dli.pBindings = &b;
    BATON_VK(vkCreateDescriptorSetLayout(c.device, &dli, nullptr, &dsl[m]));
    VkPipelineLayoutCreateInfo pli{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &dsl[m];
    BATON_VK(vkCreatePipelineLayout(c.device, &pli, nullptr, &pipe_layout[m]));
    VkShaderModule sm = c.shader(code[m], words[m]);
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
    ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    ci.stage.module = sm;
    ci.stage.pName = "main";
    ci.layout = pipe_layout[m];
    const VkResult r = vkCreateComputePipelines(c.device, VK_NULL_HANDLE, 1, &ci, nullptr, &pipe[m]);
    vkDestroyShaderModule(c.device, sm, nullptr);
    vk_check(r, "vkCreateComputePipelines (player)");
  }
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.queueFamilyIndex = c.family;
  BATON_VK(vkCreateCommandPool(c.device, &pci, nullptr, &pool));
  if (c.compute_family) {
    pci.queueFamilyIndex = *c.compute_family;
    BATON_VK(vkCreateCommandPool(c.device, &pci, nullptr, &compute_pool));
  }
}

// Swapchains (docs/replay.md, "Swapchains"): only for a trace with swapchain images, on a context created
// with ContextOptions::presentation (VK_KHR_surface, a headless or X11 surface, VK_KHR_swapchain). Anything
// the surface cannot give is a refusal naming the swapchain, never a trace played without its presents.
std::vector<TracePlayer::Impl::Chain> TracePlayer::Impl::make_swapchains(
    const Trace& t, const FamilyMap& fm, std::vector<VkSurfaceKHR>& surfaces,
    std::vector<VkSwapchainKHR>& swapchains) {
  std::vector<Chain> chains(t.swapchains.size());
  if (chains.empty()) return chains;
  if (!ctx.presentation_enabled())
    throw Error(
        fmt::format("{}: the trace has swapchain images, but the Vulkan context was created without "
                    "presentation (ContextOptions::presentation: VK_KHR_surface, a headless or X11 surface, "
                    "VK_KHR_swapchain)",
                    t.source));
  for (size_t k = 0; k < chains.size(); ++k) {
    auto refuse = [&](const std::string& why) {
      return Error(fmt::format("{}: swapchain '{}': {}", t.source, t.swapchains[k], why));
    };
    uint32_t images = 0, layers = 1;
    for (const validate::TraceResource& r : t.resources)
      if (r.swapchain == static_cast<int>(k)) {
        ++images;
        layers = r.layers;
      }
    VkSurfaceKHR surface = VK_NULL_HANDLE;
    try {
      surface = c.create_surface();
    } catch (const Error& e) {
      throw refuse(e.what());
    }
    surfaces.push_back(surface);
    for (const auto& [tf, df] : fm.to_device) {
      VkBool32 ok = VK_FALSE;
      BATON_VK(vkGetPhysicalDeviceSurfaceSupportKHR(c.physical, df, surface, &ok));
      if (!ok)
        throw refuse(fmt::format("queue family {} cannot present to the {} surface", df,
                                 to_string(ctx.present_surface())));
    }
    VkSurfaceCapabilitiesKHR caps;
    BATON_VK(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(c.physical, surface, &caps));
    uint32_t nf = 0;
    BATON_VK(vkGetPhysicalDeviceSurfaceFormatsKHR(c.physical, surface, &nf, nullptr));
    std::vector<VkSurfaceFormatKHR> formats(nf);
    BATON_VK(vkGetPhysicalDeviceSurfaceFormatsKHR(c.physical, surface, &nf, formats.data()));
    if (formats.empty()) throw refuse("the surface has no format");
    VkSurfaceFormatKHR format = formats.front();
    for (const VkSurfaceFormatKHR& f : formats)
      if (f.format == VK_FORMAT_B8G8R8A8_UNORM) format = f;
    // Copies move 4 bytes a texel (the scratch buffers); clears and rendering take any color format.
    if (format.format != VK_FORMAT_B8G8R8A8_UNORM && format.format != VK_FORMAT_R8G8B8A8_UNORM &&
        format.format != VK_FORMAT_B8G8R8A8_SRGB && format.format != VK_FORMAT_R8G8B8A8_SRGB)
      throw refuse(
          fmt::format("no 4-byte color format on the surface (first: {})", static_cast<int>(format.format)));
    const VkImageUsageFlags usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
    if ((caps.supportedUsageFlags & usage) != usage)
      throw refuse("the surface lacks transfer or color-attachment usage");
    if (layers > caps.maxImageArrayLayers)
      throw refuse(fmt::format("{} layers, the surface allows {}", layers, caps.maxImageArrayLayers));
    const uint32_t count = std::max(images, caps.minImageCount);
    if (caps.maxImageCount != 0 && count > caps.maxImageCount)
      throw refuse(fmt::format("{} images, the surface allows at most {}", count, caps.maxImageCount));
    VkExtent2D extent = caps.currentExtent;
    if (extent.width == 0xffffffffu) {
      extent.width = std::clamp(4u, caps.minImageExtent.width, caps.maxImageExtent.width);
      extent.height = std::clamp(4u, caps.minImageExtent.height, caps.maxImageExtent.height);
    }
    VkSwapchainCreateInfoKHR sci{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
    sci.surface = surface;
    sci.minImageCount = count;
    sci.imageFormat = format.format;
    sci.imageColorSpace = format.colorSpace;
    sci.imageExtent = extent;
    sci.imageArrayLayers = layers;
    sci.imageUsage = usage;
    sci.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
    sci.preTransform = caps.currentTransform;
    sci.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
    for (VkCompositeAlphaFlagBitsKHR a :
         {VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
          VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR, VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR})
      if ((caps.supportedCompositeAlpha & static_cast<VkCompositeAlphaFlagsKHR>(a)) != 0) {
        sci.compositeAlpha = a;
        break;
      }
    sci.presentMode = VK_PRESENT_MODE_FIFO_KHR;  // every implementation supports it
    sci.clipped = VK_TRUE;
    Chain& ch = chains[k];
    const VkResult cr = vkCreateSwapchainKHR(c.device, &sci, nullptr, &ch.swapchain);
    if (cr != VK_SUCCESS) throw refuse(fmt::format("vkCreateSwapchainKHR failed ({})", static_cast<int>(cr)));
    swapchains.push_back(ch.swapchain);
    uint32_t ni = 0;
    BATON_VK(vkGetSwapchainImagesKHR(c.device, ch.swapchain, &ni, nullptr));
    ch.images.resize(ni);
    BATON_VK(vkGetSwapchainImagesKHR(c.device, ch.swapchain, &ni, ch.images.data()));
    if (ni < images) throw refuse(fmt::format("the swapchain has {} images, the trace names {}", ni, images));
    ch.format = format.format;
    ch.side = std::min(extent.width, extent.height);
    ch.max_held = ni - std::min(ni, caps.minImageCount) + 1;
  }
  return chains;
}

void TracePlayer::Impl::destroy() {
  if (!c.device) return;
  vkDeviceWaitIdle(c.device);
  if (pool) vkDestroyCommandPool(c.device, pool, nullptr);
  if (compute_pool) vkDestroyCommandPool(c.device, compute_pool, nullptr);
  for (size_t m = 0; m < kModes; ++m) {
    if (pipe[m]) vkDestroyPipeline(c.device, pipe[m], nullptr);
    if (pipe_layout[m]) vkDestroyPipelineLayout(c.device, pipe_layout[m], nullptr);
    if (dsl[m]) vkDestroyDescriptorSetLayout(c.device, dsl[m], nullptr);
  }
  if (sampler) vkDestroySampler(c.device, sampler, nullptr);
}

ReplayReport TracePlayer::Impl::play(const Trace& t) {
  check_trace(t, c.family, c.compute_family);
  const FamilyMap fm = map_families(t, c.family, c.compute_family);
  ReplayReport rep;
  rep.queues_merged = fm.merged;
  (void)ctx.take_messages();

  // Everything created for this trace, destroyed on every path.
  struct Objects {
    std::vector<VkBuffer> buffers;
    std::vector<VkImage> images;
    std::vector<VkImageView> views;
    std::vector<VkDeviceMemory> memory;
    std::vector<VkSemaphore> semaphores;
    std::vector<VkFence> fences;
    std::vector<VkEvent> events;  // by Trace::events index, created unsignaled for this replay
    std::vector<VkCommandBuffer> cbs, compute_cbs;
    VkDescriptorPool dpool = VK_NULL_HANDLE;
    std::vector<VkSwapchainKHR> swapchains;  // destroyed before their surfaces
    std::vector<VkSurfaceKHR> surfaces;
    std::set<VkSemaphore> unwaited_acquires;  // signalled by an acquire, not waited (yet)
  } o;
  auto cleanup = [&] {
    // Khronos layer 1.3.239 crashed (SIGSEGV, lavapipe, X11 surface) in vkDeviceWaitIdle while an
    // acquire's semaphore was never waited: after the trace's last step an empty submission waits such
    // semaphores, so the device idles with nothing pending (docs/replay.md, "Swapchains"). Its messages,
    // if any, land in the report like the trace's own.
    if (!o.unwaited_acquires.empty()) {
      std::vector<VkSemaphoreSubmitInfo> waits;
      for (VkSemaphore sem : o.unwaited_acquires) {
        VkSemaphoreSubmitInfo x{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
        x.semaphore = sem;
        x.stageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        waits.push_back(x);
      }
      VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
      si.waitSemaphoreInfoCount = static_cast<uint32_t>(waits.size());
      si.pWaitSemaphoreInfos = waits.data();
      (void)vkQueueSubmit2(c.queue, 1, &si, VK_NULL_HANDLE);
      o.unwaited_acquires.clear();
    }
    vkDeviceWaitIdle(c.device);
    for (VkImageView v : o.views) vkDestroyImageView(c.device, v, nullptr);
    for (VkBuffer b : o.buffers) vkDestroyBuffer(c.device, b, nullptr);
    for (VkImage i : o.images) vkDestroyImage(c.device, i, nullptr);
    for (VkDeviceMemory m : o.memory) vkFreeMemory(c.device, m, nullptr);
    for (VkSemaphore s : o.semaphores) vkDestroySemaphore(c.device, s, nullptr);
    for (VkFence f : o.fences) vkDestroyFence(c.device, f, nullptr);
    for (VkEvent e : o.events)
      if (e) vkDestroyEvent(c.device, e, nullptr);
    if (o.dpool) vkDestroyDescriptorPool(c.device, o.dpool, nullptr);
    for (VkSwapchainKHR sc : o.swapchains) vkDestroySwapchainKHR(c.device, sc, nullptr);
    for (VkSurfaceKHR sf : o.surfaces) c.destroy_surface(sf);
    // Freed, not only reset: the layer tracks every allocated command buffer (a pool that grows by
    // each trace made 4,000 traces take 13 times as long as 1,000).
    if (!o.cbs.empty())
      vkFreeCommandBuffers(c.device, pool, static_cast<uint32_t>(o.cbs.size()), o.cbs.data());
    if (!o.compute_cbs.empty())
      vkFreeCommandBuffers(c.device, compute_pool, static_cast<uint32_t>(o.compute_cbs.size()),
                           o.compute_cbs.data());
  };

  std::vector<uint32_t> families;  // device families the resources are shared between (concurrent)
  for (const auto& [tf, df] : fm.to_device)
    if (std::find(families.begin(), families.end(), df) == families.end()) families.push_back(df);

  auto bind = [&](VkMemoryRequirements mr, bool host) {
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = mr.size;
    ai.memoryTypeIndex = c.find_memory(mr.memoryTypeBits, host);
    VkDeviceMemory m;
    BATON_VK(vkAllocateMemory(c.device, &ai, nullptr, &m));
    o.memory.push_back(m);
    return m;
  };
  auto make_buffer = [&](VkDeviceSize size, VkBufferUsageFlags usage, bool concurrent) {
    VkBufferCreateInfo bi{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = size;
    bi.usage = usage;
    if (concurrent && families.size() > 1) {
      bi.sharingMode = VK_SHARING_MODE_CONCURRENT;
      bi.queueFamilyIndexCount = static_cast<uint32_t>(families.size());
      bi.pQueueFamilyIndices = families.data();
    }
    VkBuffer b;
    BATON_VK(vkCreateBuffer(c.device, &bi, nullptr, &b));
    o.buffers.push_back(b);
    VkMemoryRequirements mr;
    vkGetBufferMemoryRequirements(c.device, b, &mr);
    BATON_VK(vkBindBufferMemory(c.device, b, bind(mr, true), 0));
    return b;
  };

  try {
    // Resources, each in its own memory.
    struct Res {
      VkBuffer buffer = VK_NULL_HANDLE;
      VkImage image = VK_NULL_HANDLE;  // a swapchain image: the one its last acquire returned
      uint32_t side = 0;
      VkFormat format = kFormat;
    };
    std::vector<Res> res(t.resources.size());
    const std::vector<Chain> chains = make_swapchains(t, fm, o.surfaces, o.swapchains);
    std::vector<uint32_t> held(chains.size(), 0);  // images acquired, not presented since
    bool any_initial = false;
    std::set<int> attachments;  // images rendered to (COLOR_ATTACHMENT usage)
    for (const validate::TraceList& l : t.lists)
      for (const validate::Command& cmd : l.commands)
        if (const auto* br = std::get_if<validate::BeginRenderingCmd>(&cmd))
          for (const validate::RenderingAttachment& a : br->attachments) attachments.insert(a.resource);
    for (size_t i = 0; i < t.resources.size(); ++i) {
      const validate::TraceResource& r = t.resources[i];
      const bool concurrent = (r.flags & validate::flag::concurrent) != 0;
      if (r.swapchain != validate::kNoSwapchain) {
        res[i].side = chains[static_cast<size_t>(r.swapchain)].side;
        res[i].format = chains[static_cast<size_t>(r.swapchain)].format;
        continue;
      }
      if (r.buffer) {
        res[i].buffer = make_buffer(kBufferBytes,
                                    VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                        VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                    concurrent);
        continue;
      }
      res[i].side = std::max(4u, 1u << (r.mips - 1));
      VkImageCreateInfo ii{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
      ii.imageType = VK_IMAGE_TYPE_2D;
      ii.format = kFormat;
      ii.extent = {res[i].side, res[i].side, 1};
      ii.mipLevels = r.mips;
      ii.arrayLayers = r.layers;
      ii.samples = VK_SAMPLE_COUNT_1_BIT;
      ii.tiling = VK_IMAGE_TILING_OPTIMAL;
      ii.usage =
          VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_STORAGE_BIT |
          VK_IMAGE_USAGE_SAMPLED_BIT |
          (attachments.count(static_cast<int>(i)) ? VkImageUsageFlags{VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT}
                                                  : VkImageUsageFlags{0});
      ii.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
      if (concurrent && families.size() > 1) {
        ii.sharingMode = VK_SHARING_MODE_CONCURRENT;
        ii.queueFamilyIndexCount = static_cast<uint32_t>(families.size());
        ii.pQueueFamilyIndices = families.data();
      }
      BATON_VK(vkCreateImage(c.device, &ii, nullptr, &res[i].image));
      o.images.push_back(res[i].image);
      VkMemoryRequirements mr;
      vkGetImageMemoryRequirements(c.device, res[i].image, &mr);
      BATON_VK(vkBindImageMemory(c.device, res[i].image, bind(mr, false), 0));
      any_initial |= r.initial != VK_IMAGE_LAYOUT_UNDEFINED;
    }
    // Initial layouts: one set-up submission, waited for before the trace starts (the layer
    // retires its accesses at the wait).
    if (any_initial) {
      std::vector<VkImageMemoryBarrier2> ib;
      for (size_t i = 0; i < t.resources.size(); ++i) {
        const validate::TraceResource& r = t.resources[i];
        if (r.buffer || r.initial == VK_IMAGE_LAYOUT_UNDEFINED || r.swapchain != validate::kNoSwapchain)
          continue;
        VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
        b.dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
        b.dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT;
        b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        b.newLayout = static_cast<VkImageLayout>(r.initial);
        b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        b.image = res[i].image;
        b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, r.mips, 0, r.layers};
        ib.push_back(b);
      }
      VkCommandBuffer cb = c.begin_commands(pool);
      o.cbs.push_back(cb);
      VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
      di.imageMemoryBarrierCount = static_cast<uint32_t>(ib.size());
      di.pImageMemoryBarriers = ib.data();
      vkCmdPipelineBarrier2(cb, &di);
      BATON_VK(vkEndCommandBuffer(cb));
      VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
      cbi.commandBuffer = cb;
      VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
      si.commandBufferInfoCount = 1;
      si.pCommandBufferInfos = &cbi;
      BATON_VK(vkQueueSubmit2(c.queue, 1, &si, VK_NULL_HANDLE));
      BATON_VK(vkQueueWaitIdle(c.queue));
    }

    // Shared scratch: the source of every copy into a resource (only read on the device).
    const VkBuffer scratch_src = make_buffer(kScratchBytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, true);

    // Descriptor pool: one set per dispatch (one dispatch per buffer use / image subresource).
    uint32_t dispatches = 0;
    for (const validate::TraceSubmission& s : t.submissions)
      for (int li : s.lists)
        for (const validate::Command& cmd : t.lists[static_cast<size_t>(li)].commands) {
          const validate::UseCmd* u = std::get_if<validate::UseCmd>(&cmd);
          const validate::ClearCmd* k = std::get_if<validate::ClearCmd>(&cmd);
          if (!u && !k) continue;
          const int ri = u ? u->resource : k->resource;
          const Box bx = box_of(t.resources[static_cast<size_t>(ri)], u ? u->subresources : k->subresources);
          dispatches += bx.mips * bx.layers;
        }
    if (dispatches) {
      std::array<VkDescriptorPoolSize, 3> ps{{{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, dispatches},
                                              {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, dispatches},
                                              {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, dispatches}}};
      VkDescriptorPoolCreateInfo dpi{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
      dpi.maxSets = dispatches;
      dpi.poolSizeCount = static_cast<uint32_t>(ps.size());
      dpi.pPoolSizes = ps.data();
      BATON_VK(vkCreateDescriptorPool(c.device, &dpi, nullptr, &o.dpool));
    }
    auto make_set = [&](size_t mode, VkBuffer buf, VkImageView view, VkImageLayout il) {
      VkDescriptorSetAllocateInfo sai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
      sai.descriptorPool = o.dpool;
      sai.descriptorSetCount = 1;
      sai.pSetLayouts = &dsl[mode];
      VkDescriptorSet set;
      BATON_VK(vkAllocateDescriptorSets(c.device, &sai, &set));
      VkDescriptorBufferInfo bi{buf, 0, VK_WHOLE_SIZE};
      VkDescriptorImageInfo ii{VK_NULL_HANDLE, view, il};
      VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
      w.dstSet = set;
      w.descriptorCount = 1;
      w.descriptorType = kModeTypes[mode];
      if (buf)
        w.pBufferInfo = &bi;
      else
        w.pImageInfo = &ii;
      vkUpdateDescriptorSets(c.device, 1, &w, 0, nullptr);
      return set;
    };

    auto record_use = [&](VkCommandBuffer cb, Op op, int ri, const validate::Subresources& sub,
                          uint32_t layout) {
      const validate::TraceResource& r = t.resources[static_cast<size_t>(ri)];
      const Res& x = res[static_cast<size_t>(ri)];
      const Box bx = box_of(r, sub);
      const auto il = static_cast<VkImageLayout>(layout);
      std::vector<VkBufferImageCopy> regions;
      VkDeviceSize offset = 0;
      for (uint32_t m = bx.mip0; m < bx.mip0 + bx.mips; ++m) {
        const uint32_t side = std::max(1u, x.side >> m);
        VkBufferImageCopy reg{};
        reg.bufferOffset = offset;
        reg.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, m, bx.layer0, bx.layers};
        reg.imageExtent = {side, side, 1};
        regions.push_back(reg);
        offset += VkDeviceSize{side} * side * 4 * bx.layers;
      }
      switch (op) {
        case Op::fill:
          vkCmdFillBuffer(cb, x.buffer, 0, VK_WHOLE_SIZE, 0);
          return;
        case Op::clear_color: {
          VkClearColorValue v{};
          const VkImageSubresourceRange rr{VK_IMAGE_ASPECT_COLOR_BIT, bx.mip0, bx.mips, bx.layer0, bx.layers};
          vkCmdClearColorImage(cb, x.image, il, &v, 1, &rr);
          return;
        }
        case Op::copy_in:
          if (r.buffer) {
            const VkBufferCopy bc{0, 0, kBufferBytes};
            vkCmdCopyBuffer(cb, scratch_src, x.buffer, 1, &bc);
          } else {
            vkCmdCopyBufferToImage(cb, scratch_src, x.image, il, static_cast<uint32_t>(regions.size()),
                                   regions.data());
          }
          return;
        case Op::copy_out: {
          const VkBuffer dst =
              make_buffer(std::max(offset, kBufferBytes), VK_BUFFER_USAGE_TRANSFER_DST_BIT, true);
          if (r.buffer) {
            const VkBufferCopy bc{0, 0, kBufferBytes};
            vkCmdCopyBuffer(cb, x.buffer, dst, 1, &bc);
          } else {
            vkCmdCopyImageToBuffer(cb, x.image, il, dst, static_cast<uint32_t>(regions.size()),
                                   regions.data());
          }
          return;
        }
        default:
          break;
      }
      const size_t mode = mode_of(op);
      vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe[mode]);
      auto dispatch = [&](VkDescriptorSet set) {
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe_layout[mode], 0, 1, &set, 0,
                                nullptr);
        vkCmdDispatch(cb, 1, 1, 1);
      };
      if (r.buffer) {
        dispatch(make_set(mode, x.buffer, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED));
        return;
      }
      for (uint32_t m = bx.mip0; m < bx.mip0 + bx.mips; ++m)
        for (uint32_t l = bx.layer0; l < bx.layer0 + bx.layers; ++l) {
          VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
          vi.image = x.image;
          vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
          vi.format = kFormat;
          vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, m, 1, l, 1};
          VkImageView view;
          BATON_VK(vkCreateImageView(c.device, &vi, nullptr, &view));
          o.views.push_back(view);
          dispatch(make_set(mode, VK_NULL_HANDLE, view, il));
        }
    };

    auto device_family = [&](uint32_t f) {
      return f == validate::kVkQueueFamilyIgnored ? VK_QUEUE_FAMILY_IGNORED : fm.to_device.at(f);
    };
    // One VkDependencyInfo from the trace's barriers; `call` records it (pipeline barrier, set or wait).
    auto with_dependency = [&](const std::vector<validate::Barrier>& barriers, auto&& call) {
      std::vector<VkMemoryBarrier2> mb;
      std::vector<VkBufferMemoryBarrier2> bb;
      std::vector<VkImageMemoryBarrier2> ib;
      for (const validate::Barrier& any : barriers) {
        const validate::VkBarrier& v = std::get<validate::VkBarrier>(any);
        if (v.kind == validate::VkBarrierKind::memory) {
          VkMemoryBarrier2 b{VK_STRUCTURE_TYPE_MEMORY_BARRIER_2};
          b.srcStageMask = v.src_stage;
          b.srcAccessMask = v.src_access;
          b.dstStageMask = v.dst_stage;
          b.dstAccessMask = v.dst_access;
          mb.push_back(b);
        } else if (v.kind == validate::VkBarrierKind::buffer) {
          VkBufferMemoryBarrier2 b{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2};
          b.srcStageMask = v.src_stage;
          b.srcAccessMask = v.src_access;
          b.dstStageMask = v.dst_stage;
          b.dstAccessMask = v.dst_access;
          b.srcQueueFamilyIndex = device_family(v.src_family);
          b.dstQueueFamilyIndex = device_family(v.dst_family);
          b.buffer = res[static_cast<size_t>(v.resource)].buffer;
          b.size = VK_WHOLE_SIZE;
          bb.push_back(b);
        } else {
          const validate::TraceResource& r = t.resources[static_cast<size_t>(v.resource)];
          const Box bx = box_of(r, v.range);
          VkImageMemoryBarrier2 b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2};
          b.srcStageMask = v.src_stage;
          b.srcAccessMask = v.src_access;
          b.dstStageMask = v.dst_stage;
          b.dstAccessMask = v.dst_access;
          b.oldLayout = static_cast<VkImageLayout>(v.old_layout);
          b.newLayout = static_cast<VkImageLayout>(v.new_layout);
          b.srcQueueFamilyIndex = device_family(v.src_family);
          b.dstQueueFamilyIndex = device_family(v.dst_family);
          b.image = res[static_cast<size_t>(v.resource)].image;
          b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, bx.mip0, bx.mips, bx.layer0, bx.layers};
          ib.push_back(b);
        }
      }
      VkDependencyInfo di{VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
      di.memoryBarrierCount = static_cast<uint32_t>(mb.size());
      di.pMemoryBarriers = mb.data();
      di.bufferMemoryBarrierCount = static_cast<uint32_t>(bb.size());
      di.pBufferMemoryBarriers = bb.data();
      di.imageMemoryBarrierCount = static_cast<uint32_t>(ib.size());
      di.pImageMemoryBarriers = ib.data();
      call(di);
      rep.barriers += static_cast<uint32_t>(barriers.size());
    };
    auto record_barrier = [&](VkCommandBuffer cb, const validate::BarrierCmd& bc) {
      with_dependency(bc.barriers, [&](const VkDependencyInfo& di) {
        VkDependencyInfo flagged = di;
        if (bc.by_region) flagged.dependencyFlags = VK_DEPENDENCY_BY_REGION_BIT;
        vkCmdPipelineBarrier2(cb, &flagged);
      });
    };
    o.events.assign(t.events.size(), VK_NULL_HANDLE);
    auto event = [&](int e) {
      VkEvent& ev = o.events.at(static_cast<size_t>(e));
      if (!ev) {
        VkEventCreateInfo eci{VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
        BATON_VK(vkCreateEvent(c.device, &eci, nullptr, &ev));
      }
      return ev;
    };
    // Events: vkCmdSetEvent2 / vkCmdWaitEvents2 as written (one wait call per event).
    // Dynamic rendering: one 2D view per attachment (its mip and layer), the render area the mip's
    // extent, no draws; the load and store operations are the accesses.
    auto record_rendering = [&](VkCommandBuffer cb, const validate::Command& cmd) {
      if (std::holds_alternative<validate::EndRenderingCmd>(cmd)) {
        vkCmdEndRendering(cb);
        return true;
      }
      const auto* br = std::get_if<validate::BeginRenderingCmd>(&cmd);
      if (!br) return false;
      std::vector<VkRenderingAttachmentInfo> colors;
      uint32_t side = 0;
      for (const validate::RenderingAttachment& a : br->attachments) {
        const validate::TraceResource& r = t.resources[static_cast<size_t>(a.resource)];
        const uint32_t mip = a.subresource % r.mips, layer = a.subresource / r.mips % r.layers;
        VkImageViewCreateInfo vi{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
        vi.image = res[static_cast<size_t>(a.resource)].image;
        vi.viewType = VK_IMAGE_VIEW_TYPE_2D;
        vi.format = res[static_cast<size_t>(a.resource)].format;
        vi.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, mip, 1, layer, 1};
        VkImageView view;
        BATON_VK(vkCreateImageView(c.device, &vi, nullptr, &view));
        o.views.push_back(view);
        const uint32_t extent = std::max(1u, res[static_cast<size_t>(a.resource)].side >> mip);
        side = side == 0 ? extent : std::min(side, extent);
        VkRenderingAttachmentInfo ai{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
        ai.imageView = view;
        ai.imageLayout = static_cast<VkImageLayout>(a.layout);
        ai.loadOp = a.load == validate::LoadOp::load ? VK_ATTACHMENT_LOAD_OP_LOAD
                    : a.load == validate::LoadOp::clear
                        ? VK_ATTACHMENT_LOAD_OP_CLEAR
                        : VK_ATTACHMENT_LOAD_OP_DONT_CARE;  // (NONE: check_trace)
        ai.storeOp = a.store == validate::StoreOp::store       ? VK_ATTACHMENT_STORE_OP_STORE
                     : a.store == validate::StoreOp::dont_care ? VK_ATTACHMENT_STORE_OP_DONT_CARE
                                                               : VK_ATTACHMENT_STORE_OP_NONE;
        colors.push_back(ai);
      }
      VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
      ri.renderArea = {{0, 0}, {std::max(side, 1u), std::max(side, 1u)}};
      ri.layerCount = 1;
      ri.colorAttachmentCount = static_cast<uint32_t>(colors.size());
      ri.pColorAttachments = colors.data();
      vkCmdBeginRendering(cb, &ri);
      return true;
    };
    auto record_events = [&](VkCommandBuffer cb, const validate::Command& cmd) {
      if (const auto* se = std::get_if<validate::SetEventCmd>(&cmd)) {
        const VkEvent ev = event(se->event);
        with_dependency(se->barriers, [&](const VkDependencyInfo& di) { vkCmdSetEvent2(cb, ev, &di); });
        return true;
      }
      if (const auto* we = std::get_if<validate::WaitEventsCmd>(&cmd)) {
        for (const auto& w : we->waits) {
          const VkEvent ev = event(w.event);
          with_dependency(w.barriers, [&](const VkDependencyInfo& di) { vkCmdWaitEvents2(cb, 1, &ev, &di); });
        }
        return true;
      }
      return false;
    };

    // One command buffer per (submission, list), recorded in trace order.
    // A semaphore named with a value is a timeline semaphore (initial value 0), everywhere (trace_load.cpp).
    std::map<std::string, VkSemaphore> sems;
    auto semaphore = [&](const std::string& name, bool timeline) {
      auto it = sems.find(name);
      if (it != sems.end()) return it->second;
      VkSemaphoreTypeCreateInfo type{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO};
      type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
      VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
      if (timeline) sci.pNext = &type;
      VkSemaphore s;
      BATON_VK(vkCreateSemaphore(c.device, &sci, nullptr, &s));
      o.semaphores.push_back(s);
      return sems[name] = s;
    };
    std::map<std::string, VkFence> fences;  // created unsignaled; a host wait resets its fence
    auto fence = [&](const std::string& name) {
      auto it = fences.find(name);
      if (it != fences.end()) return it->second;
      VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
      VkFence f;
      BATON_VK(vkCreateFence(c.device, &fci, nullptr, &f));
      o.fences.push_back(f);
      return fences[name] = f;
    };
    auto queue_of = [&](const std::string& name) {
      return fm.queue_slot.at(name) == 1 && c.compute_family ? c.compute_queue : c.queue;
    };
    std::set<VkQueue> queues;
    for (size_t step = 0; step < t.submissions.size(); ++step) {
      const validate::TraceSubmission& s = t.submissions[step];
      if (s.step == validate::Step::acquire) {
        // vkAcquireNextImageKHR: the presentation engine picks the image; the trace's must be the one it
        // returns (headless and lavapipe's X11: the lowest one not held), or the trace is refused: never
        // another image.
        const validate::TraceResource& r = t.resources[static_cast<size_t>(s.image)];
        const Chain& ch = chains[static_cast<size_t>(r.swapchain)];
        uint32_t& n = held[static_cast<size_t>(r.swapchain)];
        if (n + 1 > ch.max_held)
          throw Error(fmt::format(
              "{}: submissions[{}]: swapchain '{}' has {} images, so at most {} may be held "
              "at once (VUID-vkAcquireNextImageKHR-surface-07783)",
              t.source, step, t.swapchains[static_cast<size_t>(r.swapchain)], ch.images.size(), ch.max_held));
        uint32_t index = 0;
        const VkResult ar =
            vkAcquireNextImageKHR(c.device, ch.swapchain, UINT64_MAX,
                                  s.signal.empty() ? VK_NULL_HANDLE : semaphore(s.signal[0], false),
                                  s.fence.empty() ? VK_NULL_HANDLE : fence(s.fence), &index);
        if (ar != VK_SUCCESS && ar != VK_SUBOPTIMAL_KHR) vk_check(ar, "vkAcquireNextImageKHR");
        if (!s.signal.empty()) o.unwaited_acquires.insert(semaphore(s.signal[0], false));
        ++n;
        if (index != r.image_index)
          throw Error(fmt::format(
              "{}: submissions[{}]: vkAcquireNextImageKHR returned image {} of swapchain '{}', the trace "
              "acquires "
              "image {} ('{}'): the presentation engine picks the image (headless, lavapipe X11: the "
              "lowest one not held)",
              t.source, step, index, t.swapchains[static_cast<size_t>(r.swapchain)], r.image_index, r.name));
        res[static_cast<size_t>(s.image)].image = ch.images[index];
        ++rep.acquires;
        continue;
      }
      const bool second = fm.queue_slot.at(s.queue) == 1 && c.compute_family;
      const VkQueue q = second ? c.compute_queue : c.queue;
      queues.insert(q);
      if (s.step == validate::Step::present) {
        // vkQueuePresentKHR: waits binary semaphores (no stage mask), one image.
        const validate::TraceResource& r = t.resources[static_cast<size_t>(s.image)];
        const Chain& ch = chains[static_cast<size_t>(r.swapchain)];
        std::vector<VkSemaphore> waits;
        for (const std::string& w : s.wait) waits.push_back(semaphore(w, false));
        for (VkSemaphore w : waits) o.unwaited_acquires.erase(w);
        VkPresentInfoKHR pi{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
        pi.waitSemaphoreCount = static_cast<uint32_t>(waits.size());
        pi.pWaitSemaphores = waits.data();
        pi.swapchainCount = 1;
        pi.pSwapchains = &ch.swapchain;
        pi.pImageIndices = &r.image_index;
        const VkResult pr = vkQueuePresentKHR(q, &pi);
        if (pr != VK_SUCCESS && pr != VK_SUBOPTIMAL_KHR) vk_check(pr, "vkQueuePresentKHR");
        --held[static_cast<size_t>(r.swapchain)];
        ++rep.presents;
        continue;
      }
      // Host waits, made before this submission (the loader checked that each has something to wait for).
      for (const validate::HostWait& h : s.host_wait) {
        switch (h.kind) {
          case validate::HostWait::Kind::fence: {
            const VkFence f = fence(h.name);
            BATON_VK(vkWaitForFences(c.device, 1, &f, VK_TRUE, UINT64_MAX));
            BATON_VK(vkResetFences(c.device, 1, &f));
            break;
          }
          case validate::HostWait::Kind::semaphore: {
            const VkSemaphore sem = semaphore(h.name, true);
            VkSemaphoreWaitInfo wi{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO};
            wi.semaphoreCount = 1;
            wi.pSemaphores = &sem;
            wi.pValues = &h.value;
            BATON_VK(vkWaitSemaphores(c.device, &wi, UINT64_MAX));
            break;
          }
          case validate::HostWait::Kind::queue:
            BATON_VK(vkQueueWaitIdle(queue_of(h.name)));
            break;
          case validate::HostWait::Kind::device:
            BATON_VK(vkDeviceWaitIdle(c.device));
            break;
        }
        ++rep.host_waits;
      }
      // Host signals (vkSignalSemaphore), after the host waits, before the submission.
      for (const validate::HostSignal& h : s.host_signal) {
        VkSemaphoreSignalInfo info{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO};
        info.semaphore = semaphore(h.semaphore, true);
        info.value = h.value;
        BATON_VK(vkSignalSemaphore(c.device, &info));
        ++rep.host_signals;
      }
      std::vector<VkCommandBufferSubmitInfo> cbs;
      const VkCommandPool from = second ? compute_pool : pool;
      std::vector<VkCommandBuffer>& owned = second ? o.compute_cbs : o.cbs;
      // A list's commands into `cb`; an execute records each secondary list into a fresh secondary
      // command buffer (no render pass inherited) and executes it there (vkCmdExecuteCommands).
      std::function<void(VkCommandBuffer, int)> record_list = [&](VkCommandBuffer cb, int li) {
        for (const validate::Command& cmd : t.lists[static_cast<size_t>(li)].commands) {
          ++rep.commands;
          if (const auto* u = std::get_if<validate::UseCmd>(&cmd)) {
            const Op op = op_for(t, static_cast<size_t>(li), 0, u->resource, u->as);
            record_use(cb, op, u->resource, u->subresources, u->as.vk_layout);
          } else if (const auto* k = std::get_if<validate::ClearCmd>(&cmd)) {
            const Op op = op_for(t, static_cast<size_t>(li), 0, k->resource, k->as);
            record_use(cb, op, k->resource, k->subresources, k->as.vk_layout);
          } else if (const auto* ex = std::get_if<validate::ExecuteCmd>(&cmd)) {
            std::vector<VkCommandBuffer> secondaries;
            for (int sl : ex->lists) {
              VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
              ai.commandPool = from;
              ai.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
              ai.commandBufferCount = 1;
              VkCommandBuffer sec;
              BATON_VK(vkAllocateCommandBuffers(c.device, &ai, &sec));
              owned.push_back(sec);
              VkCommandBufferInheritanceInfo inherit{VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
              VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
              bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
              bi.pInheritanceInfo = &inherit;
              BATON_VK(vkBeginCommandBuffer(sec, &bi));
              record_list(sec, sl);
              BATON_VK(vkEndCommandBuffer(sec));
              secondaries.push_back(sec);
              ++rep.secondary_command_buffers;
            }
            vkCmdExecuteCommands(cb, static_cast<uint32_t>(secondaries.size()), secondaries.data());
          } else if (!record_events(cb, cmd) && !record_rendering(cb, cmd)) {
            record_barrier(cb, std::get<validate::BarrierCmd>(cmd));
          }
        }
      };
      for (int li : s.lists) {
        VkCommandBuffer cb = c.begin_commands(from);
        owned.push_back(cb);
        record_list(cb, li);
        BATON_VK(vkEndCommandBuffer(cb));
        VkCommandBufferSubmitInfo cbi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO};
        cbi.commandBuffer = cb;
        cbs.push_back(cbi);
        ++rep.command_buffers;
      }
      std::vector<VkSemaphoreSubmitInfo> waits, signals;
      for (size_t w = 0; w < s.wait.size(); ++w) {
        VkSemaphoreSubmitInfo x{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
        x.semaphore = semaphore(s.wait[w], s.wait_value_of(w).has_value());
        x.value = s.wait_value_of(w).value_or(0);
        x.stageMask = s.wait_stage_of(w);
        waits.push_back(x);
        o.unwaited_acquires.erase(x.semaphore);
      }
      for (size_t g = 0; g < s.signal.size(); ++g) {
        VkSemaphoreSubmitInfo x{VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO};
        x.semaphore = semaphore(s.signal[g], s.signal_value_of(g).has_value());
        x.value = s.signal_value_of(g).value_or(0);
        x.stageMask = s.signal_stage_of(g);
        signals.push_back(x);
      }
      VkSubmitInfo2 si{VK_STRUCTURE_TYPE_SUBMIT_INFO_2};
      si.waitSemaphoreInfoCount = static_cast<uint32_t>(waits.size());
      si.pWaitSemaphoreInfos = waits.data();
      si.commandBufferInfoCount = static_cast<uint32_t>(cbs.size());
      si.pCommandBufferInfos = cbs.data();
      si.signalSemaphoreInfoCount = static_cast<uint32_t>(signals.size());
      si.pSignalSemaphoreInfos = signals.data();
      BATON_VK(vkQueueSubmit2(q, 1, &si, s.fence.empty() ? VK_NULL_HANDLE : fence(s.fence)));
      ++rep.submissions;
    }
    rep.queues_used = static_cast<uint32_t>(queues.size());
  } catch (...) {
    cleanup();
    throw;
  }
  cleanup();
  rep.log = ctx.take_messages();
  return rep;
}

void check_playable(const Trace& trace) {
  // Without a device: one family, and a second one assumed available for a second queue (the
  // checks that depend on the device run again in play()).
  check_trace(trace, 0u, 1u);
}

TracePlayer::TracePlayer(VulkanContext& ctx) : impl_(std::make_unique<Impl>(ctx)) {
  try {
    impl_->create();
  } catch (...) {
    impl_->destroy();
    throw;
  }
}
TracePlayer::~TracePlayer() {
  impl_->destroy();
}

ReplayReport TracePlayer::play(const Trace& trace) {
  return impl_->play(trace);
}
bool TracePlayer::has_second_queue() const {
  return impl_->c.compute_family.has_value();
}

Trace merge_queues(const Trace& trace) {
  Trace t = trace;
  // The first submission on a queue (an acquire step runs on none).
  const auto on_queue =
      std::find_if(trace.submissions.begin(), trace.submissions.end(),
                   [](const validate::TraceSubmission& s) { return s.step != validate::Step::acquire; });
  if (on_queue == trace.submissions.end()) return t;
  const validate::TraceSubmission& first = *on_queue;
  for (validate::TraceSubmission& s : t.submissions) {
    if (s.step == validate::Step::acquire) continue;
    s.queue = first.queue;
    s.type = first.type;
    s.family = first.family;
  }
  for (validate::TraceList& l : t.lists) l.type = first.type;
  return t;
}

Trace inline_secondaries(const Trace& trace) {
  Trace t = trace;
  for (validate::TraceList& l : t.lists) {
    std::vector<validate::Command> flat;
    for (const validate::Command& cmd : l.commands) {
      const auto* ex = std::get_if<validate::ExecuteCmd>(&cmd);
      if (!ex) {
        flat.push_back(cmd);
        continue;
      }
      for (int sl : ex->lists) {  // secondaries execute no others (trace_load.cpp)
        const std::vector<validate::Command>& theirs = trace.lists[static_cast<size_t>(sl)].commands;
        flat.insert(flat.end(), theirs.begin(), theirs.end());
      }
    }
    l.commands = std::move(flat);
  }
  return t;
}

}  // namespace baton::exec
