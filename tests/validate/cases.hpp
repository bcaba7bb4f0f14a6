// Table-driven validator tests: each case is a small trace and the exact counts by message id it
// must produce (an empty map means the trace must be clean).
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <baton/validate.hpp>
#include <map>
#include <ostream>
#include <string>

namespace baton::validate::testing {

struct Case {
  std::string name;  // the rule it demonstrates (test name)
  std::string trace;
  std::map<uint32_t, uint32_t> expect;  // numeric id -> count
};
inline void PrintTo(const Case& c, std::ostream* os) {
  *os << c.name;
}

// One list "L" of the given type in one submission.
inline std::string one_list(std::string_view api, std::string_view resources, std::string_view commands,
                            std::string_view type = "direct") {
  return fmt::format(R"({{"api":"{}","resources":[{}],"lists":[{{"name":"L","type":"{}","commands":[{}]}}],)"
                     R"("submissions":[{{"queue":"q","type":"{}","lists":["L"]}}]}})",
                     api, resources, type, commands, type);
}

inline std::map<uint32_t, uint32_t> ids(std::initializer_list<std::pair<const MessageId, uint32_t>> l) {
  std::map<uint32_t, uint32_t> out;
  for (const auto& [id, n] : l) out[number(id)] = n;
  return out;
}

inline void check_case(const Case& c) {
  const Trace t = load_trace(c.trace, c.name);
  const ValidationResult r = validate(t);
  EXPECT_EQ(r.counts, c.expect) << to_text(r);
  uint32_t errors = 0, warnings = 0;
  for (const auto& [id, n] : c.expect) {
    (catalog_entry(static_cast<MessageId>(id)).severity == Severity::error ? errors : warnings) += n;
  }
  EXPECT_EQ(r.errors, errors);
  EXPECT_EQ(r.warnings, warnings);
}

inline std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  return info.param.name;
}

}  // namespace baton::validate::testing
