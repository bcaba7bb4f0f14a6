// Tables behind d3d12_rules.hpp, one row per layout / access / legacy state.
#include "d3d12_rules.hpp"

namespace baton::validate::d3d12 {

namespace {
struct LayoutRow {
  uint32_t layout, accesses;
};
constexpr uint32_t kCommonAccesses = ac::shader_resource | ac::copy_source | ac::copy_dest;
constexpr uint32_t kGenericReadAccesses = ac::shader_resource | ac::copy_source;
constexpr std::array kLayoutAccesses{
    LayoutRow{ly::common, kCommonAccesses},
    LayoutRow{ly::direct_common, kCommonAccesses | ac::unordered_access},
    LayoutRow{ly::compute_common, kCommonAccesses | ac::unordered_access},
    LayoutRow{ly::generic_read, kGenericReadAccesses},
    LayoutRow{ly::compute_generic_read, kGenericReadAccesses},
    LayoutRow{ly::direct_generic_read,
              kGenericReadAccesses | ac::depth_stencil_read | ac::shading_rate_source | ac::resolve_source},
    // Enhanced Barriers spec, "Layout Access Compatibility".
    LayoutRow{ly::direct_generic_read_compute_accessible,
              kGenericReadAccesses | ac::depth_stencil_read | ac::shading_rate_source | ac::resolve_source},
    LayoutRow{ly::render_target, ac::render_target},
    LayoutRow{ly::unordered_access, ac::unordered_access},
    LayoutRow{ly::direct_uav, ac::unordered_access},
    LayoutRow{ly::compute_uav, ac::unordered_access},
    LayoutRow{ly::depth_stencil_write, ac::depth_stencil_write | ac::depth_stencil_read},
    LayoutRow{ly::depth_stencil_read, ac::depth_stencil_read},
    LayoutRow{ly::shader_resource, ac::shader_resource},
    LayoutRow{ly::direct_srv, ac::shader_resource},
    LayoutRow{ly::compute_srv, ac::shader_resource},
    LayoutRow{ly::copy_source, ac::copy_source},
    LayoutRow{ly::direct_copy_source, ac::copy_source},
    LayoutRow{ly::compute_copy_source, ac::copy_source},
    LayoutRow{ly::copy_dest, ac::copy_dest},
    LayoutRow{ly::direct_copy_dest, ac::copy_dest},
    LayoutRow{ly::compute_copy_dest, ac::copy_dest},
    LayoutRow{ly::resolve_source, ac::resolve_source},
    LayoutRow{ly::resolve_dest, ac::resolve_dest},
    LayoutRow{ly::shading_rate_source, ac::shading_rate_source},
};

struct AccessRow {
  uint32_t access, syncs;
};
constexpr uint32_t kShaderSyncs = sy::vertex_shading | sy::pixel_shading | sy::compute_shading |
                                  sy::non_pixel_shading | sy::all_shading | sy::draw | sy::raytracing;
constexpr std::array kAccessSyncs{
    AccessRow{ac::vertex_buffer, sy::vertex_shading | sy::draw | sy::all_shading},
    AccessRow{ac::constant_buffer, kShaderSyncs},
    AccessRow{ac::index_buffer, sy::index_input | sy::draw},
    AccessRow{ac::render_target, sy::draw | sy::render_target},
    AccessRow{ac::unordered_access, kShaderSyncs | sy::clear_uav},
    AccessRow{ac::depth_stencil_write, sy::draw | sy::depth_stencil},
    AccessRow{ac::depth_stencil_read, sy::draw | sy::depth_stencil},
    AccessRow{ac::shader_resource, kShaderSyncs},
    AccessRow{ac::stream_output, sy::vertex_shading | sy::draw | sy::all_shading},
    AccessRow{ac::indirect_argument, sy::execute_indirect},
    AccessRow{ac::copy_dest, sy::copy},
    AccessRow{ac::copy_source, sy::copy},
    AccessRow{ac::resolve_dest, sy::resolve},
    AccessRow{ac::resolve_source, sy::resolve},
    AccessRow{ac::rt_read, kShaderSyncs | sy::build_rt | sy::copy_rt | sy::emit_rt_postbuild},
    AccessRow{ac::rt_write, sy::build_rt | sy::copy_rt},
    AccessRow{ac::shading_rate_source, sy::pixel_shading | sy::all_shading | sy::draw},
};

struct StateRow {
  uint32_t state, access, sync;
};
constexpr std::array kStateAccess{
    StateRow{st::vertex_and_constant_buffer, ac::vertex_buffer | ac::constant_buffer, sy::all_shading},
    StateRow{st::index_buffer, ac::index_buffer, sy::index_input},
    StateRow{st::render_target, ac::render_target, sy::render_target},
    StateRow{st::unordered_access, ac::unordered_access, sy::all_shading},
    StateRow{st::depth_write, ac::depth_stencil_write, sy::depth_stencil},
    StateRow{st::depth_read, ac::depth_stencil_read, sy::depth_stencil},
    StateRow{st::non_pixel_shader_resource, ac::shader_resource, sy::non_pixel_shading},
    StateRow{st::pixel_shader_resource, ac::shader_resource, sy::pixel_shading},
    StateRow{st::stream_out, ac::stream_output, sy::vertex_shading},
    StateRow{st::indirect_argument, ac::indirect_argument, sy::execute_indirect},
    StateRow{st::copy_dest, ac::copy_dest, sy::copy},
    StateRow{st::copy_source, ac::copy_source, sy::copy},
    StateRow{st::resolve_dest, ac::resolve_dest, sy::resolve},
    StateRow{st::resolve_source, ac::resolve_source, sy::resolve},
    StateRow{st::raytracing_acceleration_structure, ac::rt_read, sy::raytracing},
    StateRow{st::shading_rate_source, ac::shading_rate_source, sy::pixel_shading},
};
}  // namespace

uint32_t allowed_accesses(uint32_t layout) {
  for (const LayoutRow& r : kLayoutAccesses) {
    if (r.layout == layout) return r.accesses;
  }
  return 0;
}

uint32_t compatible_syncs(uint32_t access_bit) {
  for (const AccessRow& r : kAccessSyncs) {
    if (r.access == access_bit) return r.syncs | sy::all;
  }
  return 0xffffffffu;  // video and unknown accesses: not checked
}

uint32_t expand_sync(uint32_t s) {
  if ((s & sy::all) != 0) return 0x7fffffffu;
  if ((s & sy::draw) != 0)
    s |= sy::index_input | sy::vertex_shading | sy::pixel_shading | sy::depth_stencil | sy::render_target;
  if ((s & sy::all_shading) != 0)
    s |= sy::vertex_shading | sy::pixel_shading | sy::compute_shading | sy::non_pixel_shading;
  if ((s & sy::non_pixel_shading) != 0) s |= sy::vertex_shading | sy::compute_shading;
  return s;
}

bool sync_allowed_on(QueueType q, uint32_t s) {
  switch (q) {
    case QueueType::direct:
      return true;
    case QueueType::compute:
      return (s & (sy::draw | sy::index_input | sy::vertex_shading | sy::pixel_shading | sy::depth_stencil |
                   sy::render_target | sy::resolve)) == 0;
    case QueueType::copy:
      return (s & ~(sy::all | sy::copy | sy::split)) == 0;
  }
  return false;
}

bool layout_allowed_on(QueueType q, uint32_t l) {
  if (l == ly::undefined) return true;
  switch (q) {
    case QueueType::direct:
      return l <= ly::shading_rate_source || (l >= ly::direct_common && l <= ly::direct_copy_dest) ||
             l == ly::direct_generic_read_compute_accessible;
    case QueueType::compute:
      return l == ly::common || l == ly::generic_read || l == ly::unordered_access ||
             l == ly::shader_resource || l == ly::copy_source || l == ly::copy_dest ||
             (l >= ly::compute_common && l <= ly::compute_copy_dest) ||
             l == ly::direct_generic_read_compute_accessible;
    case QueueType::copy:
      return l == ly::common;
  }
  return false;
}

bool layout_transition_allowed_on(QueueType q, uint32_t l) {
  return l != ly::direct_generic_read_compute_accessible || q == QueueType::direct;
}

bool access_allowed_on(QueueType q, uint32_t a) {
  switch (q) {
    case QueueType::direct:
      return true;
    case QueueType::compute:
      return (a & (ac::render_target | ac::depth_stencil_write | ac::depth_stencil_read | ac::resolve_dest |
                   ac::resolve_source | ac::vertex_buffer | ac::index_buffer | ac::stream_output |
                   ac::shading_rate_source)) == 0;
    case QueueType::copy:
      return (a & ~(ac::copy_source | ac::copy_dest | ac::no_access)) == 0;
  }
  return false;
}

AccessSync access_of_state(uint32_t legacy_state) {
  AccessSync out{0, 0};
  for (const StateRow& r : kStateAccess) {
    if ((legacy_state & r.state) != 0) {
      out.access |= r.access;
      out.sync |= r.sync;
    }
  }
  return out;
}

}  // namespace baton::validate::d3d12
