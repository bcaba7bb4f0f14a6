// JSON text for people: a value that fits on one line within the width is written on one line,
// anything larger is broken up with two-space indentation. Deterministic, so that written files
// diff cleanly and the same value always gives the same bytes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace baton::io {

std::string pretty_json(const nlohmann::ordered_json& j, size_t width = 130);

}  // namespace baton::io
