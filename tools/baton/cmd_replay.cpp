// `baton replay TRACE [--device lavapipe|gpu] [--format text|json]`: plays a Vulkan trace through
// real API calls under the Khronos validation layer (after the canary has shown the layer is live)
// and reports the layer's messages by id (docs/replay.md).
#ifdef BATON_HAVE_TRACE_PLAYER

#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "baton/trace_player.hpp"
#include "baton/validate.hpp"
#include "canary_report.hpp"
#include "commands.hpp"
#include "output.hpp"

namespace baton::cli {
namespace {

struct ReplayCliOptions {
  std::string trace;
  std::string device = "lavapipe";
  std::string format = "text";
};

std::string text_report(const std::string& device, const exec::ReplayReport& r) {
  std::string s = fmt::format("device: {}\ncanary: live (1 SYNC-HAZARD-READ-AFTER-WRITE)\n", device);
  s +=
      fmt::format("played {} submissions ({} command buffers), {} commands, {} barriers on {} queue(s){}\n",
                  r.submissions, r.command_buffers, r.commands, r.barriers, r.queues_used,
                  r.queues_merged ? " (two trace queues merged: the device has no compute-only family)" : "");
  if (r.acquires + r.presents != 0)
    s += fmt::format("swapchain: {} acquires (vkAcquireNextImageKHR), {} presents (vkQueuePresentKHR)\n",
                     r.acquires, r.presents);
  s += fmt::format("validation messages: {} ({} hazards)\n", r.log.total(), r.log.hazards());
  for (const auto& [id, n] : r.log.counts) s += fmt::format("  {} x{}\n", id, n);
  for (const auto& [id, text] : r.log.texts) s += fmt::format("    {}: {}\n", id, text);
  return s;
}

nlohmann::json json_report(const std::string& device, const exec::ReplayReport& r) {
  nlohmann::json j;
  j["device"] = device;
  j["canary_live"] = true;
  j["submissions"] = r.submissions;
  j["command_buffers"] = r.command_buffers;
  j["commands"] = r.commands;
  j["barriers"] = r.barriers;
  j["queues_used"] = r.queues_used;
  j["queues_merged"] = r.queues_merged;
  j["acquires"] = r.acquires;
  j["presents"] = r.presents;
  j["hazards"] = r.log.hazards();
  j["counts"] = nlohmann::json::object();
  for (const auto& [id, n] : r.log.counts) j["counts"][id] = n;
  j["messages"] = nlohmann::json::array();
  for (const auto& [id, text] : r.log.texts) j["messages"].push_back({{"id", id}, {"text", text}});
  return j;
}

int run_replay(const ReplayCliOptions& o) {
  const std::optional<exec::DeviceKind> device = exec::parse_device_kind(o.device);
  if (!device) return report_error("unknown --device '" + o.device + "' (expected lavapipe or gpu)");
  validate::Trace trace;
  try {
    trace = validate::load_trace_file(o.trace);
    exec::check_playable(trace);  // before the device: what the player cannot express is bad input
  } catch (const std::exception& e) {
    return report_error(e.what());
  }
  exec::ContextOptions co;
  co.device = *device;
  co.async_compute = true;  // a second trace queue runs on a compute-only family when there is one
  co.presentation = !trace.swapchains.empty();  // headless surface + swapchain only when the trace presents
  std::optional<exec::VulkanContext> made;
  try {
    made.emplace(co);
  } catch (const std::exception& e) {
    if (!co.presentation) throw;
    return report_error(e.what());  // no presentation on this device: the trace cannot be played (exit 2)
  }
  exec::VulkanContext& ctx = *made;
  const exec::CanaryResult canary = exec::run_canary(ctx);
  if (!canary_live_or_report(canary)) return 1;
  exec::ReplayReport report;
  try {
    exec::TracePlayer player(ctx);
    report = player.play(trace);
  } catch (const std::exception& e) {
    return report_error(e.what());
  }
  const std::string name = ctx.device_name();
  write_stdout(o.format == "json" ? json_report(name, report).dump(2) + "\n" : text_report(name, report));
  return report.log.empty() ? 0 : 1;
}

}  // namespace

void register_replay(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ReplayCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "replay",
      "Play a Vulkan trace through real API calls under the Khronos validation layer; report its messages");
  sub->add_option("trace", opts->trace, "Trace file (docs/trace-format.md), - for stdin")->required();
  sub->add_option("--device", opts->device, "lavapipe (default) or gpu (the first non-CPU device)")
      ->check(CLI::IsMember({"lavapipe", "gpu"}));
  sub->add_option("--format", opts->format, "Output format (default text)")
      ->check(CLI::IsMember({"text", "json"}));
  sub->callback([opts, &exit_code] { exit_code = run_replay(*opts); });
}

}  // namespace baton::cli

#endif  // BATON_HAVE_TRACE_PLAYER
