// Baton's own validator as a mutation oracle next to the Khronos layer: the plan's Vulkan trace
// (include/triage/baton/validated_compile.hpp) with one barrier entry deleted, replayed in
// baton::validate. The deleted entry is found by position: within one list the trace lists the
// barriers of each point in the ExecPlan's order (memory, buffers, images), points in op order.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "baton/exec_vulkan.hpp"
#include "baton/validate.hpp"
#include "baton/validate_names.hpp"
#include "baton/validated_compile.hpp"

namespace baton::exec::test {

struct TraceOracle {
  nlohmann::ordered_json trace;  // the unmutated plan as a trace
};

inline TraceOracle trace_oracle(Recording& rec, ExecPlan& plan_out) {
  const std::vector<CommandListGroup*> groups = rec.group_ptrs();
  const CompileResult cr = compile_all(rec.resources, groups, fresh_history(rec.resources));
  plan_out = to_exec_plan(lower_vulkan(rec.resources, cr.groups));
  const std::vector<const CommandListGroup*> cgroups(groups.begin(), groups.end());
  TraceOracle o;
  o.trace = nlohmann::ordered_json::parse(
      trace_of_plan(rec.resources, cgroups, cr.groups, Api::vulkan, fresh_history(rec.resources)));
  return o;
}

// The executor reads every subresource back after the frame, starting from the layout the plan
// says it ends in (a barrier to TRANSFER_SRC_OPTIMAL, then a copy). That read-back is part of what
// the layer judges, so the trace given to Baton's validator gets it too: one more submission on the
// executor's queue after the last one, with the plan's final layouts (from the unmutated trace).
inline void append_readback(nlohmann::ordered_json& t, const nlohmann::ordered_json& unmutated) {
  using json = nlohmann::ordered_json;
  struct Image {
    uint32_t mips = 1, layers = 1, planes = 1;
    std::vector<std::string> layout;  // per subresource, mip-major within layer within plane
  };
  std::map<std::string, Image> images;
  for (const auto& r : unmutated["resources"]) {
    if (r["type"] != "texture") continue;
    Image im{r.value("mips", 1u), r.value("layers", 1u), r.value("planes", 1u), {}};
    im.layout.assign(size_t{im.mips} * im.layers * im.planes, "UNDEFINED");
    images[r["name"]] = im;
  }
  auto each = [](const Image& im, const json& range, auto&& f) {
    uint32_t m0 = 0, mc = im.mips, l0 = 0, lc = im.layers, p0 = 0, pc = im.planes;
    if (range.is_object()) {
      m0 = range["mips"][0], mc = range["mips"][1], l0 = range["layers"][0], lc = range["layers"][1];
      p0 = range["planes"][0], pc = range["planes"][1];
    }
    for (uint32_t p = p0; p < p0 + pc; ++p)
      for (uint32_t l = l0; l < l0 + lc; ++l)
        for (uint32_t m = m0; m < m0 + mc; ++m) f(m, l, p, m + l * im.mips + p * im.mips * im.layers);
  };
  // Submission order is list order within submissions.
  std::map<std::string, const json*> lists;
  for (const auto& l : unmutated["lists"]) lists[l["name"]] = &l;
  for (const auto& sub : unmutated["submissions"])
    for (const auto& name : sub["lists"])
      for (const auto& c : (*lists.at(name))["commands"]) {
        if (!c.contains("barrier")) continue;
        for (const auto& b : c["barrier"]) {
          if (b["type"] != "image") continue;
          Image& im = images.at(b["resource"]);
          each(im, b["range"],
               [&](uint32_t, uint32_t, uint32_t, size_t i) { im.layout[i] = b["new_layout"]; });
        }
      }
  json barriers = json::array(), cmds = json::array();
  for (const auto& [name, im] : images)
    each(im, json("all"), [&](uint32_t m, uint32_t l, uint32_t p, size_t i) {
      if (im.layout[i] == "UNDEFINED") return;  // never defined: the executor does not read it
      const json range{{"mips", {m, 1}}, {"layers", {l, 1}}, {"planes", {p, 1}}};
      barriers.push_back(json{{"type", "image"},
                              {"resource", name},
                              {"range", range},
                              {"src_stage", "ALL_COMMANDS"},
                              {"src_access", "MEMORY_WRITE"},
                              {"dst_stage", "COPY"},
                              {"dst_access", "TRANSFER_READ"},
                              {"old_layout", im.layout[i]},
                              {"new_layout", "TRANSFER_SRC_OPTIMAL"}});
      cmds.push_back(json{{"use", json{{"resource", name},
                                       {"range", range},
                                       {"as", json{{"stage", "COPY"},
                                                   {"access", "TRANSFER_READ"},
                                                   {"layout", "TRANSFER_SRC_OPTIMAL"}}}}}});
    });
  if (barriers.empty()) return;
  cmds.insert(cmds.begin(), json{{"barrier", barriers}});
  t["lists"].push_back(json{{"name", "executor_readback"}, {"type", "direct"}, {"commands", cmds}});
  json sub{{"queue", "executor"}, {"type", "direct"}, {"lists", json::array({"executor_readback"})}};
  const auto& last = t["submissions"].back();
  if (last.contains("family")) sub["family"] = last["family"];
  t["submissions"].push_back(sub);
}

// Messages of Baton's validator on the trace without barrier `ref` (empty: not detected). Throws
// std::runtime_error when the trace and the plan disagree about where the barrier is.
inline validate::ValidationResult validate_without(const TraceOracle& o, const Recording& rec,
                                                   const ExecPlan& plan, const BarrierRef& ref,
                                                   const validate::ValidateOptions& options = {}) {
  const ExecBarrierPoint& target = plan.points.at(ref.point);
  // Position of the barrier among its list's barriers.
  size_t position = 0;
  for (size_t p = 0; p < ref.point; ++p) {
    const ExecBarrierPoint& pt = plan.points[p];
    if (pt.group == target.group && pt.list == target.list) position += pt.size();
  }
  if (ref.kind != BarrierRef::Kind::memory) position += target.memory.size();
  if (ref.kind == BarrierRef::Kind::image) position += target.buffers.size();
  position += ref.index;
  std::string type = "memory", resource;
  VkPipelineStageFlags2 src = 0;
  if (ref.kind == BarrierRef::Kind::buffer) {
    type = "buffer";
    resource = rec.resources[target.buffer_resources.at(ref.index)].name;
    src = target.buffers[ref.index].srcStageMask;
  } else if (ref.kind == BarrierRef::Kind::image) {
    type = "image";
    resource = rec.resources[target.image_resources.at(ref.index)].name;
    src = target.images[ref.index].srcStageMask;
  } else {
    src = target.memory[ref.index].srcStageMask;
  }
  const std::span<CommandList* const> group_lists = rec.groups.at(target.group)->lists();
  if (target.list >= group_lists.size()) throw std::out_of_range("trace mutation: no such list");
  const std::string list_name(group_lists[target.list]->name());

  nlohmann::ordered_json t = o.trace;
  bool removed = false;
  for (auto& list : t["lists"]) {
    if (list["name"] != list_name) continue;
    size_t seen = 0;
    auto& cmds = list["commands"];
    for (size_t c = 0; c < cmds.size() && !removed; ++c) {
      if (!cmds[c].contains("barrier")) continue;
      auto& entries = cmds[c]["barrier"];
      if (position >= seen + entries.size()) {
        seen += entries.size();
        continue;
      }
      auto& e = entries[position - seen];
      if (e["type"] != type || (!resource.empty() && e["resource"] != resource) ||
          e["src_stage"] != validate::format_name(validate::NameKind::vk_stage, src))
        throw std::runtime_error("trace and plan disagree at list '" + list_name + "': " + e.dump());
      entries.erase(position - seen);
      if (entries.empty()) cmds.erase(c);
      removed = true;
    }
  }
  if (!removed) throw std::runtime_error("barrier not found in the trace of list '" + list_name + "'");
  // The executor without async compute submits every group to its one queue, in order, without
  // semaphores (a wait would be a full dependency and hide a missing cross-group barrier): the
  // trace says the same, so that both oracles judge the same submissions.
  for (auto& sub : t["submissions"]) {
    sub["queue"] = "executor";
    sub.erase("wait");
    sub.erase("signal");
  }
  append_readback(t, o.trace);
  return validate::validate(validate::load_trace(t.dump(), "mutated trace"), options);
}

}  // namespace baton::exec::test
