// Phase 1: validate. Checks every declaration and derives the dependency edges from declaration
// order (read after write, write after read, explicit `after`), then rejects cycles, ambiguous
// write orders and outputs nobody produces. Every error is one line naming the pass and resource.
#include <fmt/format.h>

#include <algorithm>

#include "baton/graph.hpp"

namespace baton::graph {
namespace {

// Why access `a` in stages `s` cannot be used on `d` from a pass on queue `q`; empty when it can.
std::string use_problem(const ResourceDesc& d, Access a, Stages s, Queue q) {
  if (d.type == ResourceType::buffer && (bit(a) & kTextureOnlyAccesses))
    return fmt::format("is a buffer; access {} needs a texture", to_string(a));
  if (d.type == ResourceType::texture && (bit(a) & kBufferOnlyAccesses))
    return fmt::format("is a texture; access {} needs a buffer", to_string(a));
  if (a == Access::present && !d.swapchain) return "is presented but is not a swapchain texture";
  if ((a == Access::depth_write || a == Access::depth_read) && d.format == FormatClass::color)
    return fmt::format("has a color format; access {} needs a depth format", to_string(a));
  if (a == Access::render_target && d.format != FormatClass::color) return "has a depth format; it cannot be a render target";
  if (is_shader_access(a) && s == kNoStages) return fmt::format("access {} needs shader stages", to_string(a));
  if (!is_shader_access(a) && s != kNoStages) return fmt::format("access {} takes no stages", to_string(a));
  if (!queue_allows(q, a, s))
    return fmt::format("access {}{} cannot be performed on the {} queue", to_string(a),
                       s ? " (" + stages_to_string(s) + ")" : std::string(), q == Queue::direct ? "graphics" : std::string(to_string(q)));
  return {};
}

std::string queue_name(Queue q) { return q == Queue::direct ? "graphics" : std::string(to_string(q)); }

struct Touch {
  uint32_t resource;
  bool reads = false;  // pure read, or a write that keeps contents
  bool pure_read = false;
  bool writes = false;
  Box write_box{};
};

}  // namespace

Validated validate(const Graph& g) {
  const size_t np = g.passes.size(), nr = g.resources.size();
  Validated v;
  v.in_first.assign(np + 1, 0);
  v.edges.reserve(np * 2);
  std::vector<uint32_t> last_writer(nr, kNone);
  std::vector<Box> last_write_box(nr);
  std::vector<std::vector<uint32_t>> readers(nr);
  struct Candidate {
    uint32_t first, second, resource;
  };
  std::vector<Candidate> ambiguous;
  std::vector<Box> boxes;
  std::vector<Touch> touches;
  bool backward = false;

  for (uint32_t p = 0; p < np; ++p) {
    const Pass& pass = g.passes[p];
    v.in_first[p] = static_cast<uint32_t>(v.edges.size());
    boxes.clear();
    touches.clear();
    for (const PassUse& u : pass.uses) {
      if (u.resource >= nr) throw Error(fmt::format("pass '{}': unknown resource #{}", pass.name, u.resource));
      const ResourceDesc& d = g.resources[u.resource].desc;
      if (std::string why = use_problem(d, u.access, u.stages, pass.queue); !why.empty())
        throw Error(fmt::format("pass '{}' ({} queue), resource '{}': {}", pass.name, queue_name(pass.queue), d.name, why));
      try {
        boxes.push_back(resolve(d, u.range));
      } catch (const Error& e) {
        throw Error(fmt::format("pass '{}': {}", pass.name, e.what()));
      }
    }
    // Two uses of one subresource in one pass: reads merge, the same write merges, anything else
    // has no order inside the pass.
    for (size_t i = 0; i < pass.uses.size(); ++i) {
      const PassUse& a = pass.uses[i];
      for (size_t j = i + 1; j < pass.uses.size(); ++j) {
        const PassUse& b = pass.uses[j];
        if (a.resource != b.resource || !overlaps(boxes[i], boxes[j])) continue;
        const bool conflict = (is_write(a.access) || is_write(b.access)) && a.access != b.access;
        const bool present_mix = (a.access == Access::present) != (b.access == Access::present);
        if (conflict || present_mix)
          throw Error(fmt::format("pass '{}', resource '{}': used as {} and as {} in one pass", pass.name,
                                  g.resources[a.resource].desc.name, to_string(a.access), to_string(b.access)));
      }
    }
    for (size_t i = 0; i < pass.uses.size(); ++i) {
      const PassUse& u = pass.uses[i];
      auto it = std::find_if(touches.begin(), touches.end(), [&](const Touch& t) { return t.resource == u.resource; });
      if (it == touches.end()) {
        touches.push_back(Touch{u.resource});
        it = touches.end() - 1;
        it->write_box = Box{0, 0, 0, 0, 0, 0};
      }
      if (is_write(u.access)) {
        it->reads |= keeps_contents(u.access);
        const Box& b = boxes[i];
        if (!it->writes) {
          it->write_box = b;
        } else {  // bounding box of the pass's writes
          Box& w = it->write_box;
          w = Box{std::min(w.m0, b.m0), std::max(w.m1, b.m1), std::min(w.l0, b.l0),
                  std::max(w.l1, b.l1), std::min(w.p0, b.p0), std::max(w.p1, b.p1)};
        }
        it->writes = true;
      } else {
        it->reads = it->pure_read = true;
      }
    }
    for (const Touch& t : touches) {
      const uint32_t r = t.resource;
      const Resource& res = g.resources[r];
      if (t.reads && last_writer[r] != kNone) {
        v.edges.push_back({last_writer[r], p, EdgeKind::read_after_write, r});
      } else if (t.pure_read && last_writer[r] == kNone && res.transient) {
        throw Error(fmt::format("pass '{}', resource '{}': transient resource read before any pass writes it", pass.name,
                                res.desc.name));
      }
      if (!t.writes) {
        readers[r].push_back(p);
        continue;
      }
      for (uint32_t q : readers[r])
        if (q != p) v.edges.push_back({q, p, EdgeKind::write_after_read, r});
      // A blind overwrite of what another pass wrote needs a path between the two.
      if (last_writer[r] != kNone && !t.reads && readers[r].empty() && overlaps(last_write_box[r], t.write_box))
        ambiguous.push_back({last_writer[r], p, r});
      readers[r].clear();
      last_writer[r] = p;
      last_write_box[r] = t.write_box;
    }
    for (uint32_t a : pass.after) {
      if (a >= np) throw Error(fmt::format("pass '{}': \"after\" names unknown pass #{}", pass.name, a));
      if (a == p) throw Error(fmt::format("pass '{}': a pass cannot run after itself", pass.name));
      backward |= a > p;
      v.edges.push_back({a, p, EdgeKind::explicit_order, kNone});
    }
  }
  v.in_first[np] = static_cast<uint32_t>(v.edges.size());

  // Cycles: every derived edge points forward in declaration order, so only `after` can close one.
  if (backward) {
    std::vector<uint32_t> indeg(np, 0);
    std::vector<std::vector<uint32_t>> out(np);
    for (const Edge& e : v.edges) {
      ++indeg[e.to];
      out[e.from].push_back(e.to);
    }
    std::vector<uint32_t> ready;
    for (uint32_t p = 0; p < np; ++p)
      if (!indeg[p]) ready.push_back(p);
    size_t done = 0;
    while (!ready.empty()) {
      const uint32_t p = ready.back();
      ready.pop_back();
      ++done;
      for (uint32_t q : out[p])
        if (--indeg[q] == 0) ready.push_back(q);
    }
    if (done != np) {
      // Walk backwards along edges inside the remaining set until a pass repeats: that is a cycle.
      uint32_t p = 0;
      while (indeg[p] == 0) ++p;
      std::vector<uint32_t> seen(np, kNone), path;
      while (seen[p] == kNone) {
        seen[p] = static_cast<uint32_t>(path.size());
        path.push_back(p);
        for (uint32_t e = v.in_first[p]; e < v.in_first[p + 1]; ++e)
          if (indeg[v.edges[e].from] != 0) {
            p = v.edges[e].from;
            break;
          }
      }
      // path[i + 1] runs before path[i], and p before path.back(): print in execution order.
      std::string text = "'" + g.passes[p].name + "'";
      for (size_t i = path.size(); i-- > seen[p];) text += " -> '" + g.passes[path[i]].name + "'";
      const Edge* resource_edge = nullptr;
      for (size_t i = seen[p]; i < path.size() && !resource_edge; ++i)
        for (uint32_t e = v.in_first[path[i]]; e < v.in_first[path[i] + 1]; ++e)
          if (v.edges[e].resource != kNone && indeg[v.edges[e].from] != 0) resource_edge = &v.edges[e];
      throw Error(fmt::format("pass '{}': dependency cycle {}{}", g.passes[p].name, text,
                              resource_edge ? fmt::format(" (through resource '{}')",
                                                          g.resources[resource_edge->resource].desc.name)
                                            : std::string()));
    }
  }

  // Ambiguous write order: the second writer must be reachable from the first. Without backward
  // edges a path from a to b only visits passes declared between them.
  if (!ambiguous.empty()) {
    std::vector<uint32_t> stamp(np, kNone), stack;
    for (size_t c = 0; c < ambiguous.size(); ++c) {
      const Candidate& k = ambiguous[c];
      bool found = false;
      stack.assign(1, k.second);
      stamp[k.second] = static_cast<uint32_t>(c);
      while (!stack.empty() && !found) {
        const uint32_t p = stack.back();
        stack.pop_back();
        for (uint32_t e = v.in_first[p]; e < v.in_first[p + 1]; ++e) {
          const uint32_t f = v.edges[e].from;
          if (f == k.first) {
            found = true;
            break;
          }
          if (stamp[f] == c || (!backward && f < k.first)) continue;
          stamp[f] = static_cast<uint32_t>(c);
          stack.push_back(f);
        }
      }
      if (!found)
        throw Error(fmt::format("pass '{}', resource '{}': ambiguous write order: pass '{}' also writes it and no "
                                "dependency orders the two (read it, or add \"after\")",
                                g.passes[k.second].name, g.resources[k.resource].desc.name, g.passes[k.first].name));
    }
  }

  for (uint32_t o : g.outputs) {
    if (o >= nr) throw Error(fmt::format("output #{}: unknown resource", o));
    const Resource& res = g.resources[o];
    if (last_writer[o] == kNone)
      throw Error(fmt::format("output '{}': no pass writes it, so the output would be culled", res.desc.name));
    if (res.transient)
      throw Error(fmt::format("pass '{}', output '{}': a transient resource cannot be an output (its memory is "
                              "reclaimed when the frame ends)",
                              g.passes[last_writer[o]].name, res.desc.name));
  }
  return v;
}

}  // namespace baton::graph
