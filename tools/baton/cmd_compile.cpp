// `baton compile FILE [--api d3d12|d3d12-legacy|vulkan] [--format text|json]`
// FILE is a recording (docs/recording-format.md) or a frame graph (docs/graph-format.md); graphs also
// take `--dump PHASE`, `--order program|random|latency --seed N` and `--no-aliasing`. `--dot` prints Graphviz
// of passes, resources and barriers instead (src/view/dot.cpp).
#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "baton/frame.hpp"
#include "baton/graph.hpp"
#include "baton/input.hpp"
#include "baton/view.hpp"
#include "commands.hpp"
#include "output.hpp"
#include "plan_output.hpp"

namespace baton::cli {
namespace {

struct CompileOptions {
  std::string file;
  std::string api = "d3d12";
  std::string format = "text";
  std::string dump;            // graphs: print one phase's result instead of the plan
  std::string order = "program";
  uint64_t seed = 1;
  bool no_aliasing = false;
  bool dot = false;
  std::string split_barriers = "off";
};

graph::CompileOptions graph_options(const CompileOptions& o) {
  graph::CompileOptions co;
  co.schedule.order = o.order == "random"    ? graph::Order::random
                      : o.order == "latency" ? graph::Order::latency
                                             : graph::Order::program;
  co.schedule.seed = o.seed;
  co.aliasing.enabled = !o.no_aliasing;
  co.split_barriers = o.split_barriers == "on";
  return co;
}

// `--dump PHASE --format json`: the phase's text, one array element per line.
std::string dump_json(const std::string& phase, const std::string& text) {
  nlohmann::ordered_json lines = nlohmann::ordered_json::array();
  for (size_t at = 0; at < text.size();) {
    const size_t nl = text.find('\n', at);
    lines.push_back(text.substr(at, nl == std::string::npos ? std::string::npos : nl - at));
    at = nl == std::string::npos ? text.size() : nl + 1;
  }
  nlohmann::ordered_json j;
  j["phase"] = phase;
  j["lines"] = std::move(lines);
  return j.dump(2) + "\n";
}

int run_compile(const CompileOptions& o) {
  const std::optional<Api> api = parse_api(o.api);
  if (!api) return report_error("unknown --api '" + o.api + "' (expected d3d12, d3d12-legacy or vulkan)");
  const std::string source = input::source_name(o.file);
  if (o.dot) {
    if (!o.dump.empty()) return report_error("--dot and --dump cannot be combined");
    if (o.format == "json")
      return report_error("--dot prints Graphviz (its own format); it cannot be combined with --format json");
    std::string out;
    bool findings = false;
    try {
      const std::string text = input::read(o.file);  // the input gate: every command reads its file this way
      const std::array<Api, 1> only = {*api};  // the dot names one lowering: only it is computed
      const view::Frame frame = view::build_frame(text, source, {}, only, o.split_barriers == "on");
      if (const std::string& e = frame.lowering(*api).error; !e.empty()) throw Error(source + ": " + e);
      out = view::render_dot(frame, *api);
      findings = !frame.findings.empty();
    } catch (const std::exception& e) {
      return report_error(e.what());
    }
    write_stdout(out);
    return findings ? 1 : 0;
  }
  // One loader decides recording or graph (a graph file has "passes"), one compile: the plan,
  // the dump and the JSON all come from the one compiled frame (include/baton/frame.hpp).
  std::string out;
  bool findings = false;
  try {
    FrameInput in = load_frame_input(o.file);
    if (!in.is_graph() && !o.dump.empty())
      return report_error(source + ": --dump applies to frame graphs only (this is a recording)");
    if (!o.dump.empty() && std::find(graph::kPhases.begin(), graph::kPhases.end(), o.dump) == graph::kPhases.end())
      throw Error(graph::dump(*in.graph, {}, o.dump));  // names the phases
    std::string dumped;
    const CompiledFrame f = compile_frame(std::move(in), graph_options(o),
                                          [&](const graph::Graph& g, const graph::GraphCompileResult& r) {
                                            if (!o.dump.empty()) dumped = graph::dump(g, r, o.dump);
                                          });
    findings = !f.findings.empty();
    if (!o.dump.empty()) {
      out = o.format == "json" ? dump_json(o.dump, dumped) : dumped;
    } else {
      // The one lowering, from where the frame starts (a graph's resources at rest).
      const std::vector<LoweredGroup> lowered = lower(*api, f.rec.resources, f.compiled, f.history_in);
      out = o.format == "json" ? plan_json(f, *api, lowered).dump(2) + "\n" : plan_text(f, *api, lowered) + std::string(kPlanTextLegend) + "\n";
    }
  } catch (const std::exception& e) {
    const std::string m = e.what();
    return report_error(input::located(source, m));
  }
  write_stdout(out);
  return findings ? 1 : 0;
}

}  // namespace

void register_compile(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<CompileOptions>();
  CLI::App* sub = app.add_subcommand("compile", "Compile a JSON recording or frame graph and print its barrier plan");
  sub->add_option("file", opts->file, "Recording (docs/recording-format.md) or frame graph (docs/graph-format.md); - reads stdin")->required();
  sub->add_option("--api", opts->api, "Target API (default d3d12)")
      ->check(CLI::IsMember({"d3d12", "d3d12-legacy", "vulkan"}));
  sub->add_option("--format", opts->format, "Output format (default text)")
      ->check(CLI::IsMember({"text", "json"}));
  sub->add_option("--dump", opts->dump, "Graphs: print one phase (validate, cull, schedule, lifetimes, aliasing, "
                                        "transitions, restores, checks)");
  sub->add_option("--order", opts->order,
                  "Graphs: schedule order: program (default), random (--seed), latency (longest chain first)")
      ->check(CLI::IsMember({"program", "random", "latency"}));
  sub->add_option("--seed", opts->seed, "Graphs: seed of --order random");
  sub->add_option("--split-barriers", opts->split_barriers,
                  "Split barriers with independent work between producer and consumer into begin/end "
                  "halves (default off)")
      ->check(CLI::IsMember({"on", "off"}));
  sub->add_flag("--dot", opts->dot, "Print Graphviz (dot) of passes, resources and barriers for --api");
  sub->add_flag("--no-aliasing", opts->no_aliasing, "Graphs: give every transient resource its own memory");
  sub->callback([opts, &exit_code] { exit_code = run_compile(*opts); });
}

}  // namespace baton::cli
