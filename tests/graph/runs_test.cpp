// The graph's checks replay the barrier stream per subresource as runs (baton/runs.hpp): a set of
// many members at the subresource limits costs what its barriers split it into, and the checks still
// hold (and still find a broken phase) on it.
#include <gtest/gtest.h>

#include <algorithm>

#include <string>
#include <string_view>
#include <vector>

#include "baton/graph.hpp"

namespace baton::graph {
namespace {

const char* kSets = R"({"resources":[{"name":"out","type":"buffer","size":16},
  {"name":"s","type":"texture","width":4096,"height":4096,"mips":13,"layers":64,"count":512,
   "usage":["render_target","shader_resource"]}],
 "passes":[{"name":"w","queue":"graphics","uses":[{"resource":"s","access":"render_target","mips":[0,1]}]},
           {"name":"r","queue":"graphics","uses":[{"resource":"s","access":"shader_resource","stages":"pixel"},
                                                  {"resource":"out","access":"unordered_access","stages":"pixel"}]}],
 "outputs":["out"]})";

TEST(GraphRuns, FinalStatesOfLargeSetsAreRunsAndTheChecksHold) {
  const Graph g = load_graph_text(kSets, "sets.json");
  const GraphCompileResult r = compile_graph(g);
  EXPECT_TRUE(r.findings.empty()) << r.findings.front();
  // 512 members of 832 subresources, mip 0 written: one run each at the end of the frame (all back at rest).
  ASSERT_EQ(r.finals.members(), 513u);
  for (ResourceId m = 0; m < r.finals.members(); ++m) {
    EXPECT_EQ(r.finals.runs_of(m).run_count(), 1u) << m;
    EXPECT_EQ(r.finals.split[m], kNone) << m;  // one state: no runs kept
    EXPECT_EQ(r.finals.at(m, 0), r.finals.at(m, r.finals.runs_of(m).size() - 1)) << m;
  }
  EXPECT_EQ(r.finals.runs_of(1).size(), 13u * 64u);
}

// Runs are kept in the run order (mip-major): a transient that dies with mips 1-2 of its 2,048 layers
// read is three runs (mip 0, mips 1-2, the rest), where the subresource index needs one per layer.
TEST(GraphRuns, SomeMipsOfManyLayersAreOneRunPerMipRow) {
  const Graph g = load_graph_text(R"({"resources":[{"name":"out","type":"buffer","size":16},
    {"name":"t","type":"texture","transient":true,"width":256,"height":256,"mips":9,"layers":2048,
     "usage":["render_target","shader_resource"]}],
   "passes":[{"name":"w","queue":"graphics","uses":[{"resource":"t","access":"render_target","mips":[1,2]}]},
             {"name":"r","queue":"graphics","uses":[{"resource":"t","access":"shader_resource","stages":"pixel","mips":[1,2]},
                                                    {"resource":"out","access":"unordered_access","stages":"pixel"}]}],
   "outputs":["out"]})",
                                  "mips.json");
  const GraphCompileResult r = compile_graph(g);
  EXPECT_TRUE(r.findings.empty()) << r.findings.front();
  ASSERT_EQ(r.finals.members(), 2u);
  EXPECT_EQ(r.finals.runs_of(1).run_count(), 3u);
  EXPECT_NE(r.finals.split[1], kNone);
  // at() takes the subresource index (mip + layer * mips): mips 1-2 of every layer were sampled last.
  const State read = r.finals.at(1, 1 + 9 * 700);
  EXPECT_EQ(read.layout, Layout::shader_resource);
  EXPECT_EQ(r.finals.at(1, 2 + 9 * 2047), read);
  EXPECT_NE(r.finals.at(1, 0 + 9 * 700), read);
  EXPECT_NE(r.finals.at(1, 3 + 9 * 5), read);
}

// Findings per subresource come in subresource index order (mip + layer * mips), whatever order the
// runs are kept in: mips 1-2 of layers 0-1 not covered are named (1,0) (2,0) (1,1) (2,1).
TEST(GraphRuns, FindingsNameSubresourcesInSubresourceIndexOrder) {
  const Graph g = load_graph_text(R"({"resources":[{"name":"out","type":"buffer","size":16},
    {"name":"a","type":"texture","width":64,"height":64,"mips":4,"layers":2,"usage":["render_target","shader_resource"]}],
   "passes":[{"name":"w","queue":"graphics","uses":[{"resource":"a","access":"render_target","mips":[1,2]}]},
             {"name":"r","queue":"graphics","uses":[{"resource":"a","access":"shader_resource","stages":"pixel","mips":[1,2]},
                                                    {"resource":"out","access":"unordered_access","stages":"pixel"}]}],
   "outputs":["out"]})",
                                  "order.json");
  CompileOptions o;
  o.run_checks = false;
  GraphCompileResult r = compile_graph(g, o);
  // The read's transition removed (it ends where it starts): its use is not covered anywhere.
  for (CompiledGroup& cg : r.trans.compiled)
    for (size_t li = 0; li < cg.lists.size(); ++li)
      if (cg.lists[li].name == "r")
        for (Barrier& b : cg.barriers_of(li))
          if (r.trans.table[b.resource].name == "a") b.after = b.before;
  std::vector<std::string> where;
  for (const std::string& f : check_all(g, r))
    if (f.starts_with("coverage: /passes/1/uses/0:")) {
      const size_t at = f.find(" mip ");
      where.push_back(f.substr(at + 1, f.find(':', at) - at - 1));
    }
  EXPECT_EQ(where, (std::vector<std::string>{"mip 1 layer 0 plane 0", "mip 2 layer 0 plane 0",
                                             "mip 1 layer 1 plane 0", "mip 2 layer 1 plane 0"}));
}

// final_states reads the stream backward (a member's last barrier decides it when it covers the whole
// member) and replays forward only the members whose last barrier covers part of them. One list's
// barriers written by hand, every other list's removed: a (whole, then mip 1) ends in two states; b
// (mip 1, then whole) in the whole barrier's one state; c (no barrier) in its start state, at rest;
// b's two equal restores in a row are one entry.
TEST(GraphRuns, FinalStatesTakeEachMembersLastBarrierWholeOrReplayed) {
  const Graph g = load_graph_text(R"({"resources":[{"name":"out","type":"buffer","size":16},
    {"name":"a","type":"texture","width":64,"height":64,"mips":4,"layers":2,"usage":["render_target","shader_resource"]},
    {"name":"b","type":"texture","width":64,"height":64,"mips":4,"layers":2,"usage":["render_target","shader_resource"]},
    {"name":"c","type":"texture","width":64,"height":64,"mips":4,"layers":2,"usage":["render_target","shader_resource"]}],
   "passes":[{"name":"w","queue":"graphics","uses":[{"resource":"a","access":"render_target"},
                                                    {"resource":"b","access":"render_target"},
                                                    {"resource":"c","access":"render_target"}]},
             {"name":"r","queue":"graphics","uses":[{"resource":"a","access":"shader_resource","stages":"pixel"},
                                                    {"resource":"b","access":"shader_resource","stages":"pixel"},
                                                    {"resource":"c","access":"shader_resource","stages":"pixel"},
                                                    {"resource":"out","access":"unordered_access","stages":"pixel"}]}],
   "outputs":["out"]})",
                                  "last.json");
  CompileOptions o;
  o.run_checks = false;
  GraphCompileResult r = compile_graph(g, o);
  Transitions& t = r.trans;
  auto member = [&](std::string_view name) {
    for (ResourceId m = 0; m < t.table.size(); ++m)
      if (t.table[m].name == name) return m;
    return kNone;
  };
  const ResourceId a = member("a"), b = member("b"), c = member("c");
  ASSERT_NE(c, kNone);
  const State x{sync::all, bit(Access::render_target), Layout::render_target};
  const State y{sync::all, bit(Access::shader_resource), Layout::shader_resource};
  const State z{sync::all, bit(Access::copy_source), Layout::copy_source};
  const Box whole{0, 4, 0, 2, 0, 1}, mip1{1, 2, 0, 2, 0, 1};
  auto barrier = [](ResourceId m, Box box, State after, Reason why = Reason::state_change) {
    Barrier k;
    k.resource = m;
    k.box = box;
    k.before = State{sync::all, bit(Access::render_target), Layout::render_target};
    k.after = after;
    k.reason = why;
    return k;
  };
  size_t lists = 0;
  for (CompiledGroup& cg : t.compiled)
    for (size_t li = 0; li < cg.lists.size(); ++li, ++lists)
      if (lists == 0)
        cg.set_list(li,
                    {barrier(a, whole, x), barrier(b, mip1, y), barrier(a, mip1, y),
                     barrier(b, whole, z, Reason::restore), barrier(b, whole, z, Reason::restore)},
                    {{0, Where::before, 0, 5}});
      else
        cg.set_list(li, {}, {});
  const FinalStates f = final_states(t);
  ASSERT_EQ(f.members(), t.table.size());
  // a: mip 1 of both layers (subresources 1 and 5) in y, the rest in x, as runs.
  EXPECT_NE(f.split[a], kNone);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(f.at(a, i), i % 4 == 1 ? y : x) << i;
  // b: one state, z.
  EXPECT_EQ(f.split[b], kNone);
  EXPECT_EQ(f.runs_of(b).run_count(), 1u);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(f.at(b, i), z) << i;
  // c: its start state (at rest if touched before the frame, else untouched).
  EXPECT_EQ(f.split[c], kNone);
  EXPECT_EQ(f.at(c, 3), t.history_in[c].touched ? resting_state(t.table[c]) : kFirstTouch);
  EXPECT_EQ(f.cells[a], 8u);
  ASSERT_EQ(f.restores.size(), 1u);
  EXPECT_EQ(f.restores[0].member, b);
  EXPECT_EQ(f.restores[0].to, z);
}

// The first barrier of resource `res` in list `list` that `pick` accepts (nullptr when none).
template <class Pick>
const Barrier* barrier_of(GraphCompileResult& r, std::string_view list, std::string_view res, Pick pick) {
  for (CompiledGroup& cg : r.trans.compiled)
    for (size_t li = 0; li < cg.lists.size(); ++li)
      if (cg.lists[li].name == list)
        for (const Barrier& b : cg.barriers_of(li))
          if (r.trans.table[b.resource].name == res && pick(b)) return &b;
  return nullptr;
}

// On several queues the walk decides the usual use from one byte per member (its state and ordering
// records each one run). A member split by an earlier partial barrier and use stays split when the
// transition back into the read state of its mips 1-2 is dropped; the whole read after it must go to
// the full path and be found not covered, though the member's flat value still holds exactly the read's
// state (the whole read before the split).
TEST(GraphRuns, SeveralQueuesUsualUseSeesAMemberSplitByAnEarlierPass) {
  const Graph g = load_graph_text(R"({"resources":[{"name":"out","type":"buffer","size":16},
    {"name":"x","type":"buffer","size":16},{"name":"y","type":"buffer","size":16},
    {"name":"a","type":"texture","width":64,"height":64,"mips":4,"layers":2,"usage":["render_target","shader_resource"]}],
   "passes":[{"name":"w0","queue":"graphics","uses":[{"resource":"a","access":"render_target"}]},
             {"name":"r0","queue":"graphics","uses":[{"resource":"a","access":"shader_resource","stages":"pixel"},
                                                     {"resource":"y","access":"unordered_access","stages":"pixel"}]},
             {"name":"w1","queue":"graphics","uses":[{"resource":"a","access":"render_target","mips":[1,2]}]},
             {"name":"r1","queue":"graphics","uses":[{"resource":"a","access":"shader_resource","stages":"pixel"},
                                                     {"resource":"y","access":"shader_resource","stages":"pixel"},
                                                     {"resource":"out","access":"unordered_access","stages":"pixel"}]},
             {"name":"side","queue":"compute","async":true,"uses":[{"resource":"x","access":"unordered_access","stages":"compute"}]}],
   "outputs":["out","x"]})",
                                  "split_queues.json");
  CompileOptions o;
  o.run_checks = false;
  GraphCompileResult r = compile_graph(g, o);
  ASSERT_TRUE(check_coverage(g, r.sched, r.trans).empty());
  ASSERT_GT(r.trans.info.size(), 1u);
  bool queues = false;
  for (const GroupInfo& x : r.trans.info)
    if (x.queue != r.trans.info.front().queue) queues = true;
  ASSERT_TRUE(queues);  // the walk keeps ordering records
  // r0's barriers of a (the planner splits them by what comes later) all end in exactly r0's read state, so
  // that a is one run holding it until w1's barrier of mips 1-2; r1's barrier of a back into it is dropped.
  const Barrier* handoff = barrier_of(r, "r0", "a", [](const Barrier& b) { return b.box.m0 == 1; });
  ASSERT_NE(handoff, nullptr);
  const State read = handoff->after;
  size_t set = 0, dropped = 0;
  for (CompiledGroup& cg : r.trans.compiled)
    for (size_t li = 0; li < cg.lists.size(); ++li)
      for (Barrier& b : cg.barriers_of(li)) {
        if (r.trans.table[b.resource].name != "a") continue;
        if (cg.lists[li].name == "r0") {
          b.after = read;
          ++set;
        } else if (cg.lists[li].name == "w1") {
          b.before = read;
        } else if (cg.lists[li].name == "r1") {
          b.after = b.before;
          ++dropped;
        }
      }
  ASSERT_GT(set, 0u);
  ASSERT_GT(dropped, 0u);
  const std::vector<std::string> found = check_coverage(g, r.sched, r.trans);
  EXPECT_TRUE(std::any_of(found.begin(), found.end(), [](const std::string& f) {
    return f.starts_with("/passes/3/uses/0: pass 'r1', resource 'a' mip 1 layer 0 plane 0");
  })) << (found.empty() ? std::string("no finding") : found.front());
}

}  // namespace
}  // namespace baton::graph
