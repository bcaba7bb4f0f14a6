// `baton triage RECORDING [TRACE] --api d3d12|d3d12-legacy|vulkan [--id N] [--resource R]
// [--format text|json]`: explains each validator message on TRACE (what really ran; without one,
// Baton's own plan for the recording) in terms of the recording's declarations. Exit 0 when there
// is no message, 1 when messages were explained, 2 on bad input (one line on stderr).
#include <baton/input.hpp>
#include <baton/triage.hpp>
#include <baton/validated_compile.hpp>

#include "commands.hpp"
#include "output.hpp"

namespace baton::cli {
namespace {

struct TriageOptions {
  std::string recording, trace, api = "d3d12", format = "text", resource;
  int64_t id = -1;
};

int run_triage(const TriageOptions& o) {
  std::vector<triage::Explanation> explanations;
  try {
    const Api api = *parse_api(o.api);
    // Read once through the input gate ("-" may be standard input, which cannot be read twice).
    const std::string source = input::source_name(o.recording);
    const std::string text = input::read(o.recording);
    validate::Trace trace;
    if (o.trace.empty()) {
      Recording planned = load_recording(text, source);  // compiled by the trace (lists end Compiled)
      trace = validate::load_trace(trace_of_recording(planned, api), "baton's plan for " + source);
    } else {
      trace = validate::load_trace_file(o.trace);
    }
    const Recording rec = load_recording(text, source);
    triage::Options opts;
    if (o.id >= 0) opts.id = static_cast<uint32_t>(o.id);
    opts.resource = o.resource;
    explanations = triage::triage(rec, trace, api, opts);
  } catch (const std::exception& e) {
    return report_error(e.what());
  }
  write_stdout(o.format == "json" ? triage::to_json(explanations) : triage::to_text(explanations));
  return explanations.empty() ? 0 : 1;
}

}  // namespace

void register_triage(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<TriageOptions>();
  CLI::App* sub = app.add_subcommand(
      "triage", "Explain validator messages as the recording declarations that caused them");
  sub->add_option("recording", opts->recording, "Recording file (docs/recording-format.md); - reads stdin")
      ->required();
  sub->add_option("trace", opts->trace,
                  "Trace of what really ran (default: Baton's own plan); - reads stdin");
  sub->add_option("--api", opts->api, "Target API (default d3d12)")
      ->check(CLI::IsMember({"d3d12", "d3d12-legacy", "vulkan"}));
  sub->add_option("--id", opts->id, "Only messages with this numeric id")
      ->check(CLI::Range(int64_t{0}, int64_t{0xffffffff}));
  sub->add_option("--resource", opts->resource, "Only messages about this resource");
  sub->add_option("--format", opts->format, "Output format (default text)")
      ->check(CLI::IsMember({"text", "json"}));
  sub->callback([opts, &exit_code] { exit_code = run_triage(*opts); });
}

}  // namespace baton::cli
