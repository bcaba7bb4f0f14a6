// The transitions phase's member table (Transitions::table, first_member, history_in before the takeovers)
// is kept per thread with the graph resources it was made from and reused while they compare equal
// (issue 16: a graph compiled every frame neither copies nor hashes its resources' names per compile).
// What must hold: a reuse happens exactly when nothing the table depends on changed, and a compile after
// any change gives what a thread that never compiled anything gives.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "../../bench/graph_workloads.hpp"
#include "baton/graph.hpp"

namespace baton::graph {
namespace {

// What a compile's result says about the member table, and the plan that depends on it.
struct Seen {
  std::vector<ResourceDesc> descs;
  std::vector<ResourceId> first_member;
  History history_in;
  std::string transitions, restores;
};

Seen seen(const Graph& g, const GraphCompileResult& r) {
  EXPECT_TRUE(r.findings.empty()) << r.findings.front();
  return {r.trans.table.all(), r.trans.first_member, r.trans.history_in, dump(g, r, "transitions"),
          dump(g, r, "restores")};
}

// The same compile on a thread of its own, which has no member table kept: the reference.
Seen seen_fresh(const Graph& g) {
  Seen s;
  std::thread([&] {
    EXPECT_EQ(member_table_builds(), 0u);
    s = seen(g, compile_graph(g));
  }).join();
  return s;
}

void expect_same(const Seen& a, const Seen& b, const std::string& what) {
  EXPECT_EQ(a.descs, b.descs) << what;
  EXPECT_EQ(a.first_member, b.first_member) << what;
  EXPECT_EQ(a.history_in, b.history_in) << what;
  EXPECT_EQ(a.transitions, b.transitions) << what;
  EXPECT_EQ(a.restores, b.restores) << what;
}

TEST(MemberTable, ReusedWhileTheResourcesCompareEqualAndSharedWithTheResult) {
  const Graph g = bench::graph_chain(12);
  const GraphCompileResult first = compile_graph(g);
  const uint64_t builds = member_table_builds();
  const GraphCompileResult second = compile_graph(g);
  EXPECT_EQ(member_table_builds(), builds);  // nothing changed: kept
  EXPECT_TRUE(second.trans.table.shares_with(first.trans.table));
  expect_same(seen(g, second), seen(g, first), "the same graph twice");
  Graph copy = g;  // another graph object with equal resources (passes changed): still kept
  copy.passes.back().name = "copy_out_renamed";
  (void)compile_graph(copy);
  EXPECT_EQ(member_table_builds(), builds);
}

// Every field of Resource and ResourceDesc that a graph may change between compiles, changed on one
// resource of a graph compiled just before: the table is made again, and the compile equals a fresh
// thread's (names, sets, transient or not, extents, formats, flags, resting states).
TEST(MemberTable, AnyChangedFieldMakesItAgainAndTheCompileEqualsAFreshOne) {
  Graph base = bench::graph_chain(12);
  const uint32_t out = static_cast<uint32_t>(base.resources.size() - 1);  // the persistent output
  // A resource no pass uses, for the fields that a used one could not change without making the graph
  // invalid (its kind, byte size, planes, format, swapchain); the reuse test reads these as words.
  const auto spare = static_cast<uint32_t>(base.resources.size());
  base.resources.push_back(bench::texture("spare", 64));
  base.resources[spare].transient = false;
  base.resources[spare].desc.format = FormatClass::depth_stencil;
  base.resources[spare].desc.planes = 2;
  base.resources[spare].desc.usage = bit(Access::depth_write);
  struct Change {
    std::string what;
    std::function<void(Graph&)> apply;
  };
  const std::vector<Change> changes = {
      {"name", [](Graph& g) { g.resources[4].desc.name = "renamed"; }},
      {"width", [](Graph& g) { g.resources[4].desc.width = 128; }},
      {"height", [](Graph& g) { g.resources[4].desc.height = 64; }},
      {"mips", [](Graph& g) { g.resources[4].desc.mips = 3; }},
      {"layers", [](Graph& g) { g.resources[4].desc.layers = 2; }},
      {"usage", [](Graph& g) { g.resources[4].desc.usage |= bit(Access::copy_source); }},
      {"placed", [&](Graph& g) { g.resources[out].desc.placed = true; }},
      {"simultaneous_access", [](Graph& g) { g.resources[4].desc.simultaneous_access = true; }},
      {"resting", [&](Graph& g) { g.resources[out].desc.resting = Access::copy_dest; }},
      {"count", [](Graph& g) { g.resources[4].count = 3; }},
      {"transient", [](Graph& g) { g.resources[4].transient = false; }},
      {"starts_undefined", [&](Graph& g) { g.resources[out].starts_undefined = true; }},
      {"texel_bytes", [](Graph& g) { g.resources[4].texel_bytes = 16; }},
      {"imported", [&](Graph& g) { g.resources[out].imported = true; }},
      {"type", [&](Graph& g) {
         ResourceDesc& d = g.resources[spare].desc;
         d.type = ResourceType::buffer;
         d.size = 256;
         d.width = d.height = d.planes = 1;
         d.format = FormatClass::color;
         d.usage = bit(Access::unordered_access);
       }},
      {"size", [&](Graph& g) { g.resources[spare].desc.size = 4096; }},
      {"planes", [&](Graph& g) { g.resources[spare].desc.planes = 1; }},
      {"format", [&](Graph& g) {
         g.resources[spare].desc.format = FormatClass::color;
         g.resources[spare].desc.planes = 1;
       }},
      {"swapchain", [&](Graph& g) { g.resources[spare].desc.swapchain = true; }},
      {"resting value (engaged both times)", [&](Graph& g) {
         g.resources[out].desc.resting = Access::copy_dest;
         g.resources[out].desc.resting = Access::copy_source;
       }},
      {"one more resource", [](Graph& g) { g.resources.push_back(bench::texture("unused", 64)); }},
      {"one resource fewer",
       [](Graph& g) {
         g.resources.pop_back();
         g.outputs.clear();
         g.passes.pop_back();
       }},
  };
  for (const Change& c : changes) {
    Graph g = base;
    c.apply(g);
    (void)compile_graph(base);
    const uint64_t builds = member_table_builds();
    const GraphCompileResult r = compile_graph(g);
    EXPECT_EQ(member_table_builds(), builds + 1) << c.what;
    expect_same(seen(g, r), seen_fresh(g), c.what);
    // And back: the base's table again, as a fresh thread makes it.
    expect_same(seen(base, compile_graph(base)), seen_fresh(base), c.what + ", then the base again");
  }
}

// The reuse test compares names by content without memcmp (a few loads that may overlap: 8-byte words,
// two 4-byte ones below 8 characters, bytes below 4): a name of any length from 1 to 24 with any one
// character changed makes the table again; the same name again keeps it.
TEST(MemberTable, ANameChangedAtAnyCharacterMakesItAgain) {
  Graph g = bench::graph_chain(6);
  for (size_t n = 1; n <= 24; ++n) {
    std::string name(n, 'a');
    for (size_t i = 0; i < n; ++i) name[i] = static_cast<char>('a' + i % 26);
    g.resources[2].desc.name = name;
    (void)compile_graph(g);
    uint64_t builds = member_table_builds();
    (void)compile_graph(g);
    EXPECT_EQ(member_table_builds(), builds) << n;  // the same name: kept
    for (size_t i = 0; i < n; ++i) {
      std::string other = name;
      other[i] = 'Z';
      g.resources[2].desc.name = other;
      (void)compile_graph(g);
      EXPECT_EQ(member_table_builds(), builds + 1) << n << " " << i;
      g.resources[2].desc.name = name;
      (void)compile_graph(g);
      EXPECT_EQ(member_table_builds(), builds + 2) << n << " " << i;
      builds += 2;
    }
  }
}

}  // namespace
}  // namespace baton::graph
