// The legacy lowering (lower_d3d12.hpp) as plain data: the lowering's D3D12_RESOURCE_BARRIER arrays
// copied into structures that name neither Debian's directx-headers nor vkd3d's headers. The two
// cannot share a translation unit (they declare the same types with different calling conventions),
// so code that calls D3D12 through vkd3d (the D3D12 runtime, the D3D12 executor) consumes the
// lowering through this header; src/lower/d3d12_legacy_plain.cpp is the one file that converts.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "baton/plan.hpp"

namespace baton::d3d12 {

// D3D12_RESOURCE_STATES values, pinned here so tests and callers can name exact states without
// either header (static_asserts in both worlds check them against the real enums).
namespace state {
inline constexpr uint32_t common = 0x0;
inline constexpr uint32_t present = 0x0;  // PRESENT == COMMON
inline constexpr uint32_t vertex_and_constant_buffer = 0x1;
inline constexpr uint32_t index_buffer = 0x2;
inline constexpr uint32_t render_target = 0x4;
inline constexpr uint32_t unordered_access = 0x8;
inline constexpr uint32_t depth_write = 0x10;
inline constexpr uint32_t depth_read = 0x20;
inline constexpr uint32_t non_pixel_shader_resource = 0x40;
inline constexpr uint32_t pixel_shader_resource = 0x80;
inline constexpr uint32_t indirect_argument = 0x200;
inline constexpr uint32_t copy_dest = 0x400;
inline constexpr uint32_t copy_source = 0x800;
inline constexpr uint32_t resolve_dest = 0x1000;
inline constexpr uint32_t resolve_source = 0x2000;
inline constexpr uint32_t generic_read = 0xac3;
}  // namespace state
inline constexpr uint32_t kAllSubresources = 0xffffffffu;  // D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES

// ---------------------------------------------------------------------------------------------
// The legacy lowering (include/lower/baton/lower_d3d12.hpp) as plain data.
enum class BarrierKind : uint8_t { transition, uav, aliasing };
struct PlainBarrier {
  BarrierKind kind = BarrierKind::transition;
  ResourceId resource = 0;  // kGlobalResource: UAV barrier on NULL; aliasing: pResourceAfter
  uint32_t subresource = kAllSubresources;
  uint32_t before = 0, after = 0;  // transitions only
  ResourceId previous = kGlobalResource;  // aliasing: pResourceBefore (kGlobalResource: NULL)
  friend bool operator==(const PlainBarrier&, const PlainBarrier&) = default;
};
struct PlainPoint {
  uint32_t op = 0;
  Where where = Where::before;
  std::vector<PlainBarrier> barriers;  // one ResourceBarrier call
  std::vector<ResourceId> discards;    // DiscardResource right after the barriers
};
struct PlainList {
  std::string name;
  Queue queue = Queue::direct;
  std::vector<PlainPoint> points;  // (op, where) order
};
struct PlainGroup {
  std::string name;
  Queue queue = Queue::direct;
  std::vector<PlainList> lists;
};
// Real legacy state per resource, per subresource index; an empty vector means all COMMON.
using LegacyStates = std::vector<std::vector<uint32_t>>;
struct PlainPlan {
  std::vector<PlainGroup> groups;
  // Where the plan starts (legacy_plan's `initial`): run() moves the resources there from COMMON
  // before the first group (Session::enter). Empty: everything starts in COMMON.
  LegacyStates initial_states;
  LegacyStates final_states;  // after the last group, decay applied
  // Neutral barriers the lowering left to the API (implicit promotion, decay, already in the
  // state), one line each: "group/list/op N before: resource range BEFORE -> AFTER (why)".
  std::vector<std::string> omitted;
  size_t barrier_count() const;
};
// lower_d3d12_legacy (optionally from the states an earlier lowering or another renderer left),
// copied into plain data.
PlainPlan legacy_plan(const ResourceTable& resources, std::span<const CompiledGroup> groups,
                      const LegacyStates* initial = nullptr);
// The legacy states of a plan whose history says which resources start at rest (a frame graph's
// non-transient resources: History::touched): a texture its resting state's legacy state on every
// subresource; the others (untouched, transients) COMMON.
LegacyStates resting_states(const ResourceTable& resources, const History& history_in);
// The state of one subresource in a LegacyStates value (COMMON where nothing is recorded).
uint32_t state_at(const LegacyStates& s, ResourceId r, uint32_t subresource);
// "COPY_DEST", "PIXEL_SHADER_RESOURCE|NON_PIXEL_SHADER_RESOURCE", "COMMON".
std::string state_name(uint32_t s);
// The legacy state a use needs (state_of_use lowered; shader reads split by the pixel stage).
uint32_t legacy_state_of_use(const ResourceDesc& d, Access a, Stages s);

}  // namespace baton::d3d12
