#include "replay.hpp"

namespace baton::graph::detail {

Replay replay_start(const Transitions& t) {
  Replay rp;
  const ResourceTable& rt = t.table;
  rp.first_sub.resize(rt.size() + 1);
  rp.stride.resize(rt.size());
  rp.state.reserve(rt.size());  // exact when every member has one subresource (the common case)
  // One walk over the (large) descriptions: offsets, strides and initial states together.
  for (ResourceId m = 0; m < rt.size(); ++m) {
    const ResourceDesc& d = rt[m];
    rp.first_sub[m] = static_cast<uint32_t>(rp.state.size());
    rp.stride[m] = {d.mips, d.mips * d.layers};
    const State s0 = t.history_in[m].touched ? resting_state(d)
                     : d.type == ResourceType::buffer ? kFirstTouchBuffer
                                                      : kFirstTouch;
    const size_t subresources = size_t{d.mips} * d.layers * d.planes;
    if (subresources == 1) rp.state.push_back(s0);  // the common case, without a fill call
    else rp.state.insert(rp.state.end(), subresources, s0);
  }
  rp.first_sub[rt.size()] = static_cast<uint32_t>(rp.state.size());
  return rp;
}

}  // namespace baton::graph::detail
