// `baton run [FILE|demo] [--device lavapipe|gpu|d3d12] [--format text|json] [--timestamps FILE]`: executes a recording
// or a frame graph (compiled first)
// with Baton's Vulkan barriers on a real device (or, with d3d12, Baton's legacy D3D12 barriers
// through vkd3d on lavapipe) under the Khronos validation layer, after the canary has shown the
// layer is live, and checks the data against the reference model.
#ifdef BATON_HAVE_VULKAN_EXEC

#include <fmt/format.h>

#include <optional>
#include <nlohmann/json.hpp>

#include "baton/exec_graph.hpp"
#include "baton/exec_vulkan.hpp"
#include "baton/frame.hpp"
#include "baton/input.hpp"
#include "baton/lower_vulkan.hpp"
#include "baton/validated_compile.hpp"
#ifdef BATON_HAVE_D3D12_EXEC
#include "baton/exec_d3d12.hpp"
#endif
#include "canary_report.hpp"
#include "commands.hpp"
#include "output.hpp"

namespace baton::cli {
namespace {

struct RunCliOptions {
  std::string file = "demo";
  std::string device = "lavapipe";
  std::string format = "text";
  std::string timestamps;  // --timestamps FILE: per-operation GPU times as trace-event JSON
  std::string split_barriers = "off";  // Vulkan devices: Vulkan events (docs/cli.md)
  std::string sharing = "concurrent";   // Vulkan devices with a compute-only family (docs/cli.md)
};

// Chrome / Perfetto trace-event JSON of the per-operation GPU times: one process, one thread per
// queue, one complete event per operation named list/op (docs/cli.md).
std::string trace_events(const std::string& device, const exec::RunReport& r) {
  nlohmann::json events = nlohmann::json::array();
  events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 0}, {"args", {{"name", "baton run on " + device}}}});
  for (const exec::RunReport::OpTime& t : r.op_times)
    events.push_back({{"name", t.list + "/" + std::to_string(t.op)},
                      {"cat", t.group},
                      {"ph", "X"},
                      {"pid", 0},
                      {"tid", t.queue == Queue::direct ? "graphics" : t.queue == Queue::compute ? "compute" : "copy"},
                      {"ts", t.begin_us},
                      {"dur", t.end_us - t.begin_us}});
  return nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ns"}}.dump(1) + "\n";
}

// What `baton run` executes: the one compiled frame (include/baton/frame.hpp) of a recording (every
// resource untouched at the start) or of a frame graph (its plan, its non-transient resources at
// rest: history_in), or of the built-in demo.
FrameInput read_for_run(const std::string& file) {
  if (file != "demo") return load_frame_input(file);  // the input gate: regular files or "-", the size limit, one strict parse
  FrameInput in;
  in.source = "demo";
  in.recording = demo_recording();
  return in;
}
CompiledFrame load_for_run(const std::string& file, const graph::CompileOptions& co = {}) {
  CompiledFrame f = compile_frame(read_for_run(file), co);
  if (!f.findings.empty()) throw Error(f.source + ": graph check failed: " + f.findings.front());
  return f;
}
// Layer 1.3.239's same-queue RACING reports (exec::same_queue_racing) in this run, and whether `baton run`
// excuses them: only when the data matched and Baton's own validator finds nothing on the frame's trace
// (docs/cli.md, "baton run"). `checked`: Baton's validator ran (it runs only when there are such reports).
struct SameQueueRacing {
  uint32_t count = 0;
  exec::Excused excused;      // how many were excused, and whether Baton's validator ran
  SecondOpinion opinion;      // Baton's validator on the frame's trace (when it ran)
};

std::string same_queue_racing_text(const exec::ValidationLog& log, const SameQueueRacing& q) {
  if (q.count == 0) return {};
  std::string verdict;
  if (q.excused.messages)
    verdict = fmt::format("excused (the data matched; Baton's validator finds the frame's trace clean, and {} "
                          "findings on it without its barriers)",
                          q.opinion.canary_findings);
  else if (!q.excused.checked)
    verdict = "NOT excused: the data does not match";
  else if (q.opinion.messages == 0 && !q.opinion.live())
    verdict = "NOT excused: Baton's validator is not live on this frame: its trace without barriers gives no finding";
  else
    verdict = fmt::format("NOT excused: Baton's validator finds {} message(s) on the frame's trace, the first: {}",
                          q.opinion.messages, q.opinion.first);
  std::string s =
      fmt::format("  of these, {} are layer 1.3.239's same-queue RACING report: {}\n", q.count, verdict);
  for (const auto& [text, why] : log.same_queue_racing_texts) s += fmt::format("    why: {}\n", why);
  return s;
}

std::string text_report(const std::string& device, const exec::CanaryResult& canary,
                        const exec::RunReport& r, const SameQueueRacing& q) {
  std::string s = fmt::format("device: {}\ncanary: {}\n", device,
                              canary.live ? "live (1 SYNC-HAZARD-READ-AFTER-WRITE)" : "NOT LIVE");
  s += fmt::format("ran {} groups ({} submissions), {} operations, {} barriers in {} calls\n", r.groups,
                   r.submits, r.ops, r.barriers, r.barrier_calls);
  s += fmt::format("validation messages: {} ({} hazards)\n", r.validation.total(), r.validation.hazards());
  for (const auto& [id, n] : r.validation.counts) s += fmt::format("  {} x{}\n", id, n);
  for (const auto& [id, text] : r.validation.texts) s += fmt::format("    {}: {}\n", id, text);
  s += same_queue_racing_text(r.validation, q);
  s += fmt::format("data: {} subresources checked, {} mismatching, {} never defined\n",
                   r.subresources_checked, r.mismatches.size(), r.subresources_undefined);
  for (const exec::Mismatch& m : r.mismatches) s += "  " + exec::to_string(m) + "\n";
  if (r.memory.placed > 0)
    s += fmt::format(
        "memory: {} shared heap(s), {} bytes, {} bytes bound to more than one resource; {} transients placed, {} "
        "subresources taken over (not read back)\n",
        r.memory.heaps, r.memory.heap_bytes, r.memory.aliased_bytes, r.memory.placed, r.subresources_taken_over);
  s += fmt::format("sharing: {}: {} resources exclusive, {} concurrent, {} ownership transfers (release/acquire pairs)\n",
                   r.sharing.mode, r.sharing.exclusive, r.sharing.concurrent, r.sharing.ownership_transfers);
  for (const auto& [res, why] : r.sharing.concurrent_why) s += fmt::format("  concurrent '{}': {}\n", res, why);
  s += fmt::format("timings: record {:.2f} ms, gpu {:.2f} ms, check {:.2f} ms\n", r.record_ms, r.gpu_ms,
                   r.check_ms);
  return s;
}

// The fields both executors report: canary, hazards, messages by id (and their first texts), and
// data mismatches (where() names the subresource the executor's way).
template <class Log, class MismatchList, class Where>
nlohmann::json common_report(const std::string& device, bool canary_live, const Log& log,
                             const MismatchList& mismatches, Where where) {
  nlohmann::json j;
  j["device"] = device;
  j["canary_live"] = canary_live;
  uint32_t hazards = 0;
  for (const auto& [id, n] : log.counts)
    if (id.rfind("SYNC-HAZARD-", 0) == 0) hazards += n;
  j["hazards"] = hazards;
  j["validation_messages"] = nlohmann::json::object();
  for (const auto& [id, n] : log.counts) j["validation_messages"][id] = n;
  j["messages"] = nlohmann::json::array();
  for (const auto& [id, text] : log.texts) j["messages"].push_back({{"id", id}, {"text", text}});
  j["mismatches"] = mismatches.size();
  j["mismatch_details"] = nlohmann::json::array();
  for (const auto& m : mismatches) {
    nlohmann::json d = where(m);
    d["resource"] = m.resource_name;
    d["wrong"] = m.wrong;
    d["checked"] = m.checked;
    d["first_texel"] = m.first_texel;
    d["expected"] = m.expected;
    d["got"] = m.got;
    j["mismatch_details"].push_back(std::move(d));
  }
  return j;
}

nlohmann::json json_report(const std::string& device, const exec::CanaryResult& canary,
                           const exec::RunReport& r, uint64_t graph_compiles, const SameQueueRacing& q) {
  nlohmann::json j = common_report(device, canary.live, r.validation, r.mismatches, [](const exec::Mismatch& m) {
    return nlohmann::json{{"mip", m.mip}, {"layer", m.layer}, {"plane", m.plane}};
  });
  nlohmann::json reports = nlohmann::json::array();
  for (const auto& [text, why] : r.validation.same_queue_racing_texts) reports.push_back({{"text", text}, {"why", why}});
  j["same_queue_racing"] = {{"count", q.count},
                            {"excused", q.excused.messages},
                            {"batons_validator_checked", q.excused.checked},
                            {"batons_validator_messages", q.opinion.messages},
                            {"batons_validator_canary_findings", q.opinion.canary_findings},
                            {"reports", reports}};
  j["unexcused_messages"] = r.validation.total() - q.excused.messages;
  j["groups"] = r.groups;
  j["operations"] = r.ops;
  j["barriers"] = r.barriers;
  j["barrier_calls"] = r.barrier_calls;
  j["subresources_checked"] = r.subresources_checked;
  j["subresources_undefined"] = r.subresources_undefined;
  j["timings_ms"] = {{"record", r.record_ms}, {"gpu", r.gpu_ms}, {"check", r.check_ms}};
  j["memory"] = {{"heaps", r.memory.heaps},
                 {"heap_bytes", r.memory.heap_bytes},
                 {"aliased_bytes", r.memory.aliased_bytes},
                 {"placed", r.memory.placed},
                 {"split_by_kind", r.memory.split_by_kind},
                 {"subresources_taken_over", r.subresources_taken_over}};
  j["graph_compiles"] = graph_compiles;  // frame graphs: 1 (real memory sizes before the one compile)
  nlohmann::json why = nlohmann::json::array();
  for (const auto& [res, reason] : r.sharing.concurrent_why) why.push_back({{"resource", res}, {"reason", reason}});
  j["sharing"] = {{"mode", r.sharing.mode},
                  {"exclusive", r.sharing.exclusive},
                  {"concurrent", r.sharing.concurrent},
                  {"ownership_transfers", r.sharing.ownership_transfers},
                  {"concurrent_resources", why}};
  return j;
}

#ifdef BATON_HAVE_D3D12_EXEC
std::string d3d12_text_report(const d3d12::D3D12RunResult& r) {
  std::string s = "device: d3d12 (vkd3d 1.2 on lavapipe), legacy resource states\n";
  s += fmt::format("canary: {}\n", r.canary_live ? "live (1 SYNC-HAZARD-READ-AFTER-WRITE)" : "NOT LIVE");
  s += fmt::format("ran {} groups ({} lists), {} operations, {} barriers in {} calls, {} discards\n", r.groups,
                   r.lists, r.ops, r.barriers, r.barrier_calls, r.discards);
  s += fmt::format("left to implicit promotion/decay: {} barriers (emulated for textures: {} promotions, {} decays)\n",
                   r.omitted_by_promotion, r.emulated_promotions, r.emulated_decays);
  s += fmt::format("validation messages: {}\n", r.validation.total());
  for (const auto& [id, n] : r.validation.counts) s += fmt::format("  {} x{}\n", id, n);
  for (const auto& [id, text] : r.validation.texts) s += fmt::format("    {}: {}\n", id, text);
  s += fmt::format("data: {} subresources checked, {} mismatching, {} never defined\n", r.subresources_checked,
                   r.mismatches.size(), r.subresources_undefined);
  for (const d3d12::Mismatch& m : r.mismatches) s += "  " + d3d12::to_string(m) + "\n";
  s += fmt::format("time: {:.2f} ms\n", r.ms);
  return s;
}

// A graph's transients on the D3D12 path: each its own committed resource, never the shared heap the
// plan placed them in (the memory object says so rather than leaving it silent; docs/d3d12.md).
struct D3D12Memory {
  size_t planned_placed = 0;   // transients the plan placed in its heap
  uint64_t planned_heap_bytes = 0;
};
nlohmann::json d3d12_memory_json(const D3D12Memory& m) {
  return {{"heaps", 0},
          {"heap_bytes", 0},
          {"aliased_bytes", 0},
          {"placed", 0},
          {"own_allocations", m.planned_placed},
          {"planned_placed", m.planned_placed},
          {"planned_heap_bytes", m.planned_heap_bytes},
          {"why", "the D3D12 executor creates every resource committed (vkd3d 1.2 has no aliasing barriers): each "
                  "transient gets its own allocation, so memory takeovers are not exercised on this path"}};
}

nlohmann::json d3d12_json_report(const d3d12::D3D12RunResult& r) {
  nlohmann::json j = common_report("d3d12", r.canary_live, r.validation, r.mismatches,
                                   [](const d3d12::Mismatch& m) { return nlohmann::json{{"subresource", m.subresource}}; });
  j["groups"] = r.groups;
  j["lists"] = r.lists;
  j["operations"] = r.ops;
  j["barriers"] = r.barriers;
  j["barrier_calls"] = r.barrier_calls;
  j["omitted_by_promotion"] = r.omitted_by_promotion;
  j["subresources_checked"] = r.subresources_checked;
  j["subresources_undefined"] = r.subresources_undefined;
  j["timings_ms"] = {{"total", r.ms}};
  return j;
}

// The D3D12 path runs what vkd3d can run here (copies, clears, discards); anything else is bad
// input, rejected before a device exists, naming the group, list, op and resource.
int run_d3d12_cli(const RunCliOptions& o, const CompiledFrame& f) {
  const Recording& rec = f.rec;
  D3D12Memory memory;
  for (const auto& p : f.memory.placement) memory.planned_placed += p ? 1u : 0u;
  for (const PlanMemory::Heap& h : f.memory.heaps) memory.planned_heap_bytes += h.bytes;
  try {
    d3d12::check_runnable(rec);
  } catch (const std::exception& e) {
    return report_error(o.file + ": not runnable on --device d3d12: " + e.what());
  }
  d3d12::D3D12RunResult r;
  try {
    // The frame's plan, compiled once; a graph's non-transient resources start at rest.
    r = f.from_graph ? d3d12::run_d3d12(rec, f.compiled, f.history_in) : d3d12::run_d3d12(rec, f.compiled);
  } catch (const std::exception& e) {
    return report_error(o.file + ": " + e.what());
  }
  if (!r.canary_live) {
    return report_failure("oracle_not_live",
                          "oracle not live: the D3D12 canary's missing barrier did not give exactly one "
                          "SYNC-HAZARD-READ-AFTER-WRITE under vkd3d");
  }
  std::string out;
  if (o.format == "json") {
    nlohmann::json j = d3d12_json_report(r);
    if (f.from_graph) j["memory"] = d3d12_memory_json(memory);
    out = j.dump(2) + "\n";
  } else {
    out = d3d12_text_report(r);
    if (f.from_graph && memory.planned_placed > 0)
      out += fmt::format(
          "memory: {} transients in {} resources of their own (the plan's shared heap of {} bytes is not used on "
          "this path)\n",
          memory.planned_placed, memory.planned_placed, memory.planned_heap_bytes);
  }
  write_stdout(out);
  return r.clean() ? 0 : 1;
}
#endif

int run_run(const RunCliOptions& o) {
  if (!o.timestamps.empty()) {
    if (o.device == "d3d12") return report_error("--timestamps: Vulkan devices only (lavapipe, gpu)");
    try {
      check_output(o.timestamps, o.file);
    } catch (const std::exception& e) {
      return report_error(e.what());
    }
  }
  if (o.device == "d3d12") {
    if (o.sharing != "concurrent")
      return report_error("--sharing " + o.sharing + ": Vulkan devices only (lavapipe, gpu)");
    if (o.split_barriers == "on")
      return report_error(
          "--split-barriers on runs on lavapipe or gpu (Vulkan events); the D3D12 executor "
          "does not split barriers");
#ifdef BATON_HAVE_D3D12_EXEC
    CompiledFrame f;
    try {
      f = load_for_run(o.file);
    } catch (const std::exception& e) {
      return report_error(e.what());
    }
    return run_d3d12_cli(o, f);
#else
    return report_error("--device d3d12: this baton was built without the D3D12 executor (libvkd3d-dev missing)");
#endif
  }
  const std::optional<exec::DeviceKind> device = exec::parse_device_kind(o.device);
  if (!device) return report_error("unknown --device '" + o.device + "' (expected lavapipe or gpu)");
  graph::CompileOptions co;
  co.split_barriers = o.split_barriers == "on";
  FrameInput in;
  try {
    in = read_for_run(o.file);
  } catch (const std::exception& e) {
    return report_error(e.what());
  }
  try {
    // A recording is checked without the device: a use the executor cannot run is bad input, found
    // before the device exists. A graph needs the device's real memory sizes first (below).
    if (!in.is_graph()) exec::check_executable(*in.recording);
  } catch (const std::exception& e) {
    return report_error(o.file + ": " + e.what());
  }
  // Compute groups on a compute-only family where the device has one (the H200): the async compute
  // the frame graph scheduled runs there for real (docs/executor.md, "Async compute").
  exec::VulkanContext ctx(exec::ContextOptions{*device, true, /*async_compute=*/true});
  const exec::CanaryResult canary = exec::run_canary(ctx);
  if (!canary_live_or_report(canary)) return 1;
  exec::RunOptions run_options;
  run_options.sync_queue_switches = in.is_graph();  // a graph's compute groups hand off through the schedule's waits
  run_options.op_timestamps = !o.timestamps.empty();
  run_options.sharing = o.sharing == "exclusive"   ? exec::RunOptions::Sharing::exclusive
                        : o.sharing == "automatic" ? exec::RunOptions::Sharing::automatic
                                                   : exec::RunOptions::Sharing::concurrent;
  // One compile: a graph's transients get the real memory requirements of the objects that run
  // before it is compiled, so the frame's placement is the one bound (docs/runtime.md).
  const uint64_t compiles_before = graph::compile_graph_calls();
  CompiledFrame f;
  std::vector<VkMemoryRequirements> req;
  try {
    if (in.is_graph()) req = exec::set_real_sizes(ctx, *in.graph, run_options, co.aliasing);
    f = compile_frame(std::move(in), co);
    if (!f.findings.empty()) throw Error(f.source + ": graph check failed: " + f.findings.front());
  } catch (const std::exception& e) {
    return report_error(e.what());
  }
  const uint64_t graph_compiles = graph::compile_graph_calls() - compiles_before;
  exec::RunReport report;
  try {
    if (f.from_graph) exec::check_executable(f.rec);
    const exec::ExecPlan plan = exec::to_exec_plan(lower_vulkan(f.rec.resources, f.compiled));  // lowered once
    // Transients bound into one shared heap at the planned offsets by the runtime.
    if (f.from_graph) (void)exec::shared_memory_of(*f.graph, *f.graph_result, req, co.aliasing, run_options);
    report = exec::run(ctx, f.rec, f.history_in, plan, run_options);
  } catch (const std::exception& e) {
    return report_error(o.file + ": " + e.what());
  }
  const std::string name = ctx.device_name();
  if (!o.timestamps.empty()) {
    if (report.op_times.empty())
      return report_error("--timestamps: " + name + " has no timestamp bits on its queue; nothing was measured");
    try {
      write_atomically(o.timestamps, trace_events(name, report));
    } catch (const std::exception& e) {
      return report_error(e.what());
    }
  }
  // Layer 1.3.239's same-queue RACING reports are excused only with a second oracle: Baton's validator
  // on the frame's trace (the same plan the executor recorded), and the data matching.
  SameQueueRacing q;
  q.count = report.validation.same_queue_racing;
  try {
    q.excused = exec::excusable_messages(report.validation, report.mismatches.size(), [&] {
      q.opinion = second_opinion(trace_of(f, Api::vulkan), f.source + " (the frame's trace)");
      return q.opinion.objections();  // its silence counts only if it is live on this frame
    });
  } catch (const std::exception& e) {
    return report_error(o.file + ": Baton's validator on the frame's trace: " + e.what());
  }
  write_stdout(o.format == "json" ? json_report(name, canary, report, graph_compiles, q).dump(2) + "\n"
                                  : text_report(name, canary, report, q));
  return report.mismatches.empty() && report.validation.total() == q.excused.messages ? 0 : 1;
}

}  // namespace

void register_run(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<RunCliOptions>();
  CLI::App* sub = app.add_subcommand(
      "run",
      "Execute a recording or frame graph with Baton's Vulkan barriers under the validation layer and check the data");
  sub->add_option("file", opts->file, "Recording or frame-graph file, - for stdin, or demo (default)");
  sub->add_option("--device", opts->device,
                  "lavapipe (default), gpu (the first non-CPU device) or d3d12 (legacy D3D12 barriers through vkd3d "
                  "on lavapipe; copies, clears and discards only)")
      ->check(CLI::IsMember({"lavapipe", "gpu", "d3d12"}));
  sub->add_option("--format", opts->format, "Output format (default text)")
      ->check(CLI::IsMember({"text", "json"}));
  sub->add_option("--timestamps", opts->timestamps,
                  "Write each operation's GPU time to this file as Chrome/Perfetto trace-event JSON");
  sub->add_option("--split-barriers", opts->split_barriers,
                  "lavapipe or gpu: split barriers into vkCmdSetEvent2 / vkCmdWaitEvents2 (default off)")
      ->check(CLI::IsMember({"on", "off"}));
  sub->add_option("--sharing", opts->sharing,
                  "lavapipe or gpu, where the device has a compute-only family: concurrent (default), exclusive "
                  "(ownership transfers; fails naming a resource they cannot hand over) or automatic (exclusive "
                  "where transfers can hand a resource over, concurrent with the reason elsewhere)")
      ->check(CLI::IsMember({"concurrent", "exclusive", "automatic"}));
  sub->callback([opts, &exit_code] { exit_code = run_run(*opts); });
}

}  // namespace baton::cli

#endif  // BATON_HAVE_VULKAN_EXEC
