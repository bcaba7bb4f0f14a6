// Strict reading of JSON values for the recording loader: every value is read through a Ctx that
// knows its JSON path and the group/list/op/resource being read, so any error becomes one line that
// names all of them. Unknown keys, wrong types and out-of-range numbers are errors, never defaults.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "baton/input.hpp"

namespace baton::io {

using Json = nlohmann::json;

// Where a value sits: the JSON pointer and the names of the things that enclose it.
struct Ctx {
  std::string_view source;  // file name, for the message prefix
  std::string path;         // JSON pointer, e.g. /groups/0/lists/1/ops/3/uses/0
  std::string group, list, resource;
  std::optional<uint32_t> op;
  std::string_view op_kind;

  Ctx at(std::string_view key) const;
  Ctx at(size_t index) const;
  // "FILE:/path: group 'g', list 'l', op 3 (draw), resource 'r': msg" as one line.
  [[noreturn]] void fail(std::string_view msg) const;
};

// A user string quoted for a message: 'name', control characters escaped and a long name elided in
// the middle (input::quote), so that a hostile file cannot make the message huge or forge a line.
std::string quote_name(std::string_view s);
// A message made one bounded line (input::one_line).
std::string one_line(std::string_view s);
using input::LineColumn;
LineColumn line_column(std::string_view text, size_t pos);

// The input gate's strict parser (input::parse, include/core/baton/input.hpp): positioned syntax errors,
// duplicate keys, NUL bytes and ill-formed UTF-8 refused, linear time.
Json parse_strict(std::string_view text, std::string_view source);

// The value must be an object (checked first, so that its name can be read before its keys).
void require_object(const Ctx& c, const Json& j);
// The value must be an object whose keys are all in `allowed`.
void expect_object(const Ctx& c, const Json& j, std::initializer_list<std::string_view> allowed);
void expect_array(const Ctx& c, const Json& j);
// Members of an object already checked by expect_object; nullptr when absent.
const Json* member(const Json& obj, std::string_view key);
const Json& required(const Ctx& c, const Json& obj, std::string_view key);

std::string read_string(const Ctx& c, const Json& j);
// A name: a non-empty string of at most 200 printable characters.
std::string read_name(const Ctx& c, const Json& j);
bool read_bool(const Ctx& c, const Json& j);
// An integer in [lo, hi]; negative numbers, fractions and huge values are errors.
uint64_t read_uint(const Ctx& c, const Json& j, uint64_t lo, uint64_t hi);

}  // namespace baton::io
