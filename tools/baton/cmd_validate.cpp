// `baton validate FILE [--api A] [--format text|json]` and `baton validate --compare BEFORE AFTER`: replays an
// API-level trace (docs/trace-format.md) and prints the validator's messages in order, the counts by id and a
// summary. Exit 0 clean (warnings allowed), 1 if any error message, 2 on bad input (one line on stderr).
// FILE may also be a recording or a frame graph: it is compiled (one loader, include/frame/baton/frame.hpp)
// and its plan for --api validated, as `emit-trace | validate -` would.
#include <baton/frame.hpp>
#include <baton/input.hpp>
#include <baton/validate.hpp>
#include <baton/validated_compile.hpp>

#include "commands.hpp"
#include "emit_trace.hpp"
#include "output.hpp"

namespace baton::cli {
namespace {

struct ValidateOptions {
  std::string trace;
  std::vector<std::string> compare;  // BEFORE AFTER
  std::string format = "text";
  std::string api = "d3d12";         // for recordings and graphs
  std::string split_barriers = "off";  // for recordings and graphs
};

// Through the input gate (input::read): "-" is standard input. A trace has "lists" or
// "submissions"; anything else is a recording or a frame graph, compiled and traced for `api`.
validate::Trace load(const std::string& path, Api api, bool split) {
  const std::string source = input::source_name(path);
  std::string text = input::read(path);
  const nlohmann::json j = input::parse(text, source);
  if (j.is_object() && (j.contains("lists") || j.contains("submissions") || j.contains("api")))
    return validate::load_trace(text, source);
  graph::CompileOptions co;
  co.split_barriers = split;
  const CompiledFrame f = compile_frame(parse_frame_input(text, source), co);
  if (!f.findings.empty()) throw Error(source + ": graph check failed: " + f.findings.front());
  return validate::load_trace(trace_of(f, api), "baton's plan for " + source);
}

int run_validate(const ValidateOptions& o) {
  if (!o.compare.empty()) {
    if (!o.trace.empty()) return report_error("give either TRACE or --compare BEFORE AFTER, not both");
    validate::Comparison c;
    try {
      c = validate::compare(load(o.compare[0], *parse_api(o.api), o.split_barriers == "on"),
                            load(o.compare[1], *parse_api(o.api), o.split_barriers == "on"));
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
    result = validate::validate(load(o.trace, *parse_api(o.api), o.split_barriers == "on"));
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
  sub->add_option("trace", opts->trace,
                  "Trace (docs/trace-format.md), or a recording or frame graph to compile and check; - reads stdin");
  sub->add_option("--api", opts->api, "API of the plan when FILE is a recording or frame graph (default d3d12)")
      ->check(CLI::IsMember({"d3d12", "d3d12-legacy", "vulkan"}));
  sub->add_option("--split-barriers", opts->split_barriers,
                  "Recordings and graphs: validate the plan with split barriers (default off)")
      ->check(CLI::IsMember({"on", "off"}));
  sub->add_option("--compare", opts->compare, "Compare two traces: counts by id before and after")
      ->expected(2);
  sub->add_option("--format", opts->format, "Output format (default text)")
      ->check(CLI::IsMember({"text", "json"}));
  sub->callback([opts, &exit_code] { exit_code = run_validate(*opts); });
  register_emit_trace(app, exit_code);
}

}  // namespace baton::cli
