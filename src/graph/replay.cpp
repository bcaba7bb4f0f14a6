#include "replay.hpp"

namespace baton::graph::detail {

void replay_start(const Transitions& t, States& st) {
  const std::vector<ResourceDesc>& all = t.table.all();
  st.reset(
      static_cast<uint32_t>(all.size()), [&](uint32_t m) { return cells(all[m]); },
      [&](uint32_t m, State& s) {
        const ResourceDesc& d = all[m];
        s = t.history_in[m].touched ? resting_state(d)
            : d.type == ResourceType::buffer ? kFirstTouchBuffer
                                             : kFirstTouch;
      });
}

}  // namespace baton::graph::detail
