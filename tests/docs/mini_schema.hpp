// A small JSON Schema (draft 2020-12) validator for the keywords Baton's schemas use, so tests can
// check that examples validate without a schema library (none is packaged for Debian's C++). A
// keyword it does not know is reported as an error rather than ignored: a schema cannot silently
// outgrow it.
#pragma once

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace baton::docs_test {

class MiniSchema {
 public:
  explicit MiniSchema(nlohmann::json root) : root_(std::move(root)) {}

  // Every violation as "path: what"; empty when `doc` is valid.
  std::vector<std::string> validate(const nlohmann::json& doc) const {
    std::vector<std::string> errors;
    check(root_, doc, "", errors);
    return errors;
  }

 private:
  using Json = nlohmann::json;

  const Json& resolve(const std::string& ref) const {
    if (ref.rfind("#/", 0) != 0) throw std::runtime_error("only local $ref is supported: " + ref);
    return root_.at(Json::json_pointer(ref.substr(1)));
  }

  static bool is_type(const Json& v, const std::string& t) {
    if (t == "object") return v.is_object();
    if (t == "array") return v.is_array();
    if (t == "string") return v.is_string();
    if (t == "boolean") return v.is_boolean();
    if (t == "integer")
      return v.is_number_integer() ||
             (v.is_number_float() &&
              v.get<double>() == static_cast<double>(static_cast<int64_t>(v.get<double>())));
    if (t == "number") return v.is_number();
    if (t == "null") return v.is_null();
    return false;
  }

  static size_t code_points(const std::string& s) {
    size_t n = 0;
    for (char c : s) n += (static_cast<unsigned char>(c) & 0xC0u) != 0x80u;
    return n;
  }

  bool valid(const Json& schema, const Json& v) const {
    std::vector<std::string> e;
    check(schema, v, "", e);
    return e.empty();
  }

  void check(const Json& s, const Json& v, const std::string& path, std::vector<std::string>& out) const {
    if (s.is_boolean()) {
      if (!s.get<bool>()) out.push_back(path + ": not allowed");
      return;
    }
    static const std::set<std::string> kIgnored = {"$schema", "$id",         "$defs",
                                                   "title",   "description", "default"};
    for (const auto& [k, kv] : s.items()) {
      if (kIgnored.count(k)) continue;
      if (k == "$ref")
        check(resolve(kv.get<std::string>()), v, path, out);
      else if (k == "type") {
        bool any = false;  // one type name, or an array of them
        if (kv.is_array())
          for (const Json& t : kv) any |= is_type(v, t.get<std::string>());
        else
          any = is_type(v, kv.get<std::string>());
        if (!any) out.push_back(path + ": expected " + (kv.is_array() ? kv.dump() : kv.get<std::string>()));
      } else if (k == "enum") {
        bool any = false;
        for (const Json& e : kv) any |= e == v;
        if (!any) out.push_back(path + ": " + v.dump() + " is not one of " + kv.dump());
      } else if (k == "const") {
        if (kv != v) out.push_back(path + ": expected " + kv.dump());
      } else if (k == "required") {
        if (v.is_object())
          for (const Json& r : kv)
            if (!v.contains(r.get<std::string>()))
              out.push_back(path + ": missing \"" + r.get<std::string>() + "\"");
      } else if (k == "properties") {
        if (v.is_object())
          for (const auto& [pk, ps] : kv.items())
            if (v.contains(pk)) check(ps, v.at(pk), path + "/" + pk, out);
      } else if (k == "additionalProperties") {
        if (!v.is_object()) continue;
        const Json& props = s.contains("properties") ? s.at("properties") : Json::object();
        for (const auto& [vk, vv] : v.items())
          if (!props.contains(vk)) check(kv, vv, path + "/" + vk, out);
      } else if (k == "items") {
        if (!v.is_array()) continue;
        const size_t first = s.contains("prefixItems") ? s.at("prefixItems").size() : 0;
        for (size_t i = first; i < v.size(); ++i) check(kv, v[i], path + "/" + std::to_string(i), out);
      } else if (k == "prefixItems") {
        if (!v.is_array()) continue;
        for (size_t i = 0; i < kv.size() && i < v.size(); ++i)
          check(kv[i], v[i], path + "/" + std::to_string(i), out);
      } else if (k == "minProperties") {
        if (v.is_object() && v.size() < kv.get<size_t>())
          out.push_back(path + ": fewer than " + kv.dump() + " properties");
      } else if (k == "maxProperties") {
        if (v.is_object() && v.size() > kv.get<size_t>())
          out.push_back(path + ": more than " + kv.dump() + " properties");
      } else if (k == "minItems") {
        if (v.is_array() && v.size() < kv.get<size_t>())
          out.push_back(path + ": fewer than " + kv.dump() + " items");
      } else if (k == "maxItems") {
        if (v.is_array() && v.size() > kv.get<size_t>())
          out.push_back(path + ": more than " + kv.dump() + " items");
      } else if (k == "uniqueItems") {
        if (v.is_array() && kv.get<bool>())
          for (size_t i = 0; i < v.size(); ++i)
            for (size_t j = i + 1; j < v.size(); ++j)
              if (v[i] == v[j]) out.push_back(path + ": duplicate item " + v[i].dump());
      } else if (k == "minimum") {
        if (v.is_number() && v.get<double>() < kv.get<double>()) out.push_back(path + ": below " + kv.dump());
      } else if (k == "maximum") {
        if (v.is_number() && v.get<double>() > kv.get<double>()) out.push_back(path + ": above " + kv.dump());
      } else if (k == "minLength") {
        if (v.is_string() && code_points(v.get<std::string>()) < kv.get<size_t>())
          out.push_back(path + ": too short");
      } else if (k == "maxLength") {
        if (v.is_string() && code_points(v.get<std::string>()) > kv.get<size_t>())
          out.push_back(path + ": too long");
      } else if (k == "pattern") {
        if (v.is_string() && !std::regex_search(v.get<std::string>(),
                                                std::regex(kv.get<std::string>(), std::regex::ECMAScript)))
          out.push_back(path + ": does not match " + kv.get<std::string>());
      } else if (k == "allOf") {
        for (const Json& sub : kv) check(sub, v, path, out);
      } else if (k == "anyOf") {
        bool any = false;
        for (const Json& sub : kv) any |= valid(sub, v);
        if (!any) out.push_back(path + ": matches none of anyOf");
      } else if (k == "oneOf") {
        size_t n = 0;
        for (const Json& sub : kv) n += valid(sub, v);
        if (n != 1) out.push_back(path + ": matches " + std::to_string(n) + " of oneOf");
      } else if (k == "not") {
        if (valid(kv, v)) out.push_back(path + ": matches a 'not' schema");
      } else if (k == "if") {
        const bool cond = valid(kv, v);
        if (cond && s.contains("then")) check(s.at("then"), v, path, out);
        if (!cond && s.contains("else")) check(s.at("else"), v, path, out);
      } else if (k == "then" || k == "else") {
        // handled with "if"
      } else {
        out.push_back(path + ": schema keyword '" + k + "' is not supported by the test validator");
      }
    }
  }

  Json root_;
};

// A JSON file of the source tree (a schema, an example).
inline nlohmann::json read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

}  // namespace baton::docs_test
