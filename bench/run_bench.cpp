// `baton run`'s path at scale (issue 12, item 5): a chain of N compute passes (pass i writes
// transient r_i and reads r_{i-1}, r_{i-2}; the last is copied into a persistent output) through
// exec::prepare_graph_run (real memory requirements, one compile, placement) and exec::run (the
// runtime binds the shared heap, records and submits; then read back and check) on lavapipe. The layer is off by default: with it the time
// is the layer's own (its submit-time replay grows with the accesses to one heap range; measured
// 0.15 / 0.57 / 2.57 s of GPU phase for 500 / 1,000 / 2,000 passes), not Baton's.
//
// --repeat K runs every size K times and compares the medians (a loaded machine varies by 2x).
//
//   run_bench [--sizes 1000,10000] [--repeat 1] [--validation]
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "baton/exec_graph.hpp"

using namespace baton;

namespace {

graph::Graph chain(size_t n) {
  graph::Graph g;
  auto tex = [&](std::string name, bool transient, AccessMask usage) {
    graph::Resource r;
    r.desc.name = std::move(name);
    r.desc.width = r.desc.height = 64;
    r.desc.usage = usage;
    r.transient = transient;
    g.resources.push_back(std::move(r));
  };
  for (size_t i = 0; i < n; ++i) tex(fmt::format("r{}", i), true, bit(Access::unordered_access) | bit(Access::shader_resource));
  tex("out", false, bit(Access::copy_dest) | bit(Access::shader_resource));
  const Stages cs = stages(Stage::compute);
  for (uint32_t i = 0; i < n; ++i) {
    graph::Pass p;
    p.name = fmt::format("p{}", i);
    p.queue = Queue::compute;
    p.uses.push_back({i, Access::unordered_access, cs, {}});
    if (i >= 1) p.uses.push_back({i - 1, Access::shader_resource, cs, {}});
    if (i >= 2) p.uses.push_back({i - 2, Access::shader_resource, cs, {}});
    g.passes.push_back(std::move(p));
  }
  graph::Pass c;
  c.name = "copy_out";
  c.uses = {{static_cast<uint32_t>(n - 1), Access::copy_source, kNoStages, {}},
            {static_cast<uint32_t>(n), Access::copy_dest, kNoStages, {}}};
  g.passes.push_back(std::move(c));
  g.outputs.push_back(static_cast<uint32_t>(n));
  return g;
}

double ms(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<size_t> sizes{1000, 10000};
  bool validation = false;
  int repeat = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--sizes" && i + 1 < argc) {
      sizes.clear();
      const std::string s = argv[++i];
      for (size_t p = 0; p < s.size();) {
        const size_t q = std::min(s.find(',', p), s.size());
        sizes.push_back(std::stoul(s.substr(p, q - p)));
        p = q + 1;
      }
    } else if (a == "--repeat" && i + 1 < argc) {
      repeat = std::max(1, std::stoi(argv[++i]));
    } else if (a == "--validation") {
      validation = true;
    } else {
      fmt::print(stderr, "usage: run_bench [--sizes N,M] [--repeat K] [--validation]\n");
      return 2;
    }
  }
  exec::VulkanContext ctx(exec::ContextOptions{exec::DeviceKind::lavapipe, validation});
  fmt::print("run_bench on {} (layer {}): chain of N compute passes, prepare + record + submit + check\n",
             ctx.device_name(), validation ? "on" : "off");
  std::vector<double> total;
  bool clean = true;
  for (size_t n : sizes) {
    const graph::Graph g = chain(n);
    std::vector<double> runs;
    for (int k = 0; k < repeat; ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      exec::RunOptions o;
      o.sync_queue_switches = true;
      const exec::GraphRun gr = exec::prepare_graph_run(ctx, g, o);
      const double prepare = ms(t0);
      const exec::RunReport r = exec::run(ctx, gr.rec, gr.history_in, gr.plan, o);
      runs.push_back(ms(t0));
      clean = clean && r.mismatches.empty() && (!validation || r.validation.empty());
      fmt::print("N={:>6}: {:9.1f} ms (prepare {:.1f}, record {:.1f}, gpu {:.1f}, check {:.1f}); {} mismatches, {} layer "
                 "messages, heap {} B\n",
                 n, runs.back(), prepare, r.record_ms, r.gpu_ms, r.check_ms, r.mismatches.size(), r.validation.total(),
                 r.memory.heap_bytes);
    }
    std::sort(runs.begin(), runs.end());
    total.push_back(runs[runs.size() / 2]);
    if (repeat > 1) fmt::print("N={:>6}: median of {}: {:.1f} ms\n", n, repeat, total.back());
  }
  for (size_t i = 1; i < sizes.size(); ++i) {
    const double ratio = total[i] / total[i - 1];
    const double scale = static_cast<double>(sizes[i]) / static_cast<double>(sizes[i - 1]);
    fmt::print("T({})/T({}) = {:.2f} (target <= {:.0f}: {})\n", sizes[i], sizes[i - 1], ratio, scale * 1.1,
               ratio <= scale * 1.1 ? "met" : "MISSED");
  }
  return clean ? 0 : 1;
}
