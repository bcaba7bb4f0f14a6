// Lowering: the neutral plan of a group turned into API barriers by constexpr tables (one row per
// access). Three targets: D3D12 enhanced barriers, D3D12 legacy resource states, Vulkan sync2.
// The API-native structures live in lower_d3d12.hpp / lower_vulkan.hpp; this header is the
// API-independent view used for printing and counting.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "baton/plan.hpp"

namespace baton {

enum class Api : uint8_t { d3d12, d3d12_legacy, vulkan };
std::string_view to_string(Api a);
std::optional<Api> parse_api(std::string_view s);

// One neutral barrier as the API sees it. A barrier the API does not need (implicit promotion or
// decay, an ordering the API guarantees) is kept with omitted = true and the reason why, so the
// output shows the omission instead of hiding it. One neutral barrier may become several API
// barriers (legacy transitions are per subresource): api_barriers counts them.
struct LoweredBarrier {
  ResourceId resource = 0;
  std::string range;          // text of the neutral box
  std::string before, after;  // API names, e.g. "PIXEL_SHADER_RESOURCE" or "SYNC_DRAW|ACCESS_..|LAYOUT_.."
  Reason reason = Reason::state_change;
  bool omitted = false;
  std::string omitted_why;
  uint32_t api_barriers = 1;
  // Extra API detail worth showing, e.g. "FLAG_DISCARD", "DiscardResource after the barrier",
  // "UAV barrier", "aliasing barrier (NULL -> resource)". Empty when there is none.
  std::string note;
  // A split barrier (Barrier::split_after): its begin half goes right after that operation, its end
  // half is at this point; `split` says why (split_reason). kNoSplit and empty for a whole barrier.
  uint32_t split_after = kNoSplit;
  std::string split;
};

// Which half of a split barrier a native point holds (lower_d3d12.hpp, lower_vulkan.hpp): none for
// an ordinary barrier call. A split barrier's begin half sits at (split_after, after), behind that
// point's ordinary barriers; its end half at its own point, ahead of that point's ordinary barriers.
enum class SplitHalf : uint8_t { none, begin, end };
std::string_view to_string(SplitHalf h);

struct LoweredPoint {
  uint32_t op = 0;
  Where where = Where::before;
  std::vector<LoweredBarrier> barriers;
  // One API call per point unless every barrier at it is omitted.
  bool needs_call() const;
};

struct LoweredList {
  std::string name;
  Queue queue = Queue::direct;
  std::vector<LoweredPoint> points;
};

struct LoweredGroup {
  std::string name;
  Queue queue = Queue::direct;
  std::vector<LoweredList> lists;
  size_t barrier_count() const;  // API barriers actually issued (omitted ones excluded)
  size_t call_count() const;     // API barrier calls
};

// Lowers the groups of one submission sequence, in order. D3D12 legacy lowering tracks the real
// legacy state across groups (implicit promotion inside an ExecuteCommandLists, decay at its end),
// which is why it takes the whole sequence. Throws Error when a group cannot be expressed in the API
// (for example an access a compute or copy list cannot perform there), naming the group, list,
// operation and resource.
std::vector<LoweredGroup> lower(Api api, const ResourceTable& resources, std::span<const CompiledGroup> groups);

// The last line of every text plan (`baton compile`, recordings and frame graphs alike): how to read
// the lines above it. One home, so both printers say the same.
inline constexpr std::string_view kPlanTextLegend =
    "legend: resource[range] before -> after (reason); \"omitted ...\" = considered, not issued (the API "
    "needs none: why after \"omitted:\"); \"no API call\" = every barrier there omitted; reasons and their "
    "rules: docs/concepts.md";
// The same from where the frame starts (`history_in`: a frame graph's non-transient resources are
// touched, at rest). D3D12 legacy then starts every touched texture in its resting state's legacy
// state instead of COMMON, as the trace writer (trace_of_plan), the D3D12 executor and an engine's
// steady-state frame do; a fresh history (recordings) lowers exactly as above. The compiled frame's
// printers (compile, view, --dot, numbers) lower this way, so they print the plan that is traced and run.
std::vector<LoweredGroup> lower(Api api, const ResourceTable& resources, std::span<const CompiledGroup> groups,
                                const History& history_in);

}  // namespace baton
