#include "json_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "baton/core.hpp"
#include "baton/input.hpp"

namespace baton::io {
std::string quote_name(std::string_view s) {
  return input::quote(s);
}

std::string one_line(std::string_view s) {
  return input::one_line(s);
}

LineColumn line_column(std::string_view text, size_t pos) {
  return input::line_column(text, pos);
}

Ctx Ctx::at(std::string_view key) const {
  Ctx c = *this;
  c.path += '/';
  c.path += input::pointer_token(key);
  return c;
}

Ctx Ctx::at(size_t index) const {
  Ctx c = *this;
  c.path += fmt::format("/{}", index);
  return c;
}

void Ctx::fail(std::string_view msg) const {
  std::string names;
  auto add = [&](const std::string& part) {
    if (!names.empty()) names += ", ";
    names += part;
  };
  if (!group.empty()) add("group " + quote_name(group));
  if (!list.empty()) add("list " + quote_name(list));
  if (op) add(op_kind.empty() ? fmt::format("op {}", *op) : fmt::format("op {} ({})", *op, op_kind));
  if (!resource.empty()) add("resource " + quote_name(resource));
  const std::string where = path.empty() ? std::string("/") : path;
  std::string line = names.empty() ? fmt::format("{}:{}: {}", source, where, msg)
                                   : fmt::format("{}:{}: {}: {}", source, where, names, msg);
  throw Error(one_line(line));
}

Json parse_strict(std::string_view text, std::string_view source) {
  return input::parse(text, source);
}

void require_object(const Ctx& c, const Json& j) {
  if (!j.is_object()) c.fail(fmt::format("expected an object, found {}", j.type_name()));
}

void expect_object(const Ctx& c, const Json& j, std::initializer_list<std::string_view> allowed) {
  require_object(c, j);
  for (const auto& [key, value] : j.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string names;
    for (std::string_view a : allowed) names += (names.empty() ? "" : ", ") + std::string(a);
    c.at(key).fail(fmt::format("unknown key {} (expected one of: {})", quote_name(key), names));
  }
}

void expect_array(const Ctx& c, const Json& j) {
  if (!j.is_array()) c.fail(fmt::format("expected an array, found {}", j.type_name()));
}

const Json* member(const Json& obj, std::string_view key) {
  auto it = obj.find(key);
  return it == obj.end() ? nullptr : &*it;
}

const Json& required(const Ctx& c, const Json& obj, std::string_view key) {
  const Json* m = member(obj, key);
  if (m == nullptr) c.fail(fmt::format("missing required key {}", quote_name(key)));
  return *m;
}

std::string read_string(const Ctx& c, const Json& j) {
  if (!j.is_string()) c.fail(fmt::format("expected a string, found {}", j.type_name()));
  return j.get<std::string>();
}

std::string read_name(const Ctx& c, const Json& j) {
  std::string s = read_string(c, j);
  if (s.empty()) c.fail("a name must not be empty");
  size_t chars = 0;  // characters, not bytes (docs/recording-format.md)
  for (char ch : s) {
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f)
      c.fail("a name must not contain control characters");
    chars += (static_cast<unsigned char>(ch) & 0xc0) != 0x80;
  }
  if (chars > 200) c.fail("a name must be at most 200 characters long");
  return s;
}

bool read_bool(const Ctx& c, const Json& j) {
  if (!j.is_boolean()) c.fail(fmt::format("expected true or false, found {}", j.type_name()));
  return j.get<bool>();
}

uint64_t read_uint(const Ctx& c, const Json& j, uint64_t lo, uint64_t hi) {
  if (j.is_number_integer() && !j.is_number_unsigned())
    c.fail(fmt::format("expected an integer in [{}, {}], found the negative number {}", lo, hi, j.dump()));
  if (j.is_number_float()) c.fail(fmt::format("expected an integer in [{}, {}], found {}", lo, hi, j.dump()));
  if (!j.is_number_unsigned())
    c.fail(fmt::format("expected an integer in [{}, {}], found {}", lo, hi, j.type_name()));
  const uint64_t v = j.get<uint64_t>();
  if (v < lo || v > hi) c.fail(fmt::format("{} is out of range [{}, {}]", v, lo, hi));
  return v;
}

}  // namespace baton::io
