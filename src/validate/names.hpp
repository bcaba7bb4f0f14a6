// API enumerator names <-> numeric values, for the trace format. Names are the API's enumerator
// names without their prefix (D3D12_RESOURCE_STATE_, D3D12_BARRIER_SYNC_, ..., VK_PIPELINE_STAGE_2_
// ... _BIT, VK_ACCESS_2_ ... _BIT, VK_IMAGE_LAYOUT_); flag sets are joined with '|'.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace baton::validate::names {

struct Name {
  std::string_view name;
  uint64_t value;
};

// The first row of a value is its canonical name (aliases such as PRESENT = COMMON follow it).
std::span<const Name> d3d12_states();
std::span<const Name> d3d12_syncs();
std::span<const Name> d3d12_accesses();
std::span<const Name> d3d12_layouts();
std::span<const Name> vk_stages();
std::span<const Name> vk_accesses();
std::span<const Name> vk_layouts();

// "A|B|C" -> OR of the values; nullopt if any name is unknown or the text is empty.
std::optional<uint64_t> parse_flags(std::span<const Name> table, std::string_view text);
// One name -> value.
std::optional<uint64_t> parse_enum(std::span<const Name> table, std::string_view text);
// Value -> "A|B" using single-bit canonical names (the zero name for 0; hex for unknown bits).
std::string format_flags(std::span<const Name> table, uint64_t value);
// Value -> canonical name (hex if unknown).
std::string format_enum(std::span<const Name> table, uint64_t value);

}  // namespace baton::validate::names
