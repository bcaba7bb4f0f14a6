// Triage's two readings of a trace: which recorded operation each command of a list belongs to,
// and the history of one subresource up to a message (who put it in the state the message names).
#pragma once

#include <baton/triage.hpp>
#include <baton/validate.hpp>
#include <set>
#include <string>
#include <vector>

#include "triage_names.hpp"

namespace baton::triage_detail {

// Per command of a trace list: the recorded operation it belongs to and the index of the use in
// that operation it performs (-1: not one of the operation's declared uses, or not a use).
struct CommandMap {
  std::vector<int> op;
  std::vector<int> use;
};
// Uses are matched to the recorded uses in order, by resource; a barrier, clear or discard belongs
// to the operation of the next matched use (its before-point), or the last operation when no use
// follows (the after-points at the end of the list). A use the recording never declared maps to
// the operation of the last matched use (or the next one when none came before) with use -1.
CommandMap map_commands(const ResourceTable& resources, const CommandList& list, const validate::Trace& trace,
                        const validate::TraceList& tlist);

// The family of names the trace's state of a resource is written in, for the API in use.
NameFamily state_family(const validate::Trace& trace, const validate::TraceResource& r, bool enhanced);

// Replays the trace in submission order up to (not including) the message's command and collects
// what happened to one subresource. `recorded` holds the recording's list names.
triage::Observed observe(const validate::Trace& trace, const validate::Message& m, int resource,
                         uint32_t subresource, const std::set<std::string>& recorded);

// The name of the state a use command needs: D3D12 legacy state, or Vulkan "stage access layout".
std::string use_state_name(const validate::Trace& trace, const validate::UseState& as, bool buffer);
bool use_writes(const validate::Trace& trace, const validate::UseState& as);

}  // namespace baton::triage_detail
