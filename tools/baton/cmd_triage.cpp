// `baton triage RECORDING [TRACE] --api d3d12|d3d12-legacy|vulkan [--id N] [--resource R]
// [--format text|json]`: explains each validator message on TRACE (what really ran; without one,
// Baton's own plan for the recording) in terms of the recording's declarations. Exit 0 when there
// is no message, 1 when messages were explained, 2 on bad input (one line on stderr).
#include <baton/frame.hpp>
#include <baton/input.hpp>
#include <baton/triage.hpp>
#include <baton/validated_compile.hpp>

#include "commands.hpp"
#include "output.hpp"

namespace baton::cli {
namespace {

struct TriageOptions {
  std::string recording, trace, api, format = "text", resource;
  int64_t id = -1;
};

int run_triage(const TriageOptions& o) {
  std::vector<triage::Explanation> explanations;
  try {
    // One loader: a recording or a frame graph, read once through the input gate ("-" may be
    // standard input, which cannot be read twice), compiled once.
    const CompiledFrame frame = compile_frame(load_frame_input(o.recording));
    validate::Trace trace;
    if (!o.trace.empty()) trace = validate::load_trace_file(o.trace);
    // --api defaults to the trace's own API family (a d3d12 trace may be legacy or enhanced: the
    // trace's barriers say which) and to d3d12 for Baton's own plan.
    Api api = Api::d3d12;
    if (!o.api.empty()) {
      api = *parse_api(o.api);
    } else if (!o.trace.empty()) {
      api = trace.api == validate::Api::vulkan ? Api::vulkan : Api::d3d12;
      if (api == Api::d3d12)
        for (const validate::TraceList& l : trace.lists)
          for (const validate::Command& c : l.commands)
            if (const auto* b = std::get_if<validate::BarrierCmd>(&c))
              for (const validate::Barrier& x : b->barriers)
                if (std::holds_alternative<validate::LegacyTransition>(x) || std::holds_alternative<validate::LegacyUav>(x) ||
                    std::holds_alternative<validate::LegacyAliasing>(x))
                  api = Api::d3d12_legacy;
    }
    if (o.trace.empty()) trace = validate::load_trace(trace_of(frame, api), "baton's plan for " + frame.source);
    const Recording& rec = frame.rec;
    triage::Options opts;
    if (o.id >= 0) opts.id = static_cast<uint32_t>(o.id);
    opts.history_in = frame.history_in;
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
  sub->add_option("recording", opts->recording,
                  "Recording or frame graph (docs/recording-format.md, docs/graph-format.md); - reads stdin")
      ->required();
  sub->add_option("trace", opts->trace, "Trace of what really ran (default: Baton's own plan); - reads stdin");
  sub->add_option("--api", opts->api, "Target API (default: the trace's, else d3d12)")
      ->check(CLI::IsMember({"d3d12", "d3d12-legacy", "vulkan"}));
  sub->add_option("--id", opts->id, "Only messages with this numeric id")
      ->check(CLI::Range(int64_t{0}, int64_t{0xffffffff}));
  sub->add_option("--resource", opts->resource, "Only messages about this resource");
  sub->add_option("--format", opts->format, "Output format (default text)")
      ->check(CLI::IsMember({"text", "json"}));
  sub->callback([opts, &exit_code] { exit_code = run_triage(*opts); });
}

}  // namespace baton::cli
