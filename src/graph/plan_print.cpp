// The lowered plan of a compiled graph, per group and pass, as text and as JSON. Waits, signals and
// aliasing barriers are the graph's own; the rest is the planner's output lowered for one API.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "baton/graph.hpp"

namespace baton::graph {
namespace {

std::string qname(Queue q) { return q == Queue::direct ? "graphics" : std::string(to_string(q)); }

// Per group: whether a frame_start / frame_end arrangement waits for it (GroupInfo::waits), found in
// one pass over the waits rather than once per group.
std::vector<uint8_t> waited_by_groups(const Transitions& t) {
  std::vector<uint8_t> waited(t.info.size(), 0);
  for (const GroupInfo& x : t.info)
    for (uint32_t w : x.waits) waited[w] = 1;
  return waited;
}

std::string barrier_text(const ResourceTable& rt, const LoweredBarrier& b) {
  std::string s = fmt::format("{}[{}] {} -> {} ({})", rt[b.resource].name, b.range, b.before, b.after, to_string(b.reason));
  if (!b.note.empty()) s += " [" + b.note + "]";
  if (!b.split.empty()) s += " [" + b.split + "]";
  if (b.omitted) s += " omitted: " + b.omitted_why;
  return s;
}

}  // namespace

std::string plan_text(const Graph& g, const GraphCompileResult& r, Api api) {
  const Transitions& t = r.trans;
  const std::vector<LoweredGroup> lowered = lower(api, t.table, t.compiled);
  std::string s = fmt::format("api {}\n", to_string(api));
  const std::vector<uint8_t> waited = waited_by_groups(t);
  for (const Culled& c : r.culled.culled) s += fmt::format("culled {}: {}\n", g.passes[c.pass].name, c.why);
  for (size_t gi = 0; gi < lowered.size(); ++gi) {
    s += fmt::format("group {} ({})\n", lowered[gi].name, qname(lowered[gi].queue));
    for (const Sync& y : r.sched.syncs)
      if (y.wait == t.info[gi].passes.front())
        s += fmt::format("  wait for {} ({})\n", g.passes[y.signal].name, qname(exec_queue(g.passes[y.signal])));
    for (uint32_t w : t.info[gi].waits) s += fmt::format("  wait for group {}\n", lowered[w].name);
    for (size_t li = 0; li < lowered[gi].lists.size(); ++li) {
      const uint32_t p = t.info[gi].passes[li];
      if (p == kNone)
        s += fmt::format("  {} (no work)\n", transition_list_name(t.info[gi].role));
      else
        s += fmt::format("  pass {}\n", g.passes[p].name);
      for (const AliasBarrier& b : r.aliasing.barriers) {
        if (b.pass != p) continue;
        std::string prev;
        for (uint32_t x : b.previous) prev += (prev.empty() ? "" : ", ") + g.resources[x].desc.name;
        s += fmt::format("    aliasing: {} -> {}\n", prev, g.resources[b.resource].desc.name);
      }
      for (const LoweredPoint& pt : lowered[gi].lists[li].points) {
        s += fmt::format("    {}:\n", to_string(pt.where));
        for (const LoweredBarrier& b : pt.barriers) s += "      " + barrier_text(t.table, b) + "\n";
      }
    }
    const uint32_t last = t.info[gi].passes.back();
    for (const Sync& y : r.sched.syncs)
      if (y.signal == last) {
        s += fmt::format("  signal after {}\n", g.passes[last].name);
        break;
      }
    if (waited[gi]) s += "  signal at the end of the group\n";
  }
  s += numbers_text(numbers(g, r));
  return s;
}

nlohmann::ordered_json plan_json(const Graph& g, const GraphCompileResult& r, Api api) {
  const Transitions& t = r.trans;
  const std::vector<LoweredGroup> lowered = lower(api, t.table, t.compiled);
  const std::vector<uint8_t> waited = waited_by_groups(t);
  nlohmann::ordered_json j;
  j["api"] = std::string(to_string(api));
  auto& culled = j["culled"] = nlohmann::ordered_json::array();
  for (const Culled& c : r.culled.culled) culled.push_back({{"pass", g.passes[c.pass].name}, {"why", c.why}});
  auto& groups = j["groups"] = nlohmann::ordered_json::array();
  for (size_t gi = 0; gi < lowered.size(); ++gi) {
    nlohmann::ordered_json gj;
    gj["name"] = lowered[gi].name;
    gj["queue"] = qname(lowered[gi].queue);
    auto& waits = gj["waits"] = nlohmann::ordered_json::array();
    for (const Sync& y : r.sched.syncs)
      if (y.wait == t.info[gi].passes.front()) waits.push_back(g.passes[y.signal].name);
    if (!t.info[gi].waits.empty()) {
      auto& wg = gj["wait_groups"] = nlohmann::ordered_json::array();
      for (uint32_t w : t.info[gi].waits) wg.push_back(lowered[w].name);
    }
    auto& passes = gj["passes"] = nlohmann::ordered_json::array();
    for (size_t li = 0; li < lowered[gi].lists.size(); ++li) {
      const uint32_t p = t.info[gi].passes[li];
      nlohmann::ordered_json pj;
      pj["name"] = p == kNone ? std::string(transition_list_name(t.info[gi].role)) : g.passes[p].name;
      auto& al = pj["aliasing"] = nlohmann::ordered_json::array();
      for (const AliasBarrier& b : r.aliasing.barriers)
        if (b.pass == p) {
          nlohmann::ordered_json prev = nlohmann::ordered_json::array();
          for (uint32_t x : b.previous) prev.push_back(g.resources[x].desc.name);
          al.push_back({{"resource", g.resources[b.resource].desc.name}, {"previous", prev}});
        }
      auto& pts = pj["points"] = nlohmann::ordered_json::array();
      for (const LoweredPoint& pt : lowered[gi].lists[li].points) {
        nlohmann::ordered_json bj = nlohmann::ordered_json::array();
        for (const LoweredBarrier& b : pt.barriers) {
          nlohmann::ordered_json x;
          x["resource"] = t.table[b.resource].name;
          x["range"] = b.range;
          x["before"] = b.before;
          x["after"] = b.after;
          x["reason"] = std::string(to_string(b.reason));
          if (!b.note.empty()) x["note"] = b.note;
          if (!b.split.empty()) x["split"] = {{"begin_after_op", b.split_after}, {"reason", b.split}};
          if (b.omitted) x["omitted"] = b.omitted_why;
          bj.push_back(std::move(x));
        }
        pts.push_back({{"where", std::string(to_string(pt.where))}, {"barriers", std::move(bj)}});
      }
      passes.push_back(std::move(pj));
    }
    const uint32_t last = t.info[gi].passes.back();
    bool sig = false;
    for (const Sync& y : r.sched.syncs) sig |= y.signal == last;
    gj["signal"] = sig || waited[gi];
    groups.push_back(std::move(gj));
  }
  const Numbers n = numbers(g, r);
  nlohmann::ordered_json nj;
  nj["transient_unaliased"] = n.transient_unaliased;
  nj["transient_aliased"] = n.transient_aliased;
  nj["lower_bound"] = n.lower_bound;
  nj["aliasing_barriers"] = n.aliasing_barriers;
  nj["signal_wait_pairs"] = n.syncs;
  for (const Numbers::PerApi& a : n.apis) {
    if (!a.error.empty())
      nj["apis"][std::string(to_string(a.api))] = {{"error", a.error}};
    else
      nj["apis"][std::string(to_string(a.api))] = {{"barriers", a.barriers}, {"calls", a.calls}};
  }
  j["numbers"] = std::move(nj);
  return j;
}

}  // namespace baton::graph
