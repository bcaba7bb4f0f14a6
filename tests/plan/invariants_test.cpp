// One test per invariant of docs/architecture.md, each a small recording with its expected plan as
// golden text plus the structural property the invariant states.
#include <algorithm>
#include <map>

#include "baton/rules.hpp"
#include "builder.hpp"
#include "reference_model.hpp"

namespace baton::test {
namespace {

constexpr Stages kPixel = stages(Stage::pixel);
constexpr Stages kCompute = stages(Stage::compute);
constexpr AccessMask kRtSampled = bit(Access::render_target) | bit(Access::shader_resource);

// The message of the Error `f` throws (a failure when it throws none).
template <class F>
std::string error_of(const F& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

TEST(Invariant1, AppendAfterCloseIsAnError) {
  Rec r;
  const ResourceId t = r.texture("t", kRtSampled);
  CommandList& l = r.list("l");
  op(l, OpKind::draw, {use(t, Access::render_target)});
  l.close();
  const Use u = use(t, Access::render_target);
  EXPECT_THROW(l.record(OpKind::draw, std::span(&u, 1)), Error);
  EXPECT_THROW(l.close(), Error);
}

TEST(Invariant1, ListCompiledExactlyOnce) {
  Rec r;
  const ResourceId t = r.texture("t", kRtSampled);
  CommandList& l = r.list("l");
  op(l, OpKind::draw, {use(t, Access::render_target)});
  r.group("g", {&l});
  r.compile();
  EXPECT_EQ(l.lifecycle(), CommandList::Lifecycle::compiled);
  try {
    r.compile();
    FAIL() << "second compile accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("list 'l' compiled twice"), std::string::npos) << e.what();
  }
  l.mark_submitted();
  EXPECT_THROW(l.mark_submitted(), Error);
}

TEST(Invariant1, ListBelongsToExactlyOneGroup) {
  Rec r;
  const ResourceId t = r.texture("t", kRtSampled);
  CommandList& l = r.list("l");
  op(l, OpKind::draw, {use(t, Access::render_target)});
  r.group("a", {&l});
  CommandListGroup other("b", Queue::direct);
  try {
    other.add(l);
    FAIL() << "list added to two groups";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("already in group 'a'"), std::string::npos) << e.what();
  }
}

TEST(Invariant1, OpenListCannotJoinAGroup) {
  Rec r;
  CommandList& l = r.list("l");
  CommandListGroup g("g", Queue::direct);
  EXPECT_THROW(g.add(l), Error);
}

// Invariant 2: SyncBefore NONE only on the first-ever touch of the memory in the frame.
// plan() keeps what it reads of a resource's rules in one word made at the resource's first use in the
// call: a resource first used in a later group, and one used legally in an earlier group and then against
// its rules, are each checked against their own rules in the later group.
TEST(Invariant1, EveryGroupChecksItsUsesAgainstTheirResourcesRules) {
  for (const bool first_in_later_group : {true, false}) {
    SCOPED_TRACE(first_in_later_group ? "resource first used in the later group" : "used in both groups");
    Rec r;
    const ResourceId t = r.texture("t", kRtSampled);
    const ResourceId b = r.buffer("b");
    CommandList& l0 = r.list("l0");
    op(l0, OpKind::draw, {use(t, Access::render_target)});
    CommandList& l1 = r.list("l1");
    // external: an op kind that allows every access, so that only the resource's rule can fire.
    if (first_in_later_group)
      op(l1, OpKind::external, {use(b, Access::render_target)});  // a render target on a buffer
    else
      op(l1, OpKind::external, {use(t, Access::index_buffer)});  // an index buffer on a texture
    r.group("g0", {&l0});
    r.group("g1", {&l1});
    const std::string e = error_of([&] { r.compile(); });
    EXPECT_NE(e.find("group 'g1' list 'l1' op 0"), std::string::npos) << e;
    EXPECT_NE(e.find(first_in_later_group ? "resource 'b'" : "resource 't'"), std::string::npos) << e;
    EXPECT_NE(e.find(first_in_later_group ? "[R0201]" : "[R0202]"), std::string::npos) << e;
  }
}

TEST(Invariant2, SyncNoneOnlyOnFirstEverTouchOfTheMemory) {
  Rec r;
  const ResourceId t = r.texture("color", kRtSampled);
  const ResourceId b = r.buffer("params");
  CommandList& a = r.list("a");
  op(a, OpKind::dispatch, {use(b, Access::unordered_access, kCompute)});
  op(a, OpKind::draw, {use(t, Access::render_target), use(b, Access::constant_buffer, kPixel)});
  CommandList& c = r.list("c");
  op(c, OpKind::draw, {use(t, Access::render_target)});
  op(c, OpKind::dispatch, {use(b, Access::unordered_access, kCompute)});
  r.group("first", {&a});
  r.group("second", {&c});
  const CompileResult res = r.compile();
  expect_golden("invariant2_sync_none_only_on_first_touch", r.dump_all(res));
  for (size_t gi = 0; gi < res.groups.size(); ++gi)
    for (const CompiledList& l : res.groups[gi].lists)
      for (const Barrier& x : l.barriers)
        if (x.before.sync == sync::none) {
          EXPECT_EQ(x.reason, Reason::first_touch);
          EXPECT_EQ(gi, 0u) << "SyncBefore NONE in a later group";
        }
}

// Memory other resources used earlier (aliasing) is not a first touch: the first barrier of a texture
// and of a buffer taking it over waits for the previous occupants' accesses (the takeover scope of the
// history), from layout undefined, and the reference model catches a plan that waits for nothing.
TEST(Invariant2, MemoryTakenOverWaitsForThePreviousOccupants) {
  Rec r;
  const ResourceId t = r.texture("t", kRtSampled, 1, 1, FormatClass::color, /*placed=*/true);
  const ResourceId b = r.buffer("b");
  const ResourceId fresh = r.buffer("fresh");
  CommandList& a = r.list("a");
  op(a, OpKind::draw, {use(t, Access::render_target)});
  op(a, OpKind::dispatch,
     {use(b, Access::unordered_access, kCompute), use(fresh, Access::unordered_access, kCompute)});
  r.group("g", {&a});
  History h = fresh_history(r.rt);
  h[t].takeover = Takeover{sync::compute_shading, bit(Access::unordered_access), b};
  h[b].takeover = Takeover{sync::pixel_shading, bit(Access::shader_resource), kGlobalResource};
  h[t].dies = true;  // its memory goes on to another resource: no restore to rest after its last use
  const std::vector<CommandListGroup*> gs = r.ptrs();
  const CompileResult res = compile_all(r.rt, gs, h);
  const std::span<const Barrier> bs = res.groups[0].lists[0].barriers;
  ASSERT_EQ(bs.size(), 2u);  // the fresh buffer's first touch needs none, the dying texture no restore
  EXPECT_EQ(bs[0].resource, t);
  EXPECT_EQ(bs[0].reason, Reason::takeover);
  EXPECT_TRUE(bs[0].discard);  // the placed render target still gets its initializing discard
  EXPECT_EQ(bs[0].before, (State{sync::compute_shading, bit(Access::unordered_access), Layout::undefined}));
  EXPECT_EQ(bs[0].previous, b);
  EXPECT_EQ(bs[1].resource, b);
  EXPECT_EQ(bs[1].reason, Reason::takeover);
  EXPECT_EQ(bs[1].before, (State{sync::pixel_shading, bit(Access::shader_resource), Layout::none}));
  EXPECT_EQ(bs[1].after, (State{sync::compute_shading, bit(Access::unordered_access), Layout::none}));
  EXPECT_EQ(bs[1].previous, kGlobalResource);
  for (const Barrier& x : bs) EXPECT_NE(x.before.sync, sync::none);
  // plan() consumes the scope at the first touch.
  EXPECT_FALSE(res.history_out[t].takeover.any());
  EXPECT_FALSE(res.history_out[b].takeover.any());

  std::vector<const CommandListGroup*> cgs(gs.begin(), gs.end());
  ModelOptions o;
  o.history = h;
  EXPECT_TRUE(check_plan(r.rt, cgs, res.groups, o).empty());
  // Back to a first touch that waits for nothing: a violation of invariant 2 for both.
  std::vector<CompiledGroup> mutated = res.groups;
  for (Barrier& x : mutated[0].barriers_of(0)) {
    x.before = x.resource == t ? kFirstTouch : kFirstTouchBuffer;
    x.reason = x.resource == t ? Reason::discard : Reason::first_touch;
  }
  const std::vector<std::string> v = check_plan(r.rt, cgs, mutated, o);
  auto has = [&](const std::string& what) {
    return std::any_of(v.begin(), v.end(),
                       [&](const std::string& line) { return line.find(what) != std::string::npos; });
  };
  EXPECT_TRUE(has("resource 't' [mip 0 layer 0 plane 0]: SyncBefore NONE on a subresource touched before"));
  EXPECT_TRUE(has("resource 'b': SyncBefore NONE on a subresource touched before"));
  // And without the buffer's takeover barrier its write races the previous occupant's read.
  o.skip = BarrierRef{0, 0, 1};
  const std::vector<std::string> w = check_plan(r.rt, cgs, res.groups, o);
  ASSERT_FALSE(w.empty());
  EXPECT_NE(w[0].find("resource 'b'"), std::string::npos) << w[0];
  EXPECT_NE(w[0].find("accessed across a missing barrier"), std::string::npos) << w[0];
}

TEST(Invariant3, FirstWriteOfPlacedTargetDiscardsWholeResource) {
  Rec r;
  const ResourceId t = r.texture("bloom", kRtSampled, 4, 1, FormatClass::color, /*placed=*/true);
  const ResourceId d = r.texture("depth", bit(Access::depth_write), 1, 1, FormatClass::depth_stencil, true);
  CommandList& l = r.list("l");
  op(l, OpKind::draw, {use(t, Access::render_target, kNoStages, mips(0, 1)), use(d, Access::depth_write)});
  op(l, OpKind::draw, {use(t, Access::render_target, kNoStages, mips(1, 1))});
  r.group("g", {&l});
  const CompileResult res = r.compile();
  expect_golden("invariant3_discard_on_first_write", r.dump_all(res));
  std::map<ResourceId, uint64_t> discarded;
  for (const Barrier& x : res.groups[0].lists[0].barriers) {
    if (!x.discard) continue;
    discarded[x.resource] += x.box.volume();
    EXPECT_EQ(x.before.layout, Layout::undefined);
  }
  ASSERT_EQ(discarded.size(), 2u);
  for (const auto& [res_id, volume] : discarded)
    EXPECT_EQ(volume, full_box(r.rt[res_id]).volume()) << "discard must cover the whole resource";
  EXPECT_TRUE(res.history_out[t].written);
}

TEST(Invariant3, DiscardOnlyOnceEver) {
  Rec r;
  const ResourceId t = r.texture("rt", kRtSampled, 1, 1, FormatClass::color, true);
  CommandList& a = r.list("a");
  op(a, OpKind::draw, {use(t, Access::render_target)});
  CommandList& b = r.list("b");
  op(b, OpKind::draw, {use(t, Access::render_target)});
  r.group("g1", {&a});
  r.group("g2", {&b});
  const CompileResult res = r.compile();
  int discards = 0;
  for (const CompiledGroup& g : res.groups)
    for (const CompiledList& l : g.lists)
      for (const Barrier& x : l.barriers) discards += x.discard;
  EXPECT_EQ(discards, 1);
}

TEST(Invariant4, GroupLeavesEveryResourceAtRest) {
  Rec r;
  const ResourceId t = r.texture("gbuffer", kRtSampled);
  const ResourceId u = r.texture("uav_only", bit(Access::unordered_access));
  const ResourceId b = r.buffer("particles");
  CommandList& l = r.list("l");
  op(l, OpKind::draw, {use(t, Access::render_target)});
  op(l, OpKind::dispatch, {use(t, Access::shader_resource, kCompute), use(u, Access::unordered_access, kCompute),
                           use(b, Access::unordered_access, kCompute)});
  op(l, OpKind::copy, {use(u, Access::copy_source), use(b, Access::copy_dest)});
  CommandList& m = r.list("m");
  op(m, OpKind::draw, {use(t, Access::render_target)});
  r.group("g1", {&l});
  r.group("g2", {&m});
  const CompileResult res = r.compile();
  expect_golden("invariant4_group_ends_at_rest", r.dump_all(res));
  // The second group's first barrier on the texture names the resting state.
  const Barrier& first = res.groups[1].lists[0].barriers.front();
  EXPECT_EQ(first.before, resting_state(r.rt[t]));
  // Buffers never pay a restore barrier.
  for (const CompiledGroup& g : res.groups)
    for (const CompiledList& cl : g.lists)
      for (const Barrier& x : cl.barriers)
        if (x.resource == b) {
          EXPECT_NE(x.reason, Reason::restore);
        }
}

TEST(Invariant4, DeclaredEntryStateReplacesRestAndIsHandedOn) {
  Rec r;
  const ResourceId t = r.texture("history", kRtSampled);
  CommandList& a = r.list("producer");
  op(a, OpKind::draw, {use(t, Access::render_target)});
  CommandList& c = r.list("consumer");
  c.declare_entry(t, Access::shader_resource, kCompute);
  op(c, OpKind::dispatch, {use(t, Access::shader_resource, kCompute)});
  r.group("g1", {&a});
  r.group("g2", {&c});
  const CompileResult res = r.compile();
  expect_golden("invariant4_entry_state_hand_on", r.dump_all(res));
  // The consumer needs nothing: the producer's group left the texture in the declared state.
  // The consumer reads without a barrier: the producer's group left the texture in the declared state.
  // Its only barrier widens the state back to rest (every shading stage) for whoever comes next.
  for (const BarrierPoint& p : res.groups[1].lists[0].points) EXPECT_EQ(p.where, Where::after);
  ASSERT_EQ(res.groups[1].lists[0].barriers.size(), 1u);
  EXPECT_EQ(res.groups[1].lists[0].barriers[0].reason, Reason::restore);
  EXPECT_EQ(res.groups[0].lists[0].barriers.back().reason, Reason::hand_on);
}

// Many declarations on one list (the frame graph's frame_end list declares one per texture it takes
// over): each resource is seeded from its own declaration whatever the declaration order, and
// one point holding many barriers comes out sorted by resource and merged as a small one does.
TEST(Invariant4, ManyDeclaredEntryStatesInAnyOrderSeedTheirOwnResource) {
  Rec r;
  std::vector<ResourceId> ts;
  for (int i = 0; i < 40; ++i) ts.push_back(r.texture("t" + std::to_string(i), kRtSampled | bit(Access::unordered_access)));
  CommandList& l = r.list("takes_over");
  std::vector<Use> uses;
  for (int i = 39; i >= 0; --i) {  // descending: the unsorted path
    const Access a = i % 2 ? Access::unordered_access : Access::render_target;
    l.declare_entry(ts[static_cast<size_t>(i)], a, a == Access::unordered_access ? kCompute : kNoStages);
  }
  for (int i = 0; i < 40; ++i) uses.push_back(use(ts[static_cast<size_t>(i)], Access::shader_resource, kCompute));
  op(l, OpKind::dispatch, uses);
  r.group("g", {&l});
  const CompileResult res = r.compile();
  const CompiledList& cl = res.groups[0].lists[0];
  std::map<ResourceId, const Barrier*> entry;
  for (const Barrier& b : cl.barriers)
    if (b.reason == Reason::entry_state) entry[b.resource] = &b;
  ASSERT_EQ(entry.size(), 40u);
  for (int i = 0; i < 40; ++i) {
    const ResourceId t = ts[static_cast<size_t>(i)];
    const Access a = i % 2 ? Access::unordered_access : Access::render_target;
    EXPECT_EQ(entry[t]->before, state_of_use(r.rt[t], a, a == Access::unordered_access ? kCompute : kNoStages)) << i;
  }
  for (const BarrierPoint& p : cl.points)
    for (uint32_t k = p.first + 1; k < p.first + p.count; ++k)
      EXPECT_LT(cl.barriers[k - 1].resource, cl.barriers[k].resource);  // one barrier per resource, sorted
}

TEST(Invariant4, EntryStateDeclaredTwiceIsAnErrorAfterAnAscendingRun) {
  Rec r;
  std::vector<ResourceId> ts;
  for (int i = 0; i < 4; ++i) ts.push_back(r.texture("t" + std::to_string(i), kRtSampled));
  CommandList& l = r.list("l");
  for (ResourceId t : ts) l.declare_entry(t, Access::shader_resource, kCompute);  // ascending
  // the last one again, an earlier one
  EXPECT_EQ(rule_id_of(error_of([&] { l.declare_entry(ts[3], Access::shader_resource, kCompute); })),
            "R0403");
  EXPECT_EQ(rule_id_of(error_of([&] { l.declare_entry(ts[1], Access::shader_resource, kCompute); })),
            "R0403");
}

TEST(Invariant5, ListsHandOffDirectlyAndReadersShareOneTransition) {
  Rec r;
  const ResourceId t = r.texture("lighting", kRtSampled);
  CommandList& a = r.list("light");
  op(a, OpKind::draw, {use(t, Access::render_target)});
  CommandList& b = r.list("bloom");
  op(b, OpKind::draw, {use(t, Access::shader_resource, kPixel)});
  CommandList& c = r.list("exposure");
  op(c, OpKind::dispatch, {use(t, Access::shader_resource, kCompute)});
  CommandList& d = r.list("taa");
  op(d, OpKind::draw, {use(t, Access::render_target)});
  r.group("g", {&a, &b, &c, &d});
  const CompileResult res = r.compile();
  expect_golden("invariant5_direct_hand_off_and_read_merge", r.dump_all(res));
  EXPECT_EQ(res.groups[0].lists[2].barriers.size(), 0u) << "second reader needs no barrier";
  for (const CompiledList& l : res.groups[0].lists)
    for (const Barrier& x : l.barriers)
      if (x.resource == t && x.reason != Reason::restore && x.reason != Reason::first_touch) {
        EXPECT_NE(x.after, resting_state(r.rt[t])) << "bounced through rest between lists";
      }
}

TEST(Invariant6, ContiguousRangesMergeIntoOneBarrier) {
  Rec r;
  const ResourceId t = r.texture("chain", kRtSampled, 4, 2);
  CommandList& l = r.list("l");
  op(l, OpKind::draw, {use(t, Access::render_target, kNoStages, mips(0, 1)),
                       use(t, Access::render_target, kNoStages, mips(1, 1))});
  op(l, OpKind::draw, {use(t, Access::shader_resource, kPixel, mips(0, 2)),
                       use(t, Access::render_target, kNoStages, mips(2, 2))});
  r.group("g", {&l});
  const CompileResult res = r.compile();
  expect_golden("invariant6_contiguous_ranges_merge", r.dump_all(res));
  const CompiledList& cl = res.groups[0].lists[0];
  // One point per operation that needs barriers; op 0's two mips became one barrier.
  ASSERT_FALSE(cl.points.empty());
  EXPECT_EQ(cl.points[0].count, 1u);
  EXPECT_EQ(cl.barriers[0].box, (Box{0, 2, 0, 2, 0, 1}));
}

// Two barriers of different resources at one point (a frame graph pass's usual shape: it writes its
// own texture and reads the one before) come out in resource order whatever order the uses name
// them: the compiler settles such a pair in place (close_point) instead of sorting it.
TEST(Invariant6, TwoBarriersOfOnePointComeInResourceOrderWhateverTheUseOrder) {
  Rec r;
  const AccessMask usage = bit(Access::unordered_access) | bit(Access::shader_resource);
  const ResourceId a = r.texture("a", usage);
  const ResourceId b = r.texture("b", usage);
  CommandList& l = r.list("l");
  op(l, OpKind::dispatch, {use(a, Access::unordered_access, kCompute)});
  // Names b before a; both need a barrier at this operation's before-point.
  op(l, OpKind::dispatch, {use(b, Access::unordered_access, kCompute), use(a, Access::shader_resource, kCompute)});
  op(l, OpKind::dispatch, {use(a, Access::unordered_access, kCompute), use(b, Access::shader_resource, kCompute)});
  r.group("g", {&l});
  const CompileResult res = r.compile();
  const CompiledList& cl = res.groups[0].lists[0];
  size_t pairs = 0;
  for (const BarrierPoint& p : cl.points) {
    if (p.where != Where::before || p.op == 0) continue;
    const std::span<const Barrier> at = cl.barriers_at(p);
    ASSERT_EQ(at.size(), 2u) << "op " << p.op;
    EXPECT_EQ(at[0].resource, a) << "op " << p.op;
    EXPECT_EQ(at[1].resource, b) << "op " << p.op;
    ++pairs;
  }
  EXPECT_EQ(pairs, 2u);  // op 1 (b then a in use order) and op 2 (a then b)
}

TEST(Invariant7, NoBarrierForReadAfterReadInTheSameLayout) {
  Rec r;
  const ResourceId t = r.texture("shadow", bit(Access::depth_write) | bit(Access::shader_resource), 1, 1,
                                 FormatClass::depth);
  r.rt.all();  // resting: depth_write (depth format)
  const ResourceId s = r.texture("lut", bit(Access::shader_resource));
  const ResourceId b = r.buffer("const");
  CommandList& w = r.list("warm");  // first touch happens here, in an earlier group
  op(w, OpKind::copy, {use(s, Access::copy_dest), use(b, Access::copy_dest)});
  CommandList& l = r.list("l");
  op(l, OpKind::draw, {use(s, Access::shader_resource, kPixel), use(b, Access::constant_buffer, kPixel)});
  op(l, OpKind::dispatch, {use(s, Access::shader_resource, kCompute), use(b, Access::constant_buffer, kCompute)});
  op(l, OpKind::draw, {use(s, Access::shader_resource, kPixel)});
  r.group("g0", {&w});
  r.group("g", {&l});
  (void)t;
  const CompileResult res = r.compile();
  expect_golden("invariant7_read_after_read", r.dump_all(res));
  // The texture rests as shader_resource for every shading stage: no barrier at all in group g for it.
  for (const Barrier& x : res.groups[1].lists[0].barriers) EXPECT_NE(x.resource, s);
}

TEST(Invariant8, SameInputGivesByteIdenticalPlans) {
  auto build = [](Rec& r) {
    const ResourceId t = r.texture("t", kRtSampled, 3, 2);
    const ResourceId u = r.texture("u", bit(Access::unordered_access) | bit(Access::shader_resource));
    CommandList& l = r.list("l");
    op(l, OpKind::draw, {use(t, Access::render_target, kNoStages, mips(1, 2))});
    op(l, OpKind::dispatch, {use(t, Access::shader_resource, kCompute), use(u, Access::unordered_access, kCompute)});
    op(l, OpKind::dispatch, {use(u, Access::unordered_access, kCompute)});
    r.group("g", {&l});
  };
  Rec a, b;
  build(a);
  build(b);
  EXPECT_EQ(a.dump_all(a.compile()), b.dump_all(b.compile()));
}

TEST(Rules, UavAfterUavFromAnotherOperationGetsUavBarrier) {
  Rec r;
  const ResourceId u = r.texture("sim", bit(Access::unordered_access));
  CommandList& l = r.list("l");
  const Use x = use(u, Access::unordered_access, kCompute);
  l.record(OpKind::dispatch, std::span(&x, 1));
  l.record(OpKind::dispatch, std::span(&x, 1));  // the recorder splits: UAV touched again
  ASSERT_EQ(l.ops().size(), 2u);
  r.group("g", {&l});
  const CompileResult res = r.compile();
  expect_golden("rule_uav_order", r.dump_all(res));
  bool found = false;
  for (const Barrier& b : res.groups[0].lists[0].barriers) found |= b.reason == Reason::uav_order;
  EXPECT_TRUE(found);
}

TEST(Rules, TwoDifferentWritesInOneOperationAreAnError) {
  Rec r;
  const ResourceId t = r.texture("t", kRtSampled | bit(Access::unordered_access));
  CommandList& l = r.list("l");
  Operation o;
  o.kind = OpKind::draw;
  o.uses = {use(t, Access::render_target), use(t, Access::unordered_access, kPixel)};
  l.append_operation(o);
  r.group("g", {&l});
  try {
    r.compile();
    FAIL() << "conflicting writes accepted";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("group 'g' list 'l' op 0"), std::string::npos) << m;
    EXPECT_NE(m.find("render_target"), std::string::npos) << m;
    EXPECT_NE(m.find("unordered_access"), std::string::npos) << m;
    EXPECT_EQ(rule_id_of(m), "R0302") << m;
  }
  EXPECT_EQ(l.lifecycle(), CommandList::Lifecycle::closed) << "a failed compile must not mark the list";
}

TEST(Rules, AccessIllegalOnQueueIsAnError) {
  Rec r;
  const ResourceId t = r.texture("t", kRtSampled);
  CommandList& l = r.list("c", Queue::compute);
  op(l, OpKind::draw, {use(t, Access::render_target)});
  r.group("async", {&l}, Queue::compute);
  EXPECT_EQ(rule_id_of(error_of([&] { r.compile(); })), "R0209");
}

TEST(Rules, EntryStateMustBeOnTheFirstUser) {
  Rec r;
  const ResourceId t = r.texture("t", kRtSampled);
  CommandList& a = r.list("a");
  op(a, OpKind::draw, {use(t, Access::render_target)});
  CommandList& b = r.list("b");
  b.declare_entry(t, Access::shader_resource, kPixel);
  op(b, OpKind::draw, {use(t, Access::shader_resource, kPixel)});
  r.group("g", {&a, &b});
  EXPECT_EQ(rule_id_of(error_of([&] { r.compile(); })), "R0402");
}

TEST(Rules, PresentAfterCompositeRestsAtPresent) {
  Rec r;
  const ResourceId sc = r.swapchain("backbuffer");
  CommandList& l = r.list("composite");
  op(l, OpKind::draw, {use(sc, Access::render_target)});
  op(l, OpKind::present, {use(sc, Access::present)});
  CommandList& m = r.list("next_frame");
  op(m, OpKind::draw, {use(sc, Access::render_target)});
  op(m, OpKind::present, {use(sc, Access::present)});
  r.group("frame0", {&l});
  r.group("frame1", {&m});
  const CompileResult res = r.compile();
  expect_golden("rule_present", r.dump_all(res));
  for (const CompiledGroup& g : res.groups)
    for (const CompiledList& cl : g.lists)
      for (const Barrier& x : cl.barriers) EXPECT_NE(x.reason, Reason::restore) << "present is the resting state";
}

}  // namespace
}  // namespace baton::test
