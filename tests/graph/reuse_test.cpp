// compile_graph_into (issue 16: no heap block in steady state): a result compiled into the storage of an
// earlier one, of the same graph or of any other, equals a fresh compile_graph of that graph in every field
// of every phase. Each graph of a mixed sequence (larger and smaller, more and fewer groups, culled passes,
// async queues, sets, a graph that fails to validate) is compiled into one result kept across the whole
// sequence and compared with a fresh compile: a field that kept last call's contents (a vector resized
// instead of refilled, a count not reset) differs in the text below.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "../../bench/graph_workloads.hpp"
#include "baton/graph.hpp"
#include "random_graph.hpp"

namespace baton::graph {
namespace {

std::string state_text(const State& s) {
  return std::to_string(s.sync) + "/" + std::to_string(s.access) + "/" + std::to_string(static_cast<int>(s.layout));
}

std::string history_text(const History& h) {
  std::string s;
  for (const ResourceHistory& x : h)
    s += std::to_string(x.touched) + std::to_string(x.written) + std::to_string(x.dies) + ":" +
         std::to_string(x.takeover.sync) + "/" + std::to_string(x.takeover.access) + "/" +
         std::to_string(x.takeover.previous) + " ";
  return s;
}

// Every field of every phase's result, as text (the compiled barriers field by field).
std::string describe(const GraphCompileResult& r) {
  std::string s = "validated:";
  for (const Edge& e : r.validated.edges)
    s += " " + std::to_string(e.from) + ">" + std::to_string(e.to) + "/" + std::to_string(static_cast<int>(e.kind)) +
         "/" + std::to_string(e.resource);
  s += "\nin_first:";
  for (uint32_t x : r.validated.in_first) s += " " + std::to_string(x);
  s += "\nbackward: " + std::to_string(r.validated.backward) + "\nlive:";
  for (uint8_t x : r.culled.live) s += " " + std::to_string(x);
  for (const Culled& c : r.culled.culled) s += "\nculled " + std::to_string(c.pass) + ": " + c.why;
  s += "\nserial:";
  for (uint32_t x : r.sched.serial) s += " " + std::to_string(x);
  s += "\nserial_of:";
  for (uint32_t x : r.sched.serial_of) s += " " + std::to_string(x);
  s += "\npos:";
  for (uint32_t x : r.sched.pos) s += " " + std::to_string(x);
  s += "\nclock:";
  for (const auto& c : r.sched.clock) s += " " + std::to_string(c[0]) + "," + std::to_string(c[1]) + "," + std::to_string(c[2]);
  s += "\nsyncs:";
  for (const Sync& y : r.sched.syncs) s += " " + std::to_string(y.signal) + ">" + std::to_string(y.wait);
  s += "\ncross_queue_edges: " + std::to_string(r.sched.cross_queue_edges) + "\nlifetimes:";
  for (const Lifetime& l : r.lifetimes) {
    s += " [" + std::to_string(l.first) + " " + std::to_string(l.last) + " " + std::to_string(l.free_at);
    for (size_t q = 0; q < kQueues; ++q) s += " " + std::to_string(l.last_pos[q]) + "/" + std::to_string(l.min_clock[q]);
    s += "]";
  }
  const Aliasing& a = r.aliasing;
  s += "\nplacements:";
  for (const Placement& p : a.placements)
    s += " " + std::to_string(p.resource) + "@" + std::to_string(p.offset) + "+" + std::to_string(p.size);
  s += "\nplacement_of:";
  for (uint32_t x : a.placement_of) s += " " + std::to_string(x);
  s += "\nalias barriers:";
  for (const AliasBarrier& b : a.barriers) {
    s += " " + std::to_string(b.pass) + "/" + std::to_string(b.resource) + "<";
    for (uint32_t p : b.previous) s += std::to_string(p) + ",";
  }
  s += "\nheap " + std::to_string(a.heap_size) + " unaliased " + std::to_string(a.unaliased) + " bound " +
       std::to_string(a.lower_bound);
  const Transitions& t = r.trans;
  s += "\ntable: " + std::to_string(t.table.size()) + "\nfirst_member:";
  for (ResourceId x : t.first_member) s += " " + std::to_string(x);
  s += "\nlist_passes:";
  for (uint32_t x : t.list_passes) s += " " + std::to_string(x);
  for (const GroupInfo& i : t.info) {
    s += "\ninfo " + std::to_string(static_cast<int>(i.queue)) + " role " + std::to_string(static_cast<int>(i.role)) +
         " passes";
    for (uint32_t p : i.passes) s += " " + std::to_string(p);
    s += " waits";
    for (uint32_t w : i.waits) s += " " + std::to_string(w);
  }
  for (const CommandListGroup* g : t.groups) {
    s += "\ngroup " + g->name() + " " + std::to_string(static_cast<int>(g->queue()));
    for (const CommandList* l : g->lists()) {
      s += "\n list " + std::string(l->name()) + " " + std::to_string(static_cast<int>(l->lifecycle()));
      for (const Operation& op : l->ops()) {
        s += "\n  op " + std::to_string(static_cast<int>(op.kind)) + " " + std::to_string(op.full_barrier) + ":";
        for (const Use& u : op.uses)
          s += " " + std::to_string(u.resource) + "/" + std::to_string(static_cast<int>(u.access)) + "/" +
               std::to_string(u.stages) + "/" + std::to_string(is_whole(u.range));
      }
      for (const EntryState& e : l->entry_states())
        s += "\n  entry " + std::to_string(e.resource) + "/" + std::to_string(static_cast<int>(e.access)) + "/" +
             std::to_string(e.stages) + "/" + std::to_string(e.shared);
    }
  }
  for (const CompiledGroup& cg : t.compiled) {
    s += "\ncompiled " + cg.name + " " + std::to_string(static_cast<int>(cg.queue)) + " " +
         std::to_string(cg.barrier_count()) + " " + std::to_string(cg.point_count());
    for (const CompiledList& cl : cg.lists) {
      s += "\n clist " + cl.name + " " + std::to_string(static_cast<int>(cl.queue));
      for (const BarrierPoint& p : cl.points) {
        s += "\n  point " + std::to_string(p.op) + " " + std::to_string(static_cast<int>(p.where));
        for (const Barrier& b : cl.barriers_at(p))
          s += "\n   " + std::to_string(b.resource) + " [" + std::to_string(b.box.m0) + " " + std::to_string(b.box.m1) +
               " " + std::to_string(b.box.l0) + " " + std::to_string(b.box.l1) + " " + std::to_string(b.box.p0) + " " +
               std::to_string(b.box.p1) + "] " + state_text(b.before) + " -> " + state_text(b.after) + " " +
               std::string(to_string(b.reason)) + " " + std::to_string(b.discard) + std::to_string(b.before_used) +
               " prev " + std::to_string(b.previous) + " split " + std::to_string(b.split_after) + "/" +
               std::to_string(b.split_list) + " bytes " + std::to_string(b.byte_offset) + "+" +
               std::to_string(b.byte_size);
      }
    }
  }
  s += "\nhistory_in: " + history_text(t.history_in) + "\nhistory_out: " + history_text(t.history_out);
  const FinalStates& f = r.finals;
  for (const Restore& x : f.restores)
    s += "\nrestore " + std::to_string(x.group) + " " + std::to_string(x.pass) + " " + std::to_string(x.member) + " " +
         state_text(x.from) + " -> " + state_text(x.to);
  s += "\nfinals:";
  for (size_t m = 0; m < f.members(); ++m) {
    s += " " + std::to_string(f.cells[m]) + "/" + std::to_string(f.order[m].mips) + "x" + std::to_string(f.order[m].layers);
    f.runs_of(static_cast<ResourceId>(m)).for_each(0, f.cells[m], [&s](uint32_t first, uint32_t count, const State& v) {
      s += ":" + std::to_string(first) + "+" + std::to_string(count) + "=" + state_text(v);
    });
  }
  s += "\nfindings:";
  for (const std::string& x : r.findings) s += "\n" + x;
  return s;
}

// The graphs, in an order that alternates larger and smaller ones.
std::vector<std::pair<std::string, Graph>> graphs() {
  std::vector<std::pair<std::string, Graph>> out;
  const std::filesystem::path dir = std::filesystem::path(BATON_SOURCE_DIR) / "examples";
  out.emplace_back("layered 300", bench::graph_layered(300));
  for (const char* f : {"deferred.json", "async.json", "copy_graph.json"}) {
    out.emplace_back(f, load_graph_file((dir / f).string()));
    out.emplace_back("chain 200", bench::graph_chain(200));
  }
  for (uint64_t seed = 1; seed <= 6; ++seed) out.emplace_back("random " + std::to_string(seed), test::random_graph(seed, 8 + 7 * static_cast<uint32_t>(seed)));
  out.emplace_back("chain 3", bench::graph_chain(3));
  out.emplace_back("layered 40", bench::graph_layered(40));
  return out;
}

TEST(GraphReuse, EveryGraphCompiledIntoOneResultEqualsAFreshCompile) {
  const auto gs = graphs();
  GraphCompileResult kept;
  size_t compared = 0;
  for (int round = 0; round < 2; ++round) {  // the second round starts from the last graph's result
    for (const auto& [name, g] : gs) {
      const GraphCompileResult fresh = compile_graph(g);
      compile_graph_into(kept, g);
      const std::string want = describe(fresh), got = describe(kept);
      ASSERT_GT(want.size(), 100u) << name;
      EXPECT_EQ(got, want) << name << " (round " << round << ")";
      ++compared;
    }
  }
  EXPECT_EQ(compared, 2 * gs.size());
}

// A compile that throws (a pass naming an unknown resource) leaves the result unusable but its storage
// reusable: the next compile into it is whole again.
TEST(GraphReuse, ACompileThatThrowsLeavesTheResultReusable) {
  Graph bad = bench::graph_chain(20);
  bad.passes[7].uses.push_back(PassUse{999, Access::shader_resource, stages(Stage::compute), {}});
  const Graph good = bench::graph_chain(30);
  GraphCompileResult kept;
  compile_graph_into(kept, bench::graph_layered(60));
  EXPECT_THROW(compile_graph_into(kept, bad), Error);
  compile_graph_into(kept, good);
  EXPECT_EQ(describe(kept), describe(compile_graph(good)));
}

// The test's own canary: describe() sees a field left from an earlier compile (a barrier's state, a
// lifetime, a placement), so the equality above can fail.
TEST(GraphReuse, DescribeSeesAStaleField) {
  const Graph g = bench::graph_chain(20);
  const GraphCompileResult fresh = compile_graph(g);
  GraphCompileResult r = compile_graph(g);
  ASSERT_EQ(describe(r), describe(fresh));
  r.lifetimes[3].free_at += 1;
  EXPECT_NE(describe(r), describe(fresh));
  r = compile_graph(g);
  ASSERT_FALSE(r.trans.compiled[0].barriers_of(2).empty());
  r.trans.compiled[0].barriers_of(2)[0].after.access ^= 1;
  EXPECT_NE(describe(r), describe(fresh));
  r = compile_graph(g);
  r.aliasing.placements[1].offset += 65536;
  EXPECT_NE(describe(r), describe(fresh));
}

// CompileOptions::phase_times: timing the phases changes nothing in the result, every phase gets a time of
// its own, and a second compile adds to the first's. The async layered graph and the chain, with split
// barriers (timed with transitions) and without.
TEST(GraphReuse, PhaseTimesTimeEveryPhaseAndChangeNothing) {
  for (const bool split : {false, true}) {
    for (const Graph& g : {bench::graph_layered(60), bench::graph_chain(40)}) {
      CompileOptions plain;
      plain.split_barriers = split;
      const GraphCompileResult fresh = compile_graph(g, plain);
      PhaseTimes times;
      CompileOptions timed = plain;
      timed.phase_times = &times;
      GraphCompileResult r;
      compile_graph_into(r, g, timed);
      EXPECT_EQ(describe(r), describe(fresh));
      const PhaseTimes first = times;
      for (size_t i = 0; i < PhaseTimes::kPhases; ++i)
        EXPECT_GT(first.seconds[i], 0.0) << PhaseTimes::kNames[i];
      compile_graph_into(r, g, timed);
      EXPECT_EQ(describe(r), describe(fresh));
      for (size_t i = 0; i < PhaseTimes::kPhases; ++i)
        EXPECT_GT(times.seconds[i], first.seconds[i]) << PhaseTimes::kNames[i];
    }
  }
}

}  // namespace
}  // namespace baton::graph
