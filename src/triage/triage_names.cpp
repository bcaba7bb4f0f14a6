// Triage's reverse of the lowering: which access an API value stands for. Nothing here is written by
// hand per API name: the rows are what the lowering tables and functions (baton/lower_d3d12.hpp,
// baton/lower_vulkan.hpp) give for each access, so a changed table row changes triage with it.
//
// Several accesses lower to one API value (VERTEX_AND_CONSTANT_BUFFER: vertex and constant buffers;
// GENERAL: UAVs and host access; TRANSFER_DST_OPTIMAL: copy and resolve destinations). Which one
// triage names is decided by two rules, in this order:
//   1. Values that stand for no state of their own name no access: zero flags (COMMON, ACCESS_COMMON,
//      NONE), LAYOUT_COMMON (= PRESENT, and copies on every queue) and UNDEFINED layouts. Many
//      accesses lower to them because the API has nothing to say there.
//   2. Otherwise the first access of kPrecedence whose lowered value the name contains (flags: every
//      bit of the row; layouts: the same value). Writes come first (a state with a write in it is a
//      write state: the declaration that matters), then reads from the most specific.
// Merged reads lower to layouts no single access has (GENERIC_READ and its queue forms): those stand
// for shader_resource, the read every merged layout admits.
#include "triage_names.hpp"

#include <array>
#include <vector>

#include <baton/validate_names.hpp>

#include "baton/lower_d3d12.hpp"
#include "baton/lower_vulkan.hpp"

namespace baton::triage_detail {

const std::array<Access, kAccessCount>& reverse_precedence() {
  static constexpr std::array<Access, kAccessCount> kPrecedence = {
      Access::render_target,  Access::unordered_access, Access::depth_write,     Access::copy_dest,
      Access::resolve_dest,   Access::host_write,       Access::depth_read,      Access::shader_resource,
      Access::copy_source,    Access::resolve_source,   Access::indirect_argument, Access::index_buffer,
      Access::constant_buffer, Access::vertex_buffer,   Access::present,         Access::host_read,
  };
  return kPrecedence;
}

namespace {

constexpr Stages kPixel = static_cast<Stages>(Stage::pixel);
constexpr Stages kCompute = static_cast<Stages>(Stage::compute);

enum class Match : uint8_t { flags, value };

struct Row {
  NameFamily family;
  uint64_t value;  // the lowered API value (flags or enumerator)
  Access access;
  Stages stages;
};

validate::NameKind kind_of(NameFamily f) {
  switch (f) {
    case NameFamily::d3d12_state: return validate::NameKind::d3d12_state;
    case NameFamily::d3d12_layout: return validate::NameKind::d3d12_layout;
    case NameFamily::d3d12_access: return validate::NameKind::d3d12_access;
    case NameFamily::vk_layout: return validate::NameKind::vk_layout;
    case NameFamily::vk_access: return validate::NameKind::vk_access;
  }
  return validate::NameKind::d3d12_state;
}

Match match_of(NameFamily f) {
  return f == NameFamily::d3d12_layout || f == NameFamily::vk_layout ? Match::value : Match::flags;
}

// Rule 1: values that name no access.
bool names_no_access(NameFamily f, uint64_t v) {
  if (f == NameFamily::d3d12_layout)
    return v == static_cast<uint64_t>(D3D12_BARRIER_LAYOUT_COMMON) ||
           v == static_cast<uint64_t>(static_cast<uint32_t>(D3D12_BARRIER_LAYOUT_UNDEFINED));
  return v == 0;  // COMMON, ACCESS_COMMON, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_UNDEFINED
}

template <class Row_, size_t N>
const Row_& row_of(const std::array<Row_, N>& table, Access a) {
  return table[static_cast<size_t>(a)];  // the tables' order is static_assert'ed in the lowering
}

void add(std::vector<Row>& rows, NameFamily f, uint64_t v, Access a, Stages st) {
  if (names_no_access(f, v)) return;
  for (const Row& r : rows)
    if (r.family == f && r.value == v) return;  // an earlier access of kPrecedence has it
  rows.push_back(Row{f, v, a, st});
}

// The layouts of one neutral state on the direct and compute queues (the copy queue only has COMMON).
template <class F>
void d3d12_layouts(const State& s, F&& f) {
  for (Queue q : {Queue::direct, Queue::compute}) {
    try {
      f(static_cast<uint64_t>(static_cast<uint32_t>(lower_d3d12_enhanced_state(s, q, true).layout)));
    } catch (const Error&) {
      // not a state this queue can hold
    }
  }
}

std::vector<Row> derive_rows() {
  std::vector<Row> rows;
  for (const Access a : reverse_precedence()) {
    // D3D12 legacy: both shader stages together first (a read in every shading stage), then each.
    const D3D12LegacyRow& l = row_of(kD3D12LegacyTable, a);
    const auto pixel = static_cast<uint64_t>(static_cast<uint32_t>(l.pixel));
    const auto non_pixel = static_cast<uint64_t>(static_cast<uint32_t>(l.non_pixel));
    if (pixel != non_pixel) {
      add(rows, NameFamily::d3d12_state, pixel | non_pixel, a, kAllShading);
      add(rows, NameFamily::d3d12_state, pixel, a, kPixel);
      add(rows, NameFamily::d3d12_state, non_pixel, a, kCompute);
    } else {
      add(rows, NameFamily::d3d12_state, pixel, a, kNoStages);
    }
    // D3D12 enhanced: buffer accesses, and texture layouts on the queues that can hold them.
    const D3D12EnhancedRow& e = row_of(kD3D12EnhancedTable, a);
    add(rows, NameFamily::d3d12_access, static_cast<uint64_t>(static_cast<uint32_t>(e.bits)), a, kNoStages);
    d3d12_layouts(State{sync_of(a, kNoStages), bit(a), layout_of(a)},
                  [&](uint64_t v) { add(rows, NameFamily::d3d12_layout, v, a, kNoStages); });
    // Vulkan: image and buffer access bits, image layouts.
    const VulkanRow& v = row_of(kVulkanTable, a);
    add(rows, NameFamily::vk_access, v.image_access, a, kNoStages);
    add(rows, NameFamily::vk_access, v.buffer_access, a, kNoStages);
    add(rows, NameFamily::vk_layout, static_cast<uint64_t>(v.layout), a, kNoStages);
  }
  // Merged reads: the layouts only they lower to.
  for (const Layout merged : {Layout::generic_read, Layout::shared_read})
    d3d12_layouts(State{sync::all, bit(Access::shader_resource) | bit(Access::depth_read), merged},
                  [&](uint64_t v) { add(rows, NameFamily::d3d12_layout, v, Access::shader_resource, kAllShading); });
  const VulkanSide merged = lower_vulkan_state(
      State{sync::all, bit(Access::shader_resource) | bit(Access::copy_source), Layout::generic_read}, true, false);
  add(rows, NameFamily::vk_layout, static_cast<uint64_t>(merged.layout), Access::shader_resource, kAllShading);
  return rows;
}

const std::vector<Row>& rows() {
  static const std::vector<Row> kRows = derive_rows();
  return kRows;
}

const Row* row_for(NameFamily family, std::string_view name) {
  const std::optional<uint64_t> v = validate::parse_name(kind_of(family), name);
  if (!v || names_no_access(family, *v)) return nullptr;
  const bool flags = match_of(family) == Match::flags;
  for (const Row& r : rows())
    if (r.family == family && (flags ? (*v & r.value) == r.value : *v == r.value)) return &r;
  return nullptr;
}

}  // namespace

std::optional<AccessGuess> access_of(NameFamily family, std::string_view name) {
  const Row* r = row_for(family, name);
  if (!r) return std::nullopt;
  return AccessGuess{r->access, r->stages};
}

bool name_writes(NameFamily family, std::string_view name) {
  const Row* r = row_for(family, name);
  return r && is_write(r->access);
}

std::vector<std::string> reverse_names(NameFamily family) {
  std::vector<std::string> out;
  for (const Row& r : rows())
    if (r.family == family) out.push_back(validate::format_name(kind_of(family), r.value));
  return out;
}

Stages stages_of_vk(std::string_view n) {
  const std::optional<uint64_t> v = validate::parse_name(validate::NameKind::vk_stage, n);
  if (!v) return kNoStages;
  if (*v & (VK_PIPELINE_STAGE_2_ALL_GRAPHICS_BIT | VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)) return kAllShading;
  // The shader stages of the lowering's neutral shading sync bits (kVulkanStageBits).
  Stages s = kNoStages;
  for (const VulkanStageRow& r : kVulkanStageBits) {
    if (!(*v & r.stages)) continue;
    if (r.neutral == sync::pixel_shading) s |= kPixel;
    if (r.neutral == sync::vertex_shading) s |= static_cast<Stages>(Stage::vertex);
    if (r.neutral == sync::compute_shading) s |= kCompute;
  }
  return s;
}

}  // namespace baton::triage_detail
