// Phase 2: cull. Backward from the roots (side-effect passes and writers of outputs) along
// read-after-write edges: a pass is live when something live reads what it wrote.
#include <fmt/format.h>

#include "baton/graph.hpp"

namespace baton::graph {

CullResult cull(const Graph& g, const Validated& v) {
  const size_t np = g.passes.size();
  CullResult c;
  c.live.assign(np, 0);
  std::vector<uint8_t> is_output(g.resources.size(), 0);
  for (uint32_t o : g.outputs) is_output[o] = 1;
  std::vector<uint32_t> stack;
  for (uint32_t p = 0; p < np; ++p) {
    bool root = g.passes[p].side_effect;
    for (const PassUse& u : g.passes[p].uses) root |= is_write(u.access) && is_output[u.resource];
    if (root) {
      c.live[p] = 1;
      stack.push_back(p);
    }
  }
  while (!stack.empty()) {
    const uint32_t p = stack.back();
    stack.pop_back();
    for (uint32_t e = v.in_first[p]; e < v.in_first[p + 1]; ++e) {
      const Edge& ed = v.edges[e];
      if (ed.kind != EdgeKind::read_after_write || c.live[ed.from]) continue;
      c.live[ed.from] = 1;
      stack.push_back(ed.from);
    }
  }
  for (uint32_t p = 0; p < np; ++p) {
    if (c.live[p]) continue;
    std::string written;
    for (const PassUse& u : g.passes[p].uses) {
      if (!is_write(u.access)) continue;
      const std::string& n = g.resources[u.resource].desc.name;
      if (written.find("'" + n + "'") == std::string::npos) written += (written.empty() ? "'" : ", '") + n + "'";
    }
    c.culled.push_back({p, written.empty() ? std::string("writes nothing and has no side effect")
                                           : fmt::format("no output, side-effect pass or live pass reads what it "
                                                         "writes ({})",
                                                         written)});
  }
  return c;
}

}  // namespace baton::graph
