// Message formatting and the text / JSON reports.
#include "report.hpp"

#include <fmt/format.h>

#include <baton/core.hpp>
#include <baton/input.hpp>
#include <nlohmann/json.hpp>

namespace baton::validate {

namespace {
std::string fill(std::string_view tmpl, const std::string& expected, const std::string& actual) {
  std::string out;
  for (size_t i = 0; i < tmpl.size();) {
    if (tmpl.compare(i, 10, "{expected}") == 0) {
      out += expected;
      i += 10;
    } else if (tmpl.compare(i, 8, "{actual}") == 0) {
      out += actual;
      i += 8;
    } else {
      out += tmpl[i++];
    }
  }
  return out;
}
}  // namespace

Reporter::Reporter(const Trace& t, const ValidateOptions& options)
    : trace_(t), options_(options), visited_(t.resources.size()) {}

void Reporter::check_limits() const {
  const bool runs = stats_.live > options_.max_runs;
  if (!runs && stats_.visits <= options_.max_visits) return;
  const std::string where = list_ >= 0         ? fmt::format("/lists/{}/commands/{}", list_, command_)
                            : submission_ >= 0 ? fmt::format("/submissions/{}", submission_)
                                               : std::string("/resources");
  throw Error(input::one_line(fmt::format(
      "{}:{}: the replay needs more than {} {} (a hard limit of the validator: docs/trace-format.md, "
      "\"Cost and limits\")",
      trace_.source, where, runs ? options_.max_runs : options_.max_visits,
      runs ? "runs of subresource state at once" : "visits of subresource state")));
}

void Reporter::visit(int resource, uint32_t subresource, uint32_t count) {
  // (A Vulkan buffer's shadows are byte segments: coverage counts the buffer's one subresource.)
  if (trace_.resources[static_cast<size_t>(resource)].buffer) {
    subresource = 0;
    count = 1;
  }
  visited_[static_cast<size_t>(resource)].add(subresource, subresource + count);
}

void Reporter::flush() {
  for (auto& [key, where] : this_command_) {
    (void)key;
    if (where.second > 0)
      result_.messages[where.first].text += fmt::format(" (and {} more like it)", where.second);
  }
  this_command_.clear();
}

void Reporter::at_command(int list, int command) {
  check_limits();
  flush();
  list_ = list;
  command_ = command;
  submission_ = -1;
}
void Reporter::at_submission(int submission) {
  check_limits();
  flush();
  list_ = -1;
  command_ = -1;
  submission_ = submission;
}
void Reporter::at_creation() {
  flush();
  list_ = command_ = submission_ = -1;
}

std::string Reporter::location(int resource, int64_t subresource) const {
  std::string where;
  if (list_ >= 0)
    where = fmt::format("list '{}' command {}", trace_.lists[static_cast<size_t>(list_)].name, command_);
  else if (submission_ >= 0)
    where = fmt::format("submission {} (queue '{}')", submission_,
                        trace_.submissions[static_cast<size_t>(submission_)].queue);
  else
    where = "resource creation";
  if (resource >= 0) {
    const TraceResource& r = trace_.resources[static_cast<size_t>(resource)];
    where += fmt::format(", resource '{}'", r.name);
    if (subresource >= 0 && !r.buffer) {
      const auto s = static_cast<uint64_t>(subresource);  // the subresource index (report() converted it)
      where += fmt::format(" subresource {} (mip {} layer {} plane {})", s, s % r.mips, s / r.mips % r.layers,
                           s / (uint64_t{r.mips} * r.layers));
    }
  }
  return where;
}

void Reporter::report(MessageId id, int resource, int64_t subresource, const std::string& expected,
                      const std::string& actual, uint32_t count) {
  if (resource >= 0 && subresource >= 0 && trace_.resources[static_cast<size_t>(resource)].buffer) {
    subresource = 0;  // a Vulkan buffer's byte segments: the buffer's one subresource
    count = 1;
  } else if (resource >= 0 && subresource >= 0) {  // the shadows' run index -> the subresource index
    const TraceResource& r = trace_.resources[static_cast<size_t>(resource)];
    subresource = run_order(r).subresource(static_cast<uint32_t>(subresource));
  }
  const auto key = std::make_tuple(number(id), resource);
  {
    const auto it = this_command_.find(key);
    if (it != this_command_.end()) {
      it->second.second += static_cast<int>(count);  // same problem on other subresources of this command
      return;
    }
  }
  const CatalogEntry& e = catalog_entry(id);
  Message m;
  m.id = id;
  if (list_ >= 0) m.list = trace_.lists[static_cast<size_t>(list_)].name;
  m.command = command_;
  if (resource >= 0) m.resource = trace_.resources[static_cast<size_t>(resource)].name;
  m.subresource = resource >= 0 && !trace_.resources[static_cast<size_t>(resource)].buffer ? subresource : -1;
  m.text = fmt::format("{}: {}", location(resource, subresource), fill(e.text, expected, actual));
  this_command_[key] = {result_.messages.size(), static_cast<int>(count) - 1};
  result_.messages.push_back(std::move(m));
}

ValidationResult Reporter::finish() {
  check_limits();
  flush();
  result_.resources_tracked = static_cast<uint32_t>(trace_.resources.size());
  for (const IntervalSet& subs : visited_) result_.subresources_visited += subs.total();
  // Counts are derived from the final list, so they can never disagree with it.
  for (const Message& m : result_.messages) {
    ++result_.counts[number(m.id)];
    if (catalog_entry(m.id).severity == Severity::error)
      ++result_.errors;
    else
      ++result_.warnings;
  }
  return std::move(result_);
}

uint32_t ValidationResult::count(MessageId id) const {
  const auto it = counts.find(number(id));
  return it == counts.end() ? 0 : it->second;
}

std::string to_text(const ValidationResult& r) {
  std::string out;
  for (const Message& m : r.messages) {
    const CatalogEntry& e = catalog_entry(m.id);
    // Escaped: a name in the trace cannot print a line of its own (a forged "summary:").
    out += fmt::format("{} #{} {}: {}\n", to_string(e.severity), number(m.id), e.name, input::escape(m.text));
  }
  if (!r.counts.empty()) out += "counts:\n";
  for (const auto& [id, n] : r.counts)
    out += fmt::format("  #{} {}: {}\n", id, catalog_entry(static_cast<MessageId>(id)).name, n);
  out += fmt::format("summary: {} error(s), {} warning(s)\n", r.errors, r.warnings);
  return out;
}

std::string to_json(const ValidationResult& r) {
  nlohmann::ordered_json j;
  j["messages"] = nlohmann::ordered_json::array();
  for (const Message& m : r.messages) {
    const CatalogEntry& e = catalog_entry(m.id);
    nlohmann::ordered_json jm;
    jm["id"] = number(m.id);
    jm["name"] = e.name;
    jm["severity"] = to_string(e.severity);
    jm["list"] = m.list.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(m.list);
    jm["command"] = m.command >= 0 ? nlohmann::ordered_json(m.command) : nlohmann::ordered_json(nullptr);
    jm["resource"] =
        m.resource.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(m.resource);
    jm["subresource"] =
        m.subresource >= 0 ? nlohmann::ordered_json(m.subresource) : nlohmann::ordered_json(nullptr);
    jm["text"] = m.text;
    j["messages"].push_back(std::move(jm));
  }
  j["counts"] = nlohmann::ordered_json::object();
  for (const auto& [id, n] : r.counts) j["counts"][std::to_string(id)] = n;
  j["summary"] = {{"errors", r.errors}, {"warnings", r.warnings}};
  return j.dump(2) + "\n";
}

}  // namespace baton::validate
