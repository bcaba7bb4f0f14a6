// Phase 1: validate. Checks every declaration and derives the dependency edges from declaration
// order (read after write, write after read, explicit `after`), then rejects cycles, ambiguous
// write orders and outputs nobody produces. Every error is one line naming the pass and resource.
#include <fmt/format.h>

#include <algorithm>

#include "baton/graph.hpp"
#include "baton/rules.hpp"

namespace baton::graph {
namespace {

// The whole resource as use_extent sees it: a buffer's bytes, a texture's subresources (byte ranges of
// one buffer that do not overlap neither conflict in a pass nor make a write order ambiguous).
Box whole_extent(const ResourceDesc& d) { return d.type == ResourceType::buffer ? buffer_extent(d) : full_box(d); }

std::string queue_name(Queue q) { return q == Queue::direct ? "graphics" : std::string(to_string(q)); }

struct Touch {
  uint32_t resource = 0;
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
  // Per resource, one record (one allocation, one cache line touched per use): the latest writer,
  // its write box, and the readers of that version. The readers live in one shared pool as
  // singly linked lists in read order; a write just forgets its list (head = kNone). A vector of
  // vectors here cost one heap allocation per read resource, which dominated at 100k passes.
  struct Version {
    uint32_t last_writer = kNone;
    uint32_t readers_head = kNone, readers_tail = kNone;  // indices into `reader_pool`
    uint32_t write_box = kNone;  // index into `partial_boxes`; kNone: the write covered the whole resource
  };
  struct Reader {
    uint32_t pass, next;
  };
  std::vector<Version> version(nr);
  std::vector<Reader> reader_pool;
  reader_pool.reserve(np * 2);
  // Most writes cover the whole resource; only the others keep their box (keeps Version at 16 bytes).
  std::vector<Box> partial_boxes;
  auto last_write_box = [&](uint32_t r) {
    return version[r].write_box == kNone ? whole_extent(g.resources[r].desc) : partial_boxes[version[r].write_box];
  };
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
    // Both scratch lists are sized once per pass and filled by index: building a Touch or Box in
    // a temporary and push_back-ing it stalled on store-to-load forwarding in this hot loop.
    boxes.resize(pass.uses.size());
    touches.clear();
    for (size_t i = 0; i < pass.uses.size(); ++i) {
      const PassUse& u = pass.uses[i];
      // Errors start with the JSON pointer of the pass or use (the index in Graph::passes, which is
      // the file's order); the commands put the file name in front (input::located).
      if (u.resource >= nr)
        throw Error(
            fmt::format("/passes/{}/uses/{}: pass '{}': unknown resource #{}", p, i, pass.name, u.resource));
      const ResourceDesc& d = g.resources[u.resource].desc;
      // The rules catalog (baton/rules.hpp), as for recordings; the graph calls the direct queue "graphics".
      if (use_rule(d, u.access, u.stages, pass.queue, false) != Rule::none)
        throw Error(fmt::format(
            "/passes/{}/uses/{}: pass '{}' ({} queue), resource '{}': {}", p, i, pass.name,
            queue_name(pass.queue), d.name,
            check_use(d, u.access, u.stages, pass.queue, queue_name(pass.queue), false)->message));
      if (is_whole(u.range)) {  // the common case, without the out-of-line resolve (same box)
        boxes[i] = whole_extent(d);
        continue;
      }
      try {
        boxes[i] = use_extent(d, u.range);
      } catch (const Error& e) {
        throw Error(fmt::format("/passes/{}/uses/{}: pass '{}': {}", p, i, pass.name,
                                e.what()));  // ends with resolve()'s [R0210]
      }
    }
    // Two uses of one subresource in one pass: reads merge, the same write merges, anything else
    // has no order inside the pass.
    for (size_t i = 0; i < pass.uses.size(); ++i) {
      const PassUse& a = pass.uses[i];
      for (size_t j = i + 1; j < pass.uses.size(); ++j) {
        const PassUse& b = pass.uses[j];
        if (a.resource != b.resource || !overlaps(boxes[i], boxes[j])) continue;
        if (conflicts(a.access, b.access)) {
          const ResourceDesc& d = g.resources[a.resource].desc;
          throw Error(
              fmt::format("/passes/{}/uses/{}: pass '{}', resource '{}': {}", p, j, pass.name, d.name,
                          conflict_message(static_cast<uint32_t>(i), a.access, static_cast<uint32_t>(j),
                                           b.access, extent_text(intersect(boxes[i], boxes[j]), d))));
        }
      }
    }
    for (size_t i = 0; i < pass.uses.size(); ++i) {
      const PassUse& u = pass.uses[i];
      auto it = std::find_if(touches.begin(), touches.end(), [&](const Touch& t) { return t.resource == u.resource; });
      if (it == touches.end()) {
        it = touches.emplace(touches.end());
        it->resource = u.resource;
        it->write_box = Box{0, 0, 0, 0, 0, 0};
      }
      if (is_write(u.access)) {
        // A write of some bytes of a buffer keeps the others: it depends on the previous writer (so a
        // pass writing the other bytes is neither culled nor unordered against it), as a
        // read-modify-write access does.
        const ResourceDesc& d = g.resources[u.resource].desc;
        it->reads |= keeps_contents(u.access) ||
                     (d.type == ResourceType::buffer && has_bytes(u.range) && !(boxes[i] == whole_extent(d)));
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
      Version& ver = version[r];
      if (t.reads && ver.last_writer != kNone) {
        v.edges.push_back({ver.last_writer, p, EdgeKind::read_after_write, r});
      } else if (t.pure_read && ver.last_writer == kNone && g.resources[r].transient) {
        size_t k = 0;
        while (k + 1 < pass.uses.size() && pass.uses[k].resource != r) ++k;
        throw Error(fmt::format("/passes/{}/uses/{}: pass '{}', resource '{}': {}", p, k, pass.name,
                                g.resources[r].desc.name, rule_message(Rule::transient_read_first, {})));
      }
      if (!t.writes) {  // append p to the readers of the current version
        const uint32_t node = static_cast<uint32_t>(reader_pool.size());
        reader_pool.push_back({p, kNone});
        if (ver.readers_head == kNone) ver.readers_head = node;
        else reader_pool[ver.readers_tail].next = node;
        ver.readers_tail = node;
        continue;
      }
      for (uint32_t n = ver.readers_head; n != kNone; n = reader_pool[n].next)
        if (reader_pool[n].pass != p) v.edges.push_back({reader_pool[n].pass, p, EdgeKind::write_after_read, r});
      // A blind overwrite of what another pass wrote needs a path between the two.
      if (ver.last_writer != kNone && !t.reads && ver.readers_head == kNone && overlaps(last_write_box(r), t.write_box))
        ambiguous.push_back({ver.last_writer, p, r});
      ver.readers_head = ver.readers_tail = kNone;
      ver.last_writer = p;
      if (t.write_box == whole_extent(g.resources[r].desc)) {
        ver.write_box = kNone;
      } else {
        ver.write_box = static_cast<uint32_t>(partial_boxes.size());
        partial_boxes.push_back(t.write_box);
      }
    }
    for (size_t k = 0; k < pass.after.size(); ++k) {
      const uint32_t a = pass.after[k];
      if (a >= np)
        throw Error(fmt::format("/passes/{}/after/{}: pass '{}': \"after\" names unknown pass #{}", p, k,
                                pass.name, a));
      if (a == p)
        throw Error(fmt::format("/passes/{}/after/{}: pass '{}': {}", p, k, pass.name,
                                rule_message(Rule::after_itself, {})));
      backward |= a > p;
      v.edges.push_back({a, p, EdgeKind::explicit_order, kNone});
    }
  }
  v.in_first[np] = static_cast<uint32_t>(v.edges.size());

  // Cycles: every derived edge points forward in declaration order, so only `after` can close one.
  if (backward) {
    // Successors in CSR form (counting sort by `from`, keeping edge order): one allocation
    // instead of one vector per pass.
    std::vector<uint32_t> indeg(np, 0), out_first(np + 1, 0), out(v.edges.size());
    for (const Edge& e : v.edges) {
      ++indeg[e.to];
      ++out_first[e.from + 1];
    }
    for (size_t p = 0; p < np; ++p) out_first[p + 1] += out_first[p];
    {
      std::vector<uint32_t> fill(out_first.begin(), out_first.end() - 1);
      for (const Edge& e : v.edges) out[fill[e.from]++] = e.to;
    }
    std::vector<uint32_t> ready;
    for (uint32_t p = 0; p < np; ++p)
      if (!indeg[p]) ready.push_back(p);
    size_t done = 0;
    while (!ready.empty()) {
      const uint32_t p = ready.back();
      ready.pop_back();
      ++done;
      for (uint32_t i = out_first[p]; i < out_first[p + 1]; ++i)
        if (--indeg[out[i]] == 0) ready.push_back(out[i]);
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
      // Only "after" closes a cycle: the pointer is the "after" of a pass on it.
      uint32_t at = p;
      for (size_t i = seen[p]; i < path.size(); ++i)
        if (!g.passes[path[i]].after.empty()) at = path[i];
      if (resource_edge)
        text += fmt::format(" (through resource '{}')", g.resources[resource_edge->resource].desc.name);
      RuleArgs args;
      args.detail = text;
      throw Error(fmt::format("/passes/{}/after: pass '{}': {}", at, g.passes[p].name,
                              rule_message(Rule::dependency_cycle, args)));
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
      if (!found) {
        const std::string first = fmt::format("pass '{}'", g.passes[k.first].name);
        RuleArgs args;
        args.detail = first;
        throw Error(fmt::format("/passes/{}: pass '{}', resource '{}': {}", k.second, g.passes[k.second].name,
                                g.resources[k.resource].desc.name, rule_message(Rule::ambiguous_write_order, args)));
      }
    }
  }

  for (size_t oi = 0; oi < g.outputs.size(); ++oi) {
    const uint32_t o = g.outputs[oi];
    if (o >= nr) throw Error(fmt::format("/outputs/{}: output #{}: unknown resource", oi, o));
    const Resource& res = g.resources[o];
    if (version[o].last_writer == kNone)
      throw Error(fmt::format("/outputs/{}: output '{}': {}", oi, res.desc.name,
                              rule_message(Rule::output_not_written, {})));
    if (res.transient)
      throw Error(fmt::format("/outputs/{}: pass '{}', output '{}': {}", oi, g.passes[version[o].last_writer].name,
                              res.desc.name, rule_message(Rule::output_transient, {})));
  }
  return v;
}

}  // namespace baton::graph
