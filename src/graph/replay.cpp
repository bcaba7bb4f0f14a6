#include "replay.hpp"

namespace baton::graph::detail {

Replay replay_start(const Transitions& t) {
  Replay rp;
  const ResourceTable& rt = t.table;
  rp.state.reserve(rt.size());
  for (ResourceId m = 0; m < rt.size(); ++m) {
    const ResourceDesc& d = rt[m];
    const State s0 = t.history_in[m].touched ? resting_state(d)
                     : d.type == ResourceType::buffer ? kFirstTouchBuffer
                                                      : kFirstTouch;
    rp.state.emplace_back(cells(d), s0);
  }
  return rp;
}

}  // namespace baton::graph::detail
