// The input budget (issue 15, docs/benchmarks.md "Input budget"): any input of S bytes compiles,
// validates and views in O(S log S) time and O(S) memory. This benchmark generates inputs of every
// format at three sizes (x4 apart), runs each the way the command does, and prints per size the CPU
// time and the peak heap (counted by this binary's operator new), their constants (ns and heap bytes
// per input byte: the floors) and the scaling ratios T(4S)/T(S) and M(4S)/M(S) against the budget's
// bounds. The families are built to hit what used to blow up: textures at the subresource limits with
// partial uses, resource sets of large count, traces with 2^20-subresource resources.
//
//   budget_bench [SCALE [FILTER]]   (SCALE multiplies every size, default 1; FILTER: only the families
//                                    whose name contains it)
//
// Exit 1 when a memory ratio is over its bound (the heap count is deterministic); time ratios are
// printed and flagged, not judged (a shared machine).
#include <fmt/format.h>
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <new>
#include <string>
#include <vector>

#include "baton/frame.hpp"
#include "baton/lower.hpp"
#include "baton/validate.hpp"
#include "baton/view.hpp"

namespace {
std::atomic<int64_t> g_live{0}, g_peak{0};
void count(void* p) {
  const auto n = static_cast<int64_t>(malloc_usable_size(p));
  const int64_t now = g_live.fetch_add(n, std::memory_order_relaxed) + n;
  int64_t peak = g_peak.load(std::memory_order_relaxed);
  while (now > peak && !g_peak.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
  }
}
void uncount(void* p) {
  g_live.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
}
void* allocate(size_t n) {
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  count(p);
  return p;
}
void* allocate_aligned(size_t n, std::align_val_t a) {
  const auto al = std::max(static_cast<size_t>(a), sizeof(void*));
  void* p = std::aligned_alloc(al, (std::max<size_t>(n, 1) + al - 1) / al * al);
  if (!p) throw std::bad_alloc();
  count(p);
  return p;
}
void release(void* p) noexcept {
  if (!p) return;
  uncount(p);
  std::free(p);
}
}  // namespace

void* operator new(size_t n) {
  return allocate(n);
}
void* operator new[](size_t n) {
  return allocate(n);
}
void* operator new(size_t n, std::align_val_t a) {
  return allocate_aligned(n, a);
}
void* operator new[](size_t n, std::align_val_t a) {
  return allocate_aligned(n, a);
}
void operator delete(void* p) noexcept {
  release(p);
}
void operator delete[](void* p) noexcept {
  release(p);
}
void operator delete(void* p, size_t) noexcept {
  release(p);
}
void operator delete[](void* p, size_t) noexcept {
  release(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
  release(p);
}
void operator delete[](void* p, std::align_val_t) noexcept {
  release(p);
}
void operator delete(void* p, size_t, std::align_val_t) noexcept {
  release(p);
}
void operator delete[](void* p, size_t, std::align_val_t) noexcept {
  release(p);
}

namespace {

using namespace baton;

double cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

// --- inputs -------------------------------------------------------------------------------------

// A chain of n dispatches over n textures (each writes its own, reads the previous two).
std::string recording_chain(size_t n) {
  std::string r = R"({"resources":[)";
  for (size_t i = 0; i < n; ++i)
    r += fmt::format(
        R"({}{{"name":"r{}","type":"texture","width":512,"height":512,"usage":["unordered_access","shader_resource"]}})",
        i ? "," : "", i);
  r += R"(],"groups":[{"name":"g","queue":"direct","lists":[{"name":"l","ops":[)";
  for (size_t i = 0; i < n; ++i) {
    r += fmt::format(
        R"({}{{"kind":"dispatch","uses":[{{"resource":"r{}","access":"unordered_access","stages":"compute"}})",
        i ? "," : "", i);
    for (size_t k = 1; k <= 2 && k <= i; ++k)
      r += fmt::format(R"(,{{"resource":"r{}","access":"shader_resource","stages":"compute"}})", i - k);
    r += "]}";
  }
  return r + "]}]}]}";
}

// n textures at the subresource limits (17 mips, 2048 layers): one subresource rendered, then the
// whole texture sampled (the legacy lowering splits it into a transition and a promotion).
std::string recording_subresources(size_t n) {
  std::string r = R"({"resources":[)";
  for (size_t i = 0; i < n; ++i)
    r += fmt::format(
        R"({}{{"name":"t{}","type":"texture","width":65536,"height":65536,"mips":17,"layers":2048,"usage":["render_target","shader_resource"]}})",
        i ? "," : "", i);
  r += R"(],"groups":[{"name":"g","queue":"direct","lists":[{"name":"l","ops":[)";
  for (size_t i = 0; i < n; ++i)
    r += fmt::format(
        R"({}{{"kind":"draw","uses":[{{"resource":"t{}","access":"render_target","mips":[0,1],"layers":[0,1]}}]}},)"
        R"({{"kind":"draw","uses":[{{"resource":"t{}","access":"shader_resource","stages":"pixel"}}]}})",
        i ? "," : "", i, i);
  return r + "]}]}]}";
}

// One texture at the subresource limits, n operations each rendering one more subresource.
std::string recording_one_texture(size_t n) {
  std::string r =
      R"({"resources":[{"name":"t","type":"texture","width":65536,"height":65536,"mips":17,"layers":2048,)"
      R"("usage":["render_target","shader_resource"]}],"groups":[{"name":"g","queue":"direct","lists":[{"name":"l","ops":[)";
  for (size_t i = 0; i < n; ++i)
    r += fmt::format(
        R"({}{{"kind":"draw","uses":[{{"resource":"t","access":"render_target","mips":[{},1],"layers":[{},1]}}]}})",
        i ? "," : "", i % 17, i / 17 % 2048);
  return r + "]}]}]}";
}

// One buffer, n clears of its 16-byte ranges in address order: n differently-stated pieces of one
// resource in the planner's range maps (each clear is its own operation), no barrier needed.
std::string recording_one_buffer(size_t n) {
  std::string r =
      fmt::format(R"({{"resources":[{{"name":"b","type":"buffer","size":{},"usage":["copy_dest"]}}],)"
                  R"("groups":[{{"name":"g","queue":"direct","lists":[{{"name":"l","ops":[)",
                  16 * n);
  for (size_t i = 0; i < n; ++i)
    r += fmt::format(
        R"({}{{"kind":"clear","uses":[{{"resource":"b","access":"copy_dest","bytes":[{},16]}}]}})",
        i ? "," : "", 16 * i);
  return r + "]}]}]}";
}

// A graph whose first pass has n uses: every other one writes 16 bytes of one buffer, the others
// read buffers of their own (the graph's validation, transitions and the planner see one pass, one
// operation of n uses); a second pass reads the whole buffer.
std::string graph_one_pass(size_t n) {
  std::string r = fmt::format(
      R"({{"resources":[{{"name":"b","type":"buffer","size":{},"usage":["unordered_access","shader_resource"]}},)"
      R"({{"name":"o","type":"buffer","size":16,"usage":["unordered_access"]}})",
      16 * n);
  for (size_t i = 1; i < n; i += 2)
    r += fmt::format(
        R"(,{{"name":"r{}","type":"buffer","size":16,"usage":["shader_resource"],"imported":true}})", i);
  r += R"(],"passes":[{"name":"p","queue":"compute","uses":[)";
  for (size_t i = 0; i < n; ++i)
    r += i % 2 == 0
             ? fmt::format(
                   R"({}{{"resource":"b","access":"unordered_access","stages":"compute","bytes":[{},16]}})",
                   i ? "," : "", 16 * i)
             : fmt::format(R"(,{{"resource":"r{}","access":"shader_resource","stages":"compute"}})", i);
  return r +
         R"(]},{"name":"q","queue":"compute","uses":[{"resource":"b","access":"shader_resource","stages":"compute"},)"
         R"({"resource":"o","access":"unordered_access","stages":"compute"}]}],"outputs":["o"]})";
}

// n resource sets of 64 members of 13 x 64 subresources, each written then read.
std::string graph_sets(size_t n) {
  std::string r = R"({"resources":[{"name":"out","type":"buffer","size":16})";
  for (size_t i = 0; i < n; ++i)
    r += fmt::format(
        R"(,{{"name":"s{}","type":"texture","width":4096,"height":4096,"mips":13,"layers":64,"count":64,"usage":["render_target","shader_resource"]}})",
        i);
  r += R"(],"passes":[)";
  for (size_t i = 0; i < n; ++i)
    r += fmt::format(
        R"({}{{"name":"w{}","queue":"graphics","uses":[{{"resource":"s{}","access":"render_target"}}]}},)"
        R"({{"name":"r{}","queue":"graphics","uses":[{{"resource":"s{}","access":"shader_resource","stages":"pixel"}},)"
        R"({{"resource":"out","access":"unordered_access","stages":"pixel"}}]}})",
        i ? "," : "", i, i, i, i);
  return r + R"(],"outputs":["out"]})";
}

// n resources of 2^20 subresources: one subresource and then all of it used, one submission each.
std::string trace(size_t n, bool vulkan) {
  std::string r = fmt::format(R"({{"api":"{}","resources":[)", vulkan ? "vulkan" : "d3d12");
  for (size_t i = 0; i < n; ++i)
    r += fmt::format(R"({}{{"name":"t{}","mips":16,"layers":65536}})", i ? "," : "", i);
  r += R"(],"lists":[)";
  for (size_t i = 0; i < n; ++i) {
    r += fmt::format(R"({}{{"name":"l{}","type":"direct","commands":[)", i ? "," : "", i);
    if (vulkan)
      r += fmt::format(
          R"({{"barrier":[{{"type":"image","resource":"t{0}","range":{{"layers":[{2},1]}},"dst_stage":"FRAGMENT_SHADER",)"
          R"("dst_access":"SHADER_SAMPLED_READ","old_layout":"UNDEFINED","new_layout":"SHADER_READ_ONLY_OPTIMAL"}}]}},)"
          R"({{"use":{{"resource":"t{0}","subresource":{1},"as":{{"stage":"FRAGMENT_SHADER","access":"SHADER_SAMPLED_READ",)"
          R"("layout":"SHADER_READ_ONLY_OPTIMAL"}}}}}})",
          i, (i * 16) % (1u << 20), i % 65536);
    else
      r += fmt::format(
          R"({{"barrier":[{{"type":"transition","resource":"t{0}","subresource":{1},"before":"COMMON","after":"RENDER_TARGET"}}]}},)"
          R"({{"use":{{"resource":"t{0}","as":"PIXEL_SHADER_RESOURCE"}}}})",
          i, (i * 7) % (1u << 20));
    r += "]}";
  }
  r += R"(],"submissions":[)";
  for (size_t i = 0; i < n; ++i)
    r += fmt::format(R"({}{{"queue":"q","type":"direct","lists":["l{}"]}})", i ? "," : "", i);
  return r + "]}";
}

// n textures of 16 mips x 65,536 layers, mips 1-2 of every layer moved to a read layout (Vulkan) or
// state (D3D12: legacy transitions name one subresource or all, so the enhanced barrier's range) and
// read. Kept by subresource index, that range is one run per layer (2 x 65,536 per texture); by run
// index (RunOrder, mip-major) one run per texture.
std::string trace_mip_ranges(size_t n, bool vulkan) {
  std::string r = fmt::format(R"({{"api":"{}","resources":[)", vulkan ? "vulkan" : "d3d12");
  for (size_t i = 0; i < n; ++i)
    r += fmt::format(R"({}{{"name":"t{}","mips":16,"layers":65536{}}})", i ? "," : "", i,
                     vulkan ? "" : R"(,"initial_layout":"UNDEFINED")");
  r += R"(],"lists":[{"name":"l","type":"direct","commands":[)";
  for (size_t i = 0; i < n; ++i) {
    if (vulkan)
      r += fmt::format(
          R"({1}{{"barrier":[{{"type":"image","resource":"t{0}","range":{{"mips":[1,2]}},"dst_stage":"FRAGMENT_SHADER",)"
          R"("dst_access":"SHADER_SAMPLED_READ","old_layout":"UNDEFINED","new_layout":"SHADER_READ_ONLY_OPTIMAL"}}]}},)"
          R"({{"use":{{"resource":"t{0}","range":{{"mips":[1,2]}},"as":{{"stage":"FRAGMENT_SHADER","access":"SHADER_SAMPLED_READ",)"
          R"("layout":"SHADER_READ_ONLY_OPTIMAL"}}}}}})",
          i, i ? "," : "");
    else
      r += fmt::format(
          R"({1}{{"barrier":[{{"type":"texture","resource":"t{0}","range":{{"mips":[1,2]}},"sync_before":"NONE",)"
          R"("sync_after":"PIXEL_SHADING","access_before":"NO_ACCESS","access_after":"SHADER_RESOURCE",)"
          R"("layout_before":"UNDEFINED","layout_after":"SHADER_RESOURCE"}}]}},)"
          R"({{"use":{{"resource":"t{0}","range":{{"mips":[1,2]}},"as":"PIXEL_SHADER_RESOURCE"}}}})",
          i, i ? "," : "");
  }
  return r + R"(]}],"submissions":[{"queue":"q","type":"direct","lists":["l"]}]})";
}

// n textures of 13 mips x 2,048 layers: a pass renders mips 1-2 of every layer, the next samples them
// (the graph's checks replay every barrier and use per run of subresources).
std::string graph_mip_ranges(size_t n) {
  std::string r = R"({"resources":[{"name":"out","type":"buffer","size":16})";
  for (size_t i = 0; i < n; ++i)
    r += fmt::format(
        R"(,{{"name":"s{}","type":"texture","width":4096,"height":4096,"mips":13,"layers":2048,"usage":["render_target","shader_resource"]}})",
        i);
  r += R"(],"passes":[)";
  for (size_t i = 0; i < n; ++i)
    r += fmt::format(
        R"({}{{"name":"w{}","queue":"graphics","uses":[{{"resource":"s{}","access":"render_target","mips":[1,2]}}]}},)"
        R"({{"name":"r{}","queue":"graphics","uses":[{{"resource":"s{}","access":"shader_resource","stages":"pixel","mips":[1,2]}},)"
        R"({{"resource":"out","access":"unordered_access","stages":"pixel"}}]}})",
        i ? "," : "", i, i, i, i);
  return r + R"(],"outputs":["out"]})";
}
// The frame graph as `baton compile --api vulkan` runs it (the checks included; the legacy lowering
// names every subresource of a partial range, so its output, not its state, is per layer).
void compile_vulkan(const std::string& text) {
  const CompiledFrame f = compile_frame(parse_frame_input(text, "bench"));
  if (!f.findings.empty()) throw Error("graph check failed: " + f.findings.front());
  if (lower(Api::vulkan, f.rec.resources, f.compiled).empty() && !f.compiled.empty()) throw Error("lost the plan");
}

// n buffers, each written and then given a barrier, all in one list: before the execution-dependency
// log (src/validate/exec_log.hpp) every barrier call walked every buffer written so far (quadratic).
std::string trace_buffer_barriers(size_t n) {
  std::string r = R"({"api":"vulkan","resources":[)";
  for (size_t i = 0; i < n; ++i) r += fmt::format(R"({}{{"name":"b{}","type":"buffer"}})", i ? "," : "", i);
  r += R"(],"lists":[{"name":"l","type":"direct","commands":[)";
  for (size_t i = 0; i < n; ++i)
    r += fmt::format(
        R"({1}{{"use":{{"resource":"b{0}","as":{{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_WRITE"}}}}}},)"
        R"({{"barrier":[{{"type":"buffer","resource":"b{0}","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_WRITE",)"
        R"("dst_stage":"FRAGMENT_SHADER","dst_access":"SHADER_STORAGE_READ"}}]}})",
        i, i ? "," : "");
  return r + R"(]}],"submissions":[{"queue":"q","type":"direct","lists":["l"]}]})";
}

// --- what the commands do -----------------------------------------------------------------------

void compile_all_apis(const std::string& text) {
  const CompiledFrame f = compile_frame(parse_frame_input(text, "bench"));
  for (const Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan})
    if (lower(api, f.rec.resources, f.compiled).empty() && !f.compiled.empty()) throw Error("lost the plan");
}
void validate_trace(const std::string& text) {
  const validate::Trace t = validate::load_trace(text, "bench");
  (void)validate::validate(t);
}
void view_one(const std::string& text) {
  const std::array<Api, 1> one = {Api::d3d12_legacy};
  (void)view::build_frame(text, "bench", {}, one);
}

struct Family {
  const char* name;
  const char* command;
  std::function<std::string(size_t)> input;
  std::function<void(const std::string&)> run;
  size_t n0;
};

struct Sample {
  size_t bytes = 0;
  double ns = 0;
  int64_t peak = 0;
};

Sample measure(const Family& f, size_t n) {
  Sample s;
  const std::string text = f.input(n);
  s.bytes = text.size();
  std::vector<double> runs;
  double total = 0;
  while (runs.size() < 3 || (total < 2e8 && runs.size() < 20)) {
    g_peak.store(g_live.load());
    const int64_t base = g_live.load();
    const double t0 = cpu_ns();
    f.run(text);
    const double t1 = cpu_ns();
    runs.push_back(t1 - t0);
    total += t1 - t0;
    s.peak = std::max(s.peak, g_peak.load() - base);
  }
  std::sort(runs.begin(), runs.end());
  s.ns = runs[runs.size() / 2];
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const size_t scale = argc > 1 ? std::max<size_t>(1, std::strtoull(argv[1], nullptr, 10)) : 1;
  const std::vector<Family> families = {
      {"recording chain", "compile (3 APIs)", recording_chain, compile_all_apis, 500},
      {"recording, 34,816-subresource textures", "compile (3 APIs)", recording_subresources, compile_all_apis,
       50},
      {"recording, one texture, one subresource per op", "compile (3 APIs)", recording_one_texture,
       compile_all_apis, 250},
      {"recording, one buffer, 16 bytes per clear", "compile (3 APIs)", recording_one_buffer,
       compile_all_apis, 2500},
      {"graph, sets of 64 members", "compile (3 APIs)", graph_sets, compile_all_apis, 10},
      {"graph, one pass of many uses", "compile (3 APIs)", graph_one_pass, compile_all_apis, 2500},
      {"trace d3d12, 2^20-subresource resources", "validate", [](size_t n) { return trace(n, false); },
       validate_trace, 100},
      {"trace vulkan, 2^20-subresource resources", "validate", [](size_t n) { return trace(n, true); },
       validate_trace, 25},
      {"trace vulkan, a barrier per buffer", "validate", trace_buffer_barriers, validate_trace, 1000},
      {"trace vulkan, mips 1-2 of 65,536 layers", "validate",
       [](size_t n) { return trace_mip_ranges(n, true); }, validate_trace, 16},
      {"trace d3d12, mips 1-2 of 65,536 layers", "validate",
       [](size_t n) { return trace_mip_ranges(n, false); }, validate_trace, 16},
      {"graph, mips 1-2 of 2,048 layers", "compile --api vulkan", graph_mip_ranges, compile_vulkan, 16},
      {"recording chain", "view --api d3d12-legacy", recording_chain, view_one, 500},
  };
  fmt::print("Input budget: O(S log S) time, O(S) memory in the input size S (docs/benchmarks.md).\n");
  fmt::print("Bounds per x4 step: time ratio <= 4 * log(4S)/log(S) * 1.5 (noise), heap ratio <= 5.\n\n");
  fmt::print(
      "| input | command | S (bytes) | CPU ms | ns/byte | peak heap MiB | heap bytes/byte | T(4S)/T(S) | "
      "M(4S)/M(S) |\n");
  fmt::print("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
  bool over = false;
  const std::string filter = argc > 2 ? argv[2] : "";
  for (const Family& f : families) {
    if (std::string_view(f.name).find(filter) == std::string_view::npos) continue;
    Sample prev;
    for (size_t k = 0; k < 3; ++k) {
      const size_t n = f.n0 * scale << (2 * k);
      const Sample s = measure(f, n);
      std::string tr = "-", mr = "-";
      if (k > 0) {
        const double t = s.ns / prev.ns, m = static_cast<double>(s.peak) / static_cast<double>(prev.peak);
        const double sb = static_cast<double>(s.bytes), pb = static_cast<double>(prev.bytes);
        const double grow = sb / pb;
        const double tbound = grow * std::log(sb) / std::log(pb) * 1.5, mbound = grow * 1.25;
        tr = fmt::format("{:.2f}{}", t, t > tbound ? " (over)" : "");
        mr = fmt::format("{:.2f}{}", m, m > mbound ? " (OVER)" : "");
        over = over || m > mbound;
      }
      fmt::print("| {} | {} | {} | {:.1f} | {:.1f} | {:.1f} | {:.1f} | {} | {} |\n", f.name, f.command,
                 s.bytes, s.ns / 1e6, s.ns / static_cast<double>(s.bytes),
                 static_cast<double>(s.peak) / (1 << 20),
                 static_cast<double>(s.peak) / static_cast<double>(s.bytes), tr, mr);
      std::fflush(stdout);
      prev = s;
    }
  }
  fmt::print("\n{}\n", over ? "memory budget: OVER" : "memory budget: holds");
  return over ? 1 : 0;
}
