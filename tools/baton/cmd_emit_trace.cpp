// emit-trace: per group one submission (serial order made explicit with semaphores), per list the
// operations in order with their barrier points around them: the before-point's API call, the
// operation's uses as API states, the after-point's call. Present operations become the
// submission's "present" entries (Present runs after ExecuteCommandLists / vkQueueSubmit).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "baton/lower_d3d12.hpp"
#include "baton/lower_vulkan.hpp"
#include "baton/validate_names.hpp"
#include "emit_trace.hpp"
#include "output.hpp"
#include "plan_output.hpp"

namespace baton::cli {
namespace {

using json = nlohmann::ordered_json;
using validate::format_name;
using validate::NameKind;

json axis(uint32_t first, uint32_t count) {
  return json::array({first, count});
}

json range_of(const ResourceDesc& d, const SubresourceRange& r) {
  const Box b = resolve(d, r);
  if (b == full_box(d)) return "all";
  return json{{"mips", axis(b.m0, b.m1 - b.m0)},
              {"layers", axis(b.l0, b.l1 - b.l0)},
              {"planes", axis(b.p0, b.p1 - b.p0)}};
}

json resources_json(const ResourceTable& t, Api api) {
  json out = json::array();
  for (const ResourceDesc& d : t.all()) {
    json r{{"name", d.name}, {"type", d.type == ResourceType::buffer ? "buffer" : "texture"}};
    if (d.type == ResourceType::texture) {
      r["mips"] = d.mips;
      r["layers"] = d.layers;
      r["planes"] = d.planes;
    }
    json flags = json::array();
    if (d.simultaneous_access) flags.push_back("simultaneous_access");
    if ((d.usage & bit(Access::render_target)) != 0) flags.push_back("render_target");
    if ((d.usage & (bit(Access::depth_write) | bit(Access::depth_read))) != 0)
      flags.push_back("depth_stencil");
    if ((d.usage & bit(Access::unordered_access)) != 0) flags.push_back("unordered_access");
    if (d.placed) flags.push_back("placed");
    if (d.swapchain) flags.push_back("swapchain");
    if (!flags.empty()) r["flags"] = flags;
    // Resources are created COMMON (legacy) / UNDEFINED (enhanced textures, Vulkan images).
    if (api == Api::d3d12) r["initial_layout"] = "UNDEFINED";  // created for enhanced barriers
    out.push_back(std::move(r));
  }
  return out;
}

std::string queue_type(Queue q) {
  return std::string(to_string(q));
}

// Vulkan: the layouts an image may be in for an access (the executor writes descriptors and
// attachments with the image's real layout, e.g. a depth image in DEPTH_STENCIL_READ_ONLY_OPTIMAL
// sampled by a shader). The table's layout is used when the real one is not among them.
bool vk_layout_allows(Access a, VkImageLayout l) {
  if (l == VK_IMAGE_LAYOUT_GENERAL) return a != Access::present;
  switch (a) {
    case Access::shader_resource:
      return l == VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL ||
             l == VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL ||
             l == VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL || l == VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL;
    case Access::depth_read:
      return l == VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL ||
             l == VK_IMAGE_LAYOUT_DEPTH_READ_ONLY_OPTIMAL || l == VK_IMAGE_LAYOUT_READ_ONLY_OPTIMAL;
    default:
      return false;
  }
}

// Per image subresource, the layout the emitted barriers leave (Vulkan only).
using Layouts = std::vector<std::vector<VkImageLayout>>;

// The API state a use needs (null: no GPU-side state, e.g. host access or present).
json use_json(const ResourceTable& t, const Use& u, Api api, const Layouts& layouts) {
  const ResourceDesc& d = t[u.resource];
  const State s = state_of_use(d, u.access, u.stages);
  json use{{"resource", d.name}, {"range", range_of(d, u.range)}};
  if (api == Api::vulkan) {
    const VulkanSide side = lower_vulkan_state(s, d.type == ResourceType::texture, false);
    json as{{"stage", format_name(NameKind::vk_stage, side.stages)},
            {"access", format_name(NameKind::vk_access, side.access)}};
    if (d.type == ResourceType::texture) {
      VkImageLayout layout = side.layout;
      const Box b = resolve(d, u.range);
      const VkImageLayout real = layouts[u.resource][d3d12_subresource_index(d, b.m0, b.l0, b.p0)];
      if (real != layout && vk_layout_allows(u.access, real)) layout = real;
      as["layout"] = format_name(NameKind::vk_layout, static_cast<uint64_t>(layout));
    }
    use["as"] = as;
  } else {
    const auto st = static_cast<uint32_t>(lower_d3d12_legacy_state(s));
    if (st == 0) return nullptr;
    use["as"] = format_name(NameKind::d3d12_state, st);
  }
  return json{{"use", use}};
}

std::string split_flag(D3D12_RESOURCE_BARRIER_FLAGS f) {
  if ((f & D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY) != 0) return "begin_only";
  if ((f & D3D12_RESOURCE_BARRIER_FLAG_END_ONLY) != 0) return "end_only";
  return "";
}

json legacy_point(const ResourceTable& t, const D3D12LegacyPoint& p, json& discards) {
  json barriers = json::array();
  for (size_t i = 0; i < p.barriers.size(); ++i) {
    const D3D12_RESOURCE_BARRIER& b = p.barriers[i];
    const ResourceId r = p.resources[i];
    json j;
    if (b.Type == D3D12_RESOURCE_BARRIER_TYPE_TRANSITION) {
      j = {{"type", "transition"}, {"resource", t[r].name}};
      if (b.Transition.Subresource == D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES)
        j["subresource"] = "all";
      else
        j["subresource"] = b.Transition.Subresource;
      j["before"] = format_name(NameKind::d3d12_state, static_cast<uint32_t>(b.Transition.StateBefore));
      j["after"] = format_name(NameKind::d3d12_state, static_cast<uint32_t>(b.Transition.StateAfter));
    } else if (b.Type == D3D12_RESOURCE_BARRIER_TYPE_UAV) {
      j = {{"type", "uav"}, {"resource", r == kGlobalResource ? json(nullptr) : json(t[r].name)}};
    } else {
      j = {{"type", "aliasing"},
           {"before", nullptr},
           {"after", r == kGlobalResource ? json(nullptr) : json(t[r].name)}};
    }
    if (const std::string f = split_flag(b.Flags); !f.empty()) j["flags"] = f;
    barriers.push_back(std::move(j));
  }
  for (ResourceId r : p.discards) discards.push_back(json{{"discard", {{"resource", t[r].name}}}});
  return barriers;
}

json enhanced_range(const ResourceDesc& d, const D3D12_BARRIER_SUBRESOURCE_RANGE& s) {
  if (s.NumMipLevels == 0) {
    if (s.IndexOrFirstMipLevel == 0xffffffffu) return "all";
    const uint32_t i = s.IndexOrFirstMipLevel;
    return json{{"mips", axis(i % d.mips, 1)},
                {"layers", axis(i / d.mips % d.layers, 1)},
                {"planes", axis(i / (d.mips * d.layers), 1)}};
  }
  return json{{"mips", axis(s.IndexOrFirstMipLevel, s.NumMipLevels)},
              {"layers", axis(s.FirstArraySlice, s.NumArraySlices)},
              {"planes", axis(s.FirstPlane, s.NumPlanes)}};
}

template <class B>
json enhanced_sides(const B& b) {
  return json{{"sync_before", format_name(NameKind::d3d12_sync, static_cast<uint32_t>(b.SyncBefore))},
              {"sync_after", format_name(NameKind::d3d12_sync, static_cast<uint32_t>(b.SyncAfter))},
              {"access_before", format_name(NameKind::d3d12_access, static_cast<uint32_t>(b.AccessBefore))},
              {"access_after", format_name(NameKind::d3d12_access, static_cast<uint32_t>(b.AccessAfter))}};
}

json enhanced_point(const ResourceTable& t, const D3D12EnhancedPoint& p) {
  json barriers = json::array();
  for (const D3D12_GLOBAL_BARRIER& g : p.globals) {
    json j{{"type", "global"}};
    j.update(enhanced_sides(g));
    barriers.push_back(std::move(j));
  }
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    json j{{"type", "buffer"}, {"resource", t[p.buffer_resources[i]].name}};
    j.update(enhanced_sides(p.buffers[i]));
    barriers.push_back(std::move(j));
  }
  for (size_t i = 0; i < p.textures.size(); ++i) {
    const D3D12_TEXTURE_BARRIER& b = p.textures[i];
    const ResourceDesc& d = t[p.texture_resources[i]];
    json j{{"type", "texture"}, {"resource", d.name}, {"range", enhanced_range(d, b.Subresources)}};
    j.update(enhanced_sides(b));
    j["layout_before"] = format_name(NameKind::d3d12_layout, static_cast<uint32_t>(b.LayoutBefore));
    j["layout_after"] = format_name(NameKind::d3d12_layout, static_cast<uint32_t>(b.LayoutAfter));
    if ((b.Flags & D3D12_TEXTURE_BARRIER_FLAG_DISCARD) != 0) j["discard"] = true;
    barriers.push_back(std::move(j));
  }
  return barriers;
}

json vk_planes(const ResourceDesc& d, VkImageAspectFlags aspects) {
  if (d.format == FormatClass::depth_stencil) {
    const uint32_t p0 = (aspects & VK_IMAGE_ASPECT_DEPTH_BIT) != 0 ? 0 : 1;
    const uint32_t p1 = (aspects & VK_IMAGE_ASPECT_STENCIL_BIT) != 0 ? 2 : 1;
    return axis(p0, p1 - p0);
  }
  return axis(0, d.planes);
}

json vulkan_point(const ResourceTable& t, const VulkanPoint& p) {
  json barriers = json::array();
  auto sides = [](json& j, auto const& b) {
    j["src_stage"] = format_name(NameKind::vk_stage, b.srcStageMask);
    j["src_access"] = format_name(NameKind::vk_access, b.srcAccessMask);
    j["dst_stage"] = format_name(NameKind::vk_stage, b.dstStageMask);
    j["dst_access"] = format_name(NameKind::vk_access, b.dstAccessMask);
  };
  for (const VkMemoryBarrier2& m : p.memory) {
    json j{{"type", "memory"}};
    sides(j, m);
    barriers.push_back(std::move(j));
  }
  for (size_t i = 0; i < p.buffers.size(); ++i) {
    json j{{"type", "buffer"}, {"resource", t[p.buffer_resources[i]].name}};
    sides(j, p.buffers[i]);
    barriers.push_back(std::move(j));
  }
  for (size_t i = 0; i < p.images.size(); ++i) {
    const VkImageMemoryBarrier2& b = p.images[i];
    const ResourceDesc& d = t[p.image_resources[i]];
    const VkImageSubresourceRange& r = b.subresourceRange;
    const uint32_t mips = r.levelCount == VK_REMAINING_MIP_LEVELS ? d.mips - r.baseMipLevel : r.levelCount;
    const uint32_t layers =
        r.layerCount == VK_REMAINING_ARRAY_LAYERS ? d.layers - r.baseArrayLayer : r.layerCount;
    json j{{"type", "image"},
           {"resource", d.name},
           {"range", json{{"mips", axis(r.baseMipLevel, mips)},
                          {"layers", axis(r.baseArrayLayer, layers)},
                          {"planes", vk_planes(d, r.aspectMask)}}}};
    sides(j, b);
    j["old_layout"] = format_name(NameKind::vk_layout, static_cast<uint64_t>(b.oldLayout));
    j["new_layout"] = format_name(NameKind::vk_layout, static_cast<uint64_t>(b.newLayout));
    barriers.push_back(std::move(j));
  }
  return barriers;
}

// The barrier JSON of every (op, where) point of one list, whatever the API.
struct PointKey {
  uint32_t op;
  Where where;
  bool operator<(const PointKey& o) const { return op != o.op ? op < o.op : where < o.where; }
};

}  // namespace

std::string emit_trace(Recording& rec, Api api) {
  const std::vector<CompiledGroup> compiled = compile_recording(rec);
  const ResourceTable& t = rec.resources;
  // Per group, per list: point -> commands (barrier call, then any discards).
  std::vector<std::vector<std::map<PointKey, json>>> points(compiled.size());
  if (api == Api::d3d12_legacy) {
    const D3D12LegacyPlan plan = lower_d3d12_legacy(t, compiled);
    for (size_t g = 0; g < plan.groups.size(); ++g)
      for (const D3D12LegacyList& l : plan.groups[g].lists) {
        auto& m = points[g].emplace_back();
        for (const D3D12LegacyPoint& p : l.points) {
          json discards = json::array();
          json barriers = legacy_point(t, p, discards);
          json cmds = json::array();
          if (!barriers.empty()) cmds.push_back(json{{"barrier", barriers}});
          for (auto& d : discards) cmds.push_back(std::move(d));
          m[{p.op, p.where}] = std::move(cmds);
        }
      }
  } else if (api == Api::d3d12) {
    const D3D12EnhancedPlan plan = lower_d3d12_enhanced(t, compiled);
    for (size_t g = 0; g < plan.groups.size(); ++g)
      for (const D3D12EnhancedList& l : plan.groups[g].lists) {
        auto& m = points[g].emplace_back();
        for (const D3D12EnhancedPoint& p : l.points)
          m[{p.op, p.where}] = json::array({json{{"barrier", enhanced_point(t, p)}}});
      }
  } else {
    const VulkanPlan plan = lower_vulkan(t, compiled);
    for (size_t g = 0; g < plan.groups.size(); ++g)
      for (const VulkanList& l : plan.groups[g].lists) {
        auto& m = points[g].emplace_back();
        for (const VulkanPoint& p : l.points)
          m[{p.op, p.where}] = json::array({json{{"barrier", vulkan_point(t, p)}}});
      }
  }

  Layouts layouts(t.size());
  for (size_t r = 0; r < t.size(); ++r)
    layouts[r].assign(t.all()[r].mips * t.all()[r].layers * t.all()[r].planes, VK_IMAGE_LAYOUT_UNDEFINED);
  // Follows the image barriers of emitted commands, in order.
  auto track = [&](const json& cmd) {
    if (api != Api::vulkan || !cmd.contains("barrier")) return;
    for (const json& b : cmd["barrier"]) {
      if (b["type"] != "image") continue;
      const ResourceId r = *t.find(b["resource"].get<std::string>());
      const ResourceDesc& d = t[r];
      const auto nl = static_cast<VkImageLayout>(
          *validate::parse_name(NameKind::vk_layout, b["new_layout"].get<std::string>()));
      const json& rg = b["range"];
      for (uint32_t p = rg["planes"][0];
           p < rg["planes"][0].get<uint32_t>() + rg["planes"][1].get<uint32_t>(); ++p)
        for (uint32_t l = rg["layers"][0];
             l < rg["layers"][0].get<uint32_t>() + rg["layers"][1].get<uint32_t>(); ++l)
          for (uint32_t m = rg["mips"][0]; m < rg["mips"][0].get<uint32_t>() + rg["mips"][1].get<uint32_t>();
               ++m)
            layouts[r][d3d12_subresource_index(d, m, l, p)] = nl;
    }
  };
  json lists = json::array(), submissions = json::array();
  for (size_t g = 0; g < rec.groups.size(); ++g) {
    const CommandListGroup& group = *rec.groups[g];
    json names = json::array(), present = json::array();
    for (size_t li = 0; li < group.lists().size(); ++li) {
      const CommandList& list = *group.lists()[li];
      const auto& pts = li < points[g].size() ? points[g][li] : std::map<PointKey, json>{};
      json cmds = json::array();
      auto add_point = [&](uint32_t op, Where w) {
        const auto it = pts.find({op, w});
        if (it != pts.end())
          for (const json& c : it->second) {
            track(c);
            cmds.push_back(c);
          }
      };
      for (uint32_t op = 0; op < list.ops().size(); ++op) {
        add_point(op, Where::before);
        const Operation& o = list.ops()[op];
        for (const Use& u : o.uses) {
          if (u.access == Access::present) {
            present.push_back(t[u.resource].name);
            continue;
          }
          if (u.access == Access::host_read || u.access == Access::host_write) continue;  // not GPU work
          json use = use_json(t, u, api, layouts);
          if (!use.is_null()) cmds.push_back(std::move(use));
        }
        add_point(op, Where::after);
      }
      lists.push_back(json{{"name", list.name()}, {"type", queue_type(list.queue())}, {"commands", cmds}});
      names.push_back(list.name());
    }
    // Baton plans groups serially in submission order: make that order explicit.
    json sub{{"queue", queue_type(group.queue())},
             {"type", queue_type(group.queue())},
             {"family", 0},
             {"lists", names}};
    if (g > 0) sub["wait"] = json::array({fmt::format("group{}", g - 1)});
    sub["signal"] = json::array({fmt::format("group{}", g)});
    if (!present.empty()) sub["present"] = present;
    submissions.push_back(std::move(sub));
  }
  json trace{{"api", api == Api::vulkan ? "vulkan" : "d3d12"},
             {"comment", fmt::format("emitted by baton emit-trace --api {}", to_string(api))},
             {"resources", resources_json(t, api)},
             {"lists", lists},
             {"submissions", submissions}};
  return trace.dump(2) + "\n";
}

void register_emit_trace(CLI::App& app, int& exit_code) {
  struct Options {
    std::string file, api = "d3d12";
  };
  auto opts = std::make_shared<Options>();
  CLI::App* sub =
      app.add_subcommand("emit-trace", "Compile a recording and write its plan as a validator trace");
  sub->add_option("recording", opts->file, "Recording file (docs/recording-format.md)")->required();
  sub->add_option("--api", opts->api, "Target API (default d3d12)")
      ->check(CLI::IsMember({"d3d12", "d3d12-legacy", "vulkan"}));
  sub->callback([opts, &exit_code] {
    std::string out;
    try {
      Recording rec = load_recording_file(opts->file);
      out = emit_trace(rec, *parse_api(opts->api));
    } catch (const std::exception& e) {
      exit_code = report_error(e.what());
      return;
    }
    write_stdout(out);
    exit_code = 0;
  });
}

}  // namespace baton::cli
