// Every example trace under examples/traces/ states the counts it must produce ("expect").
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cases.hpp"

namespace baton::validate::testing {
namespace {

TEST(ExampleTraces, GiveTheirExpectedCounts) {
  const std::filesystem::path dir = std::filesystem::path(BATON_SOURCE_DIR) / "examples" / "traces";
  int checked = 0, clean = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    const nlohmann::json j = nlohmann::json::parse(ss.str());
    ASSERT_TRUE(j.contains("expect")) << entry.path();
    std::map<uint32_t, uint32_t> expect;
    for (const auto& [id, n] : j["expect"].items())
      expect[static_cast<uint32_t>(std::stoul(id))] = n.get<uint32_t>();
    const ValidationResult r = validate(load_trace_file(entry.path().string()));
    EXPECT_EQ(r.counts, expect) << entry.path() << "\n" << to_text(r);
    ++checked;
    clean += expect.empty() ? 1 : 0;
  }
  EXPECT_GE(checked, 6);
  EXPECT_GE(clean, 3);
}

}  // namespace
}  // namespace baton::validate::testing
