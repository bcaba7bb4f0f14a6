// `baton` with no arguments (and `baton demo`): the built-in deferred-renderer frame, planned for
// all three APIs, with a summary. `baton demo --recording` prints the frame as a JSON recording.
#include <fmt/format.h>

#include <array>

#include "commands.hpp"
#include "output.hpp"
#include "plan_output.hpp"

namespace baton::cli {
namespace {

constexpr std::array<Api, 3> kApis = {Api::d3d12, Api::d3d12_legacy, Api::vulkan};

std::string demo_text() {
  Recording rec = demo_recording();
  size_t lists = 0, ops = 0, uses = 0;
  for (const auto& g : rec.groups) {
    lists += g->lists().size();
    for (const CommandList* l : g->lists()) {
      ops += l->ops().size();
      for (const Operation& op : l->ops()) uses += op.uses.size();
    }
  }
  const std::vector<CompiledGroup> compiled = compile_recording(rec);
  std::string out = fmt::format(
      "Baton demo: one deferred-renderer frame ({} resources, {} lists in {} groups, {} operations, {} "
      "uses)\n",
      rec.resources.size(), lists, rec.groups.size(), ops, uses);
  std::string table = fmt::format("{:<14}{:>10}{:>8}{:>9}\n", "api", "barriers", "calls", "omitted");
  for (Api api : kApis) {
    const std::vector<LoweredGroup> lowered = lower_recording(rec, api, compiled);
    out += "\n" + plan_text(rec, api, lowered);
    const Summary s = summarize(lowered);
    table += fmt::format("{:<14}{:>10}{:>8}{:>9}\n", to_string(api), s.barriers, s.calls, s.omitted);
  }
  out += "\nsummary\n" + table;
  return out;
}

}  // namespace

int run_demo() {
  std::string out;
  try {
    out = demo_text();
  } catch (const std::exception& e) {
    return report_error(std::string("demo: ") + e.what());
  }
  write_stdout(out);
  return 0;
}

void register_demo(CLI::App& app, int& exit_code) {
  auto as_recording = std::make_shared<bool>(false);
  CLI::App* sub =
      app.add_subcommand("demo", "Plan the built-in demo frame for all three APIs (same as no arguments)");
  sub->add_flag("--recording", *as_recording, "Print the demo frame as a JSON recording instead");
  sub->callback([as_recording, &exit_code] {
    if (!*as_recording) {
      exit_code = run_demo();
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
