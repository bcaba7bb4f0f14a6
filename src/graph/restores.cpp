// Phase 7: final states and restores. The restores are the planner's "restore to rest" barriers
// (after a resource's last use in a group that does not hand it on; transients, which die after
// their last use, have none there); the final states come from replaying the whole barrier stream.
#include "baton/graph.hpp"
#include "replay.hpp"

namespace baton::graph {

FinalStates final_states(const Transitions& t) {
  FinalStates f;
  thread_local detail::States st;  // flat per-member states, storage kept from call to call
  detail::replay(
      t, st,
      [&](uint32_t gi, uint32_t li, const Barrier& b, const State&, uint32_t, uint32_t) {
        if (b.reason != Reason::restore) return;
        // One entry per barrier, not per subresource: record it at its first subresource.
        if (!f.restores.empty() && f.restores.back().group == gi && f.restores.back().member == b.resource &&
            f.restores.back().from == b.before && f.restores.back().pass == t.info[gi].passes[li])
          return;
        f.restores.push_back({gi, t.info[gi].passes[li], b.resource, b.before, b.after});
      },
      [](uint32_t, uint32_t, const detail::States&) {});
  st.copy_to(f.state, f.cells, f.split, kNone, f.runs);
  const std::vector<ResourceDesc>& all = t.table.all();
  f.order.reserve(all.size());
  for (const ResourceDesc& d : all) f.order.push_back(detail::run_order(d));
  return f;
}

}  // namespace baton::graph
