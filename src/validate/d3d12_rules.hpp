// D3D12 rule tables from the API documentation (../shared/REFERENCE.md): which legacy states are
// reads and writes, what implicit promotion allows per resource class, which states, layouts,
// syncs and accesses each list type accepts, and the enhanced layout -> access -> sync
// compatibility. Pure constexpr data and small predicates, shared by the legacy and enhanced
// replays.
#pragma once

#include <array>
#include <baton/validate.hpp>
#include <bit>
#include <cstdint>

namespace baton::validate::d3d12 {

// ---- legacy D3D12_RESOURCE_STATES ----
namespace st {
inline constexpr uint32_t common = 0, vertex_and_constant_buffer = 0x1, index_buffer = 0x2,
                          render_target = 0x4, unordered_access = 0x8, depth_write = 0x10, depth_read = 0x20,
                          non_pixel_shader_resource = 0x40, pixel_shader_resource = 0x80, stream_out = 0x100,
                          indirect_argument = 0x200, copy_dest = 0x400, copy_source = 0x800,
                          resolve_dest = 0x1000, resolve_source = 0x2000,
                          raytracing_acceleration_structure = 0x400000, shading_rate_source = 0x1000000,
                          generic_read = 0xac3;
}  // namespace st

inline constexpr uint32_t kWriteStates = st::render_target | st::unordered_access | st::depth_write |
                                         st::stream_out | st::copy_dest | st::resolve_dest;
inline constexpr uint32_t kReadStates = st::vertex_and_constant_buffer | st::index_buffer | st::depth_read |
                                        st::non_pixel_shader_resource | st::pixel_shader_resource |
                                        st::indirect_argument | st::copy_source | st::resolve_source |
                                        st::shading_rate_source;

// At most one write bit, never combined with a read bit (526).
constexpr bool valid_combination(uint32_t s) {
  const uint32_t w = s & kWriteStates;
  return w == 0 || (std::popcount(w) == 1 && s == w);
}
constexpr bool is_read_only(uint32_t s) {
  return s != 0 && (s & kWriteStates) == 0;
}

// Implicit promotion out of COMMON, per resource class (REFERENCE.md table).
inline constexpr uint32_t kPromotableTexture =
    st::non_pixel_shader_resource | st::pixel_shader_resource | st::copy_source | st::copy_dest;
inline constexpr uint32_t kNeverPromotable = st::depth_write | st::depth_read;

// Resource class for promotion and decay.
enum class Class : uint8_t { buffer, texture, simultaneous_texture };
constexpr Class class_of(const TraceResource& r) {
  if (r.buffer) return Class::buffer;
  return (r.flags & flag::simultaneous_access) != 0 ? Class::simultaneous_texture : Class::texture;
}
constexpr bool promotable(Class c, uint32_t s) {
  if (s == 0 || (s & kNeverPromotable) != 0) return false;
  return c != Class::texture || (s & ~kPromotableTexture) == 0;
}

// States a barrier may name on each list type (537).
inline constexpr uint32_t kComputeListStates =
    st::vertex_and_constant_buffer | st::unordered_access | st::non_pixel_shader_resource |
    st::indirect_argument | st::copy_dest | st::copy_source | st::raytracing_acceleration_structure;
inline constexpr uint32_t kCopyListStates = st::copy_dest | st::copy_source;
constexpr uint32_t allowed_states(QueueType q) {
  return q == QueueType::direct    ? 0xffffffffu
         : q == QueueType::compute ? kComputeListStates
                                   : kCopyListStates;
}

// ---- enhanced barriers ----
namespace sy {
inline constexpr uint32_t none = 0, all = 0x1, draw = 0x2, index_input = 0x4, vertex_shading = 0x8,
                          pixel_shading = 0x10, depth_stencil = 0x20, render_target = 0x40,
                          compute_shading = 0x80, raytracing = 0x100, copy = 0x200, resolve = 0x400,
                          execute_indirect = 0x800, all_shading = 0x1000, non_pixel_shading = 0x2000,
                          emit_rt_postbuild = 0x4000, clear_uav = 0x8000, build_rt = 0x800000,
                          copy_rt = 0x1000000, split = 0x80000000;
}  // namespace sy
namespace ac {
inline constexpr uint32_t common = 0, vertex_buffer = 0x1, constant_buffer = 0x2, index_buffer = 0x4,
                          render_target = 0x8, unordered_access = 0x10, depth_stencil_write = 0x20,
                          depth_stencil_read = 0x40, shader_resource = 0x80, stream_output = 0x100,
                          indirect_argument = 0x200, copy_dest = 0x400, copy_source = 0x800,
                          resolve_dest = 0x1000, resolve_source = 0x2000, rt_read = 0x4000, rt_write = 0x8000,
                          shading_rate_source = 0x10000, no_access = 0x80000000;
}  // namespace ac
namespace ly {
inline constexpr uint32_t undefined = 0xffffffff, common = 0, generic_read = 1, render_target = 2,
                          unordered_access = 3, depth_stencil_write = 4, depth_stencil_read = 5,
                          shader_resource = 6, copy_source = 7, copy_dest = 8, resolve_source = 9,
                          resolve_dest = 10, shading_rate_source = 11, direct_common = 18,
                          direct_generic_read = 19, direct_uav = 20, direct_srv = 21, direct_copy_source = 22,
                          direct_copy_dest = 23, compute_common = 24, compute_generic_read = 25,
                          compute_uav = 26, compute_srv = 27, compute_copy_source = 28,
                          compute_copy_dest = 29, direct_generic_read_compute_accessible = 31;
}  // namespace ly

// Accesses a layout allows (REFERENCE.md "Layout -> allowed access"). UNDEFINED is handled by the
// caller (NO_ACCESS, or anything when both sides are UNDEFINED).
uint32_t allowed_accesses(uint32_t layout);
// Syncs an access bit is compatible with (SYNC_ALL always fits); the result is an expanded set.
uint32_t compatible_syncs(uint32_t access_bit);
// The sync bits a sync value stands for (DRAW, ALL_SHADING, NON_PIXEL_SHADING expanded; ALL = all).
uint32_t expand_sync(uint32_t sync);
// Whether `s` is a sync/layout/access usable on the list type.
bool sync_allowed_on(QueueType q, uint32_t sync);
bool layout_allowed_on(QueueType q, uint32_t layout);
// Whether a barrier on the list type may transition into or out of `layout` (Enhanced Barriers spec,
// D3D12_BARRIER_LAYOUT_DIRECT_QUEUE_GENERIC_READ_COMPUTE_QUEUE_ACCESSIBLE: usable on direct and
// compute lists, but only direct queues transition into or out of it).
bool layout_transition_allowed_on(QueueType q, uint32_t layout);
bool access_allowed_on(QueueType q, uint32_t access);

// The enhanced access (and sync) that a legacy use state stands for, so that a use written as a
// legacy state can be checked on a subresource that is under enhanced barriers.
struct AccessSync {
  uint32_t access, sync;
};
AccessSync access_of_state(uint32_t legacy_state);

}  // namespace baton::validate::d3d12
