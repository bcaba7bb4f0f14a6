// Before/after comparison: the counts by id on both sides, and the suppression check (errors went
// down while coverage went down too, so the drop may come from tracking less rather than fixing).
#include <fmt/format.h>

#include <baton/validate.hpp>
#include <nlohmann/json.hpp>
#include <set>

namespace baton::validate {

Comparison compare(const Trace& before, const Trace& after) {
  Comparison c{validate(before), validate(after), false};
  const bool fewer_errors = c.after.errors < c.before.errors;
  const bool less_coverage = c.after.resources_tracked < c.before.resources_tracked ||
                             c.after.subresources_visited < c.before.subresources_visited;
  c.suppressed = fewer_errors && less_coverage;
  return c;
}

namespace {
std::set<uint32_t> all_ids(const Comparison& c) {
  std::set<uint32_t> ids;
  for (const auto& [id, n] : c.before.counts) ids.insert(id);
  for (const auto& [id, n] : c.after.counts) ids.insert(id);
  return ids;
}
uint32_t count_of(const ValidationResult& r, uint32_t id) {
  const auto it = r.counts.find(id);
  return it == r.counts.end() ? 0 : it->second;
}
std::string suppression_text(const Comparison& c) {
  return fmt::format(
      "errors dropped ({} -> {}) while coverage shrank (resources {} -> {}, visited subresources {} -> {}): "
      "a problem suppressed by tracking less, not fixed",
      c.before.errors, c.after.errors, c.before.resources_tracked, c.after.resources_tracked,
      c.before.subresources_visited, c.after.subresources_visited);
}
}  // namespace

std::string to_text(const Comparison& c) {
  std::string out = "counts by id (before -> after):\n";
  for (uint32_t id : all_ids(c))
    out += fmt::format("  #{} {}: {} -> {}\n", id, catalog_entry(static_cast<MessageId>(id)).name,
                       count_of(c.before, id), count_of(c.after, id));
  out += fmt::format("errors: {} -> {}\nwarnings: {} -> {}\n", c.before.errors, c.after.errors,
                     c.before.warnings, c.after.warnings);
  out +=
      fmt::format("coverage: resources {} -> {}, visited subresources {} -> {}\n", c.before.resources_tracked,
                  c.after.resources_tracked, c.before.subresources_visited, c.after.subresources_visited);
  if (c.suppressed) out += "warning: " + suppression_text(c) + "\n";
  return out;
}

std::string to_json(const Comparison& c) {
  nlohmann::ordered_json j;
  j["counts"] = nlohmann::ordered_json::object();
  for (uint32_t id : all_ids(c))
    j["counts"][std::to_string(id)] = {{"before", count_of(c.before, id)}, {"after", count_of(c.after, id)}};
  auto side = [](const ValidationResult& r) {
    return nlohmann::ordered_json{{"errors", r.errors},
                                  {"warnings", r.warnings},
                                  {"resources_tracked", r.resources_tracked},
                                  {"subresources_visited", r.subresources_visited}};
  };
  j["before"] = side(c.before);
  j["after"] = side(c.after);
  j["suppressed"] = c.suppressed;
  if (c.suppressed) j["warning"] = suppression_text(c);
  return j.dump(2) + "\n";
}

}  // namespace baton::validate
