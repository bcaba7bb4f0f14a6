// Phase 2: cull. Backward from the roots (side-effect passes and writers of outputs) along
// read-after-write edges: a pass is live when something live reads what it wrote.
//
// One backward sweep over the passes: a read-after-write edge always points forward in declaration
// order (validate derives it from the latest earlier writer; only explicit `after` edges, which do not
// keep a pass alive, can point backward), so by the time the sweep reaches a pass, every live pass that
// reads from it has been seen and has marked it.
#include <string>
#include <string_view>

#include "baton/graph.hpp"
#include "baton/reuse.hpp"

namespace baton::graph {

CullResult cull(const Graph& g, const Validated& v) {
  CullResult c;
  cull_into(c, g, v);
  return c;
}

void cull_into(CullResult& c, const Graph& g, const Validated& v) {
  const size_t np = g.passes.size();
  // The culled passes' records are kept with their reasons' storage (cut to this call's count below).
  reuse_storage(c, &CullResult::live, keep(&CullResult::culled));
  c.live.assign(np, 0);
  // Per-thread scratch, kept from call to call: no allocation in steady state.
  thread_local std::vector<uint8_t> is_output;
  is_output.assign(g.resources.size(), 0);
  for (uint32_t o : g.outputs) is_output[o] = 1;
  uint8_t* const live = c.live.data();
  const Edge* const edges = v.edges.data();
  const uint32_t* const in_first = v.in_first.data();
  size_t dead = 0;
  for (size_t p = np; p-- > 0;) {
    const Pass& pass = g.passes[p];
    uint8_t l = live[p] | static_cast<uint8_t>(pass.side_effect);
    if (!l)
      for (const PassUse& u : pass.uses) l |= static_cast<uint8_t>(static_cast<unsigned>(is_write(u.access)) & static_cast<unsigned>(is_output[u.resource] != 0));
    if (!l) {
      ++dead;
      continue;
    }
    live[p] = 1;
    // Walked by pointer: an index walk made the compiler rebuild both ends from the index per pass.
    for (const Edge *e = edges + in_first[p], *const end = edges + in_first[p + 1]; e != end; ++e)
      if (e->kind == EdgeKind::read_after_write) live[e->from] = 1;
  }
  c.culled.resize(dead);
  if (dead == 0) return;
  // Each reason is written into the string the record kept from the last call (a frame culled again takes
  // no heap block for it): the names the pass writes, each once, in the order of its uses.
  static constexpr std::string_view kPrefix = "no output, side-effect pass or live pass reads what it writes (";
  const auto listed = [](const std::string& why, const std::string& n) {  // 'n' is among the names
    for (size_t at = why.find(n, kPrefix.size()); at != std::string::npos; at = why.find(n, at + 1))
      if (why[at - 1] == '\'' && at + n.size() < why.size() && why[at + n.size()] == '\'') return true;
    return false;
  };
  size_t k = 0;
  for (uint32_t p = 0; p < np; ++p) {
    if (live[p]) continue;
    Culled& out = c.culled[k++];
    out.pass = p;
    std::string& why = out.why;
    why.assign(kPrefix);
    bool any = false;
    for (const PassUse& u : g.passes[p].uses) {
      if (!is_write(u.access)) continue;
      const std::string& n = g.resources[u.resource].desc.name;
      if (listed(why, n)) continue;
      why += any ? ", '" : "'";
      why += n;
      why += '\'';
      any = true;
    }
    if (any)
      why += ')';
    else
      why.assign("writes nothing and has no side effect");
  }
}

}  // namespace baton::graph
