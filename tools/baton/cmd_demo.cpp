// `baton` with no arguments (and `baton demo`): the built-in deferred-renderer frame, planned for
// all three APIs, with a summary (`--format json`: the three plans in the one plan shape and the
// summary). `baton demo --recording` prints the frame as a JSON recording.
#include <fmt/format.h>

#include <array>

#include "baton/frame.hpp"
#include "commands.hpp"
#include "output.hpp"
#include "plan_output.hpp"

namespace baton::cli {
namespace {

constexpr std::array<Api, 3> kApis = {Api::d3d12, Api::d3d12_legacy, Api::vulkan};

struct DemoCounts {
  size_t resources = 0, lists = 0, groups = 0, ops = 0, uses = 0;
};

DemoCounts count(const Recording& rec) {
  DemoCounts c;
  c.resources = rec.resources.size();
  c.groups = rec.groups.size();
  for (const auto& g : rec.groups) {
    c.lists += g->lists().size();
    for (const CommandList* l : g->lists()) {
      c.ops += l->ops().size();
      for (const Operation& op : l->ops()) c.uses += op.uses.size();
    }
  }
  return c;
}

std::string demo_output(bool json) {
  FrameInput in;
  in.source = "demo";
  in.recording = demo_recording();
  const DemoCounts c = count(*in.recording);
  const CompiledFrame f = compile_frame(std::move(in));  // compiled once, lowered per API
  std::string out = fmt::format(
      "Baton demo: one deferred-renderer frame ({} resources, {} lists in {} groups, {} operations, {} "
      "uses)\n",
      c.resources, c.lists, c.groups, c.ops, c.uses);
  std::string table = fmt::format("{:<14}{:>10}{:>8}{:>9}\n", "api", "barriers", "calls", "omitted");
  nlohmann::ordered_json plans = nlohmann::ordered_json::array();
  nlohmann::ordered_json summary = nlohmann::ordered_json::array();
  for (Api api : kApis) {
    const std::vector<LoweredGroup> lowered = lower_recording(f.rec, api, f.compiled);
    const Summary s = summarize(lowered);
    if (json) {
      plans.push_back(plan_json(f, api, lowered));
      summary.push_back({{"api", to_string(api)}, {"barriers", s.barriers}, {"calls", s.calls}, {"omitted", s.omitted}});
    } else {
      out += "\n" + plan_text(f.rec, api, lowered);
      table += fmt::format("{:<14}{:>10}{:>8}{:>9}\n", to_string(api), s.barriers, s.calls, s.omitted);
    }
  }
  if (!json) return out + "\nsummary\n" + table + "\n" + std::string(kPlanTextLegend) + "\n";
  nlohmann::ordered_json j;
  j["demo"] = {{"resources", c.resources}, {"lists", c.lists}, {"groups", c.groups}, {"operations", c.ops},
               {"uses", c.uses}};
  j["plans"] = std::move(plans);
  j["summary"] = std::move(summary);
  return j.dump(2) + "\n";
}

}  // namespace

int run_demo(bool json) {
  std::string out;
  try {
    out = demo_output(json);
  } catch (const std::exception& e) {
    return report_error(std::string("demo: ") + e.what());
  }
  write_stdout(out);
  return 0;
}

void register_demo(CLI::App& app, int& exit_code) {
  auto as_recording = std::make_shared<bool>(false);
  auto format = std::make_shared<std::string>("text");
  CLI::App* sub =
      app.add_subcommand("demo", "Plan the built-in demo frame for all three APIs (same as no arguments)");
  sub->add_flag("--recording", *as_recording, "Print the demo frame as a JSON recording instead");
  sub->add_option("--format", *format, "Output format of the plans (default text)")
      ->check(CLI::IsMember({"text", "json"}));
  sub->callback([as_recording, format, &exit_code] {
    if (!*as_recording) {
      exit_code = run_demo(*format == "json");
      return;
    }
    std::string out;
    try {
      out = save_recording(demo_recording());
    } catch (const std::exception& e) {
      exit_code = report_error(std::string("demo: ") + e.what());
      return;
    }
    write_stdout(out);
    exit_code = 0;
  });
}

}  // namespace baton::cli
