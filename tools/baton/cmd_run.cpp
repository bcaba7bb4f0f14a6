// `baton run [FILE|demo] [--device lavapipe|gpu] [--format text|json]`: executes a recording
// with Baton's Vulkan barriers on a real device under the Khronos validation layer, after the
// canary has shown the layer is live, and checks the data against the reference model.
#ifdef BATON_HAVE_VULKAN_EXEC

#include <fmt/format.h>

#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "baton/exec_vulkan.hpp"
#include "baton/lower_vulkan.hpp"
#include "commands.hpp"
#include "output.hpp"

namespace baton::cli {
namespace {

struct RunCliOptions {
  std::string file = "demo";
  std::string device = "lavapipe";
  std::string format = "text";
};

Recording load_for_run(const std::string& file) {
  if (file == "demo") return demo_recording();
  if (file != "-") return load_recording_file(file);
  const std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
  return load_recording(text, "<stdin>");
}

std::string text_report(const std::string& device, const exec::CanaryResult& canary,
                        const exec::RunReport& r) {
  std::string s = fmt::format("device: {}\ncanary: {}\n", device,
                              canary.live ? "live (1 SYNC-HAZARD-READ-AFTER-WRITE)" : "NOT LIVE");
  s += fmt::format("ran {} groups ({} submissions), {} operations, {} barriers in {} calls\n", r.groups,
                   r.submits, r.ops, r.barriers, r.barrier_calls);
  s += fmt::format("validation messages: {} ({} hazards)\n", r.validation.total(), r.validation.hazards());
  for (const auto& [id, n] : r.validation.counts) s += fmt::format("  {} x{}\n", id, n);
  for (const auto& [id, text] : r.validation.texts) s += fmt::format("    {}: {}\n", id, text);
  s += fmt::format("data: {} subresources checked, {} mismatching, {} never defined\n",
                   r.subresources_checked, r.mismatches.size(), r.subresources_undefined);
  for (const exec::Mismatch& m : r.mismatches) s += "  " + exec::to_string(m) + "\n";
  s += fmt::format("timings: record {:.2f} ms, gpu {:.2f} ms, check {:.2f} ms\n", r.record_ms, r.gpu_ms,
                   r.check_ms);
  return s;
}

nlohmann::json json_report(const std::string& device, const exec::CanaryResult& canary,
                           const exec::RunReport& r) {
  nlohmann::json j;
  j["device"] = device;
  j["canary_live"] = canary.live;
  j["hazards"] = r.validation.hazards();
  j["validation_messages"] = nlohmann::json::object();
  for (const auto& [id, n] : r.validation.counts) j["validation_messages"][id] = n;
  j["messages"] = nlohmann::json::array();
  for (const auto& [id, text] : r.validation.texts) j["messages"].push_back({{"id", id}, {"text", text}});
  j["mismatches"] = r.mismatches.size();
  j["mismatch_details"] = nlohmann::json::array();
  for (const exec::Mismatch& m : r.mismatches)
    j["mismatch_details"].push_back({{"resource", m.resource_name},
                                     {"mip", m.mip},
                                     {"layer", m.layer},
                                     {"plane", m.plane},
                                     {"wrong", m.wrong},
                                     {"checked", m.checked},
                                     {"first_texel", m.first_texel},
                                     {"expected", m.expected},
                                     {"got", m.got}});
  j["groups"] = r.groups;
  j["operations"] = r.ops;
  j["barriers"] = r.barriers;
  j["barrier_calls"] = r.barrier_calls;
  j["subresources_checked"] = r.subresources_checked;
  j["subresources_undefined"] = r.subresources_undefined;
  j["timings_ms"] = {{"record", r.record_ms}, {"gpu", r.gpu_ms}, {"check", r.check_ms}};
  return j;
}

int run_run(const RunCliOptions& o) {
  const std::optional<exec::DeviceKind> device = exec::parse_device_kind(o.device);
  if (!device) return report_error("unknown --device '" + o.device + "' (expected lavapipe or gpu)");
  Recording rec;
  try {
    rec = load_for_run(o.file);
  } catch (const std::exception& e) {
    return report_error(e.what());
  }
  exec::ExecPlan plan;
  try {
    exec::check_executable(rec);  // before the device: a use the executor cannot run is bad input
    const CompileResult compiled = compile_all(rec.resources, rec.group_ptrs(), fresh_history(rec.resources));
    plan = exec::to_exec_plan(lower_vulkan(rec.resources, compiled.groups));
  } catch (const std::exception& e) {
    return report_error(o.file + ": " + e.what());
  }
  exec::VulkanContext ctx(exec::ContextOptions{*device, true});
  const exec::CanaryResult canary = exec::run_canary(ctx);
  if (!canary.live) {
    std::string ids;
    for (const auto& [id, n] : canary.log.counts) ids += fmt::format(" {} x{}", id, n);
    std::cerr << "baton: error: oracle not live: the canary's missing barrier gave"
              << (ids.empty() ? " no messages" : ids)
              << " instead of exactly one SYNC-HAZARD-READ-AFTER-WRITE\n";
    return 1;
  }
  const exec::RunReport report = exec::run(ctx, rec, plan);
  const std::string name = ctx.device_name();
  write_stdout(o.format == "json" ? json_report(name, canary, report).dump(2) + "\n"
                                  : text_report(name, canary, report));
  return report.clean() ? 0 : 1;
}

}  // namespace

void register_run(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<RunCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "run",
      "Execute a recording with Baton's Vulkan barriers under the validation layer and check the data");
  sub->add_option("file", opts->file, "Recording file, - for stdin, or demo (default)");
  sub->add_option("--device", opts->device, "lavapipe (default) or gpu (the first non-CPU device)")
      ->check(CLI::IsMember({"lavapipe", "gpu"}));
  sub->add_option("--format", opts->format, "Output format (default text)")
      ->check(CLI::IsMember({"text", "json"}));
  sub->callback([opts, &exit_code] { exit_code = run_run(*opts); });
}

}  // namespace baton::cli

#endif  // BATON_HAVE_VULKAN_EXEC
