// `baton validate TRACE [--format text|json]` and `baton validate --compare BEFORE AFTER`: replays an
// API-level trace (docs/trace-format.md) and prints the validator's messages in order, the counts by id and a
// summary. Exit 0 clean (warnings allowed), 1 if any error message, 2 on bad input (one line on stderr).
#include <baton/validate.hpp>

#include "commands.hpp"
#include "emit_trace.hpp"
#include "output.hpp"

namespace baton::cli {
namespace {

struct ValidateOptions {
  std::string trace;
  std::vector<std::string> compare;  // BEFORE AFTER
  std::string format = "text";
};

// Through the input gate (input::read): "-" is standard input.
validate::Trace load(const std::string& path) {
  return validate::load_trace_file(path);
}

int run_validate(const ValidateOptions& o) {
  if (!o.compare.empty()) {
    if (!o.trace.empty()) return report_error("give either TRACE or --compare BEFORE AFTER, not both");
    validate::Comparison c;
    try {
      c = validate::compare(load(o.compare[0]), load(o.compare[1]));
    } catch (const std::exception& e) {
      return report_error(e.what());
    }
    write_stdout(o.format == "json" ? validate::to_json(c) : validate::to_text(c));
    // A suppressed problem fails like an error: it is one, hidden.
    return c.after.errors > 0 || c.suppressed ? 1 : 0;
  }
  if (o.trace.empty()) return report_error("validate needs a TRACE (or --compare BEFORE AFTER)");
  validate::ValidationResult result;
  try {
    result = validate::validate(load(o.trace));
  } catch (const std::exception& e) {  // messages already name the file and JSON path
    return report_error(e.what());
  }
  write_stdout(o.format == "json" ? validate::to_json(result) : validate::to_text(result));
  return result.errors > 0 ? 1 : 0;
}

}  // namespace

void register_validate(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ValidateOptions>();
  CLI::App* sub = app.add_subcommand(
      "validate", "Check an API-level barrier trace like the D3D12 debug layer / Khronos layer");
  sub->add_option("trace", opts->trace, "Trace file (docs/trace-format.md); - reads stdin");
  sub->add_option("--compare", opts->compare, "Compare two traces: counts by id before and after")
      ->expected(2);
  sub->add_option("--format", opts->format, "Output format (default text)")
      ->check(CLI::IsMember({"text", "json"}));
  sub->callback([opts, &exit_code] { exit_code = run_validate(*opts); });
  register_emit_trace(app, exit_code);
}

}  // namespace baton::cli
