// The validated compile: compile_all(), then the plan's trace replayed in the independent validator.
// A message becomes an Error naming the group, list, operation, resource and subresource, so a
// debug build stops at the first plan the validator would reject.
#include <fmt/format.h>

#include <baton/validate.hpp>
#include <nlohmann/json.hpp>
#include <baton/validated_compile.hpp>

#include "triage_trace.hpp"

namespace baton {

SecondOpinion second_opinion(const std::string& trace_json, std::string_view source) {
  SecondOpinion o;
  const validate::ValidationResult r = validate::validate(validate::load_trace(trace_json, source));
  o.messages = r.messages.size();
  if (!r.messages.empty()) o.first = r.messages.front().text;
  nlohmann::json canary = nlohmann::json::parse(trace_json);
  for (auto& list : canary["lists"]) {
    nlohmann::json kept = nlohmann::json::array();
    for (auto& c : list["commands"]) {
      if (c.contains("barrier")) {
        ++o.barriers_removed;
        continue;
      }
      kept.push_back(std::move(c));
    }
    list["commands"] = std::move(kept);
  }
  if (o.barriers_removed > 0)
    o.canary_findings =
        validate::validate(validate::load_trace(canary.dump(), std::string(source) + " without its barriers"))
            .messages.size();
  return o;
}

void validate_compiled(const ResourceTable& resources, std::span<const CommandListGroup* const> groups,
                       std::span<const CompiledGroup> compiled, Api api, const History& history_in) {
  const std::string text = trace_of_plan(resources, groups, compiled, api, history_in);
  const validate::Trace trace = validate::load_trace(text, "validated compile");
  const validate::ValidationResult r = validate::validate(trace);
  if (r.messages.empty()) return;
  const validate::Message& m = r.messages.front();
  // Where the message's command sits in the recording: the group and operation of its list.
  std::string where =
      m.list.empty() ? std::string("at a submission boundary") : fmt::format("list '{}'", m.list);
  for (const CommandListGroup* g : groups)
    for (const CommandList* l : g->lists()) {
      if (l->name() != m.list) continue;
      where = fmt::format("group '{}' list '{}'", g->name(), l->name());
      for (const validate::TraceList& tl : trace.lists)
        if (tl.name == l->name() && m.command >= 0) {
          const int op =
              triage_detail::map_commands(resources, *l, trace, tl).op[static_cast<size_t>(m.command)];
          if (op >= 0) where += fmt::format(" op {}", op);
        }
    }
  if (m.command >= 0) where += fmt::format(" (command {})", m.command);
  const validate::CatalogEntry& c = validate::catalog_entry(m.id);
  throw Error(
      fmt::format("validated compile ({}): {} {} in {}, resource '{}' subresource {}{}: {}", to_string(api),
                  validate::number(m.id), c.name, where, m.resource, m.subresource < 0 ? 0 : m.subresource,
                  r.messages.size() > 1 ? fmt::format(" (and {} more)", r.messages.size() - 1) : "", m.text));
}

CompileResult validated_compile_all(const ResourceTable& resources, std::span<CommandListGroup* const> groups,
                                    History history_in, const ValidatedCompileOptions& options) {
  const History in = history_in;
  CompileResult result = compile_all(resources, groups, std::move(history_in), options.threads);
  if (options.enabled) {
    const std::vector<const CommandListGroup*> cg(groups.begin(), groups.end());
    validate_compiled(resources, cg, result.groups, options.api, in);
  }
  return result;
}

}  // namespace baton
