// The uses of one pass are checked for conflicts (two uses of one subresource that have no order inside
// the pass) without comparing every pair: the first conflicting pair in use order is the one that
// comparing every pair finds, and a pass of many uses costs overlap tests in proportion to its uses.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "baton/graph.hpp"
#include "baton/rules.hpp"

namespace baton::graph {
namespace {

constexpr const char* kResources =
    R"({"name":"b","type":"buffer","size":256,"usage":["shader_resource","unordered_access","copy_source","copy_dest"]},
       {"name":"t","type":"texture","width":64,"height":64,"mips":4,"layers":6,
        "usage":["render_target","shader_resource","unordered_access","copy_source","copy_dest"]},
       {"name":"u","type":"texture","width":64,"height":64,"usage":["shader_resource","copy_source"]})";

std::string validate_error(const Graph& g) {
  try {
    (void)validate(g);
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

// What comparing every pair of the pass's uses reports (the validator's original loop).
std::string every_pair(const Graph& g) {
  const Pass& pass = g.passes[0];
  std::vector<Box> boxes;
  for (const PassUse& u : pass.uses) {
    const ResourceDesc& d = g.resources[u.resource].desc;
    const Box whole = d.type == ResourceType::buffer ? buffer_extent(d) : full_box(d);
    boxes.push_back(is_whole(u.range) ? whole : use_extent(d, u.range));
  }
  for (uint32_t i = 0; i < pass.uses.size(); ++i)
    for (uint32_t j = i + 1; j < pass.uses.size(); ++j) {
      const PassUse& a = pass.uses[i];
      const PassUse& b = pass.uses[j];
      if (a.resource != b.resource || !overlaps(boxes[i], boxes[j]) || !conflicts(a.access, b.access))
        continue;
      const ResourceDesc& d = g.resources[a.resource].desc;
      return fmt::format(
          "/passes/0/uses/{}: pass '{}', resource '{}': {}", j, pass.name, d.name,
          conflict_message(i, a.access, j, b.access, extent_text(intersect(boxes[i], boxes[j]), d)));
    }
  return {};
}

std::string random_pass(std::mt19937& rng, int uses) {
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  std::string out;
  for (int k = 0; k < uses; ++k) {
    const int r = pick(5);  // mostly b and t, where uses can overlap
    std::string use;
    if (r <= 1) {
      static const char* acc[] = {R"("shader_resource","stages":"pixel")",
                                  R"("unordered_access","stages":"pixel")", R"("copy_source")",
                                  R"("copy_dest")"};
      // Reads mostly, so that most passes get past their first uses before a conflict.
      const int a = pick(10) < 7 ? (pick(2) ? 0 : 2) : 1 + 2 * pick(2);
      const int off = pick(16) * 16, size = 16 * (1 + pick(3));
      use =
          fmt::format(R"({{"resource":"b","access":{}{}}})", acc[a],
                      pick(6) == 0 ? "" : fmt::format(R"(,"bytes":[{},{}])", off, std::min(size, 256 - off)));
    } else if (r <= 3) {
      static const char* acc[] = {R"("shader_resource","stages":"pixel")", R"("copy_source")",
                                  R"("render_target")", R"("unordered_access","stages":"pixel")",
                                  R"("copy_dest")"};
      const int a = pick(10) < 7 ? pick(2) : 2 + pick(3);
      const int m = pick(4), l = pick(6);
      use = fmt::format(R"({{"resource":"t","access":{},"mips":[{},{}],"layers":[{},{}]}})", acc[a], m,
                        1 + pick(4 - m), l, 1 + pick(6 - l));
    } else {
      use = pick(2) ? R"({"resource":"u","access":"shader_resource","stages":"pixel"})"
                    : R"({"resource":"u","access":"copy_source"})";
    }
    out += (k ? "," : "") + use;
  }
  return out;
}

TEST(GraphPassUses, FirstConflictIsThatOfEveryPair) {
  int conflicts_seen = 0, clean = 0;
  for (uint32_t seed = 1; seed <= 1500; ++seed) {
    std::mt19937 rng(seed);
    // Both sides of the small-pass threshold (16 uses).
    const int n = std::uniform_int_distribution<int>(2, 60)(rng);
    const Graph g = load_graph_text(
        fmt::format(R"({{"resources":[{}],"passes":[{{"name":"p","uses":[{}]}}],"outputs":[]}})", kResources,
                    random_pass(rng, n)),
        "pass.json");
    const std::string want = every_pair(g);
    ASSERT_EQ(validate_error(g), want) << "seed " << seed;
    (want.empty() ? clean : conflicts_seen) += 1;
  }
  // Both outcomes are exercised.
  EXPECT_GT(conflicts_seen, 300);
  EXPECT_GT(clean, 100);
}

// 20,000 uses of one buffer's disjoint byte ranges (reads and writes of different accesses, which could
// conflict if they overlapped) and 20,000 reads of other buffers: overlap tests in proportion to the
// uses, where every pair is 8 * 10^8.
TEST(GraphPassUses, ManyUsesCostOverlapTestsInProportion) {
  constexpr uint32_t kN = 20000;
  Graph g = load_graph_text(
      R"({"resources":[{"name":"b","type":"buffer","size":1048576,"usage":["shader_resource","unordered_access"]}],
          "passes":[{"name":"p","queue":"compute","uses":[]}],"outputs":[]})",
      "many.json");
  Resource other = g.resources[0];
  for (uint32_t k = 0; k < kN; ++k) {
    other.desc.name = "r" + std::to_string(k);
    g.resources.push_back(other);  // names are unique; add_resource checks each against all
  }
  Pass& p = g.passes[0];
  for (uint32_t k = 0; k < kN; ++k) {
    PassUse u;
    u.resource = 0;
    u.access = k % 2 ? Access::unordered_access : Access::shader_resource;
    u.stages = stages(Stage::compute);
    u.range.byte_offset = uint64_t{16} * k;
    u.range.byte_size = 16;
    p.uses.push_back(u);
    PassUse r;
    r.resource = 1 + k;
    r.access = Access::shader_resource;
    r.stages = stages(Stage::compute);
    p.uses.push_back(r);
  }
  const uint64_t before = validate_overlap_queries();
  EXPECT_EQ(validate_error(g), "");
  const uint64_t queries = validate_overlap_queries() - before;
  EXPECT_GT(queries, uint64_t{kN} / 2);  // the buffer's uses were tested
  EXPECT_LT(queries, uint64_t{4} * kN);
  // One overlapping pair at the end is found, and named as every pair names it.
  p.uses.back().resource = 0;
  p.uses.back().access = Access::unordered_access;
  p.uses.back().range.byte_offset = 8;
  p.uses.back().range.byte_size = 4;
  const ResourceDesc& d = g.resources[0].desc;
  const auto last = static_cast<uint32_t>(p.uses.size() - 1);
  EXPECT_EQ(validate_error(g),
            fmt::format("/passes/0/uses/{}: pass 'p', resource 'b': {}", last,
                        conflict_message(0, Access::shader_resource, last, Access::unordered_access,
                                         extent_text(intersect(use_extent(d, p.uses[0].range),
                                                               use_extent(d, p.uses.back().range)),
                                                     d))));
}

}  // namespace
}  // namespace baton::graph
