// The loader's building blocks: byte offsets become line:column, and the pretty printer is stable.
#include "../../src/io/json_reader.hpp"

#include <gtest/gtest.h>

#include "../../src/io/json_pretty.hpp"
#include "baton/core.hpp"

namespace baton::io {
namespace {

TEST(LineColumn, CountsLinesAndColumnsFromOne) {
  const std::string_view text = "ab\ncd\n\nxyz";
  EXPECT_EQ(line_column(text, 0).line, 1u);
  EXPECT_EQ(line_column(text, 0).column, 1u);
  EXPECT_EQ(line_column(text, 4).line, 2u);
  EXPECT_EQ(line_column(text, 4).column, 2u);
  EXPECT_EQ(line_column(text, 7).line, 4u);
  EXPECT_EQ(line_column(text, 9).column, 3u);
  EXPECT_EQ(line_column(text, 100).line, 4u);  // past the end: clamped to the end
}

// Control characters are shown, not blanked: a name "a\nsummary: ..." must not read like a line.
TEST(OneLine, EscapesControlCharacters) {
  EXPECT_EQ(one_line("a\nb\tc\r"), "a\\nb\\tc\\r");
  EXPECT_EQ(one_line("x\x1b[2Jy\x7f"), "x\\x1B[2Jy\\x7F");
}

TEST(PrettyJson, ShortValuesStayOnOneLineLongOnesBreak) {
  nlohmann::ordered_json j;
  j["short"] = {1, 2, 3};
  j["long"] = std::vector<std::string>(20, "abcdefgh");
  const std::string out = pretty_json(j, 40);
  EXPECT_NE(out.find("\"short\": [1, 2, 3]"), std::string::npos) << out;
  EXPECT_NE(out.find("\"long\": [\n    \"abcdefgh\",\n"), std::string::npos) << out;
  EXPECT_EQ(nlohmann::ordered_json::parse(out), j);
}

TEST(ParseStrict, DuplicateKeyInNestedArrayNamesItsPath) {
  try {
    parse_strict(R"({"a": [1, {"b": 1}, {"c": 1, "c": 2}]})", "f.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "f.json:/a/2/c: key 'c' appears twice in one object (line 1, column 30)");
  }
}

}  // namespace
}  // namespace baton::io
