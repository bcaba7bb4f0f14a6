// Transitions -> Recording (include/graph/baton/graph_recording.hpp).
#include "baton/graph_recording.hpp"

namespace baton::graph {

Recording recording_from(Transitions&& t) {
  Recording rec;
  rec.resources = std::move(t.table);
  rec.lists = std::move(t.lists);
  rec.groups = std::move(t.groups);  // the lists keep pointing at their groups: both are heap objects
  return rec;
}

}  // namespace baton::graph
