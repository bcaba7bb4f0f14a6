// Triage: for every validator message on a trace (what really ran, or Baton's own plan), which list
// and operation of the recording it belongs to, what the compiler believed there (from plan() and
// the declarations), what the trace shows actually happened, and which *declaration* to change.
// The fix is always a declaration (an entry state, a use's access, a resting override, a history
// reset), never an inserted barrier: barriers are computed, declarations are what people write.
//
// Pure: recording + trace + API in, explanations out. The recording is only planned (its lists stay
// as they are); the trace is validated with the independent validator and then read again here to
// find who put each subresource in the state the message names.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "baton/lower.hpp"
#include "baton/plan.hpp"
#include "baton/recording.hpp"
#include "baton/validate.hpp"

namespace baton::triage {

// The class of mistake an explanation diagnoses (examples/triage/ has one folder per class).
enum class Mistake : uint8_t {
  wrong_entry_state,     // first touch in the group: the resource arrived in another state than assumed
  undeclared_write,      // a pass wrote what it declared as a read
  undeclared_use,        // a recorded list touched a resource it never declared
  wrong_resting_layout,  // work outside the recording expected the resource in another resting state
  stale_history,         // the resource was re-created/re-activated but its history was not reset
  unexplained,           // no declaration explains it (a bug in the trace or in Baton: report it)
};
std::string_view to_string(Mistake m);

// What the compiler believed at the operation, from the declarations and plan()'s GroupFacts.
struct Belief {
  bool resource_in_recording = false;
  bool first_touch_in_group = false;  // the operation is the group's first use of the resource
  std::optional<EntryState> entry;    // the entry state declared on the list, if any
  std::vector<Use> declared;          // the operation's declared uses of the resource
  bool declared_write = false;        // some declared use writes
  std::optional<Access> resting;      // resting access (textures); none for buffers
  bool resting_overridden = false;    // ResourceDesc::resting was given
  ResourceHistory history{};          // at the start of the group (touched / written since creation)
  std::string previous_group;         // the last earlier group touching the resource ("" if none)
  bool handed_on = false;             // that group hands it on (this list declared its entry state)
  std::string assumed;                // in words: the state the compiler assumed before the operation
};

// What the trace shows about the message's subresource, replayed up to the message's command.
struct Observed {
  std::string state;    // API name of the state/layout/access the trace left it in
  std::string by_list;  // who put it there (empty: the resource's initial state)
  int by_command = -1;
  bool by_in_recording = false;  // whether that list is one of the recording's lists
  std::string by_what;           // the command, e.g. "transition RENDER_TARGET -> COMMON"
  std::string use_as;            // the message's command as a use: the state it needs ("" if not a use)
  bool use_writes = false;
  std::string last_write_list;  // the last use that wrote the subresource before the message
  int last_write_command = -1;
  std::string activated_list;  // an aliasing barrier that (re)activated the resource, if seen
  int activated_command = -1;
};

// The declaration to change.
struct Fix {
  std::string where;  // "list 'ui' entry", "list 'sim' op 1 use", "resource 'hud'", "history"
  std::string
      declaration;   // the recording-format JSON to write, e.g. {"resource":"hud","access":"render_target"}
  std::string text;  // one sentence
};

struct Explanation {
  validate::Message message;   // id, trace list, command, resource, subresource, text
  std::string group;           // the recording's group of the message's list ("" if not a recorded list)
  std::string list;            // the recording list the explanation blames
  std::optional<uint32_t> op;  // the operation in that list
  std::string op_what;         // "draw \"scene\""
  Mistake mistake = Mistake::unexplained;
  Belief belief;
  Observed observed;
  Fix fix;
};

struct Options {
  std::optional<uint32_t> id;  // only messages with this numeric id
  std::string resource;        // only messages about this resource
  // Where the recording's resources start (a compiled frame graph's: non-transient at rest);
  // empty = every resource fresh, as a recording's.
  History history_in;
};

// Validates the trace and explains each message (in the validator's order). Throws Error when the
// trace and the recording cannot be related (the trace names a resource the recording lacks is
// fine: that is an undeclared resource; a trace of another API family than `api` is not).
std::vector<Explanation> triage(const Recording& rec, const validate::Trace& trace, Api api,
                                const Options& options = {});

// Text: a block per explanation (message, where, believed, actually, mistake, fix); JSON:
// {"explanations":[{...}], "count": N}.
std::string to_text(std::span<const Explanation> e);
std::string to_json(std::span<const Explanation> e);

}  // namespace baton::triage
