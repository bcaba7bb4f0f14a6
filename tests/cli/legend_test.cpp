// Issue 13 item 6: the text plan explains itself with one legend line, the same for recordings, frame
// graphs and the demo; JSON output has none.
#include <gtest/gtest.h>

#include <string>

#include "run_baton.hpp"

namespace baton::test {
namespace {

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(PlanLegend, EveryTextPlanEndsWithTheOneLegendLine) {
  // The legend is kPlanTextLegend (include/lower/baton/lower.hpp): the last line of the demo, and of
  // every text plan.
  const RunResult demo = run_baton("demo");
  ASSERT_EQ(demo.exit_code, 0) << demo.err;
  const std::string legend = demo.out.substr(demo.out.rfind('\n', demo.out.size() - 2) + 1);
  ASSERT_EQ(legend.rfind("legend: resource[range] before -> after (reason)", 0), 0u) << legend;
  for (const char* file : {"examples/minimal.json", "examples/deferred.json"}) {
    const RunResult r = run_baton(std::string("compile ") + file);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    ASSERT_GE(r.out.size(), legend.size());
    EXPECT_EQ(r.out.substr(r.out.size() - legend.size()), legend) << file;
    EXPECT_EQ(count(r.out, "legend:"), 1u) << file;
    const RunResult j = run_baton(std::string("compile ") + file + " --format json");
    EXPECT_EQ(count(j.out, "legend:"), 0u) << file;
  }
  EXPECT_EQ(count(demo.out, "legend:"), 1u);
}

}  // namespace
}  // namespace baton::test
