// Parsing and printing of the API name tables (names_d3d12.cpp, names_vulkan.cpp hold the rows).
#include "names.hpp"

#include <fmt/format.h>

#include <bit>

namespace baton::validate::names {

namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}
}  // namespace

std::optional<uint64_t> parse_enum(std::span<const Name> table, std::string_view text) {
  text = trim(text);
  for (const Name& n : table) {
    if (n.name == text) return n.value;
  }
  return std::nullopt;
}

std::optional<uint64_t> parse_flags(std::span<const Name> table, std::string_view text) {
  if (trim(text).empty()) return std::nullopt;
  uint64_t value = 0;
  while (true) {
    const size_t bar = text.find('|');
    const auto v = parse_enum(table, text.substr(0, bar));
    if (!v) return std::nullopt;
    value |= *v;
    if (bar == std::string_view::npos) return value;
    text.remove_prefix(bar + 1);
  }
}

std::string format_enum(std::span<const Name> table, uint64_t value) {
  for (const Name& n : table) {
    if (n.value == value) return std::string(n.name);
  }
  return fmt::format("0x{:x}", value);
}

std::string format_flags(std::span<const Name> table, uint64_t value) {
  if (value == 0) return format_enum(table, 0);
  std::string out;
  uint64_t rest = value;
  for (const Name& n : table) {
    if (std::popcount(n.value) != 1 || (rest & n.value) == 0) continue;
    if (!out.empty()) out += '|';
    out += n.name;
    rest &= ~n.value;
  }
  if (rest != 0) out += fmt::format("{}0x{:x}", out.empty() ? "" : "|", rest);
  return out;
}

}  // namespace baton::validate::names

// Public wrapper (validate_names.hpp).
#include <baton/validate_names.hpp>

namespace baton::validate {
namespace {
std::span<const names::Name> table(NameKind k) {
  switch (k) {
    case NameKind::d3d12_state:
      return names::d3d12_states();
    case NameKind::d3d12_sync:
      return names::d3d12_syncs();
    case NameKind::d3d12_access:
      return names::d3d12_accesses();
    case NameKind::d3d12_layout:
      return names::d3d12_layouts();
    case NameKind::vk_stage:
      return names::vk_stages();
    case NameKind::vk_access:
      return names::vk_accesses();
    case NameKind::vk_layout:
      return names::vk_layouts();
  }
  return {};
}
bool is_enum(NameKind k) {
  return k == NameKind::d3d12_layout || k == NameKind::vk_layout;
}
}  // namespace

std::string format_name(NameKind kind, uint64_t value) {
  return is_enum(kind) ? names::format_enum(table(kind), value) : names::format_flags(table(kind), value);
}
std::optional<uint64_t> parse_name(NameKind kind, std::string_view text) {
  return is_enum(kind) ? names::parse_enum(table(kind), text) : names::parse_flags(table(kind), text);
}
}  // namespace baton::validate
