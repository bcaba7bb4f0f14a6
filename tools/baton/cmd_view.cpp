// `baton view FILE -o frame.html [--api d3d12|d3d12-legacy|vulkan|all] [--split-barriers on|off]
// [--timestamps TIMES.json] [--trace-events OUT.json]`: one compiled recording or frame graph
// (docs/cli.md), drawn in submission order or, with --timestamps, at the GPU times `baton run
// --timestamps` measured; --trace-events also writes it for a standard timeline viewer. The page is built in memory, written to a
// temporary file next to the output and renamed over it, so a failure never leaves a partial page;
// -o never replaces the input file and never writes through a symbolic link.

#include <array>
#include <cstdio>
#include <span>

#include "baton/input.hpp"
#include "baton/progress.hpp"
#include "baton/view.hpp"
#include "commands.hpp"
#include "output.hpp"

namespace baton::cli {
namespace {

struct ViewOptions {
  std::string file, out;
  std::string api = "d3d12";
  std::string split_barriers = "off";
  std::string timestamps;    // trace-event JSON from baton run --timestamps
  std::string trace_events;  // write the frame as trace-event JSON too
};

int run_view(const ViewOptions& o) {
  // --api all: the page embeds the three lowerings (with a switch) and opens on d3d12; otherwise only
  // the one asked for is lowered.
  const bool all = o.api == "all";
  const std::optional<Api> api = all ? std::optional<Api>(Api::d3d12) : parse_api(o.api);
  if (!api)
    return report_error("unknown --api '" + o.api + "' (expected d3d12, d3d12-legacy, vulkan or all)");
  const std::array<Api, 1> one = {*api};
  const std::span<const Api> apis = all ? std::span<const Api>(view::kAllApis) : std::span<const Api>(one);
  const std::string source = o.file == "-" ? "<stdin>" : o.file;
  bool findings = false;
  try {
    if (o.out != "-") check_output(o.out, o.file);
    if (!o.trace_events.empty()) {
      if (o.trace_events == "-" || o.trace_events == o.out)
        throw Error("--trace-events needs a file of its own (not - and not the -o file)");
      check_output(o.trace_events, o.file);
      if (!o.timestamps.empty()) check_output(o.trace_events, o.timestamps);
    }
    // Big frames take seconds: show the stages on a terminal (nothing when stderr is not one).
    Progress progress("baton view", 1 + apis.size() + 1);
    view::Frame frame = view::build_frame(
        input::read(o.file), source, [&](std::string_view stage) { progress.step(1, stage); }, apis,
        o.split_barriers == "on");
    // The lowering shown first must exist (with --api all the other two may fail: the page shows why).
    if (const std::string& e = frame.lowering(*api).error; !e.empty()) throw Error(source + ": " + e);
    if (!o.timestamps.empty()) view::attach_times(frame, input::read(o.timestamps), input::source_name(o.timestamps));
    findings = !frame.findings.empty();
    progress.step(1, "page");
    const std::string page = view::render_html(frame, *api);
    progress.done();
    if (!o.trace_events.empty()) write_atomically(o.trace_events, view::trace_events(frame, *api));
    if (o.out == "-")
      write_stdout(page);
    else
      write_atomically(o.out, page);
  } catch (const std::exception& e) {
    return report_error(e.what());
  }
  return findings ? 1 : 0;
}

}  // namespace

void register_view(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ViewOptions>();
  CLI::App* sub =
      app.add_subcommand("view", "Write a compiled recording or frame graph as one self-contained HTML page");
  sub->add_option("file", opts->file, "Recording or frame graph (JSON); - reads stdin")->required();
  sub->add_option("-o,--output", opts->out, "The HTML file to write (- writes stdout)")->required();
  sub->add_option("--api", opts->api,
                  "The lowering to show (default d3d12; only it is computed); all: the three, with a switch")
      ->check(CLI::IsMember({"d3d12", "d3d12-legacy", "vulkan", "all"}));
  sub->add_option("--split-barriers", opts->split_barriers,
                  "Show the plan with split barriers (each split's note gives its reason; default off)")
      ->check(CLI::IsMember({"on", "off"}));
  sub->add_option("--timestamps", opts->timestamps,
                  "Draw the frame at measured GPU times: the trace-event JSON of baton run FILE --timestamps");
  sub->add_option("--trace-events", opts->trace_events,
                  "Also write the frame (passes and --api's barriers) as Chrome/Perfetto trace-event JSON");
  sub->callback([opts, &exit_code] { exit_code = run_view(*opts); });
}

}  // namespace baton::cli
