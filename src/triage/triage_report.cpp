// Triage reports: text for people (one block per message) and JSON for tools.
#include <fmt/format.h>

#include <baton/input.hpp>
#include <baton/triage.hpp>
#include <nlohmann/json.hpp>

namespace baton::triage {
namespace {

std::string yes_no(bool b) {
  return b ? "yes" : "no";
}

std::string declared_words(const Belief& b) {
  if (b.declared.empty()) return "not declared by the operation";
  std::string out;
  for (const Use& u : b.declared) {
    if (!out.empty()) out += ", ";
    out += std::string(baton::to_string(u.access));
    if (is_shader_access(u.access)) out += fmt::format(" ({})", stages_to_string(u.stages));
    out += is_write(u.access) ? " [write]" : " [read]";
  }
  return out;
}

std::string where_words(const Explanation& e) {
  if (e.list.empty()) return fmt::format("list '{}' is not in the recording", e.message.list);
  std::string s = fmt::format("group '{}' list '{}'", e.group, e.list);
  if (e.op) s += fmt::format(" op {}", *e.op);
  if (!e.op_what.empty()) s += fmt::format(" ({})", e.op_what);
  return s;
}

std::string actual_words(const Observed& o) {
  std::string s = fmt::format("in {}", o.state);
  if (o.by_list.empty())
    s += " (as created)";
  else
    s += fmt::format(", put there by list '{}' command {} ({}{})", o.by_list, o.by_command, o.by_what,
                     o.by_in_recording ? "" : "; not in the recording");
  if (!o.use_as.empty())
    s += fmt::format("; the command uses it as {}{}", o.use_as, o.use_writes ? " (a write)" : "");
  if (!o.activated_list.empty())
    s += fmt::format("; re-activated by list '{}' command {}", o.activated_list, o.activated_command);
  return s;
}

}  // namespace

std::string to_text(std::span<const Explanation> es) {
  std::string out;
  for (const Explanation& e : es) {
    const validate::Message& m = e.message;
    const validate::CatalogEntry& c = validate::catalog_entry(m.id);
    out += fmt::format("{} {} {}\n", validate::to_string(c.severity), validate::number(m.id), c.name);
    out += fmt::format("  message:   {}\n", input::escape(m.text));  // names cannot start a line
    out += fmt::format("  where:     {}\n", input::escape(where_words(e)));
    const Belief& b = e.belief;
    if (b.resource_in_recording && e.list.empty()) {  // work outside the recording
      out += fmt::format("  believed:  after the recording: resting: {}; last group touching it: {}\n",
                         b.resting ? std::string(baton::to_string(*b.resting)) +
                                         (b.resting_overridden ? " (override)" : " (derived)")
                                   : std::string("none (buffer)"),
                         b.previous_group.empty() ? std::string("none") : "'" + b.previous_group + "'");
      out += fmt::format("             so it assumed {}\n", b.assumed);
    } else if (b.resource_in_recording) {
      out += fmt::format(
          "  believed:  first touch in the group: {}; entry state declared: {}; declared access: {}\n",
          yes_no(b.first_touch_in_group),
          b.entry ? fmt::format("yes ({})", baton::to_string(b.entry->access)) : "no", declared_words(b));
      out +=
          fmt::format("             resting: {}; history at group start: touched {}, written {}{}\n",
                      b.resting ? std::string(baton::to_string(*b.resting)) +
                                      (b.resting_overridden ? " (override)" : " (derived)")
                                : std::string("none (buffer)"),
                      yes_no(b.history.touched), yes_no(b.history.written),
                      b.previous_group.empty() ? "" : fmt::format("; previous group '{}'", b.previous_group));
      out += fmt::format("             so it assumed {}\n", b.assumed);
    }
    out += fmt::format("  actually:  subresource {} was {}\n", m.subresource < 0 ? 0 : m.subresource,
                       actual_words(e.observed));
    out += fmt::format("  mistake:   {}\n", to_string(e.mistake));
    out += fmt::format("  fix:       {}\n", e.fix.text);
    if (!e.fix.declaration.empty())
      out += fmt::format("  declare:   {}: {}\n", e.fix.where, e.fix.declaration);
    out += "\n";
  }
  out += fmt::format("{} message{} explained\n", es.size(), es.size() == 1 ? "" : "s");
  return out;
}

std::string to_json(std::span<const Explanation> es) {
  using json = nlohmann::ordered_json;
  json arr = json::array();
  for (const Explanation& e : es) {
    const validate::Message& m = e.message;
    const validate::CatalogEntry& c = validate::catalog_entry(m.id);
    const Belief& b = e.belief;
    const Observed& o = e.observed;
    json declared = json::array();
    for (const Use& u : b.declared) {
      json d{{"access", baton::to_string(u.access)}, {"write", is_write(u.access)}};
      if (is_shader_access(u.access)) d["stages"] = stages_to_string(u.stages);
      declared.push_back(std::move(d));
    }
    json entry = nullptr;
    if (b.entry) entry = json{{"access", baton::to_string(b.entry->access)}};
    json j{{"id", validate::number(m.id)},
           {"name", c.name},
           {"severity", validate::to_string(c.severity)},
           {"list", m.list},
           {"command", m.command},
           {"resource", m.resource},
           {"subresource", m.subresource},
           {"text", m.text},
           {"group", e.group},
           {"recording_list", e.list},
           {"op", e.op ? json(*e.op) : json(nullptr)},
           {"op_what", e.op_what},
           {"mistake", to_string(e.mistake)},
           {"believed",
            {{"resource_in_recording", b.resource_in_recording},
             {"first_touch_in_group", b.first_touch_in_group},
             {"entry_state", entry},
             {"declared", declared},
             {"declared_write", b.declared_write},
             {"resting", b.resting ? json(baton::to_string(*b.resting)) : json(nullptr)},
             {"resting_overridden", b.resting_overridden},
             {"history", {{"touched", b.history.touched}, {"written", b.history.written}}},
             {"previous_group", b.previous_group},
             {"assumed", b.assumed}}},
           {"actual",
            {{"state", o.state},
             {"by_list", o.by_list},
             {"by_command", o.by_command},
             {"by_in_recording", o.by_in_recording},
             {"by_what", o.by_what},
             {"use_as", o.use_as},
             {"use_writes", o.use_writes},
             {"activated_list", o.activated_list},
             {"activated_command", o.activated_command}}},
           {"fix", {{"where", e.fix.where}, {"declaration", e.fix.declaration}, {"text", e.fix.text}}}};
    arr.push_back(std::move(j));
  }
  json root{{"explanations", arr}, {"count", es.size()}};
  return root.dump(2) + "\n";
}

}  // namespace baton::triage
