#include "json_pretty.hpp"

namespace baton::io {
namespace {

using OJson = nlohmann::ordered_json;

std::string scalar(const OJson& j) {
  return j.dump(-1, ' ', false, OJson::error_handler_t::replace);
}

std::string flat(const OJson& j) {
  if (j.is_object()) {
    std::string out = "{";
    bool first = true;
    for (const auto& [k, v] : j.items()) {
      out += first ? "" : ", ";
      out += scalar(OJson(k)) + ": " + flat(v);
      first = false;
    }
    return out + "}";
  }
  if (j.is_array()) {
    std::string out = "[";
    for (size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + flat(j[i]);
    return out + "]";
  }
  return scalar(j);
}

// `column`: characters already on the current line before this value; `indent`: the indentation
// of the line the value starts on.
void emit(const OJson& j, size_t indent, size_t column, size_t width, std::string& out) {
  std::string one = flat(j);
  if (!j.is_structured() || j.empty() || column + one.size() <= width) {
    out += one;
    return;
  }
  const std::string pad(indent + 2, ' ');
  const bool object = j.is_object();
  out += object ? "{\n" : "[\n";
  size_t i = 0;
  for (const auto& [k, v] : j.items()) {
    out += pad;
    std::string key = object ? scalar(OJson(k)) + ": " : std::string();
    out += key;
    emit(v, indent + 2, pad.size() + key.size(), width, out);
    out += ++i < j.size() ? ",\n" : "\n";
  }
  out += std::string(indent, ' ') + (object ? "}" : "]");
}

}  // namespace

std::string pretty_json(const nlohmann::ordered_json& j, size_t width) {
  std::string out;
  emit(j, 0, 0, width, out);
  out += '\n';
  return out;
}

}  // namespace baton::io
