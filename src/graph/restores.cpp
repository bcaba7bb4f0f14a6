// Phase 7: final states and restores. The restores are the planner's "restore to rest" barriers
// (after a resource's last use in a group that does not hand it on; transients, which die after
// their last use, have none there); the final states come from replaying the whole barrier stream.
// The replay is one loop over every list's barriers, in submission order, holding the flat state
// arrays in locals: a barrier of a whole member in one state is a load, a few compares and a store.
#include "baton/graph.hpp"
#include "replay.hpp"

namespace baton::graph {

FinalStates final_states(const Transitions& t) {
  FinalStates f;
  // Flat per-member states; their arrays become the result's (FinalStates has the same form).
  detail::States st;
  detail::replay_start(t, st);
  const ResourceDesc* const descs = t.table.all().data();
  State* const value = st.values();
  const uint32_t* const split = st.splits();
  // One entry per restore barrier, not per subresource.
  auto restore = [&](uint32_t gi, uint32_t li, const Barrier& b) __attribute__((noinline)) {
    const uint32_t pass = t.info[gi].passes[li];
    if (!f.restores.empty() && f.restores.back().group == gi && f.restores.back().member == b.resource &&
        f.restores.back().from == b.before && f.restores.back().pass == pass)
      return;
    f.restores.push_back({gi, pass, b.resource, b.before, b.after});
  };
  // A barrier of part of a member, or of a member in several states: run by run.
  auto runs = [&](const Barrier& b) __attribute__((noinline)) {
    detail::for_each_barrier_interval(descs[b.resource], b, [&](uint32_t lo, uint32_t hi) {
      st.update(b.resource, lo, hi, [&](uint32_t, uint32_t, State& x) { x = b.after; });
    });
  };
  // Each list's barriers in order: its points cover them in order (CompiledList::barriers is in point
  // order), so the list's span is its part of the stream, with no walk over its points.
  for (uint32_t gi = 0; gi < t.compiled.size(); ++gi) {
    const std::vector<CompiledList>& lists = t.compiled[gi].lists;
    const uint32_t nl = static_cast<uint32_t>(lists.size());
    for (uint32_t li = 0; li < nl; ++li) {
      const std::span<const Barrier> bs = lists[li].barriers;
      for (const Barrier *b = bs.data(), *const e = b + bs.size(); b != e; ++b) {
        const ResourceId m = b->resource;
        if (m == kGlobalResource) continue;
        if (b->reason == Reason::restore) [[unlikely]]
          restore(gi, li, *b);
        if (split[m] == detail::States::kWhole && detail::whole_barrier(descs[m], *b)) {
          value[m] = b->after;
          continue;
        }
        runs(*b);
      }
    }
  }
  st.move_to(f.state, f.cells, f.split, kNone, f.runs);
  const size_t n = t.table.size();
  f.order.resize(n);
  for (size_t m = 0; m < n; ++m) f.order[m] = detail::run_order(descs[m]);
  return f;
}

}  // namespace baton::graph
