// emit-trace: the compiled plan of a recording or a frame graph as a validator trace
// (docs/trace-format.md). One loader and one compiled frame (include/frame/baton/frame.hpp); the walk is
// the library's trace_of_plan, which the validated compile and triage use too.
#include "baton/frame.hpp"
#include "baton/validated_compile.hpp"
#include "emit_trace.hpp"
#include "output.hpp"
#include "plan_output.hpp"

namespace baton::cli {

std::string emit_trace(Recording& rec, Api api) { return trace_of_recording(rec, api); }

void register_emit_trace(CLI::App& app, int& exit_code) {
  struct Options {
    std::string file, api = "d3d12", split_barriers = "off", format = "json";
  };
  auto opts = std::make_shared<Options>();
  CLI::App* sub =
      app.add_subcommand("emit-trace", "Compile a recording or frame graph and write its plan as a validator trace");
  sub->add_option("recording", opts->file,
                  "Recording or frame graph (docs/recording-format.md, docs/graph-format.md); - reads stdin")
      ->required();
  // The trace is JSON whatever the format; `--format json` is accepted so that errors are JSON too.
  sub->add_option("--format", opts->format, "Output format: json only (the trace format; errors as JSON)")
      ->check(CLI::IsMember({"json"}));
  sub->add_option("--api", opts->api, "Target API (default d3d12)")
      ->check(CLI::IsMember({"d3d12", "d3d12-legacy", "vulkan"}));
  sub->add_option("--split-barriers", opts->split_barriers,
                  "Split barriers into begin/end halves (default off)")
      ->check(CLI::IsMember({"on", "off"}));
  sub->callback([opts, &exit_code] {
    std::string out;
    try {
      graph::CompileOptions co;
      co.split_barriers = opts->split_barriers == "on";
      const CompiledFrame f = compile_frame(load_frame_input(opts->file), co);
      if (!f.findings.empty()) throw Error(f.source + ": graph check failed: " + f.findings.front());
      out = trace_of(f, *parse_api(opts->api));
    } catch (const std::exception& e) {
      exit_code = report_error(e.what());
      return;
    }
    write_stdout(out);
    exit_code = 0;
  });
}

}  // namespace baton::cli
