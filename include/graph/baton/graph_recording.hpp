// A compiled frame graph as a Recording, for the executors (`baton run GRAPH.json`): the expanded
// resource table, one list per live pass (Recording::store: the lists, their operations, uses and entry
// states in one array each) and the groups in submission order, moved out of the Transitions. The lists are already compiled; plan with Transitions::compiled (lower it before
// moving) and start the run from Transitions::history_in (non-transient resources at rest).
#pragma once

#include "baton/graph.hpp"
#include "baton/recording.hpp"

namespace baton::graph {

Recording recording_from(Transitions&& t);

}  // namespace baton::graph
