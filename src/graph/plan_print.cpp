// The lowered plan of a compiled graph, per group and pass, as text and as JSON. Waits, signals and
// aliasing barriers are the graph's own; the rest is the planner's output lowered for one API.
#include <fmt/format.h>

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

std::string plan_text(const Graph& g, const GraphCompileResult& r, const ResourceTable& table, Api api,
                      std::span<const LoweredGroup> lowered, const Numbers& n) {
  const Transitions& t = r.trans;
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
        for (const LoweredBarrier& b : pt.barriers) s += "      " + barrier_text(table, b) + "\n";
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
  s += numbers_text(n);
  return s;
}

std::string plan_text(const Graph& g, const GraphCompileResult& r, Api api) {
  const std::vector<LoweredGroup> lowered = lower(api, r.trans.table, r.trans.compiled, r.trans.history_in);
  return plan_text(g, r, r.trans.table, api, lowered,
                   numbers(g, r, r.trans.table, r.trans.compiled, r.trans.history_in, api, lowered));
}

GraphPlanInfo plan_info(const Graph& g, const GraphCompileResult& r, size_t group) {
  const Transitions& t = r.trans;
  GraphPlanInfo x;
  for (const Sync& y : r.sched.syncs)
    if (y.wait == t.info[group].passes.front()) x.waits.push_back(g.passes[y.signal].name);
  x.wait_groups = t.info[group].waits;
  const uint32_t last = t.info[group].passes.back();
  for (const Sync& y : r.sched.syncs) x.signal |= last != kNone && y.signal == last;
  for (const GroupInfo& other : t.info)
    for (uint32_t w : other.waits) x.signal |= w == group;
  return x;
}

}  // namespace baton::graph
