// Triage's reading of API names: which Baton access an API state, layout or access name stands
// for (to write the declaration that would have produced it), and whether it writes. The trace
// keeps the APIs' names ("PIXEL_SHADER_RESOURCE|NON_PIXEL_SHADER_RESOURCE"); these tables go back
// from them to the recording's vocabulary.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "baton/core.hpp"

namespace baton::triage_detail {

enum class NameFamily : uint8_t { d3d12_state, d3d12_layout, d3d12_access, vk_layout, vk_access };

struct AccessGuess {
  Access access;
  Stages stages = kNoStages;  // when the name says (PIXEL_SHADER_RESOURCE -> pixel)
};

// The access a name (possibly several flags joined with '|') stands for; writes win over reads
// (a state with a write in it is a write state). nullopt when nothing maps (COMMON, UNDEFINED).
std::optional<AccessGuess> access_of(NameFamily family, std::string_view name);
// Whether the name contains a write.
bool name_writes(NameFamily family, std::string_view name);
// Which access triage names when several lower to one API value: the first of this list (writes
// first, then reads from the most specific). triage_names.cpp says the whole rule.
const std::array<Access, kAccessCount>& reverse_precedence();
// Every API value of a family that maps back to an access, as trace names (for the tests).
std::vector<std::string> reverse_names(NameFamily family);
// Shader stages a Vulkan stage name covers (FRAGMENT_SHADER -> pixel ...); kNoStages if none.
Stages stages_of_vk(std::string_view stage_name);

}  // namespace baton::triage_detail
