// Builds the frame model of `baton view` and `baton compile --dot` from a recording or a frame
// graph: compile once, lower for the APIs asked for, and keep what a picture needs (slots, lanes, uses,
// waits, barriers with their reasons, the transient heap).
#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "baton/frame.hpp"
#include "baton/graph.hpp"
#include "baton/input.hpp"
#include "baton/recording.hpp"
#include "baton/view.hpp"
#include "names.hpp"

namespace baton::view {
namespace {

// Resources of a frame, plus one "(global)" lane that appears only when a full barrier exists.
struct ResourceLanes {
  std::vector<ResourceInfo>* out;
  uint32_t global = kGlobalResource;
  uint32_t lane(ResourceId r) {
    if (r != kGlobalResource) return r;
    if (global == kGlobalResource) {
      global = static_cast<uint32_t>(out->size());
      out->push_back({"(global)", false, false});
    }
    return global;
  }
};

// The uses of one list, merged per resource (a resource written by any operation counts as written).
void add_uses(Frame& f, uint32_t pass, const CommandList& list) {
  std::unordered_map<ResourceId, size_t> at;
  for (const Operation& op : list.ops())
    for (const baton::Use& u : op.uses) {
      const auto [it, fresh] = at.emplace(u.resource, f.uses.size());
      if (fresh)
        f.uses.push_back({pass, u.resource, is_write(u.access)});
      else
        f.uses[it->second].write |= is_write(u.access);
    }
}

// Lowers for each API asked for; one that cannot express the frame keeps its message. `pass_of[g][l]`
// is the frame pass of list l in group g.
void lower_all(Frame& f, const ResourceTable& table, std::span<const CompiledGroup> compiled,
               const History& history_in, const std::vector<std::vector<uint32_t>>& pass_of,
               const StageFn& on_stage, std::span<const Api> apis) {
  ResourceLanes lanes{&f.resources};
  for (size_t a = 0; a < f.lowerings.size(); ++a) f.lowerings[a].api = static_cast<Api>(a);
  for (Api api : kAllApis) {  // in the order of Api whatever the order asked
    if (std::find(apis.begin(), apis.end(), api) == apis.end()) continue;
    Lowering& low = f.lowerings[static_cast<size_t>(api)];
    low.lowered = true;
    if (on_stage) on_stage("lower " + std::string(to_string(api)));
    std::vector<LoweredGroup> lowered;
    try {
      lowered = lower(api, table, compiled, history_in);
    } catch (const std::exception& e) {
      low.error = e.what();
      continue;
    }
    for (size_t gi = 0; gi < lowered.size(); ++gi) {
      low.issued += lowered[gi].barrier_count();
      low.calls += lowered[gi].call_count();
      for (size_t li = 0; li < lowered[gi].lists.size(); ++li)
        for (const LoweredPoint& p : lowered[gi].lists[li].points)
          for (const LoweredBarrier& b : p.barriers)
            low.barriers.push_back({pass_of[gi][li], p.op, p.where, lanes.lane(b.resource), b.range, b.before,
                                    b.after, b.reason,
                                    b.split.empty()  ? b.note
                                    : b.note.empty() ? b.split
                                                     : b.note + "; " + b.split,
                                    b.omitted, b.omitted_why});
    }
  }
}

Frame from_recording(const CompiledFrame& cf, const StageFn& on_stage, std::span<const Api> apis) {
  const Recording& rec = cf.rec;
  Frame f;
  f.source = cf.source;
  for (const ResourceDesc& d : rec.resources.all())
    f.resources.push_back({d.name, d.type == ResourceType::buffer, d.placed});
  std::vector<std::vector<uint32_t>> pass_of;
  for (const auto& g : rec.groups) {
    pass_of.emplace_back();
    for (const CommandList* l : g->lists()) {
      const auto p = static_cast<uint32_t>(f.passes.size());
      pass_of.back().push_back(p);
      f.passes.push_back({std::string(l->name()), g->name(), l->queue(), p,
                          std::max<uint32_t>(1, static_cast<uint32_t>(l->ops().size()))});
      add_uses(f, p, *l);
    }
  }
  lower_all(f, rec.resources, cf.compiled, cf.history_in, pass_of, on_stage, apis);
  return f;
}

Frame from_graph(const CompiledFrame& cf, const StageFn& on_stage, std::span<const Api> apis) {
  const graph::Graph& g = *cf.graph;
  const graph::GraphCompileResult& r = *cf.graph_result;
  const graph::Transitions& t = r.trans;  // info and first_member; the table and lists are in cf.rec
  const ResourceTable& table = cf.rec.resources;
  Frame f;
  f.source = cf.source;
  f.graph = true;
  for (ResourceId m = 0; m < table.size(); ++m)
    f.resources.push_back({table[m].name, table[m].type == ResourceType::buffer, false});
  for (size_t gr = 0; gr < g.resources.size(); ++gr)
    if (g.resources[gr].transient)
      for (uint32_t k = 0; k < g.resources[gr].count; ++k)
        f.resources[t.first_member[gr] + k].transient = true;

  std::vector<uint32_t> frame_pass(g.passes.size(), graph::kNone);
  std::vector<std::vector<uint32_t>> pass_of;
  for (size_t gi = 0; gi < t.info.size(); ++gi) {
    pass_of.emplace_back();
    for (size_t li = 0; li < t.info[gi].passes.size(); ++li) {
      const uint32_t gp = t.info[gi].passes[li];
      const auto p = static_cast<uint32_t>(f.passes.size());
      pass_of.back().push_back(p);
      if (gp != graph::kNone) frame_pass[gp] = p;
      const std::string name =
          gp == graph::kNone ? std::string(graph::transition_list_name(t.info[gi].role)) : g.passes[gp].name;
      // The frame_start group takes slot 0 (passes move one to the right), frame_end the last one.
      const uint32_t shift = t.info.front().role == graph::GroupInfo::Role::frame_start ? 1 : 0;
      const uint32_t slot = gp != graph::kNone                                       ? r.sched.serial_of[gp] + shift
                            : t.info[gi].role == graph::GroupInfo::Role::frame_start ? 0
                                                                                     : static_cast<uint32_t>(r.sched.serial.size()) + shift;
      f.passes.push_back({name, cf.rec.groups[gi]->name(), t.info[gi].queue, slot, 1});
      add_uses(f, p, *cf.rec.groups[gi]->lists()[li]);
    }
  }
  for (const graph::Sync& y : r.sched.syncs)
    if (frame_pass[y.signal] != graph::kNone && frame_pass[y.wait] != graph::kNone)
      f.waits.push_back({frame_pass[y.signal], frame_pass[y.wait]});
  for (size_t gi = 0; gi < t.info.size(); ++gi)  // the frame_start / frame_end groups' waits
    for (uint32_t w : t.info[gi].waits) f.waits.push_back({pass_of[w].back(), pass_of[gi].front()});

  for (const graph::Placement& pl : r.aliasing.placements) {
    const graph::Lifetime& lt = r.lifetimes[pl.resource];
    f.memory.blocks.push_back({g.resources[pl.resource].desc.name, pl.offset, pl.size, lt.first, lt.last});
  }
  for (const graph::AliasBarrier& b : r.aliasing.barriers) {
    AliasMark m{frame_pass[b.pass], g.resources[b.resource].desc.name, {}};
    for (uint32_t x : b.previous) m.previous.push_back(g.resources[x].desc.name);
    if (m.pass != graph::kNone) f.memory.aliasing.push_back(std::move(m));
  }
  f.memory.heap_size = r.aliasing.heap_size;
  f.memory.unaliased = r.aliasing.unaliased;
  f.memory.lower_bound = r.aliasing.lower_bound;
  for (const graph::Culled& c : r.culled.culled) f.culled.push_back(g.passes[c.pass].name + ": " + c.why);
  f.findings = r.findings;
  lower_all(f, table, cf.compiled, cf.history_in, pass_of, on_stage, apis);
  return f;
}

}  // namespace

Frame build_frame(const CompiledFrame& f, const StageFn& on_stage, std::span<const Api> apis) {
  return f.from_graph ? from_graph(f, on_stage, apis) : from_recording(f, on_stage, apis);
}

Frame build_frame(std::string_view json_text, std::string_view source, const StageFn& on_stage,
                  std::span<const Api> apis, bool split) {
  // One loader (include/baton/frame.hpp): the input gate's strict parser, recording or graph decided
  // once, one compile.
  if (on_stage) on_stage("compile");
  graph::CompileOptions co;
  co.split_barriers = split;
  const CompiledFrame f = compile_frame(parse_frame_input(json_text, std::string(source)), co);
  return build_frame(f, on_stage, apis);
}

std::string_view rule_of(Reason r) {
  // Indexed by Reason; each sentence says what the barrier is for in the reader's words, without the
  // rule numbers of docs/concepts.md (the tests name those).
  static constexpr std::array<std::string_view, 13> kRules = {
      "SyncBefore NONE (Vulkan: srcStage NONE, oldLayout UNDEFINED) only on the first-ever "
      "touch of the memory in the frame",
      "the list declared an entry state, so the group starts from it instead of the resting "
      "layout",
      "a group's first barrier on a resource leaves the resting layout the previous group left",
      "lists of one group hand the resource directly to each other, never through the resting "
      "layout",
      "a change of use inside one list: the new access waits for the previous one",
      "consecutive readers share one transition into the merged read state",
      "unordered access after unordered access from a different operation must wait for it (UAV barrier)",
      "the same write again from a different operation is ordered after the first",
      "the first write of a placed render-target or depth texture carries the initializing "
      "discard "
      "over the whole resource",
      "a group leaves every resource it does not hand on in its resting layout",
      "the group leaves the resource in the entry state the next group declared",
      "the recording asked for a full barrier (every stage, every access)",
      "a resource taking over aliased memory waits for the previous occupants' last accesses "
      "(layout undefined; D3D12 legacy: an aliasing barrier)",
  };
  const auto i = static_cast<size_t>(r);
  return i < kRules.size() ? kRules[i] : std::string_view("(unknown reason)");
}

}  // namespace baton::view
