// The benchmark report (scripts/bench-report.sh): every figure measured in this one run and written
// as Markdown and JSON.
//
//   bench_report [OUT_DIR]   -> OUT_DIR/bench-report.md, OUT_DIR/bench-report.json (default: build)
//
// 1. Compile throughput (plan + compile of every group, one core): ns per use and the scaling
//    T(10N)/T(N) on three workloads: "chain" (dispatch i writes r_i, reads r_{i-1}, r_{i-2}),
//    "deferred" (the built-in deferred-renderer frame replicated over N/20 frames) and "random"
//    (seeded draws and dispatches over textures with mips and layers, random mip ranges).
// 2. Barriers: Baton's per-subresource transitions against the brute-force minimum and its barrier
//    structs and calls against the naive tracker (report_baselines.hpp); the reference model of
//    tests/plan (reference_model.hpp) replays each plan and counts missing barriers.
// 3. API calls and barriers per frame for each backend (the deferred frame as a recording, and
//    examples/deferred.json as a frame graph).
// 4. Transient memory of examples/deferred.json against the lower bound (the most bytes live at once).
#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "baton/graph.hpp"
#include "baton/lower.hpp"
#include "baton/plan.hpp"
#include "baton/recording.hpp"
#include "reference_model.hpp"
#include "core_workloads.hpp"
#include "report_baselines.hpp"

namespace {

using namespace baton;
using json = nlohmann::ordered_json;
using bench::Workload;
using bench::chain;
using bench::deferred;
using bench::random_workload;

std::vector<CompiledGroup> compile_groups(const Workload& w) {
  const Plan p = plan(w.rt, w.ptrs, fresh_history(w.rt));
  std::vector<CompiledGroup> out;
  out.reserve(w.ptrs.size());
  for (size_t i = 0; i < w.ptrs.size(); ++i) out.push_back(compile(w.rt, *w.ptrs[i], p.groups[i]));
  return out;
}

// CPU time of this thread in nanoseconds: on a shared machine, wall time also counts the time other
// processes held the core, which would make the scaling ratios meaningless.
double thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

double median(std::vector<double> runs) {
  std::nth_element(runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(runs.size() / 2), runs.end());
  return runs[runs.size() / 2];
}

// Median CPU time of repeated plan + compile runs (at least 5 runs and 0.3 s of CPU).
double time_compile_ns(const Workload& w) {
  std::vector<double> runs;
  double total = 0;
  while (runs.size() < 5 || (total < 3e8 && runs.size() < 1000)) {
    const double t0 = thread_cpu_ns();
    std::vector<CompiledGroup> c = compile_groups(w);
    const double t1 = thread_cpu_ns();
    if (c.size() != w.ptrs.size()) throw Error("compile lost a group");
    runs.push_back(t1 - t0);
    total += t1 - t0;
  }
  return median(std::move(runs));
}

double ratio(double a, double b) { return b == 0 ? 0.0 : a / b; }

struct Barriers {
  uint64_t structs = 0, calls = 0, transitions = 0, globals = 0;
  std::map<std::string, uint64_t> by_reason;  // transitions per Reason
};

Barriers count_baton(const std::vector<CompiledGroup>& c) {
  Barriers b;
  for (const CompiledGroup& g : c)
    for (const CompiledList& l : g.lists) {
      b.structs += l.barriers.size();
      b.calls += l.points.size();
      for (const Barrier& x : l.barriers) {
        if (x.resource == kGlobalResource)
          ++b.globals;
        else {
          b.transitions += x.box.volume();
          b.by_reason[std::string(to_string(x.reason))] += x.box.volume();
        }
      }
    }
  return b;
}

json api_counts(const Workload& w, const std::vector<CompiledGroup>& c) {
  json out = json::object();
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) {
    size_t barriers = 0, calls = 0;
    for (const LoweredGroup& g : lower(api, w.rt, c)) {
      barriers += g.barrier_count();
      calls += g.call_count();
    }
    out[std::string(to_string(api))] = {{"barriers", barriers}, {"calls", calls}};
  }
  return out;
}

std::string fmt_ratio(double r) { return fmt::format("{:.2f}", r); }

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  const fs::path out_dir = argc > 1 ? fs::path(argv[1]) : fs::path("build");
  fs::create_directories(out_dir);
  json report;
  std::string md = "# Baton benchmark report\n\nEvery figure below was measured in one run of `bench_report` "
                   "(scripts/bench-report.sh); ratios are computed from the same run.\n\n";

  // 1. Throughput and scaling.
  struct Family {
    const char* name;
    std::unique_ptr<Workload> (*make)(size_t);
    std::vector<size_t> sizes;
  };
  const Family families[] = {{"chain", chain, {1000, 10000, 100000}},
                             {"deferred", deferred, {10, 100, 1000}},  // frames of ~20 operations
                             {"random", random_workload, {1000, 10000, 100000}}};
  md += "## Compile throughput (plan + compile, one core, median CPU time)\n\n| workload | ops | uses | median time | ns/use | "
        "T(10N)/T(N) |\n|---|---:|---:|---:|---:|---:|\n";
  json throughput = json::array();
  for (const Family& f : families) {
    double prev = 0;
    for (size_t n : f.sizes) {
      const auto w = f.make(n);
      const double ns = time_compile_ns(*w);
      const double scaling = prev > 0 ? ns / prev : 0.0;
      throughput.push_back({{"workload", f.name},
                            {"ops", w->ops},
                            {"uses", w->uses},
                            {"ns", ns},
                            {"ns_per_use", ns / static_cast<double>(w->uses)},
                            {"scaling_vs_previous", prev > 0 ? json(scaling) : json(nullptr)}});
      md += fmt::format("| {} | {} | {} | {:.3f} ms | {:.1f} | {} |\n", f.name, w->ops, w->uses, ns / 1e6,
                        ns / static_cast<double>(w->uses), prev > 0 ? fmt_ratio(scaling) : "-");
      prev = ns;
    }
  }
  report["throughput"] = throughput;

  // 2. Barrier counts against the minimum and the naive tracker.
  md += "\n## Barriers against the brute-force minimum and a naive tracker\n\n"
        "*transitions* are per subresource (one barrier over a range of k subresources counts k). "
        "*minimum*: transitions a brute-force per-subresource model requires (a hazard or a layout "
        "change, restores to rest at group ends). *missing*: violations the reference model of "
        "tests/plan finds when replaying Baton's plan (must be 0). *naive*: a barrier after every "
        "write, per-use transitions, every resource restored after every list.\n\n"
        "| workload | ops | minimum | Baton | Baton/min | missing | Baton barriers | naive barriers | "
        "naive/Baton | Baton calls | naive calls | naive/Baton calls |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  json barrier_rows = json::array();
  std::vector<std::unique_ptr<Workload>> counted;
  counted.push_back(chain(1000));
  counted.push_back(deferred(1));
  counted.push_back(deferred(10));
  counted.push_back(random_workload(1000));
  counted.push_back(random_workload(10000));
  for (const auto& w : counted) {
    const std::vector<CompiledGroup> c = compile_groups(*w);
    const Barriers b = count_baton(c);
    const bench::MinimumCount min = bench::minimum_transitions(w->rt, w->ptrs);
    const bench::NaiveCount naive = bench::naive_tracker(w->rt, w->ptrs);
    test::ModelOptions mo;
    mo.max_violations = 1000000;
    const size_t missing = test::check_plan(w->rt, w->ptrs, c, mo).size();
    const std::string label = w->name == "deferred" ? fmt::format("deferred x{}", w->groups.size() / 2)
                                                    : fmt::format("{} N={}", w->name, w->n);
    barrier_rows.push_back({{"workload", label},
                            {"ops", w->ops},
                            {"minimum_transitions", min.transitions},
                            {"minimum_restores", min.restores},
                            {"baton_transitions", b.transitions},
                            {"baton_global_barriers", b.globals},
                            {"baton_transitions_by_reason", b.by_reason},
                            {"baton_over_minimum", ratio(static_cast<double>(b.transitions), static_cast<double>(min.transitions))},
                            {"missing", missing},
                            {"baton_barriers", b.structs},
                            {"baton_calls", b.calls},
                            {"naive_barriers", naive.barriers},
                            {"naive_calls", naive.calls},
                            {"naive_over_baton_barriers", ratio(static_cast<double>(naive.barriers), static_cast<double>(b.structs))},
                            {"naive_over_baton_calls", ratio(static_cast<double>(naive.calls), static_cast<double>(b.calls))},
                            {"api", api_counts(*w, c)}});
    md += fmt::format("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", label, w->ops, min.transitions,
                      b.transitions, fmt_ratio(ratio(static_cast<double>(b.transitions), static_cast<double>(min.transitions))),
                      missing, b.structs, naive.barriers,
                      fmt_ratio(ratio(static_cast<double>(naive.barriers), static_cast<double>(b.structs))), b.calls,
                      naive.calls, fmt_ratio(ratio(static_cast<double>(naive.calls), static_cast<double>(b.calls))));
  }
  report["barriers"] = barrier_rows;

  // 3. API calls per frame, per backend.
  md += "\n## API barrier calls and barriers per frame\n\n| frame | backend | barriers | calls |\n|---|---|---:|---:|\n";
  json per_frame = json::object();
  {
    const json& demo_api = barrier_rows[1]["api"];
    for (const auto& [api, v] : demo_api.items())
      md += fmt::format("| deferred recording (demo) | {} | {} | {} |\n", api, v["barriers"].get<size_t>(),
                        v["calls"].get<size_t>());
    per_frame["deferred_recording"] = demo_api;
  }
  const std::string graph_file = std::string(BATON_SOURCE_DIR) + "/examples/deferred.json";
  const graph::Graph g = graph::load_graph_file(graph_file);
  const graph::GraphCompileResult gr = graph::compile_graph(g);
  const graph::Numbers num = graph::numbers(g, gr);
  {
    json apis = json::object();
    for (const auto& a : num.apis) {
      apis[std::string(to_string(a.api))] = {{"barriers", a.barriers}, {"calls", a.calls}};
      md += fmt::format("| examples/deferred.json (graph) | {} | {} | {} |\n", to_string(a.api), a.barriers, a.calls);
    }
    per_frame["deferred_graph"] = apis;
  }
  report["per_frame"] = per_frame;

  // Graph compile time for the same file (every phase, checks included).
  {
    std::vector<double> runs;
    for (int i = 0; i < 51; ++i) {
      const double t0 = thread_cpu_ns();
      const graph::GraphCompileResult r = graph::compile_graph(g);
      runs.push_back(thread_cpu_ns() - t0);
      if (r.trans.groups.empty()) throw Error("graph compiled to nothing");
    }
    const double ns = median(std::move(runs));
    size_t uses = 0;
    for (const graph::Pass& p : g.passes) uses += p.uses.size();
    report["graph_compile"] = {{"file", "examples/deferred.json"}, {"passes", g.passes.size()}, {"uses", uses},
                               {"ns", ns}, {"ns_per_use", ns / static_cast<double>(uses)}};
    md += fmt::format("\nFrame graph examples/deferred.json: {} passes, {} uses, all phases in {:.1f} us of CPU "
                      "({:.0f} ns/use, median of 51).\n",
                      g.passes.size(), uses, ns / 1e3, ns / static_cast<double>(uses));
  }

  // 4. Transient memory.
  const double mib = 1024.0 * 1024.0;
  report["transient_memory"] = {{"file", "examples/deferred.json"},
                                {"unaliased_bytes", num.transient_unaliased},
                                {"aliased_bytes", num.transient_aliased},
                                {"lower_bound_bytes", num.lower_bound},
                                {"aliased_over_lower_bound", ratio(static_cast<double>(num.transient_aliased), static_cast<double>(num.lower_bound))},
                                {"unaliased_over_lower_bound", ratio(static_cast<double>(num.transient_unaliased), static_cast<double>(num.lower_bound))}};
  md += fmt::format("\n## Transient memory (examples/deferred.json)\n\n| | MiB | / lower bound |\n|---|---:|---:|\n"
                    "| lower bound (most bytes live at once) | {:.2f} | 1.00 |\n| aliased heap | {:.2f} | {} |\n"
                    "| every transient in its own memory | {:.2f} | {} |\n",
                    static_cast<double>(num.lower_bound) / mib, static_cast<double>(num.transient_aliased) / mib,
                    fmt_ratio(ratio(static_cast<double>(num.transient_aliased), static_cast<double>(num.lower_bound))),
                    static_cast<double>(num.transient_unaliased) / mib,
                    fmt_ratio(ratio(static_cast<double>(num.transient_unaliased), static_cast<double>(num.lower_bound))));

  std::ofstream(out_dir / "bench-report.json") << report.dump(2) << "\n";
  std::ofstream(out_dir / "bench-report.md") << md;
  std::fwrite(md.data(), 1, md.size(), stdout);
  std::printf("\nwritten: %s, %s\n", (out_dir / "bench-report.md").c_str(), (out_dir / "bench-report.json").c_str());
  return 0;
}
