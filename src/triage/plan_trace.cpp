// trace_of_plan: the compiled plan as a validator trace. Per group one submission (serial order
// made explicit with semaphores), per list the operations in order with their barrier points around
// them: the before-point's API call, the operation's uses as API states, the after-point's call.
// Present operations become the submission's "present" entries (Present runs after
// ExecuteCommandLists / vkQueueSubmit). The same walk as `baton emit-trace` (tools/baton/
// cmd_emit_trace.cpp); a CLI test checks that both give the same bytes for every example.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "baton/lower_d3d12.hpp"
#include "baton/lower_vulkan.hpp"
#include "baton/validate_names.hpp"
#include "baton/validated_compile.hpp"

namespace baton {
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

// A buffer use's bytes ("offset", "size"), when it names some.
json with_bytes(json use, const ResourceDesc& d, const SubresourceRange& r) {
  if (d.type != ResourceType::buffer || !has_bytes(r)) return use;
  const Box e = use_extent(d, r);
  use["offset"] = uint64_t{e.m0};
  use["size"] = (e.m1 == buffer_extent(d).m1 ? d.size : uint64_t{e.m1}) - e.m0;
  return use;
}

// A texture whose first touch in the plan is a list declaring its entry state, with nothing before it
// (the history says untouched): the plan trusts the declaration, so the trace starts it there.
struct Declared {
  State state;
  Queue queue;
};
std::vector<std::optional<Declared>> declared_initial(const ResourceTable& t,
                                                      std::span<const CommandListGroup* const> groups,
                                                      const History& history) {
  std::vector<std::optional<Declared>> out(t.size());
  std::vector<uint8_t> seen(t.size(), 0);
  for (const CommandListGroup* g : groups)
    for (const CommandList* list : g->lists()) {
      for (const EntryState& e : list->entry_states())
        if (e.resource < t.size() && !seen[e.resource] && t[e.resource].type == ResourceType::texture &&
            !(e.resource < history.size() && history[e.resource].touched))
          out[e.resource] = Declared{state_of_use(t[e.resource], e.access, e.stages), list->queue()};
      for (const Operation& op : list->ops())
        for (const Use& u : op.uses)
          if (u.resource < t.size()) seen[u.resource] = 1;
    }
  return out;
}

// Resources as created: COMMON (legacy) / UNDEFINED (enhanced textures, Vulkan images). One the
// history says was touched before the plan already exists and rests in its resting state; if it was
// written it is initialized too (no longer awaiting the placed-resource initialization, 1422). A
// texture whose first list declares its entry state starts in that state (written, when it is a write).
json resources_json(const ResourceTable& t, Api api, const History& history,
                    const std::vector<std::optional<Declared>>& declared, const PlanMemory* memory) {
  json out = json::array();
  for (size_t id = 0; id < t.size(); ++id) {
    const ResourceDesc& d = t.all()[id];
    const ResourceHistory h = id < history.size() ? history[id] : ResourceHistory{};
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
    const std::optional<Declared>& decl = declared[id];
    if (d.placed && !h.written && !(decl && (decl->state.access & kWriteAccesses))) flags.push_back("placed");
    if (d.swapchain) flags.push_back("swapchain");
    if (!flags.empty()) r["flags"] = flags;
    const bool texture = d.type == ResourceType::texture;
    const State rest = resting_state(d);
    const State start = decl ? decl->state : rest;
    const Queue start_queue = decl ? decl->queue : Queue::direct;
    const bool starts = texture && (h.touched || decl);
    if (api == Api::d3d12) {
      const auto layout = starts ? lower_d3d12_enhanced_state(start, start_queue, true).layout
                                 : D3D12_BARRIER_LAYOUT_UNDEFINED;
      r["initial_layout"] = format_name(NameKind::d3d12_layout, static_cast<uint32_t>(layout));
    } else if (starts) {
      if (api == Api::vulkan)
        r["initial"] = format_name(NameKind::vk_layout,
                                   static_cast<uint64_t>(lower_vulkan_state(start, true, false).layout));
      else
        r["initial"] =
            format_name(NameKind::d3d12_state, static_cast<uint32_t>(lower_d3d12_legacy_state(start)));
    }
    if (memory != nullptr && id < memory->placement.size() && memory->placement[id]) {
      const PlanMemory::Range& p = *memory->placement[id];
      r["placement"] =
          json{{"heap", memory->heaps.at(p.heap).name}, {"offset", p.offset}, {"bytes", p.bytes}};
    }
    out.push_back(std::move(r));
  }
  return out;
}

// The legacy states the lowering starts from (as above: the resting states of what the history says
// was touched, the declared entry states).
D3D12LegacyStates legacy_initial(const ResourceTable& t, const History& history,
                                 const std::vector<std::optional<Declared>>& declared) {
  D3D12LegacyStates s;
  s.resources.resize(t.size());
  for (size_t id = 0; id < t.size(); ++id) {
    const ResourceDesc& d = t.all()[id];
    const uint32_t n = d.mips * d.layers * d.planes;
    if (declared[id])
      s.resources[id] = Runs<D3D12_RESOURCE_STATES>(n, lower_d3d12_legacy_state(declared[id]->state));
    else if (id < history.size() && history[id].touched && d.type == ResourceType::texture)
      s.resources[id] = Runs<D3D12_RESOURCE_STATES>(n, lower_d3d12_legacy_state(resting_state(d)));
  }
  return s;
}

bool fresh(const History& history) {
  for (const ResourceHistory& h : history)
    if (h.touched || h.written) return false;
  return true;
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
// The use commands of one use: one, or for a Vulkan image whose subresources in the range sit in
// different layouts (a depth plane merged with a copy into GENERAL next to a stencil plane in
// SHADER_READ_ONLY_OPTIMAL), one per subresource, each with the layout it really has.
std::vector<json> use_json(const ResourceTable& t, const Use& u, Api api, const Layouts& layouts) {
  const ResourceDesc& d = t[u.resource];
  const State s = state_of_use(d, u.access, u.stages);
  if (api != Api::vulkan) {
    const auto st = static_cast<uint32_t>(lower_d3d12_legacy_state(s));
    if (st == 0) return {};
    return {json{{"use", with_bytes(json{{"resource", d.name},
                                         {"range", range_of(d, u.range)},
                                         {"as", format_name(NameKind::d3d12_state, st)}},
                                        d, u.range)}}};
  }
  const VulkanSide side = lower_vulkan_state(s, d.type == ResourceType::texture, false);
  auto as_json = [&](std::optional<VkImageLayout> layout) {
    json as{{"stage", format_name(NameKind::vk_stage, side.stages)},
            {"access", format_name(NameKind::vk_access, side.access)}};
    if (layout) as["layout"] = format_name(NameKind::vk_layout, static_cast<uint64_t>(*layout));
    return as;
  };
  if (d.type != ResourceType::texture)
    return {json{{"use", with_bytes(json{{"resource", d.name}, {"range", range_of(d, u.range)},
                                         {"as", as_json(std::nullopt)}},
                                        d, u.range)}}};
  const Box b = resolve(d, u.range);
  auto layout_at = [&](uint32_t m, uint32_t l, uint32_t p) {
    const VkImageLayout real = layouts[u.resource][d3d12_subresource_index(d, m, l, p)];
    return real != side.layout && vk_layout_allows(u.access, real) ? real : side.layout;
  };
  const VkImageLayout first = layout_at(b.m0, b.l0, b.p0);
  bool uniform = true;
  for (uint32_t p = b.p0; p < b.p1; ++p)
    for (uint32_t l = b.l0; l < b.l1; ++l)
      for (uint32_t m = b.m0; m < b.m1; ++m) uniform = uniform && layout_at(m, l, p) == first;
  if (uniform)
    return {
        json{{"use", json{{"resource", d.name}, {"range", range_of(d, u.range)}, {"as", as_json(first)}}}}};
  std::vector<json> out;
  for (uint32_t p = b.p0; p < b.p1; ++p)
    for (uint32_t l = b.l0; l < b.l1; ++l)
      for (uint32_t m = b.m0; m < b.m1; ++m)
        out.push_back(
            json{{"use",
                  json{{"resource", d.name},
                       {"range", json{{"mips", axis(m, 1)}, {"layers", axis(l, 1)}, {"planes", axis(p, 1)}}},
                       {"as", as_json(layout_at(m, l, p))}}}});
  return out;
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
      ResourceId before = kGlobalResource;
      for (const auto& [k, prev] : p.aliasing_before)
        if (k == i) before = prev;
      j = {{"type", "aliasing"},
           {"before", before == kGlobalResource ? json(nullptr) : json(t[before].name)},
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
    if (p.buffers[i].offset != 0 || p.buffers[i].size != VK_WHOLE_SIZE) {
      j["offset"] = p.buffers[i].offset;
      if (p.buffers[i].size == VK_WHOLE_SIZE)
        j["size"] = "WHOLE";
      else
        j["size"] = p.buffers[i].size;
    }
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

// `v` dumped as nlohmann's dump(2) would print it `depth` levels down: every line after the first
// indented by two spaces a level (strings have no raw newlines: dump escapes them).
void append_nested(std::string& out, const json& v, int depth) {
  const std::string text = v.dump(2);
  const std::string pad(static_cast<size_t>(2 * depth), ' ');
  for (const char c : text) {
    out += c;
    if (c == '\n') out += pad;
  }
}

}  // namespace

// The document is written piece by piece with the bytes dump(2) of the whole would give: the header,
// heaps and resources, then one list at a time (its JSON built, appended and freed), then the
// submissions. The lowered plan stays in its native structs and each list's points become JSON only
// when that list is written, so the peak is the output text plus one list, not a JSON document of
// the whole trace (issue 16 item 3: about 8 bytes of document per byte of text).
std::string trace_of_plan(const ResourceTable& t, std::span<const CommandListGroup* const> groups,
                          std::span<const CompiledGroup> compiled, Api api, const History& history_in,
                          const PlanMemory* memory) {
  if (groups.size() != compiled.size())
    throw Error(
        fmt::format("trace of plan: {} groups but {} compiled groups", groups.size(), compiled.size()));
  const std::vector<std::optional<Declared>> declared = declared_initial(t, groups, history_in);
  std::optional<D3D12LegacyPlan> legacy;
  std::optional<D3D12EnhancedPlan> enhanced;
  std::optional<VulkanPlan> vulkan;
  if (api == Api::d3d12_legacy) {
    const bool any_declared =
        std::any_of(declared.begin(), declared.end(), [](const auto& x) { return x.has_value(); });
    legacy = fresh(history_in) && !any_declared
                 ? lower_d3d12_legacy(t, compiled)
                 : lower_d3d12_legacy(t, compiled, legacy_initial(t, history_in, declared));
  } else if (api == Api::d3d12) {
    enhanced = lower_d3d12_enhanced(t, compiled);
  } else {
    vulkan = lower_vulkan(t, compiled);
  }
  // One list's points -> commands (barrier call, then any discards).
  auto list_points = [&](size_t g, size_t li) {
    std::map<PointKey, json> m;
    if (legacy) {
      if (g >= legacy->groups.size() || li >= legacy->groups[g].lists.size()) return m;
      for (const D3D12LegacyPoint& p : legacy->groups[g].lists[li].points) {
        json discards = json::array();
        json barriers = legacy_point(t, p, discards);
        json& cmds = m[{p.op, p.where}];
        if (cmds.is_null()) cmds = json::array();
        if (!barriers.empty()) cmds.push_back(json{{"barrier", barriers}});
        for (auto& d : discards) cmds.push_back(std::move(d));
      }
    } else if (enhanced) {
      if (g >= enhanced->groups.size() || li >= enhanced->groups[g].lists.size()) return m;
      for (const D3D12EnhancedPoint& p : enhanced->groups[g].lists[li].points) {
        json& cmds = m[{p.op, p.where}];
        if (cmds.is_null()) cmds = json::array();
        cmds.push_back(json{{"barrier", enhanced_point(t, p)}});
      }
    } else {
      if (g >= vulkan->groups.size() || li >= vulkan->groups[g].lists.size()) return m;
      const VulkanGroup& vg = vulkan->groups[g];
      const VulkanList& l = vg.lists[li];
      for (const VulkanPoint& p : l.points) {
        json& cmds = m[{p.op, p.where}];
        if (cmds.is_null()) cmds = json::array();
        // Split barriers: one event per (begin, end) pair of the list, set and waited with the
        // same dependency info.
        const std::string event = fmt::format(
            "{}.event{}", p.event_list < vg.lists.size() ? vg.lists[p.event_list].name : l.name, p.event);
        if (p.half == SplitHalf::begin)
          cmds.push_back(json{{"set_event", {{"event", event}, {"barriers", vulkan_point(t, p)}}}});
        else if (p.half == SplitHalf::end)
          cmds.push_back(
              json{{"wait_events", json::array({json{{"event", event}, {"barriers", vulkan_point(t, p)}}})}});
        else
          cmds.push_back(json{{"barrier", vulkan_point(t, p)}});
      }
    }
    return m;
  };
  // Per image subresource, the layout the emitted barriers leave (Vulkan uses name the real one).
  Layouts layouts(t.size());
  for (size_t r = 0; r < t.size(); ++r) {
    const ResourceDesc& d = t.all()[r];
    const bool rests = r < history_in.size() && history_in[r].touched && d.type == ResourceType::texture;
    layouts[r].assign(size_t{d.mips} * d.layers * d.planes,
                      declared[r] ? lower_vulkan_state(declared[r]->state, true, false).layout
                      : rests     ? lower_vulkan_state(resting_state(d), true, false).layout
                                  : VK_IMAGE_LAYOUT_UNDEFINED);
  }
  auto track = [&](const json& cmd) {
    if (api != Api::vulkan) return;
    const json* barriers = cmd.contains("barrier")       ? &cmd["barrier"]
                           : cmd.contains("wait_events") ? &cmd["wait_events"][0]["barriers"]
                                                         : nullptr;  // a set changes no layout
    if (!barriers) return;
    for (const json& b : *barriers) {
      if (b["type"] != "image") continue;
      const ResourceId r = *t.find(b["resource"].get<std::string>());
      const ResourceDesc& d = t[r];
      const auto nl = static_cast<VkImageLayout>(
          *validate::parse_name(NameKind::vk_layout, b["new_layout"].get<std::string>()));
      const json& rg = b["range"];
      const auto first = [&](const char* k) { return rg[k][0].get<uint32_t>(); };
      const auto end = [&](const char* k) { return rg[k][0].get<uint32_t>() + rg[k][1].get<uint32_t>(); };
      for (uint32_t p = first("planes"); p < end("planes"); ++p)
        for (uint32_t l = first("layers"); l < end("layers"); ++l)
          for (uint32_t m = first("mips"); m < end("mips"); ++m)
            layouts[r][d3d12_subresource_index(d, m, l, p)] = nl;
    }
  };
  std::string out = "{\n";
  bool first_member = true;
  auto member = [&](const char* key, const json& v) {
    out += first_member ? "  " : ",\n  ";
    first_member = false;
    out += json(key).dump() + ": ";
    append_nested(out, v, 1);
  };
  member("api", api == Api::vulkan ? "vulkan" : "d3d12");
  member("comment", fmt::format("emitted by baton emit-trace --api {}", to_string(api)));
  if (memory != nullptr && !memory->empty()) {
    json heaps = json::array();
    for (const PlanMemory::Heap& h : memory->heaps)
      heaps.push_back(json{{"name", h.name}, {"bytes", h.bytes}});
    member("heaps", heaps);
  }
  member("resources", resources_json(t, api, history_in, declared, memory));
  out += ",\n  \"lists\": [";
  bool first_list = true;
  json submissions = json::array();
  for (size_t g = 0; g < groups.size(); ++g) {
    const CommandListGroup& group = *groups[g];
    json names = json::array(), present = json::array();
    for (size_t li = 0; li < group.lists().size(); ++li) {
      const CommandList& list = *group.lists()[li];
      const std::map<PointKey, json> pts = list_points(g, li);
      json cmds = json::array();
      auto add_point = [&](uint32_t op, Where w) {
        const auto it = pts.find({op, w});
        if (it == pts.end()) return;
        for (const json& c : it->second) {
          track(c);
          cmds.push_back(c);
        }
      };
      for (uint32_t op = 0; op < list.ops().size(); ++op) {
        add_point(op, Where::before);
        std::vector<json> op_uses;
        for (const Use& u : list.ops()[op].uses) {
          if (u.access == Access::present) {
            present.push_back(t[u.resource].name);
            continue;
          }
          if (u.access == Access::host_read || u.access == Access::host_write) continue;  // not GPU work
          // One operation is one unit of work: merged draws (record.hpp) repeat their uses, which
          // the API sees once (one rendering instance, one ResourceBarrier-free sequence).
          for (json& use : use_json(t, u, api, layouts)) {
            if (std::find(op_uses.begin(), op_uses.end(), use) != op_uses.end()) continue;
            op_uses.push_back(use);
            cmds.push_back(std::move(use));
          }
        }
        add_point(op, Where::after);
      }
      out += first_list ? "\n    " : ",\n    ";
      first_list = false;
      append_nested(out, json{{"name", list.name()}, {"type", queue_type(list.queue())}, {"commands", std::move(cmds)}}, 2);
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
  out += first_list ? "]" : "\n  ]";
  member("submissions", submissions);
  out += "\n}\n";
  return out;
}

std::string trace_of_recording(Recording& rec, Api api) {
  const std::vector<CommandListGroup*> groups = rec.group_ptrs();
  const History fresh_in = fresh_history(rec.resources);
  const CompileResult compiled = compile_all(rec.resources, groups, fresh_in);
  const std::vector<const CommandListGroup*> const_groups(groups.begin(), groups.end());
  return trace_of_plan(rec.resources, const_groups, compiled.groups, api, fresh_in);
}

}  // namespace baton
