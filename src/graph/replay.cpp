#include "replay.hpp"

namespace baton::graph::detail {

Replay replay(const Transitions& t,
              const std::function<void(uint32_t, uint32_t, const Barrier&, const State&)>& on_barrier,
              const std::function<void(uint32_t, uint32_t, Replay&)>& on_use) {
  Replay rp;
  const ResourceTable& rt = t.table;
  rp.first_sub.resize(rt.size() + 1);
  uint32_t n = 0;
  for (ResourceId m = 0; m < rt.size(); ++m) {
    rp.first_sub[m] = n;
    n += rt[m].mips * rt[m].layers * rt[m].planes;
  }
  rp.first_sub[rt.size()] = n;
  rp.state.resize(n);
  for (ResourceId m = 0; m < rt.size(); ++m) {
    const ResourceDesc& d = rt[m];
    const State s0 = t.history_in[m].touched ? resting_state(d)
                     : d.type == ResourceType::buffer ? kFirstTouchBuffer
                                                      : kFirstTouch;
    for (uint32_t i = rp.first_sub[m]; i < rp.first_sub[m + 1]; ++i) rp.state[i] = s0;
  }
  auto apply = [&](uint32_t gi, uint32_t li, const Barrier& b) {
    if (b.resource == kGlobalResource) return;
    const ResourceDesc& d = rt[b.resource];
    for (uint32_t p = b.box.p0; p < b.box.p1; ++p)
      for (uint32_t l = b.box.l0; l < b.box.l1; ++l)
        for (uint32_t mip = b.box.m0; mip < b.box.m1; ++mip) {
          State& s = rp.state[rp.index(d, b.resource, mip, l, p)];
          if (on_barrier) on_barrier(gi, li, b, s);
          s = b.after;
        }
  };
  for (uint32_t gi = 0; gi < t.compiled.size(); ++gi) {
    const CompiledGroup& cg = t.compiled[gi];
    for (uint32_t li = 0; li < cg.lists.size(); ++li) {
      const CompiledList& cl = cg.lists[li];
      size_t k = 0;
      for (; k < cl.points.size() && cl.points[k].where == Where::before; ++k)
        for (const Barrier& b : cl.barriers_at(cl.points[k])) apply(gi, li, b);
      if (on_use) on_use(gi, li, rp);
      for (; k < cl.points.size(); ++k)
        for (const Barrier& b : cl.barriers_at(cl.points[k])) apply(gi, li, b);
    }
  }
  return rp;
}

}  // namespace baton::graph::detail
