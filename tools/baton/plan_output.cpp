#include "plan_output.hpp"

#include <fmt/format.h>

#include "baton/frame.hpp"
#include "baton/graph.hpp"
#include "baton/input.hpp"

namespace baton::cli {
namespace {

using OJson = nlohmann::ordered_json;

std::string resource_name(const Recording& rec, ResourceId id) {
  if (id == kGlobalResource) return "(global)";
  // Escaped: recordings refuse control characters in names, a recording built in code may not.
  return id < rec.resources.size() ? input::escape(rec.resources[id].name) : fmt::format("(resource {})", id);
}

// The recorded operation behind a lowered point; nullptr if the shapes disagree (never expected,
// but printing must not crash on it).
const Operation* op_at(const Recording& rec, size_t group, size_t list, uint32_t op) {
  if (group >= rec.groups.size()) return nullptr;
  const auto& lists = rec.groups[group]->lists();
  if (list >= lists.size() || op >= lists[list]->ops().size()) return nullptr;
  return &lists[list]->ops()[op];
}

// One queue vocabulary in JSON for both inputs: the graph format's and Vulkan's word for the direct
// queue (a recording's "direct"), as the view and `run --timestamps` name it.
std::string queue_name(Queue q) { return q == Queue::direct ? "graphics" : std::string(to_string(q)); }

std::string point_header(const LoweredPoint& p, const Operation* op) {
  std::string what = op ? std::string(to_string(op->kind)) : "?";
  if (op && !op->label.empty()) what += fmt::format(" \"{}\"", input::escape(op->label));
  return fmt::format("{} op {} ({})", to_string(p.where), p.op, what);
}

std::string barrier_line(const Recording& rec, const LoweredBarrier& b) {
  std::string why(to_string(b.reason));
  if (b.omitted) why += "; omitted: " + b.omitted_why;
  if (!b.omitted && b.api_barriers != 1) why += fmt::format("; {} API barriers", b.api_barriers);
  if (!b.split.empty()) why += "; " + b.split;
  return fmt::format("{}{}[{}] {} -> {} ({})", b.omitted ? "omitted " : "", resource_name(rec, b.resource),
                     b.range, b.before, b.after, why);
}

}  // namespace

Summary summarize(std::span<const LoweredGroup> groups) {
  Summary s;
  for (const LoweredGroup& g : groups) {
    s.barriers += g.barrier_count();
    s.calls += g.call_count();
    for (const LoweredList& l : g.lists)
      for (const LoweredPoint& p : l.points)
        for (const LoweredBarrier& b : p.barriers) s.omitted += b.omitted ? 1 : 0;
  }
  return s;
}

std::string plan_text(const Recording& rec, Api api, std::span<const LoweredGroup> groups) {
  std::string out = fmt::format("plan for {}\n", to_string(api));
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const LoweredGroup& g = groups[gi];
    out += fmt::format("group {} ({} queue)\n", g.name, to_string(g.queue));
    for (size_t li = 0; li < g.lists.size(); ++li) {
      const LoweredList& l = g.lists[li];
      if (l.points.empty()) {
        out += fmt::format("  list {}: no barriers\n", l.name);
        continue;
      }
      out += fmt::format("  list {}\n", l.name);
      for (const LoweredPoint& p : l.points) {
        out += fmt::format("    {}:{}\n", point_header(p, op_at(rec, gi, li, p.op)),
                           p.needs_call() ? "" : " no API call");
        for (const LoweredBarrier& b : p.barriers) out += "      " + barrier_line(rec, b) + "\n";
      }
    }
  }
  const Summary s = summarize(groups);
  out += fmt::format("summary: {} barriers in {} calls, {} omitted\n", s.barriers, s.calls, s.omitted);
  return out;
}

// One shape for recordings and frame graphs (docs/cli.md, "JSON"): a graph's passes are lists of the
// one planner, so `groups` and `lists` are common; a graph adds what only it has.
OJson plan_json(const CompiledFrame& f, Api api, std::span<const LoweredGroup> groups) {
  const Recording& rec = f.rec;
  const graph::Graph* g = f.from_graph ? f.graph.get() : nullptr;
  const graph::GraphCompileResult* r = f.from_graph ? f.graph_result.get() : nullptr;
  OJson root;
  root["api"] = to_string(api);
  root["input"] = g ? "graph" : "recording";
  if (g) {
    OJson culled = OJson::array();
    for (const graph::Culled& c : r->culled.culled) culled.push_back({{"pass", g->passes[c.pass].name}, {"why", c.why}});
    root["culled"] = std::move(culled);
  }
  OJson gjs = OJson::array();
  OJson lists = OJson::array();
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const LoweredGroup& lg = groups[gi];
    OJson gj;
    gj["name"] = lg.name;
    gj["queue"] = queue_name(lg.queue);
    OJson names = OJson::array();
    for (const LoweredList& l : lg.lists) names.push_back(l.name);
    gj["lists"] = std::move(names);
    if (g) {
      const graph::GraphPlanInfo info = graph::plan_info(*g, *r, gi);
      gj["waits"] = info.waits;
      OJson wg = OJson::array();
      for (uint32_t w : info.wait_groups) wg.push_back(groups[w].name);
      gj["wait_groups"] = std::move(wg);
      gj["signal"] = info.signal;
    }
    gjs.push_back(std::move(gj));
    for (size_t li = 0; li < lg.lists.size(); ++li) {
      const LoweredList& l = lg.lists[li];
      OJson points = OJson::array();
      for (const LoweredPoint& p : l.points) {
        OJson barriers = OJson::array();
        for (const LoweredBarrier& b : p.barriers) {
          OJson bj;
          bj["resource"] = resource_name(rec, b.resource);
          bj["range"] = b.range;
          bj["before"] = b.before;
          bj["after"] = b.after;
          bj["reason"] = to_string(b.reason);
          bj["omitted"] = b.omitted;
          if (b.omitted) bj["omitted_why"] = b.omitted_why;
          bj["api_barriers"] = b.api_barriers;
          if (!b.note.empty()) bj["note"] = b.note;
          if (!b.split.empty()) bj["split"] = {{"begin_after_op", b.split_after}, {"reason", b.split}};
          barriers.push_back(bj);
        }
        const Operation* op = op_at(rec, gi, li, p.op);
        OJson pj;
        pj["op"] = p.op;
        pj["kind"] = op ? to_string(op->kind) : "?";
        if (op && !op->label.empty()) pj["label"] = op->label;
        pj["where"] = to_string(p.where);
        pj["call"] = p.needs_call();
        pj["barriers"] = barriers;
        points.push_back(pj);
      }
      OJson lj;
      lj["name"] = l.name;
      lj["group"] = lg.name;
      lj["queue"] = queue_name(l.queue);
      if (g) {
        const uint32_t pass = r->trans.info[gi].passes[li];
        lj["pass"] = pass == graph::kNone ? OJson(nullptr) : OJson(g->passes[pass].name);
        OJson al = OJson::array();
        for (const graph::AliasBarrier& b : r->aliasing.barriers)
          if (b.pass == pass) {
            OJson prev = OJson::array();
            for (uint32_t x : b.previous) prev.push_back(g->resources[x].desc.name);
            al.push_back({{"resource", g->resources[b.resource].desc.name}, {"previous", prev}});
          }
        lj["aliasing"] = std::move(al);
      }
      lj["points"] = points;
      lists.push_back(lj);
    }
  }
  root["groups"] = std::move(gjs);
  root["lists"] = std::move(lists);
  const Summary s = summarize(groups);
  root["summary"] = {{"barriers", s.barriers}, {"calls", s.calls}, {"omitted", s.omitted}};
  if (g) {
    const graph::Numbers n = graph::numbers(*g, *r, rec.resources, f.compiled, f.history_in, api, groups);
    OJson nj;
    nj["transient_unaliased"] = n.transient_unaliased;
    nj["transient_aliased"] = n.transient_aliased;
    nj["lower_bound"] = n.lower_bound;
    nj["aliasing_barriers"] = n.aliasing_barriers;
    nj["signal_wait_pairs"] = n.syncs;
    for (const graph::Numbers::PerApi& a : n.apis) {
      if (!a.error.empty())
        nj["apis"][std::string(to_string(a.api))] = {{"error", a.error}};
      else
        nj["apis"][std::string(to_string(a.api))] = {{"barriers", a.barriers}, {"calls", a.calls}};
    }
    root["numbers"] = std::move(nj);
    OJson placements = OJson::array();
    for (const graph::Placement& p : r->aliasing.placements)
      placements.push_back({{"resource", g->resources[p.resource].desc.name}, {"offset", p.offset}, {"size", p.size}});
    root["memory"] = {{"heap_bytes", r->aliasing.heap_size}, {"placements", std::move(placements)}};
  }
  return root;
}

std::string plan_text(const CompiledFrame& f, Api api, std::span<const LoweredGroup> groups) {
  if (!f.from_graph) return plan_text(f.rec, api, groups);
  const graph::GraphCompileResult& r = *f.graph_result;
  return graph::plan_text(*f.graph, r, f.rec.resources, api, groups,
                          graph::numbers(*f.graph, r, f.rec.resources, f.compiled, f.history_in, api, groups));
}

std::vector<CompiledGroup> compile_recording(Recording& rec, bool split_barriers) {
  const std::vector<CommandListGroup*> groups = rec.group_ptrs();
  std::vector<CompiledGroup> compiled =
      compile_all(rec.resources, groups, fresh_history(rec.resources)).groups;
  if (split_barriers) mark_split_barriers(groups, compiled);
  return compiled;
}

std::vector<LoweredGroup> lower_recording(const Recording& rec, Api api,
                                          std::span<const CompiledGroup> groups) {
  return lower(api, rec.resources, groups);
}

}  // namespace baton::cli
