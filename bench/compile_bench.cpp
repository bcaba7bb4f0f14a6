// Compile throughput of the group compiler (plan + compile, one core) on generated recordings.
//
// "chain": N dispatches; dispatch i writes texture r_i as unordered_access and reads r_{i-1} and
// r_{i-2} as compute shader_resource (sizes 256/512/1024 rotating); then one draw reads r_{N-1} in the
// pixel stage and writes the swapchain. "random": seeded random recordings of the same size.
// After the runs it prints ns per use and the scaling ratio T(10N)/T(N), measured in this one run,
// against the targets (<= 100 ns per use, ratio <= 11).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>

#include "baton/plan.hpp"

namespace {

using namespace baton;

struct Workload {
  ResourceTable rt;
  std::vector<std::unique_ptr<CommandList>> lists;
  std::vector<std::unique_ptr<CommandListGroup>> groups;
  std::vector<const CommandListGroup*> group_ptrs;
  size_t uses = 0;

  void finish() {
    for (auto& l : lists) l->close();
    auto g = std::make_unique<CommandListGroup>("frame", Queue::direct);
    for (auto& l : lists) g->add(*l);
    groups.push_back(std::move(g));
    for (auto& x : groups) group_ptrs.push_back(x.get());
    for (auto& l : lists)
      for (const Operation& o : l->ops()) uses += o.uses.size();
  }
};

std::unique_ptr<Workload> make_chain(size_t n) {
  auto w = std::make_unique<Workload>();
  const uint32_t sizes[] = {256, 512, 1024};
  std::vector<ResourceId> r(n);
  for (size_t i = 0; i < n; ++i) {
    ResourceDesc d;
    d.name = "r" + std::to_string(i);
    d.width = d.height = sizes[i % 3];
    d.usage = bit(Access::unordered_access) | bit(Access::shader_resource);
    r[i] = w->rt.add(d);
  }
  ResourceDesc sc;
  sc.name = "swapchain";
  sc.usage = bit(Access::render_target);
  sc.swapchain = true;
  const ResourceId swap = w->rt.add(sc);
  w->lists.push_back(std::make_unique<CommandList>("chain", Queue::direct));
  CommandList& l = *w->lists.back();
  const Stages cs = stages(Stage::compute);
  std::vector<Use> uses;
  for (size_t i = 0; i < n; ++i) {
    uses.clear();
    uses.push_back({r[i], Access::unordered_access, cs, {}});
    if (i >= 1) uses.push_back({r[i - 1], Access::shader_resource, cs, {}});
    if (i >= 2) uses.push_back({r[i - 2], Access::shader_resource, cs, {}});
    l.record(OpKind::dispatch, uses);
  }
  const Use draw[] = {{r[n - 1], Access::shader_resource, stages(Stage::pixel), {}},
                      {swap, Access::render_target, kNoStages, {}}};
  l.record(OpKind::draw, draw);
  w->finish();
  return w;
}

// Random recordings: textures with mips and layers used by draws and dispatches over random ranges.
std::unique_ptr<Workload> make_random(size_t n) {
  auto w = std::make_unique<Workload>();
  std::mt19937 rng(static_cast<uint32_t>(n));
  const size_t resources = std::max<size_t>(8, n / 8);
  for (size_t i = 0; i < resources; ++i) {
    ResourceDesc d;
    d.name = "t" + std::to_string(i);
    d.mips = 1 + static_cast<uint32_t>(rng() % 4);
    d.layers = 1 + static_cast<uint32_t>(rng() % 2);
    d.usage = bit(Access::render_target) | bit(Access::shader_resource) | bit(Access::unordered_access);
    w->rt.add(d);
  }
  const size_t lists = std::max<size_t>(1, n / 1000);
  for (size_t li = 0; li < lists; ++li)
    w->lists.push_back(std::make_unique<CommandList>("l" + std::to_string(li), Queue::direct));
  for (size_t i = 0; i < n; ++i) {
    CommandList& l = *w->lists[i % lists];
    const bool draw = rng() % 2 == 0;
    std::vector<Use> uses;
    std::vector<ResourceId> picked;
    for (int k = 0; k < 3; ++k) {
      const auto r = static_cast<ResourceId>(rng() % resources);
      if (std::find(picked.begin(), picked.end(), r) != picked.end()) continue;
      picked.push_back(r);
      const ResourceDesc& d = w->rt[r];
      const uint32_t m = static_cast<uint32_t>(rng() % d.mips);
      const SubresourceRange range{m, 1, 0, kAll, 0, kAll};
      if (k == 0)
        uses.push_back(draw ? Use{r, Access::render_target, kNoStages, range}
                            : Use{r, Access::unordered_access, stages(Stage::compute), range});
      else
        uses.push_back({r, Access::shader_resource, draw ? stages(Stage::pixel) : stages(Stage::compute), range});
    }
    l.request_break();
    l.record(draw ? OpKind::draw : OpKind::dispatch, uses);
  }
  w->finish();
  return w;
}

template <class Make>
void run(benchmark::State& state, Make make) {
  const auto n = static_cast<size_t>(state.range(0));
  const auto w = make(n);
  size_t barriers = 0;
  for (auto _ : state) {
    Plan p = plan(w->rt, w->group_ptrs, fresh_history(w->rt));
    CompiledGroup g = compile(w->rt, *w->group_ptrs[0], p.groups[0]);
    barriers = g.barrier_count();
    benchmark::DoNotOptimize(g);
  }
  state.counters["uses"] = static_cast<double>(w->uses);
  state.counters["barriers"] = static_cast<double>(barriers);
}

void BM_Chain(benchmark::State& s) { run(s, make_chain); }
void BM_Random(benchmark::State& s) { run(s, make_random); }
BENCHMARK(BM_Chain)->Arg(100)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Random)->Arg(100)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);

// Collects the runs and prints ns per use and the scaling ratios with the targets.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& r : runs) {
      // Plain runs, or the median when --benchmark_repetitions asks for aggregates (it then wins).
      const bool median = r.run_type == Run::RT_Aggregate && r.aggregate_name == "median";
      if (r.run_type != Run::RT_Iteration && !median) continue;
      const std::string name = r.run_name.function_name + "/" + r.run_name.args;
      const auto slash = name.find('/');
      const std::string family = name.substr(0, slash);
      const long n = std::stol(name.substr(slash + 1));
      if (!median && medians_.count(name)) continue;
      if (median) medians_.insert(name);
      const double per_iter_ns = r.GetAdjustedRealTime() * 1e3;  // reported in microseconds
      const double uses = r.counters.at("uses");
      results_[family][n] = {per_iter_ns, per_iter_ns / uses};
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    bool ok = true;
    std::printf("\nscaling (one core, measured in this run):\n");
    for (const auto& [family, byn] : results_) {
      for (const auto& [n, v] : byn) {
        std::printf("  %-10s N=%-7ld %10.1f us  %6.1f ns/use", family.c_str(), n, v.first / 1e3, v.second);
        if (family == "BM_Chain") {
          const bool pass = v.second <= 100.0;
          ok &= pass;
          std::printf("  (target <= 100 ns/use: %s)", pass ? "ok" : "MISSED");
        }
        const auto next = byn.find(n * 10);
        if (next != byn.end()) {
          const double ratio = next->second.first / v.first;
          std::printf("  T(%ld)/T(%ld) = %.2f", n * 10, n, ratio);
          if (family == "BM_Chain") {
            const bool pass = ratio <= 11.0;
            ok &= pass;
            std::printf(" (target <= 11: %s)", pass ? "ok" : "MISSED");
          }
        }
        std::printf("\n");
      }
    }
    if (results_.count("BM_Chain") == 0) ok = false;  // nothing measured is not a pass
    std::printf("chain targets: %s\n", ok ? "met" : "MISSED (or not measured)");
  }

 private:
  std::map<std::string, std::map<long, std::pair<double, double>>> results_;
  std::set<std::string> medians_;
};

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
