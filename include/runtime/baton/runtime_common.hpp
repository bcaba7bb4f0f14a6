// What the runtime's backends share, with no graphics API in sight: errors as values, the engine's
// job system, a frame's resources and uses, building the frame graph from a frame's declarations,
// and real memory for the frame graph's transients (per-member memory requirements in, aliasing
// sizes and heap offsets out). The backends: runtime.hpp (Vulkan, src/runtime/vulkan_*.cpp) and
// runtime_d3d12.hpp (D3D12 through vkd3d, src/runtime/d3d12_*.cpp). docs/runtime.md.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "baton/core.hpp"
#include "baton/graph.hpp"

namespace baton::runtime {

// A value or the text of what went wrong.
template <class T>
class Result {
 public:
  Result(T v) : v_(std::move(v)) {}  // NOLINT: implicit on purpose
  static Result failure(std::string message) { return Result(Tag{}, std::move(message)); }
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  const std::string& error() const { return std::get<1>(v_); }

 private:
  struct Tag {};
  Result(Tag, std::string m) : v_(std::in_place_index<1>, std::move(m)) {}
  std::variant<T, std::string> v_;
};
struct Ok {};
using Status = Result<Ok>;

// The engine's job system: run job(0) .. job(count - 1), on any threads, and return when all have
// finished. Jobs never share an API object that needs external synchronization.
using JobSystem = std::function<void(uint32_t count, const std::function<void(uint32_t)>& job)>;

// A resource of the frame being built.
struct Res {
  uint32_t index = graph::kNone;
  bool valid() const { return index != graph::kNone; }
};

struct Use {
  Res res;
  Access access = Access::shader_resource;
  Stages stages = kNoStages;  // shader accesses: which stages
  SubresourceRange range{};   // whole resource by default
};

// Frame::add_pass and Frame::output of both backends: a declaration that names a resource the frame
// does not have is kept as an error of the frame (its submit reports it), never thrown.
bool uses_only_resources_of_the_frame(const std::vector<Use>& uses, size_t resources);
template <class PassT>
void declare_pass(PassT pass, size_t resources, std::vector<PassT>& passes, std::vector<std::string>& errors) {
  if (!uses_only_resources_of_the_frame(pass.uses, resources))
    errors.push_back("pass '" + pass.name + "' uses a resource that is not of this frame");
  passes.push_back(std::move(pass));
}
void declare_output(Res r, size_t resources, std::vector<uint32_t>& outputs, std::vector<std::string>& errors);

// The frame graph of one frame's declarations: `resources` in declaration order (Res::index), and
// the passes (any type with name, queue, async, side_effect and uses, as both backends' PassDesc).
// Throws Error naming a resource or pass declared twice. Names are checked with a hash set and the
// vectors filled directly (Graph::add_resource / add_pass look names up linearly: quadratic for a
// frame of 10,000 passes).
void check_unique_names(const std::vector<graph::Resource>& resources, const std::vector<std::string_view>& passes);
template <class PassT>
graph::Graph build_graph(std::vector<graph::Resource> resources, const std::vector<PassT>& passes,
                         std::vector<uint32_t> outputs) {
  std::vector<std::string_view> names;
  names.reserve(passes.size());
  for (const PassT& p : passes) names.push_back(p.name);
  check_unique_names(resources, names);
  graph::Graph g;
  g.resources = std::move(resources);
  g.passes.reserve(passes.size());
  for (const PassT& p : passes) {
    graph::Pass gp;
    gp.name = p.name;
    gp.queue = p.queue;
    gp.async = p.async;
    gp.side_effect = p.side_effect;
    gp.uses.reserve(p.uses.size());
    for (const Use& u : p.uses) gp.uses.push_back({u.res.index, u.access, u.stages, u.range});
    g.passes.push_back(std::move(gp));
  }
  g.outputs = std::move(outputs);
  return g;
}

// ---------------------------------------------------------------------------------------------
// Real memory for a frame graph's transients, shared by the runtimes and the executors (which run
// graphs whose resources they create themselves). Members are the graph's resources expanded
// (`count`), in resource order, as graph::Transitions numbers them.
struct MemoryRequirement {
  uint64_t size = 0;
  uint64_t alignment = 1;
  uint32_t type_bits = ~0u;  // Vulkan memoryTypeBits; D3D12: every bit (one heap kind)
};
std::vector<uint32_t> first_members(const graph::Graph& g);
// AliasingOptions::sizes (all members of a resource together, each rounded up to the alignment)
// and ::alignment (the largest member alignment; `granularity` too when it is > 1 and images and
// buffers are both transient). `member_req` has one entry per member.
void set_real_sizes(const graph::Graph& g, const std::vector<MemoryRequirement>& member_req, uint64_t granularity,
                    graph::AliasingOptions& o);
struct MemberPlacement {
  static constexpr uint64_t kNotPlaced = ~uint64_t{0};
  std::vector<uint64_t> offset;     // per member: byte offset in the heap, kNotPlaced if not placed
  std::vector<uint8_t> taken_over;  // per member: a later transient took over (part of) its memory
  uint64_t heap_size = 0;
  uint32_t type_bits = ~0u;         // memory types every placed member allows
};
// `o` is what the graph was compiled with (set_real_sizes filled it).
MemberPlacement member_placement(const graph::Graph& g, const graph::GraphCompileResult& r,
                                 const std::vector<MemoryRequirement>& member_req, const graph::AliasingOptions& o);
// Per group of a compiled graph: the earlier groups it waits for (the schedule's signal/wait pairs
// and the frame_start / frame_end groups' own waits), sorted and unique. A wait across logical queues
// becomes a semaphore (Vulkan) or a fence wait (D3D12); within one queue submission order holds it.
std::vector<std::vector<uint32_t>> group_waits(const graph::Graph& g, const graph::GraphCompileResult& r);
// Bytes bound to more than one [offset, offset + size) range.
uint64_t aliased_bytes(const std::vector<std::pair<uint64_t, uint64_t>>& ranges);

}  // namespace baton::runtime
