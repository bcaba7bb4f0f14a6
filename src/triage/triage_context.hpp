// What triage knows about the recording while it explains messages (computed once per call), and
// the compiler's beliefs it reconstructs from the declarations and plan()'s GroupFacts.
#pragma once

#include <baton/triage.hpp>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace baton::triage_detail {

inline constexpr int kNone = -1;

struct ListRef {
  int group = kNone, list = kNone;
};

struct Context {
  const Recording& rec;
  const validate::Trace& trace;
  std::vector<const CommandListGroup*> groups;
  Plan plan;
  std::map<std::string, ListRef, std::less<>> lists;  // recorded list name -> where
  std::set<std::string> recorded;

  const CommandList& list(const ListRef& r) const {
    return *groups[static_cast<size_t>(r.group)]->lists()[static_cast<size_t>(r.list)];
  }
  const std::string& group_name(const ListRef& r) const {
    return groups[static_cast<size_t>(r.group)]->name();
  }
  const validate::TraceList* trace_list(std::string_view name) const;
  int trace_resource(std::string_view name) const;
};

Context make_context(const Recording& rec, const validate::Trace& trace, const History& history_in = {});

// The compiler's belief at operation `op` (kNone: before the list's first operation) of a recorded list.
triage::Belief belief_at(const Context& c, const ListRef& where, int op, ResourceId r);
// The belief for work outside the recording: the resource as the recording leaves it.
triage::Belief belief_outside(const Context& c, ResourceId r);

// The recording-format JSON of a use or entry: {"resource": "r", "access": "a", "stages": "s"}.
std::string use_decl(std::string_view resource, Access a, Stages s);
// "shader_resource (pixel)", "render_target".
std::string access_words(Access a, Stages s);
// "draw \"scene\"".
std::string op_words(const Operation& op);

}  // namespace baton::triage_detail
