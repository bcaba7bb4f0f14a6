// Phase 7: final states and restores. The restores are the planner's "restore to rest" barriers
// (after a resource's last use in a group that does not hand it on; transients, which die after
// their last use, have none there); the final states come from the barrier stream.
// A member's final state is decided by its last barrier when that barrier covers the whole member
// (whatever came before, the member ends in that barrier's after-state, as one run), so the stream is
// read backward: each member's last barrier is the first one met, and every earlier barrier of a member
// already decided costs a load and a compare. Members with no barrier keep their start state; only a
// member whose last barrier covers part of it is replayed forward, in full (its runs), from its start.
#include <algorithm>

#include "baton/graph.hpp"
#include "baton/reuse.hpp"
#include "replay.hpp"

namespace baton::graph {

FinalStates final_states(const Transitions& t) {
  FinalStates f;
  final_states_into(f, t);
  return f;
}

void final_states_into(FinalStates& f, const Transitions& t) {
  // The split members' runs are kept, elements and all, and written again in place (runs_into: their
  // maps' nodes reused); cut to this call's count at the end.
  reuse_storage(f, &FinalStates::restores, &FinalStates::state, &FinalStates::cells, &FinalStates::split,
                keep(&FinalStates::runs), &FinalStates::order);
  size_t kept_runs = 0;
  const ResourceDesc* const descs = t.table.all().data();
  const ResourceHistory* const history = t.history_in.data();
  const uint32_t n = static_cast<uint32_t>(t.table.size());
  // Per member, what the backward read found: kOpen (no barrier yet), kWhole (its last barrier covers
  // it: state[m] is that barrier's after-state), kPartial (its last barrier covers part of it: replayed
  // forward below). Per-thread scratch, its storage kept.
  enum : uint8_t { kOpen = 0, kWhole = 1, kPartial = 2 };
  thread_local std::vector<uint8_t> fate_v;
  fate_v.assign(n, kOpen);
  uint8_t* const fate = fate_v.data();
  f.state.resize(n);
  State* const state = f.state.data();
  bool partial = false;
  // The restore barriers, met last-first; put in stream order below.
  std::vector<Restore>& restores = f.restores;
  auto restore = [&](uint32_t gi, uint32_t li, const Barrier& b) __attribute__((noinline)) {
    restores.push_back({gi, t.info[gi].passes[li], b.resource, b.before, b.after});
  };
  // Each list's barriers are its part of the stream in order (its points cover them in order), and a
  // group's lists view its one barrier array list after list (CompiledGroup::barriers): the group's part
  // of the stream is that array, from the first barrier of its first list that has any to the end of its
  // last such list, read in one loop. Only a restore asks which list it is in: the last list with
  // barriers that starts at or before it, found by stepping back from the last list.
  for (uint32_t gi = static_cast<uint32_t>(t.compiled.size()); gi-- > 0;) {
    const GroupArray<CompiledList>& lists = t.compiled[gi].lists;
    uint32_t lo = 0, hi = static_cast<uint32_t>(lists.size());  // the lists from the first to the last with barriers
    while (lo < hi && lists[lo].barriers.empty()) ++lo;
    while (hi > lo && lists[hi - 1].barriers.empty()) --hi;
    if (lo == hi) continue;  // no barrier in the group
    uint32_t li = hi - 1;    // a restore's list: at or before it
    const std::span<const Barrier> last = lists[li].barriers;
    for (const Barrier *const first = lists[lo].barriers.data(), *b = last.data() + last.size(); b != first;) {
      --b;
      const ResourceId m = b->resource;
      if (m == kGlobalResource) continue;
      if (b->reason == Reason::restore) [[unlikely]] {
        while (li > lo && (lists[li].barriers.empty() || b < lists[li].barriers.data())) --li;
        restore(gi, li, *b);
      }
      if (fate[m] != kOpen) continue;  // an earlier barrier of a member its last one decided
      if (detail::whole_barrier(descs[m], *b)) {
        fate[m] = kWhole;
        state[m] = b->after;
      } else {
        fate[m] = kPartial;
        partial = true;
      }
    }
  }
  // In stream order, one entry per restore barrier, not per subresource: a restore of the same member
  // from the same state by the same list as the entry before it is not repeated.
  std::reverse(restores.begin(), restores.end());
  {
    size_t k = 0;
    for (size_t i = 0; i < restores.size(); ++i) {
      const Restore& x = restores[i];
      if (k > 0 && restores[k - 1].group == x.group && restores[k - 1].member == x.member &&
          restores[k - 1].from == x.from && restores[k - 1].pass == x.pass)
        continue;
      restores[k++] = x;
    }
    restores.resize(k);
  }
  // Sizes, run orders and the start state of the members no barrier touches (touched members at rest,
  // the others untouched, as detail::replay_start has them).
  f.cells.resize(n);
  f.split.assign(n, kNone);
  f.order.resize(n);
  uint32_t* const cells = f.cells.data();
  RunOrder* const order = f.order.data();
  for (uint32_t m = 0; m < n; ++m) {
    const ResourceDesc& d = descs[m];
    const bool buffer = d.type == ResourceType::buffer;
    cells[m] = buffer ? buffer_extent(d).m1 : d.mips * d.layers * d.planes;
    if (!buffer) order[m] = RunOrder{d.mips, d.layers};
    if (fate[m] == kOpen) state[m] = history[m].touched ? resting_state(d) : buffer ? kFirstTouchBuffer : kFirstTouch;
  }
  if (!partial) {
    f.runs.clear();
    return;
  }
  // The members whose last barrier covers part of them: every barrier of theirs forward, run by run, from
  // the start state (detail::replay_start's), in the replay's flat arrays.
  thread_local detail::States st;
  detail::replay_start(t, st);
  State* const value = st.values();
  const uint32_t* const split = st.splits();
  for (uint32_t gi = 0; gi < t.compiled.size(); ++gi)
    for (const CompiledList& cl : t.compiled[gi].lists)
      for (const Barrier& b : cl.barriers) {
        const ResourceId m = b.resource;
        if (m == kGlobalResource || fate[m] != kPartial) continue;
        if (split[m] == detail::States::kWhole && detail::whole_barrier(descs[m], b)) {
          value[m] = b.after;
          continue;
        }
        detail::for_each_barrier_interval(descs[m], b, [&](uint32_t lo, uint32_t hi) {
          st.update(m, lo, hi, [&](uint32_t, uint32_t, State& x) { x = b.after; });
        });
      }
  for (uint32_t m = 0; m < n; ++m) {
    if (fate[m] != kPartial) continue;
    if (split[m] == detail::States::kWhole) {
      state[m] = value[m];
      continue;
    }
    f.split[m] = static_cast<uint32_t>(kept_runs);
    if (kept_runs == f.runs.size()) f.runs.emplace_back();
    st.runs_into(m, f.runs[kept_runs++]);
    state[m] = value[m];  // what the replay's flat array holds for a split member (what the result kept before)
  }
  f.runs.resize(kept_runs);
}

}  // namespace baton::graph
