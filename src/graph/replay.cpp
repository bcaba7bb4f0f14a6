#include "replay.hpp"

namespace baton::graph::detail {

void replay_start(const Transitions& t, States& st) {
  const std::vector<ResourceDesc>& all = t.table.all();
  const uint32_t n = static_cast<uint32_t>(all.size());
  st.reset(n);
  State* const value = st.values();
  uint32_t* const size = st.sizes();
  const ResourceDesc* const d = all.data();
  const ResourceHistory* const h = t.history_in.data();
  for (uint32_t m = 0; m < n; ++m) {
    if (d[m].type == ResourceType::buffer) {
      size[m] = buffer_extent(d[m]).m1;  // cells(d[m])
      value[m] = h[m].touched ? resting_state(d[m]) : kFirstTouchBuffer;
    } else {
      size[m] = d[m].mips * d[m].layers * d[m].planes;
      value[m] = h[m].touched ? resting_state(d[m]) : kFirstTouch;
    }
  }
}

}  // namespace baton::graph::detail
