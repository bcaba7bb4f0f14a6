// GPU cost of barriers (issue 3, item 8): the demo frame timed with timestamp queries under
//   (a) Baton's barriers, (b) a full barrier before every operation, (c) no barriers at all
// (an unsafe lower bound: its data is not checked), interleaved a,b,c,a,b,c,... without the
// validation layer; then (a) once more with the layer, which must report nothing.
//
//   gpu_barrier_cost [--device lavapipe|gpu] [--frames N] [--spin N] [--side N] [--words N]
//
// --spin sets RunOptions::spin (extra ALU rounds per compute/fragment invocation) so that each
// operation takes tens of microseconds on a real GPU. --side / --words set RunOptions::max_side /
// max_words: with large sizes every operation fills the GPU by itself (many workgroups, many
// fragments), the way a real frame's passes do, instead of one small workgroup spinning. Prints the median frame time of each variant
// and the ratios a/b and a/c against the targets (a <= 0.90 b, a <= 1.05 c). Exit code 1 when the
// layer run of (a) is not clean or (a)/(b) computed wrong data; timing targets are reported, not
// enforced (the lavapipe smoke test runs with tiny sizes).
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "baton/exec_vulkan.hpp"
#include "baton/lower_vulkan.hpp"
#include "baton/plan.hpp"
#include "baton/recording.hpp"

namespace {

using namespace baton;
using namespace baton::exec;

struct Args {
  DeviceKind device = DeviceKind::gpu;
  uint32_t frames = 20;
  uint32_t spin = 4000;
  uint32_t side = 16, words = 256;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw Error("gpu_barrier_cost: " + k + " needs a value");
      return argv[++i];
    };
    if (k == "--device") {
      const std::string v = value();
      const auto d = parse_device_kind(v);
      if (!d) throw Error("gpu_barrier_cost: --device must be lavapipe or gpu, not '" + v + "'");
      a.device = *d;
    } else if (k == "--frames") {
      a.frames = static_cast<uint32_t>(std::stoul(value()));
    } else if (k == "--spin") {
      a.spin = static_cast<uint32_t>(std::stoul(value()));
    } else if (k == "--side") {
      a.side = static_cast<uint32_t>(std::stoul(value()));
    } else if (k == "--words") {
      a.words = static_cast<uint32_t>(std::stoul(value()));
    } else {
      throw Error("gpu_barrier_cost: unknown option '" + k + "' (--device, --frames, --spin, --side, --words)");
    }
  }
  if (a.frames == 0) a.frames = 1;
  if (a.spin >= (1u << 31)) throw Error("gpu_barrier_cost: --spin must be below 2^31");
  return a;
}

double median(std::vector<double> v) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string us(double v) {
  return v < 0 ? std::string("n/a") : fmt::format("{:.1f} us", v);
}

int run_bench(const Args& args) {
  Recording rec = demo_recording();
  // Compiling marks the lists compiled, so the plan is made once and reused for every frame.
  const CompileResult cr = compile_all(rec.resources, rec.group_ptrs(), fresh_history(rec.resources));
  const ExecPlan plan = to_exec_plan(lower_vulkan(rec.resources, cr.groups));
  const ExecPlan none;

  struct Variant {
    const char* name;
    BarrierSource source;
    std::vector<double> us;
    uint32_t mismatches = 0, barriers = 0, calls = 0;
  };
  std::vector<Variant> v = {{"(a) baton", BarrierSource::plan, {}},
                            {"(b) full ", BarrierSource::full, {}},
                            {"(c) none ", BarrierSource::none, {}}};
  std::string device_name;
  {
    VulkanContext ctx(ContextOptions{args.device, false});
    device_name = ctx.device_name();
    fmt::print("device: {} ({}), demo frame, spin {}, textures up to {}x{}, buffers up to {} words, {} frames per "
               "variant, interleaved a,b,c\n",
               device_name, to_string(args.device), args.spin, args.side, args.side, args.words, args.frames);
    for (uint32_t f = 0; f < args.frames + 1; ++f) {
      for (Variant& var : v) {
        RunOptions o;
        o.source = var.source;
        o.spin = args.spin;
        o.max_side = args.side;
        o.max_words = args.words;
        // (c) has no barriers: its data is expected to be wrong on a real GPU.
        o.check_data = var.source != BarrierSource::none;
        const RunReport r = run(ctx, rec, var.source == BarrierSource::plan ? plan : none, o);
        if (f == 0) continue;  // warm-up: pipelines, first-use allocation
        var.us.push_back(r.frame_gpu_us);
        var.mismatches += static_cast<uint32_t>(r.mismatches.size());
        var.barriers = r.barriers;
        var.calls = r.barrier_calls;
      }
    }
  }
  int rc = 0;
  for (const Variant& var : v) {
    fmt::print("{}  median {:>12}  (min {}, max {}; {} barriers in {} calls per frame", var.name, us(median(var.us)),
               us(*std::min_element(var.us.begin(), var.us.end())),
               us(*std::max_element(var.us.begin(), var.us.end())), var.barriers, var.calls);
    if (var.source != BarrierSource::none) fmt::print("; {} mismatching subresources over all frames", var.mismatches);
    fmt::print(")\n");
    if (var.source != BarrierSource::none && var.mismatches) rc = 1;
  }
  const double a = median(v[0].us), b = median(v[1].us), c = median(v[2].us);
  if (a > 0 && b > 0 && c > 0) {
    fmt::print("a/b = {:.3f} (target <= 0.90: {}), a/c = {:.3f} (target <= 1.05: {})\n", a / b,
               a / b <= 0.90 ? "met" : "MISSED", a / c, a / c <= 1.05 ? "met" : "MISSED");
  } else {
    fmt::print("a/b = n/a, a/c = n/a (the device reports no timestamps on its queue)\n");
  }

  // (a) once more under the validation layer: zero messages and correct data.
  VulkanContext checked(ContextOptions{args.device, true});
  RunOptions o;
  o.spin = args.spin;
  o.max_side = args.side;
  o.max_words = args.words;
  const RunReport r = run(checked, rec, plan, o);
  fmt::print("(a) with validation layer: {} messages ({} hazards), {} mismatches, {} subresources checked\n",
             r.validation.total(), r.validation.hazards(), r.mismatches.size(), r.subresources_checked);
  for (const auto& [id, n] : r.validation.counts) fmt::print("  {} x{}\n", id, n);
  for (const Mismatch& m : r.mismatches) fmt::print("  {}\n", to_string(m));
  if (!r.clean()) rc = 1;
  fmt::print("result: {}\n", rc == 0 ? "clean" : "FINDINGS");
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run_bench(parse(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
