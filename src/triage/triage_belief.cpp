// The compiler's beliefs at an operation, rebuilt from the declarations and plan()'s GroupFacts.
#include <fmt/format.h>

#include "triage_context.hpp"

namespace baton::triage_detail {

using triage::Belief;

const validate::TraceList* Context::trace_list(std::string_view name) const {
  for (const validate::TraceList& l : trace.lists)
    if (l.name == name) return &l;
  return nullptr;
}

int Context::trace_resource(std::string_view name) const {
  for (size_t i = 0; i < trace.resources.size(); ++i)
    if (trace.resources[i].name == name) return static_cast<int>(i);
  return kNone;
}

Context make_context(const Recording& rec, const validate::Trace& trace, const History& history_in) {
  Context c{rec, trace, {}, {}, {}, {}};
  for (CommandListGroup* g : rec.groups) c.groups.push_back(g);
  c.plan = plan(rec.resources, c.groups, history_in.empty() ? fresh_history(rec.resources) : history_in);
  for (size_t g = 0; g < c.groups.size(); ++g)
    for (size_t l = 0; l < c.groups[g]->lists().size(); ++l) {
      c.lists[std::string(c.groups[g]->lists()[l]->name())] = ListRef{static_cast<int>(g), static_cast<int>(l)};
      c.recorded.insert(std::string(c.groups[g]->lists()[l]->name()));
    }
  return c;
}

std::string op_words(const Operation& op) {
  std::string s(baton::to_string(op.kind));
  if (!op.label.empty()) s += fmt::format(" \"{}\"", op.label);
  return s;
}

std::string use_decl(std::string_view resource, Access a, Stages s) {
  std::string out = fmt::format(R"({{"resource": "{}", "access": "{}")", resource, baton::to_string(a));
  if (is_shader_access(a)) {
    const std::string st = stages_to_string(s == kNoStages ? kAllShading : s);
    if (st.find(',') == std::string::npos) {
      out += fmt::format(R"(, "stages": "{}")", st);
    } else {
      std::string arr;
      for (size_t i = 0; i <= st.size();) {
        size_t j = st.find(',', i);
        if (j == std::string::npos) j = st.size();
        arr += fmt::format(R"({}"{}")", arr.empty() ? "" : ", ", st.substr(i, j - i));
        i = j + 1;
      }
      out += fmt::format(R"(, "stages": [{}])", arr);
    }
  }
  return out + "}";
}

std::string access_words(Access a, Stages s) {
  if (!is_shader_access(a)) return std::string(baton::to_string(a));
  return fmt::format("{} ({})", baton::to_string(a), stages_to_string(s == kNoStages ? kAllShading : s));
}

namespace {

bool list_uses(const CommandList& l, ResourceId r, size_t ops_end) {
  for (size_t o = 0; o < ops_end && o < l.ops().size(); ++o)
    for (const Use& u : l.ops()[o].uses)
      if (u.resource == r) return true;
  return false;
}

// Last group before `g` whose lists use the resource (kNone if none).
int previous_group(const Context& c, int g, ResourceId r) {
  for (int i = g - 1; i >= 0; --i)
    for (const CommandList* l : c.groups[static_cast<size_t>(i)]->lists())
      if (list_uses(*l, r, l->ops().size())) return i;
  return kNone;
}

ResourceHistory history_at(const Context& c, int g, ResourceId r) {
  for (const auto& [id, h] : c.plan.groups[static_cast<size_t>(g)].entry_history)
    if (id == r) return h;
  // The group does not declare the resource at all: what the earlier groups did to it.
  ResourceHistory h;
  for (int i = 0; i < g; ++i)
    for (const CommandList* l : c.groups[static_cast<size_t>(i)]->lists()) {
      for (const Operation& op : l->ops())
        for (const Use& u : op.uses)
          if (u.resource == r) h = {true, h.written || is_write(u.access)};
      for (const EntryState& e : l->entry_states())
        if (e.resource == r && is_write(e.access)) h.written = true;
    }
  return h;
}

}  // namespace

Belief belief_at(const Context& c, const ListRef& where, int op, ResourceId r) {
  Belief b;
  b.resource_in_recording = true;
  const ResourceDesc& d = c.rec.resources[r];
  b.resting = resting_access(d);
  b.resting_overridden = d.type == ResourceType::texture && d.resting.has_value();
  b.history = history_at(c, where.group, r);
  const int prev = previous_group(c, where.group, r);
  if (prev != kNone) b.previous_group = c.groups[static_cast<size_t>(prev)]->name();
  const CommandList& l = c.list(where);
  for (const EntryState& e : l.entry_states())
    if (e.resource == r) b.entry = e;
  b.handed_on = b.entry.has_value() && prev != kNone;
  if (op >= 0)
    for (const Use& u : l.ops()[static_cast<size_t>(op)].uses)
      if (u.resource == r) {
        b.declared.push_back(u);
        b.declared_write |= is_write(u.access);
      }
  // First touch in the group: no earlier list of the group and no earlier operation of this list.
  b.first_touch_in_group = !list_uses(l, r, op < 0 ? 0 : static_cast<size_t>(op));
  for (int li = 0; li < where.list && b.first_touch_in_group; ++li)
    if (list_uses(*c.groups[static_cast<size_t>(where.group)]->lists()[static_cast<size_t>(li)], r, SIZE_MAX))
      b.first_touch_in_group = false;
  if (!b.first_touch_in_group) {
    b.assumed = "the state its previous use in this group left (a transition inside the group)";
  } else if (b.entry) {
    b.assumed = fmt::format("the declared entry state {}", access_words(b.entry->access, b.entry->stages));
  } else if (!b.history.touched) {
    b.assumed =
        "nothing: the first-ever touch since creation (layout undefined, SyncBefore NONE; legacy: "
        "COMMON with implicit promotion)";
  } else if (b.resting) {
    b.assumed =
        fmt::format("its resting state {}{}{}", baton::to_string(*b.resting),
                    b.resting_overridden ? " (resting override)" : " (derived from its usage)",
                    b.previous_group.empty() ? "" : fmt::format(", left by group '{}'", b.previous_group));
  } else {
    b.assumed = "any earlier access (a buffer has no resting state)";
  }
  return b;
}

// Belief for work outside the recording: the resource as the recording leaves it.
Belief belief_outside(const Context& c, ResourceId r) {
  Belief b;
  b.resource_in_recording = true;
  const ResourceDesc& d = c.rec.resources[r];
  b.resting = resting_access(d);
  b.resting_overridden = d.type == ResourceType::texture && d.resting.has_value();
  const int last = previous_group(c, static_cast<int>(c.groups.size()), r);
  if (last != kNone) b.previous_group = c.groups[static_cast<size_t>(last)]->name();
  b.history = c.plan.history_out[r];
  if (b.resting)
    b.assumed = fmt::format("every group leaves it in its resting state {}{}", baton::to_string(*b.resting),
                            b.resting_overridden ? " (resting override)" : " (derived from its usage)");
  else
    b.assumed = "a buffer: no resting state, any access may follow";
  return b;
}

}  // namespace baton::triage_detail
