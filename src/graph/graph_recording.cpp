// Transitions -> Recording (include/graph/baton/graph_recording.hpp).
#include "baton/graph_recording.hpp"

namespace baton::graph {

Recording recording_from(Transitions&& t) {
  Recording rec;
  rec.resources = std::move(t.table);
  rec.store = std::move(t.store);  // the arrays move with their storage: the lists' views stay valid
  rec.groups = std::move(t.groups);  // views of rec.store's groups, whose storage moved with it
  return rec;
}

}  // namespace baton::graph
