// Readable text of each phase's result (`baton compile GRAPH --dump PHASE`).
#include <fmt/format.h>

#include "baton/graph.hpp"

namespace baton::graph {
namespace {

std::string qname(Queue q) { return q == Queue::direct ? "graphics" : std::string(to_string(q)); }

std::string dump_validate(const Graph& g, const GraphCompileResult& r) {
  std::string s = fmt::format("{} passes, {} resources, {} dependency edges\n", g.passes.size(), g.resources.size(),
                              r.validated.edges.size());
  for (uint32_t p = 0; p < g.passes.size(); ++p) {
    const uint32_t b = r.validated.in_first[p], e = r.validated.in_first[p + 1];
    if (b == e) continue;
    s += fmt::format("{}\n", g.passes[p].name);
    for (uint32_t k = b; k < e; ++k) {
      const Edge& ed = r.validated.edges[k];
      s += fmt::format("  after {} ({}{})\n", g.passes[ed.from].name, to_string(ed.kind),
                       ed.resource == kNone ? "" : " " + g.resources[ed.resource].desc.name);
    }
  }
  return s;
}

std::string dump_cull(const Graph& g, const GraphCompileResult& r) {
  std::string s = fmt::format("{} live, {} culled\n", g.passes.size() - r.culled.culled.size(), r.culled.culled.size());
  for (const Culled& c : r.culled.culled) s += fmt::format("culled {}: {}\n", g.passes[c.pass].name, c.why);
  return s;
}

std::string dump_schedule(const Graph& g, const GraphCompileResult& r) {
  const Schedule& sc = r.sched;
  std::string s = fmt::format("{} passes; {} cross-queue dependencies -> {} signal/wait pairs\n", sc.serial.size(),
                              sc.cross_queue_edges, sc.syncs.size());
  size_t k = 0;
  for (uint32_t i = 0; i < sc.serial.size(); ++i) {
    const uint32_t p = sc.serial[i];
    for (; k < sc.syncs.size() && sc.serial_of[sc.syncs[k].wait] < i; ++k) {
    }
    for (size_t j = k; j < sc.syncs.size() && sc.syncs[j].wait == p; ++j) {
      const uint32_t sg = sc.syncs[j].signal;
      s += fmt::format("      wait for {} ({} #{})\n", g.passes[sg].name, qname(exec_queue(g.passes[sg])), sc.pos[sg]);
    }
    s += fmt::format("{:4} {:>8} #{:<4} {}\n", i, qname(exec_queue(g.passes[p])), sc.pos[p], g.passes[p].name);
  }
  return s;
}

std::string dump_lifetimes(const Graph& g, const GraphCompileResult& r) {
  std::string s;
  for (uint32_t i = 0; i < g.resources.size(); ++i) {
    const Lifetime& l = r.lifetimes[i];
    if (!l.used()) {
      s += fmt::format("{}: unused\n", g.resources[i].desc.name);
      continue;
    }
    s += fmt::format("{}: {} passes {}..{} ({} .. {}), memory free from {}\n", g.resources[i].desc.name,
                     g.resources[i].transient ? "transient" : g.resources[i].imported ? "imported" : "persistent",
                     l.first, l.last, g.passes[r.sched.serial[l.first]].name, g.passes[r.sched.serial[l.last]].name,
                     l.free_at);
  }
  return s;
}

std::string dump_aliasing(const Graph& g, const GraphCompileResult& r) {
  const Aliasing& a = r.aliasing;
  std::string s;
  for (const Placement& p : a.placements)
    s += fmt::format("{:<24} offset {:>10} size {:>10}\n", g.resources[p.resource].desc.name, p.offset, p.size);
  for (const AliasBarrier& b : a.barriers) {
    std::string prev;
    for (uint32_t x : b.previous) prev += (prev.empty() ? "" : ", ") + g.resources[x].desc.name;
    s += fmt::format("aliasing barrier before {}: {} takes over from {}\n", g.passes[b.pass].name,
                     g.resources[b.resource].desc.name, prev);
  }
  s += fmt::format("heap {} bytes (without aliasing {}, lower bound {})\n", a.heap_size, a.unaliased, a.lower_bound);
  return s;
}

std::string dump_transitions(const Graph& g, const GraphCompileResult& r) {
  const Transitions& t = r.trans;
  std::string s;
  for (size_t gi = 0; gi < t.groups.size(); ++gi) {
    for (const Sync& y : r.sched.syncs)
      if (y.wait == t.info[gi].passes.front())
        s += fmt::format("wait for {} ({})\n", g.passes[y.signal].name, qname(exec_queue(g.passes[y.signal])));
    for (uint32_t w : t.info[gi].waits) s += fmt::format("wait for group {}\n", t.groups[w]->name());
    for (uint32_t p : t.info[gi].passes)
      for (const AliasBarrier& b : r.aliasing.barriers)
        if (b.pass == p) s += fmt::format("aliasing barrier before {}: -> {}\n", g.passes[p].name, g.resources[b.resource].desc.name);
    for (const CommandList* l : t.groups[gi]->lists())
      for (const EntryState& e : l->entry_states())
        s += fmt::format("entry {} {}: {}{}\n", l->name(), t.table[e.resource].name, to_string(e.access),
                         e.stages ? "@" + stages_to_string(e.stages) : std::string());
    s += baton::dump(t.table, *t.groups[gi], t.compiled[gi]);
    const uint32_t last = t.info[gi].passes.back();
    bool signals = false;
    for (const Sync& y : r.sched.syncs) signals |= last != kNone && y.signal == last;
    if (signals) s += fmt::format("signal after {}\n", g.passes[last].name);
  }
  return s;
}

std::string dump_restores(const Graph& g, const GraphCompileResult& r) {
  std::string s;
  for (const Restore& x : r.finals.restores)
    s += fmt::format("{} after {}: {} {} -> {}\n", r.trans.groups[x.group]->name(),
                     x.pass == kNone ? std::string(transition_list_name(r.trans.info[x.group].role)) : g.passes[x.pass].name,
                     r.trans.table[x.member].name, to_string(x.from), to_string(x.to));
  const std::vector<std::string> f = check_resting(g, r.sched, r.trans, r.finals);
  s += f.empty()
           ? "every resource that outlives the frame ends it at rest (transients die after their last use, "
             "unrestored)\n"
           : "";
  for (const std::string& x : f) s += x + "\n";
  return s;
}

std::string dump_checks(const GraphCompileResult& r) {
  if (r.findings.empty()) return "coverage, resting, takeover, aliasing and serial-order checks hold\n";
  std::string s;
  for (const std::string& f : r.findings) s += f + "\n";
  return s;
}

}  // namespace

std::string dump(const Graph& g, const GraphCompileResult& r, std::string_view phase) {
  if (phase == "validate") return dump_validate(g, r);
  if (phase == "cull") return dump_cull(g, r);
  if (phase == "schedule") return dump_schedule(g, r);
  if (phase == "lifetimes") return dump_lifetimes(g, r);
  if (phase == "aliasing") return dump_aliasing(g, r);
  if (phase == "transitions") return dump_transitions(g, r);
  if (phase == "restores") return dump_restores(g, r);
  if (phase == "checks") return dump_checks(r);
  throw Error(fmt::format("unknown phase '{}' (validate, cull, schedule, lifetimes, aliasing, transitions, restores, "
                          "checks)",
                          phase));
}

}  // namespace baton::graph
