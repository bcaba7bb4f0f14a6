// Triage's reasoning: relate each validator message to the recording (list, operation), take what
// the compiler believed there (triage_belief.cpp) and what the trace really did (triage_trace.cpp),
// and apply the rules below in order; the first that fits names the declaration to change.
#include <fmt/format.h>

#include <baton/triage.hpp>
#include <baton/validate_names.hpp>
#include <variant>

#include "triage_context.hpp"
#include "triage_names.hpp"
#include "triage_trace.hpp"

namespace baton::triage {

std::string_view to_string(Mistake m) {
  switch (m) {
    case Mistake::wrong_entry_state:
      return "wrong entry state";
    case Mistake::undeclared_write:
      return "undeclared write";
    case Mistake::undeclared_use:
      return "undeclared use";
    case Mistake::wrong_resting_layout:
      return "wrong resting layout";
    case Mistake::stale_history:
      return "re-created without resetting its history";
    case Mistake::unexplained:
      return "unexplained";
  }
  return "?";
}

namespace {

using namespace triage_detail;
using validate::format_name;
using validate::NameKind;

// The state name the message's command expects (a use's state, or a barrier's "before" side).
std::string expected_by_command(const Context& c, const validate::Message& m, int resource, bool& enhanced) {
  enhanced = false;
  const validate::TraceList* tl = c.trace_list(m.list);
  if (tl == nullptr || m.command < 0 || static_cast<size_t>(m.command) >= tl->commands.size()) return {};
  const validate::Command& cmd = tl->commands[static_cast<size_t>(m.command)];
  const bool buffer = c.trace.resources[static_cast<size_t>(resource)].buffer;
  if (const auto* u = std::get_if<validate::UseCmd>(&cmd))
    return c.trace.api == validate::Api::vulkan
               ? format_name(buffer ? NameKind::vk_access : NameKind::vk_layout,
                             buffer ? u->as.vk_access : u->as.vk_layout)
               : format_name(NameKind::d3d12_state, u->as.d3d12_state);
  if (const auto* b = std::get_if<validate::BarrierCmd>(&cmd))
    for (const validate::Barrier& bar : b->barriers) {
      if (const auto* t = std::get_if<validate::LegacyTransition>(&bar); t && t->resource == resource)
        return format_name(NameKind::d3d12_state, t->before);
      if (const auto* e = std::get_if<validate::EnhancedBarrier>(&bar); e && e->resource == resource) {
        enhanced = true;
        return buffer ? format_name(NameKind::d3d12_access, e->access_before)
                      : format_name(NameKind::d3d12_layout, e->layout_before);
      }
      if (const auto* v = std::get_if<validate::VkBarrier>(&bar); v && v->resource == resource)
        return buffer ? format_name(NameKind::vk_access, v->src_access)
                      : format_name(NameKind::vk_layout, v->old_layout);
    }
  return {};
}

// Whether the trace's observed state is under enhanced barriers (its last setter was one).
bool observed_enhanced(const Observed& o, const validate::TraceResource& r) {
  if (o.by_what.rfind("barrier layout", 0) == 0 || o.by_what.rfind("barrier access", 0) == 0) return true;
  return o.by_list.empty() && r.initial_is_layout;
}

// Stages for a declaration: from the API name, else the operation's declared shader use, else the queue.
Stages fallback_stages(const CommandList& l, const Belief& b, Stages guessed) {
  if (guessed != kNoStages) return guessed;
  for (const Use& u : b.declared)
    if (is_shader_access(u.access)) return u.stages;
  return l.queue() == Queue::compute ? static_cast<Stages>(Stage::compute) : kAllShading;
}

// The message's command in a recorded list, with everything the rules ask about it.
struct AtRecorded {
  ListRef where;
  const CommandList* list = nullptr;
  const validate::TraceList* trace_list = nullptr;
  int op = kNone, use = kNone;  // the operation and the declared use the command maps to
};

// The access (and stages) a use command performs, read back from its API names.
std::optional<AccessGuess> access_of_use(const validate::Trace& t, const validate::UseCmd& u,
                                         Stages& stages) {
  if (t.api == validate::Api::vulkan) {
    stages = stages_of_vk(format_name(NameKind::vk_stage, u.as.vk_stage));
    return access_of(NameFamily::vk_access, format_name(NameKind::vk_access, u.as.vk_access));
  }
  const std::optional<AccessGuess> g =
      access_of(NameFamily::d3d12_state, format_name(NameKind::d3d12_state, u.as.d3d12_state));
  stages = g ? g->stages : kNoStages;
  return g;
}

void explain_stale(const Context& c, Explanation& e, ResourceId r) {
  e.mistake = Mistake::stale_history;
  const std::string& name = c.rec.resources[r].name;
  e.fix.where = fmt::format("history of '{}' at group '{}'", name, e.group);
  e.fix.declaration = fmt::format("history_in['{}'] = ResourceHistory{{}} before group '{}'", name, e.group);
  e.fix.text = fmt::format(
      "'{}' was re-created (or re-activated) before group '{}', but its history still says touched={}, "
      "written={}: reset it (plan() with a fresh ResourceHistory for it from this group on; in a JSON "
      "recording, declare the re-created resource as a resource of its own)",
      name, e.group, e.belief.history.touched, e.belief.history.written);
}

// Rule 1: the command itself writes what its operation declared as a read, or uses the resource
// without any declaration in the operation.
bool rule_use_at_command(const Context& c, const validate::Message& m, const AtRecorded& at, ResourceId r,
                         Explanation& e) {
  const Observed& o = e.observed;
  if (o.use_as.empty() || at.op < 0) return false;
  const auto& u = std::get<validate::UseCmd>(at.trace_list->commands[static_cast<size_t>(m.command)]);
  Stages st = kNoStages;
  const std::optional<AccessGuess> g = access_of_use(c.trace, u, st);
  const std::string& name = c.rec.resources[r].name;
  const std::string list(at.list->name());
  if (at.use < 0) {
    e.mistake = o.use_writes ? Mistake::undeclared_write : Mistake::undeclared_use;
    e.fix.where = fmt::format("list '{}' op {} uses", list, at.op);
    if (g) e.fix.declaration = use_decl(name, g->access, fallback_stages(*at.list, e.belief, st));
    e.fix.text = fmt::format("op {} of list '{}' touches '{}' as {} without declaring it: add the use", at.op,
                             list, name, o.use_as);
    return true;
  }
  if (!o.use_writes || e.belief.declared_write) return false;
  const Use& declared = at.list->ops()[static_cast<size_t>(at.op)].uses[static_cast<size_t>(at.use)];
  e.mistake = Mistake::undeclared_write;
  e.fix.where = fmt::format("list '{}' op {} use {}", list, at.op, at.use);
  if (g) e.fix.declaration = use_decl(name, g->access, fallback_stages(*at.list, e.belief, st));
  e.fix.text = fmt::format(
      "the pass writes '{}' ({}) but op {} of list '{}' declares it as {}, a read: declare the "
      "write",
      name, o.use_as, at.op, list, access_words(declared.access, declared.stages));
  return true;
}

// Rule 2: the last write before the message was a recorded use declared as a read; the blame moves
// to that operation.
bool rule_earlier_write(const Context& c, ResourceId r, bool buffer, Explanation& e) {
  const Observed& o = e.observed;
  if (o.last_write_list.empty()) return false;
  const auto w = c.lists.find(o.last_write_list);
  if (w == c.lists.end()) return false;
  const CommandList& wl = c.list(w->second);
  const validate::TraceList& wt = *c.trace_list(wl.name());
  const auto wc = static_cast<size_t>(o.last_write_command);
  const CommandMap wm = map_commands(c.rec.resources, wl, c.trace, wt);
  const int wop = wm.op[wc], wuse = wm.use[wc];
  if (wop < 0 || wuse < 0) return false;
  const Use& declared = wl.ops()[static_cast<size_t>(wop)].uses[static_cast<size_t>(wuse)];
  if (is_write(declared.access)) return false;
  const auto& u = std::get<validate::UseCmd>(wt.commands[wc]);
  e.mistake = Mistake::undeclared_write;
  e.list = wl.name();
  e.group = c.group_name(w->second);
  e.op = static_cast<uint32_t>(wop);
  e.op_what = op_words(wl.ops()[static_cast<size_t>(wop)]);
  e.belief = belief_at(c, w->second, wop, r);
  Stages st = kNoStages;
  const std::optional<AccessGuess> g = access_of_use(c.trace, u, st);
  const std::string& name = c.rec.resources[r].name;
  e.fix.where = fmt::format("list '{}' op {} use {}", wl.name(), wop, wuse);
  if (g) e.fix.declaration = use_decl(name, g->access, fallback_stages(wl, e.belief, st));
  e.fix.text = fmt::format(
      "list '{}' command {} wrote '{}' ({}) but op {} declares it as {}, a read: declare the "
      "write",
      wl.name(), o.last_write_command, name, use_state_name(c.trace, u.as, buffer), wop,
      access_words(declared.access, declared.stages));
  return true;
}

// Rule 3: the trace re-activated the resource (aliasing barrier) while the plan had a past for it.
bool rule_reactivated(const Context& c, ResourceId r, Explanation& e) {
  if (e.observed.activated_list.empty() || !(e.belief.history.touched || e.belief.history.written))
    return false;
  explain_stale(c, e, r);
  return true;
}

// Rule 4: the group's first touch of the resource met another state than the one assumed (the
// declared entry state, the resting state, or "as created").
bool rule_first_touch(const Context& c, const AtRecorded& at, ResourceId r, const validate::TraceResource& tr,
                      Explanation& e) {
  const Belief& b = e.belief;
  const Observed& o = e.observed;
  if (!b.first_touch_in_group) return false;
  const std::string& name = c.rec.resources[r].name;
  const std::string list(at.list->name());
  const std::optional<AccessGuess> g =
      access_of(state_family(c.trace, tr, observed_enhanced(o, tr)), o.state);
  if (!g) {  // arrived as created (COMMON / UNDEFINED)
    if (b.entry) {
      e.mistake = Mistake::wrong_entry_state;
      e.fix.where = fmt::format("list '{}' entry", list);
      e.fix.declaration = fmt::format("remove {}", use_decl(name, b.entry->access, b.entry->stages));
      e.fix.text = fmt::format(
          "'{}' arrives in {} (as created), not in the declared entry state: remove the entry "
          "state",
          name, o.state);
      return true;
    }
    if (b.history.touched) {
      explain_stale(c, e, r);
      return true;
    }
    return false;  // a first touch both ways: nothing declared explains it
  }
  const Stages st = fallback_stages(*at.list, b, g->stages);
  e.mistake = Mistake::wrong_entry_state;
  e.fix.where = fmt::format("list '{}' entry", list);
  if (b.entry && b.resting && *b.resting == g->access && !b.previous_group.empty()) {
    e.fix.declaration = fmt::format("remove {}", use_decl(name, b.entry->access, b.entry->stages));
    e.fix.text = fmt::format(
        "'{}' arrives in its resting state {} ({}), not in the declared entry state {}: remove "
        "the entry state",
        name, baton::to_string(g->access), o.state, baton::to_string(b.entry->access));
    return true;
  }
  e.fix.declaration = use_decl(name, g->access, st);
  const std::string left_by =
      o.by_list.empty() ? "" : fmt::format(" (left by list '{}' command {})", o.by_list, o.by_command);
  e.fix.text = b.entry
                   ? fmt::format(
                         "'{}' arrives in {}{}, not in the declared entry state {}: change the entry "
                         "state of '{}' on list '{}' to {}",
                         name, o.state, left_by, baton::to_string(b.entry->access), name, list,
                         access_words(g->access, st))
                   : fmt::format(
                         "'{}' arrives in {}{}, but the compiler assumed {}: declare the entry state {} "
                         "for '{}' on list '{}'",
                         name, o.state, left_by, b.history.touched ? "its resting state" : "a first touch",
                         access_words(g->access, st), name, list);
  return true;
}

// Rule 5 (work outside the recording): it needs the resource in another state than the resting
// state a recorded list left it in.
bool rule_outside_resting(const Context& c, const validate::Message& m, int tres, ResourceId r,
                          Explanation& e) {
  const ResourceDesc& d = c.rec.resources[r];
  bool enhanced = false;
  const std::string expected = expected_by_command(c, m, tres, enhanced);
  if (!e.observed.by_in_recording || d.type != ResourceType::texture || expected.empty() || !e.belief.resting)
    return false;
  const std::optional<AccessGuess> need =
      access_of(state_family(c.trace, c.trace.resources[static_cast<size_t>(tres)], enhanced), expected);
  if (!need || need->access == *e.belief.resting) return false;
  e.mistake = Mistake::wrong_resting_layout;
  e.fix.where = fmt::format("resource '{}'", d.name);
  e.fix.declaration = fmt::format(R"("resting": "{}")", baton::to_string(need->access));
  e.fix.text = fmt::format(
      "list '{}' (not in the recording) expects '{}' in {}, but the recording leaves it in its "
      "resting state {}: override its resting state with {}",
      m.list, d.name, expected, baton::to_string(*e.belief.resting), baton::to_string(need->access));
  return true;
}

Explanation explain(const Context& c, const validate::Message& m) {
  Explanation e;
  e.message = m;
  const int tres = c.trace_resource(m.resource);
  if (tres == kNone) {  // a global barrier or a submission-level message
    e.fix.text = "the message names no resource: no declaration explains it";
    return e;
  }
  const validate::TraceResource& tr = c.trace.resources[static_cast<size_t>(tres)];
  const uint32_t sub = m.subresource >= 0 ? static_cast<uint32_t>(m.subresource) : 0;
  e.observed = observe(c.trace, m, tres, sub, c.recorded);
  const std::optional<ResourceId> rid = c.rec.resources.find(m.resource);
  if (!rid) {
    e.fix.text = fmt::format("the recording has no resource '{}': declare it and its uses", m.resource);
    return e;
  }
  const ResourceId r = *rid;

  const auto in_rec = c.lists.find(m.list);
  if (in_rec == c.lists.end()) {  // work outside the recording (another renderer, a consumer)
    e.belief = belief_outside(c, r);
    if (!e.observed.activated_list.empty() && (e.belief.history.touched || e.belief.history.written)) {
      e.group = e.belief.previous_group;
      explain_stale(c, e, r);
    } else if (!rule_outside_resting(c, m, tres, r, e)) {
      e.fix.text = fmt::format(
          "list '{}' is not in the recording and the recording leaves '{}' as declared: the "
          "fix is in that list, not in a declaration",
          m.list, m.resource);
    }
    return e;
  }

  AtRecorded at;
  at.where = in_rec->second;
  at.list = &c.list(at.where);
  at.trace_list = c.trace_list(m.list);
  if (m.command >= 0) {
    const CommandMap cm = map_commands(c.rec.resources, *at.list, c.trace, *at.trace_list);
    at.op = cm.op[static_cast<size_t>(m.command)];
    at.use = cm.use[static_cast<size_t>(m.command)];
  }
  e.group = c.group_name(at.where);
  e.list = at.list->name();
  if (at.op >= 0) {
    e.op = static_cast<uint32_t>(at.op);
    e.op_what = op_words(at.list->ops()[static_cast<size_t>(at.op)]);
  }
  e.belief = belief_at(c, at.where, at.op, r);
  if (rule_use_at_command(c, m, at, r, e) || rule_earlier_write(c, r, tr.buffer, e) ||
      rule_reactivated(c, r, e) || rule_first_touch(c, at, r, tr, e))
    return e;
  e.fix.text =
      e.belief.first_touch_in_group
          ? "the compiler treated this as a first touch, and the trace agrees: no declaration explains it"
          : "inside the group, after Baton's own transitions: no declaration explains it (report it)";
  return e;
}

}  // namespace

std::vector<Explanation> triage(const Recording& rec, const validate::Trace& trace, Api api,
                                const Options& options) {
  if ((api == Api::vulkan) != (trace.api == validate::Api::vulkan))
    throw Error(fmt::format("triage: the trace '{}' is a {} trace but --api is {}", trace.source,
                            trace.api == validate::Api::vulkan ? "vulkan" : "d3d12", baton::to_string(api)));
  const Context c = make_context(rec, trace, options.history_in);
  const validate::ValidationResult result = validate::validate(trace);
  std::vector<Explanation> out;
  for (const validate::Message& m : result.messages) {
    if (options.id && validate::number(m.id) != *options.id) continue;
    if (!options.resource.empty() && m.resource != options.resource) continue;
    out.push_back(explain(c, m));
  }
  return out;
}

}  // namespace baton::triage
