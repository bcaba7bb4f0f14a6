// --compare: a drop in errors counts as a fix only when coverage did not shrink.
#include "cases.hpp"

namespace baton::validate::testing {
namespace {

// "rt" is used as a render target without its transition (538); "tex" is read correctly.
const std::string kBroken = one_list("d3d12", R"({"name":"rt","flags":["render_target"]},{"name":"tex"})",
                                     R"({"use":{"resource":"rt","as":"RENDER_TARGET"}},)"
                                     R"({"use":{"resource":"tex","as":"PIXEL_SHADER_RESOURCE"}})");
// Fixed: the transition is there; same resources, same subresources visited.
const std::string kFixed = one_list(
    "d3d12", R"({"name":"rt","flags":["render_target"]},{"name":"tex"})",
    R"({"barrier":[{"type":"transition","resource":"rt","before":"COMMON","after":"RENDER_TARGET"}]},)"
    R"({"use":{"resource":"rt","as":"RENDER_TARGET"}},)"
    R"({"use":{"resource":"tex","as":"PIXEL_SHADER_RESOURCE"}})");
// "Fixed" by no longer tracking the render target at all.
const std::string kUntracked =
    one_list("d3d12", R"({"name":"tex"})", R"({"use":{"resource":"tex","as":"PIXEL_SHADER_RESOURCE"}})");

TEST(Compare, RealFixIsNotSuppression) {
  const Comparison c = compare(load_trace(kBroken), load_trace(kFixed));
  EXPECT_EQ(c.before.count(MessageId::invalid_subresource_state), 1u);
  EXPECT_EQ(c.after.errors, 0u);
  EXPECT_EQ(c.before.subresources_visited, 2u);
  EXPECT_EQ(c.after.subresources_visited, 2u);
  EXPECT_FALSE(c.suppressed);
}

TEST(Compare, UntrackingIsSuppression) {
  const Comparison c = compare(load_trace(kBroken), load_trace(kUntracked));
  EXPECT_EQ(c.after.errors, 0u);
  EXPECT_EQ(c.after.resources_tracked, 1u);
  EXPECT_TRUE(c.suppressed);
}

TEST(Compare, MoreErrorsIsNotSuppression) {
  const Comparison c = compare(load_trace(kUntracked), load_trace(kBroken));
  EXPECT_FALSE(c.suppressed);
}

}  // namespace
}  // namespace baton::validate::testing
