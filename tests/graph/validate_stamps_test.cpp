// validate_into's stamps (src/graph/validate_detail.hpp): each resource's record holds the last pass that
// used it as the call's base + the pass's index, and the base moves past every call's passes, so that no
// record is cleared per call. When a call's stamps would pass 2^32 - 1, every record is cleared and the
// base starts again at 1. These tests put the base next to the wrap, where a call whose stamps wrapped
// would take a record stamped after the wrap for one of an earlier call and drop its writer's edges.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "../../bench/graph_workloads.hpp"
#include "../../src/graph/validate_detail.hpp"
#include "baton/graph.hpp"
#include "random_graph.hpp"

namespace baton::graph {
namespace {

std::string text(const Validated& v) {
  std::string s = "backward " + std::to_string(v.backward) + "\nin_first";
  for (const uint32_t x : v.in_first) s += " " + std::to_string(x);
  s += "\nedges";
  for (const Edge& e : v.edges)
    s += " " + std::to_string(e.from) + ">" + std::to_string(e.to) + ":" + std::to_string(static_cast<int>(e.kind)) +
         ":" + std::to_string(e.resource);
  return s;
}

std::vector<std::pair<std::string, Graph>> graphs() {
  std::vector<std::pair<std::string, Graph>> out;
  out.emplace_back("chain 200", bench::graph_chain(200));
  out.emplace_back("layered 60", bench::graph_layered(60));
  out.emplace_back("deferred.json",
                   load_graph_file((std::filesystem::path(BATON_SOURCE_DIR) / "examples" / "deferred.json").string()));
  for (uint64_t seed = 1; seed <= 4; ++seed)
    out.emplace_back("random " + std::to_string(seed), test::random_graph(seed, 20 + 9 * static_cast<uint32_t>(seed)));
  return out;
}

// For every graph and every base near the wrap (the call's last stamp just below 2^32 - 1, at it, and the
// wrap falling inside the call's passes), the edges equal those of a call far from the wrap, also when
// earlier calls just below the base left their stamps in the records; the base after a wrapped call is
// 1 + passes. The base is only ever moved forward, as calls move it.
TEST(ValidateStamps, EdgesAreTheSameAtTheWrapOfTheStamps) {
  constexpr uint32_t kMax = 0xffffffffu;
  const auto gs = graphs();
  size_t compared = 0;
  for (size_t gi = 0; gi < gs.size(); ++gi) {
    const std::string& name = gs[gi].first;
    const Graph& g = gs[gi].second;
    const Graph& other = gs[(gi + 1) % gs.size()].second;
    const uint32_t np = static_cast<uint32_t>(g.passes.size()), no = static_cast<uint32_t>(other.passes.size());
    ASSERT_GT(np, 4u) << name;
    const std::string want = text(validate(g));  // far from the wrap: every call before wrapped at most once
    ASSERT_NE(want.find('>'), std::string::npos) << name << ": no edges to compare";
    // The call's last stamp is kMax - 1 (no wrap yet), or would be kMax, kMax + np / 2 or past it.
    for (const uint32_t base : {kMax - np, kMax - np + 1, kMax - np / 2, kMax - 1, kMax}) {
      for (const bool primed : {false, true}) {
        if (primed) {  // two calls that end at `base`: their stamps, just below it, stay in the records
          detail::set_validate_epoch(base - np - no);
          (void)validate(other);
          (void)validate(g);
          ASSERT_EQ(detail::validate_epoch(), base) << name;
        } else {
          detail::set_validate_epoch(base);
        }
        Validated v;
        validate_into(v, g);
        EXPECT_EQ(text(v), want) << name << ", base " << base << (primed ? ", after calls below it" : "");
        const bool wrapped = base > kMax - np;
        EXPECT_EQ(detail::validate_epoch(), wrapped ? 1 + np : base + np) << name << ", base " << base;
        // The next call, with the stamps of this one in the records (and a wrap of its own if this one
        // ended at kMax), agrees too.
        Validated again;
        validate_into(again, g);
        EXPECT_EQ(text(again), want) << name << ", base " << base << ", the call after";
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, gs.size() * 10);
}

}  // namespace
}  // namespace baton::graph
