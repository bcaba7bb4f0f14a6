// The page of `baton view`: self-contained (no URL is ever loaded), the embedded JSON is the frame
// exactly, hostile names cannot break out of the data element, and the output is deterministic.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "baton/view.hpp"
#include "view_support.hpp"

namespace baton::view {
namespace {

using test::example;

constexpr std::string_view kDataOpen = R"(<script type="application/json" id="baton-data">)";

// The text of the data element, up to the first "</script" (where the browser ends it).
std::string embedded(const std::string& page) {
  const size_t a = page.find(kDataOpen);
  if (a == std::string::npos) return {};
  const size_t b = page.find("</script", a);
  return page.substr(a + kDataOpen.size(), b - a - kDataOpen.size());
}

TEST(Page, EmbedsTheFrameJsonExactly) {
  const Frame f = build_frame(example("deferred.json"), "examples/deferred.json");
  const std::string page = render_html(f, Api::vulkan);
  const nlohmann::json data = nlohmann::json::parse(embedded(page));
  EXPECT_EQ(data, nlohmann::json::parse(frame_json(f, Api::vulkan).dump()));
  EXPECT_EQ(data["api"], "vulkan");
  EXPECT_EQ(data["format"], "baton-frame");
  EXPECT_EQ(data["passes"].size(), f.passes.size());
  for (const char* api : {"d3d12", "d3d12-legacy", "vulkan"})
    EXPECT_TRUE(data["lowerings"].contains(api)) << api;
  // Barrier rows decode to the frame's barriers: texts through "strings", reasons (with their rule)
  // through "reasons".
  const auto& rows = data["lowerings"]["vulkan"]["barriers"];
  const std::vector<Barrier>& bs = f.lowering(Api::vulkan).barriers;
  ASSERT_EQ(rows.size(), bs.size());
  const auto& str = data["strings"];
  for (size_t i = 0; i < bs.size(); ++i) {
    const auto& r = rows[i];
    EXPECT_EQ(r[0], bs[i].pass);
    EXPECT_EQ(r[2], bs[i].where == Where::after ? 1 : 0);
    EXPECT_EQ(r[3], bs[i].resource);
    EXPECT_EQ(str[r[5].get<size_t>()], bs[i].before);
    EXPECT_EQ(str[r[6].get<size_t>()], bs[i].after);
    const auto& reason = data["reasons"][r[7].get<size_t>()];
    EXPECT_EQ(reason["name"], std::string(to_string(bs[i].reason)));
    EXPECT_EQ(reason["rule"], std::string(rule_of(bs[i].reason)));
  }
}

TEST(Page, NeedsNothingFromTheNetwork) {
  const std::string page = render_html(build_frame(example("demo.json"), "demo.json"), Api::d3d12);
  // No external script, style sheet, image, font or frame: nothing with src= or href=, no @import or url().
  EXPECT_FALSE(std::regex_search(page, std::regex(R"((src|href)\s*=)", std::regex::icase)));
  EXPECT_EQ(page.find("@import"), std::string::npos);
  EXPECT_EQ(page.find("url("), std::string::npos);
  EXPECT_EQ(page.find("fetch("), std::string::npos);
  EXPECT_EQ(page.find("XMLHttpRequest"), std::string::npos);
  EXPECT_NE(page.find("<canvas"), std::string::npos);
  EXPECT_EQ(page.find("/*BATON_VIEW_"), std::string::npos) << "every template marker was filled";
}

TEST(Page, HostileNamesStayInsideTheData) {
  const std::string evil = "</script><script>alert(1)</script>";
  const std::string text =
      R"({"resources": [{"name": ")" + std::string("<\\/script><script>alert(1)<\\/script>") +
      R"(", "type": "buffer", "size": 64}], "groups": [{"name": "g", "queue": "direct", "lists": [
      {"name": "l", "ops": [{"kind": "dispatch", "uses": [{"resource": ")" +
      std::string("<\\/script><script>alert(1)<\\/script>") +
      R"(", "access": "unordered_access", "stages": "compute"}]}]}]}]})";
  const Frame f = build_frame(text, "</title><b>x.json");
  ASSERT_EQ(f.resources[0].name, evil);
  const std::string page = render_html(f, Api::d3d12);
  const nlohmann::json data = nlohmann::json::parse(embedded(page));  // the element ends where the data ends
  EXPECT_EQ(data["resources"][0]["name"], evil);
  EXPECT_EQ(data["source"], "</title><b>x.json");
  EXPECT_NE(page.find("<title>baton view: &lt;/title&gt;&lt;b&gt;x.json</title>"), std::string::npos);
}

// A comment opener inside a <script> changes where the browser ends the element ("<!--<script>"
// makes a later "</script>" not end it); U+2028/U+2029 end lines in older JavaScript. None of '<',
// '>', '&', U+2028, U+2029 may appear raw in the embedded data, and the names still decode exactly.
TEST(Page, EmbeddedDataHasNoMarkupCharactersAtAll) {
  const std::vector<std::string> names = {"<!--<script>",    "]]><![CDATA[", "a&amp;b",
                                          "x\u2028y\u2029z", "-->",          "<script>"};
  std::string resources, uses;
  for (size_t i = 0; i < names.size(); ++i) {
    resources +=
        std::string(i ? "," : "") + R"({"name": ")" + names[i] + R"(", "type": "buffer", "size": 64})";
    uses += std::string(i ? "," : "") + R"({"resource": ")" + names[i] +
            R"(", "access": "unordered_access", "stages": "compute"})";
  }
  const std::string text = R"({"resources": [)" + resources +
                           R"(], "groups": [{"name": "g", "queue": "direct", "lists": [{"name": "l", "ops": [
      {"kind": "dispatch", "uses": [)" +
                           uses + "]}]}]}]}";
  const Frame f = build_frame(text, "<!--x.json");
  const std::string page = render_html(f, Api::d3d12);
  const std::string data_text = embedded(page);
  for (const char* bad : {"<", ">", "&", "\xe2\x80\xa8", "\xe2\x80\xa9"})
    EXPECT_EQ(data_text.find(bad), std::string::npos) << "raw '" << bad << "' in the embedded data";
  const nlohmann::json data = nlohmann::json::parse(data_text);
  ASSERT_EQ(data["resources"].size(), names.size());
  EXPECT_EQ(data["resources"][0]["name"], "<!--<script>");
  EXPECT_EQ(data["resources"][3]["name"], "x\xe2\x80\xa8y\xe2\x80\xa9z");
  EXPECT_EQ(data["source"], "<!--x.json");
  // The page has exactly the template's script elements: the data opened none.
  size_t scripts = 0;
  for (size_t at = page.find("<script"); at != std::string::npos; at = page.find("<script", at + 1))
    ++scripts;
  EXPECT_EQ(scripts, 2u);
}

TEST(Page, SameInputSameBytes) {
  const std::string text = example("deferred.json");
  EXPECT_EQ(render_html(build_frame(text, "d"), Api::d3d12), render_html(build_frame(text, "d"), Api::d3d12));
}

}  // namespace
}  // namespace baton::view
