// The recorder's merging rules and the immediate-mode front end (issue 2 item 3).
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "baton/plan.hpp"
#include "baton/record.hpp"

namespace baton {
namespace {

struct Fixture {
  ResourceTable rt;
  ResourceId color, depth, uav, buf, swap;
  Fixture() {
    ResourceDesc c;
    c.name = "color";
    c.usage = bit(Access::render_target) | bit(Access::shader_resource);
    color = rt.add(c);
    ResourceDesc d;
    d.name = "depth";
    d.format = FormatClass::depth;
    d.usage = bit(Access::depth_write);
    depth = rt.add(d);
    ResourceDesc u;
    u.name = "uav";
    u.usage = bit(Access::unordered_access);
    uav = rt.add(u);
    ResourceDesc b;
    b.name = "buf";
    b.type = ResourceType::buffer;
    b.size = 256;
    buf = rt.add(b);
    ResourceDesc s;
    s.name = "swap";
    s.swapchain = true;
    s.usage = bit(Access::render_target);
    swap = rt.add(s);
  }
};

using B = ImmediateRecorder::Binding;
constexpr Stages kPixel = stages(Stage::pixel);
constexpr Stages kCompute = stages(Stage::compute);

TEST(Recorder, DrawsToTheSameTargetsMergeAndATargetChangeBreaks) {
  Fixture f;
  CommandList l("main", Queue::direct);
  ImmediateRecorder rec(f.rt);
  rec.begin_list(l);
  const B targets[] = {{f.color, Access::render_target}, {f.depth, Access::depth_write}};
  const B reads[] = {{f.buf, Access::constant_buffer, kPixel}};
  rec.draw(targets, reads);
  rec.draw(targets, reads);
  const B other[] = {{f.swap, Access::render_target}};
  const B sample[] = {{f.color, Access::shader_resource, kPixel}};
  rec.draw(other, sample);
  rec.end_list();
  ASSERT_EQ(l.ops().size(), 2u);
  EXPECT_EQ(l.ops()[0].commands, 2u);
  EXPECT_EQ(l.ops()[1].commands, 1u);
  EXPECT_EQ(l.lifecycle(), CommandList::Lifecycle::closed);
}

TEST(Recorder, AUavTouchedAgainByAnotherCommandStartsANewOperation) {
  Fixture f;
  CommandList l("sim", Queue::compute);
  ImmediateRecorder rec(f.rt);
  rec.begin_list(l);
  const B w[] = {{f.uav, Access::unordered_access, kCompute}};
  const B r[] = {{f.buf, Access::shader_resource, kCompute}};
  rec.dispatch(r);  // reads merge freely
  rec.dispatch(r);
  rec.dispatch(w);  // different resource: still merges
  rec.dispatch(w);  // the same UAV again: new operation (needs a UAV barrier)
  rec.end_list();
  ASSERT_EQ(l.ops().size(), 2u);
  EXPECT_EQ(l.ops()[0].commands, 3u);
  EXPECT_EQ(l.ops()[1].commands, 1u);
}

// Byte ranges (issue 13): UAV writes of disjoint bytes of one buffer merge (no barrier can be needed
// between them); overlapping bytes, or the whole buffer after a range, start a new operation.
TEST(Recorder, UavWritesOfDisjointBytesMerge) {
  Fixture f;
  CommandList l("fill", Queue::compute);
  auto write = [&](uint64_t offset, uint64_t size) {
    Use u{f.buf, Access::unordered_access, kCompute, {}};
    u.range.byte_offset = offset;
    u.range.byte_size = size;
    const Use uses[] = {u};
    return l.record(OpKind::dispatch, uses);
  };
  EXPECT_EQ(write(0, 64), 0u);
  EXPECT_EQ(write(64, 64), 0u);   // disjoint: merges
  EXPECT_EQ(write(96, 64), 1u);   // overlaps the second: new operation
  EXPECT_EQ(write(0, kWholeBytes), 2u);  // the whole buffer overlaps every range
  l.close();
  EXPECT_EQ(l.ops()[0].commands, 2u);
}

TEST(Recorder, AddBarrierForcesABarrierPointAndFullBarrierIsAGlobalBarrier) {
  Fixture f;
  CommandList l("l", Queue::direct);
  ImmediateRecorder rec(f.rt);
  rec.begin_list(l);
  const B r[] = {{f.buf, Access::shader_resource, kCompute}};
  rec.dispatch(r);
  rec.add_barrier();
  rec.dispatch(r);
  rec.full_barrier();
  rec.dispatch(r);
  rec.end_list();
  ASSERT_EQ(l.ops().size(), 3u);
  EXPECT_FALSE(l.ops()[1].full_barrier);
  EXPECT_TRUE(l.ops()[2].full_barrier);
  CommandListGroup g("g", Queue::direct);
  g.add(l);
  CommandListGroup* gs[] = {&g};
  const CompileResult res = compile_all(f.rt, gs, fresh_history(f.rt));
  const CompiledList& cl = res.groups[0].lists[0];
  bool global = false;
  for (const Barrier& b : cl.barriers) global |= b.resource == kGlobalResource && b.reason == Reason::full_barrier;
  EXPECT_TRUE(global);
}

TEST(Recorder, CopyClearAndPresentRecordTheirAccesses) {
  Fixture f;
  CommandList l("l", Queue::direct);
  ImmediateRecorder rec(f.rt);
  rec.begin_list(l);
  rec.clear(f.color);
  rec.copy(f.color, f.uav);
  rec.present(f.swap);
  rec.end_list();
  ASSERT_EQ(l.ops().size(), 3u);
  EXPECT_EQ(l.ops()[0].uses[0].access, Access::render_target);
  EXPECT_EQ(l.ops()[1].uses[0].access, Access::copy_source);
  EXPECT_EQ(l.ops()[1].uses[1].access, Access::copy_dest);
  EXPECT_EQ(l.ops()[2].kind, OpKind::present);
  EXPECT_EQ(l.ops()[2].uses[0].access, Access::present);
}

TEST(Recorder, MisuseIsAnErrorNamingTheList) {
  Fixture f;
  CommandList a("a", Queue::direct), b("b", Queue::direct);
  ImmediateRecorder rec(f.rt);
  EXPECT_THROW(rec.add_barrier(), Error);  // outside begin/end
  rec.begin_list(a);
  try {
    rec.begin_list(b);
    FAIL() << "nested begin_list accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("list 'a' is open"), std::string::npos) << e.what();
  }
  rec.end_list();
  EXPECT_THROW(rec.begin_list(a), Error);  // closed lists do not record again
}

// Uses: a view reads the owner's uses in place; writing through it first makes a vector of its own, so
// the owner's uses never change (a frame graph's ListStore is shared by every list).
TEST(Uses, AViewReadsInPlaceAndCopiesBeforeAWrite) {
  const std::vector<Use> stored = {{1, Access::render_target}, {2, Access::shader_resource, stages(Stage::pixel)}};
  Uses v = Uses::view(stored);
  EXPECT_TRUE(v.is_view());
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v.data(), stored.data());  // no copy
  EXPECT_EQ(v[1].resource, 2u);
  const Uses copy = v;  // a copy of a view views the same uses
  EXPECT_EQ(copy.data(), stored.data());
  v.push_back({3, Access::copy_source});
  EXPECT_FALSE(v.is_view());
  ASSERT_EQ(v.size(), 3u);
  EXPECT_NE(v.data(), stored.data());
  EXPECT_EQ(v[0].resource, 1u);
  EXPECT_EQ(v[2].resource, 3u);
  EXPECT_EQ(stored.size(), 2u);  // the owner's uses are untouched
  EXPECT_EQ(copy.size(), 2u);
}

// append_operation makes the uses of a view the list's own: the list outlives what it was given.
// set_view: a Uses (of its own, or a view) becomes a view of the given uses in place, as assigning
// Uses::view would make it; a write then copies them as for any view.
TEST(Uses, SetViewMakesAViewInPlace) {
  const std::vector<Use> stored = {{1, Access::render_target}, {2, Access::shader_resource, stages(Stage::pixel)}};
  Uses u = {{7, Access::copy_source}};
  u.set_view(std::span<const Use>(stored).subspan(1, 1));
  EXPECT_TRUE(u.is_view());
  ASSERT_EQ(u.size(), 1u);
  EXPECT_EQ(u.data(), stored.data() + 1);
  u.push_back({3, Access::copy_dest});
  EXPECT_FALSE(u.is_view());
  ASSERT_EQ(u.size(), 2u);  // the viewed use and the new one; the earlier own use was dropped
  EXPECT_EQ(u[0].resource, 2u);
  EXPECT_EQ(u[1].resource, 3u);
  EXPECT_EQ(stored[1].resource, 2u);
}

TEST(Uses, AppendOperationOwnsTheUsesOfAView) {
  CommandList l("l", Queue::direct);
  {
    const std::vector<Use> stored = {{1, Access::render_target}};
    Operation op;
    op.kind = OpKind::draw;
    op.uses = Uses::view(stored);
    l.append_operation(op);
  }
  ASSERT_EQ(l.ops().size(), 1u);
  EXPECT_FALSE(l.ops()[0].uses.is_view());
  ASSERT_EQ(l.ops()[0].uses.size(), 1u);
  EXPECT_EQ(l.ops()[0].uses[0].resource, 1u);
}

// The store of the two ListStore tests: two draws, one rendering into color and one sampling it, each
// operation viewing its use in the store's array.
void two_draws(const Fixture& f, ListStore& st) {
  st.uses = {{f.color, Access::render_target}, {f.color, Access::shader_resource, stages(Stage::pixel)}};
  st.ops.resize(2);
  st.ops[0].kind = OpKind::draw;
  st.ops[0].uses = Uses::view(std::span<const Use>(st.uses).subspan(0, 1));
  st.ops[1].kind = OpKind::draw;
  st.ops[1].uses = Uses::view(std::span<const Use>(st.uses).subspan(1, 1));
}

// A list over a ListStore's arrays: closed, viewing the operations and entry states where they are, and
// compiled like a recorded list; a resource declared twice is refused as declare_entry refuses it.
TEST(ListStore, ListsViewTheArraysAndCompileLikeRecordedLists) {
  Fixture f;
  ListStore st;
  two_draws(f, st);
  st.lists.reserve(1);
  st.lists.emplace_back("l", Queue::direct, std::span<const Operation>(st.ops), std::span<const EntryState>());
  CommandList& viewed = st.lists.back();
  EXPECT_EQ(viewed.lifecycle(), CommandList::Lifecycle::closed);
  EXPECT_EQ(viewed.ops().data(), st.ops.data());
  EXPECT_EQ(viewed.ops()[1].uses.data(), st.uses.data() + 1);
  CommandListGroup g("g", Queue::direct);
  g.add(viewed);

  CommandList recorded("l", Queue::direct);
  recorded.record(OpKind::draw, std::vector<Use>{st.uses[0]});
  recorded.request_break();
  recorded.record(OpKind::draw, std::vector<Use>{st.uses[1]});
  recorded.close();
  CommandListGroup h("g", Queue::direct);
  h.add(recorded);
  const std::vector<CommandListGroup*> a = {&g}, b = {&h};
  const CompileResult ra = compile_all(f.rt, a, fresh_history(f.rt));
  const CompileResult rb = compile_all(f.rt, b, fresh_history(f.rt));
  EXPECT_EQ(viewed.lifecycle(), CommandList::Lifecycle::compiled);
  EXPECT_EQ(dump(f.rt, g, ra.groups[0]), dump(f.rt, h, rb.groups[0]));
  EXPECT_GT(ra.groups[0].barrier_count(), 0u);

  const std::vector<EntryState> twice = {{f.color, Access::render_target}, {f.uav, Access::unordered_access},
                                         {f.color, Access::shader_resource, stages(Stage::pixel)}};
  EXPECT_THROW(CommandList("bad", Queue::direct, std::span<const Operation>(st.ops), twice), Error);
  const std::vector<EntryState> out_of_order = {{f.uav, Access::unordered_access}, {f.color, Access::render_target}};
  EXPECT_NO_THROW(CommandList("fine", Queue::direct, std::span<const Operation>(st.ops), out_of_order));
}

// ListStore::add_list: the list it makes is closed, on its group's queue and in that group already (so it
// cannot join another), named from a view, and compiles like the same list added with add(); it refuses
// a full `lists` (growing it would move lists that groups point to) and a resource declared twice.
TEST(ListStore, AddListMakesAClosedListInItsGroup) {
  Fixture f;
  ListStore st;
  two_draws(f, st);
  st.entries = {{f.color, Access::render_target}};
  CommandListGroup g("g", Queue::direct);
  EXPECT_THROW(st.add_list(g, "l", st.ops, {}), Error);  // not reserved: no room
  EXPECT_TRUE(g.lists().empty());
  st.lists.reserve(2);
  const std::string name = "a list name longer than a short string's buffer";
  CommandList& l = st.add_list(g, std::string_view(name), st.ops, st.entries);
  EXPECT_EQ(l.name(), name);
  EXPECT_EQ(l.queue(), Queue::direct);
  EXPECT_EQ(l.lifecycle(), CommandList::Lifecycle::closed);
  EXPECT_EQ(l.group(), &g);
  ASSERT_EQ(g.lists().size(), 1u);
  EXPECT_EQ(g.lists()[0], &l);
  EXPECT_EQ(l.ops().data(), st.ops.data());
  EXPECT_EQ(l.entry_states().data(), st.entries.data());
  CommandListGroup other("other", Queue::direct);
  EXPECT_THROW(other.add(l), Error);  // a list belongs to exactly one group

  ListStore ref;
  ref.lists.reserve(1);
  ref.lists.emplace_back(name, Queue::direct, std::span<const Operation>(st.ops),
                         std::span<const EntryState>(st.entries));
  CommandListGroup h("g", Queue::direct);
  h.add(ref.lists.back());
  const std::vector<CommandListGroup*> a = {&g}, b = {&h};
  const CompileResult ra = compile_all(f.rt, a, fresh_history(f.rt));
  const CompileResult rb = compile_all(f.rt, b, fresh_history(f.rt));
  EXPECT_EQ(dump(f.rt, g, ra.groups[0]), dump(f.rt, h, rb.groups[0]));

  const std::vector<EntryState> twice = {{f.color, Access::render_target}, {f.color, Access::copy_source}};
  CommandListGroup k("k", Queue::direct);
  EXPECT_THROW(st.add_list(k, "bad", st.ops, twice), Error);
}

// ListStore::add_group and the names: a store's groups view their parts of one array of list pointers
// (`list_ptrs`, group after group) and its lists' names one array of characters (`names`), so neither a
// group nor a name takes a heap block; a name that does not fit the room reserved is kept by its list. The
// store refuses a group it has no room for, and a list for a group that is not the last one made (its
// lists would not follow one another). A move of the store and of a GroupList viewing its groups keeps
// every view valid; add() to a store's group copies its list pointers first.
TEST(ListStore, GroupsViewOneArrayOfListPointersAndListsOneArrayOfNames) {
  Fixture f;
  ListStore st;
  two_draws(f, st);
  EXPECT_THROW(st.add_group("g", Queue::direct), Error);  // nothing reserved
  st.reserve_lists(4, 4);
  EXPECT_THROW(st.add_group("g", Queue::direct), Error);  // no room for a group
  st.groups.reserve(2);
  const std::span<const Operation> ops(st.ops);
  CommandListGroup& g1 = st.add_group("g1", Queue::direct);
  CommandList& a = st.add_list(g1, "ab", ops.subspan(0, 1), {});
  CommandList& b = st.add_list(g1, "cd", ops.subspan(1, 1), {});
  ASSERT_EQ(g1.lists().size(), 2u);
  EXPECT_EQ(g1.lists().data(), st.list_ptrs.data());
  EXPECT_EQ(g1.lists()[0], &a);
  EXPECT_EQ(g1.lists()[1], &b);
  EXPECT_EQ(a.name(), "ab");
  EXPECT_EQ(b.name(), "cd");
  EXPECT_EQ(a.name().data(), st.names.data());
  EXPECT_EQ(b.name().data(), st.names.data() + 2);
  EXPECT_EQ(a.group(), &g1);
  CommandListGroup& g2 = st.add_group("g2", Queue::direct);
  const std::string long_name = "a name that does not fit the names reserved";
  CommandList& c = st.add_list(g2, long_name, ops.subspan(0, 1), {});
  EXPECT_EQ(c.name(), long_name);
  EXPECT_TRUE(c.name().data() < st.names.data() || c.name().data() >= st.names.data() + st.names.capacity());
  EXPECT_EQ(g2.lists().data(), st.list_ptrs.data() + 2);
  EXPECT_THROW(st.add_group("g3", Queue::direct), Error);  // the groups are full
  EXPECT_THROW(st.add_list(g1, "e", ops.subspan(0, 1), {}), Error);  // g1 is not the last group
  EXPECT_EQ(st.lists.size(), 3u);
  EXPECT_EQ(g1.lists().size(), 2u);

  GroupList groups;
  groups.add_view(g1);
  groups.add_view(g2);
  ListStore moved = std::move(st);
  GroupList moved_groups = std::move(groups);
  ASSERT_EQ(moved_groups.size(), 2u);
  EXPECT_EQ(moved_groups[0], &moved.groups[0]);
  EXPECT_EQ(moved_groups[0]->lists()[1]->name(), "cd");
  EXPECT_EQ(moved_groups[1]->lists()[0]->name(), long_name);
  EXPECT_EQ(moved_groups[1]->lists()[0]->group(), moved_groups[1]);
  const CompileResult r = compile_all(f.rt, moved_groups.span(), fresh_history(f.rt));
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_EQ(r.groups[0].lists.size(), 2u);
  EXPECT_EQ(r.groups[0].lists[1].name, "cd");

  // add() to a store's group: its pointers become its own, the store's array is not written.
  CommandList extra("extra", Queue::direct);
  extra.close();
  moved.groups[1].add(extra);
  ASSERT_EQ(moved.groups[1].lists().size(), 2u);
  EXPECT_EQ(moved.groups[1].lists()[0], &moved.lists[2]);
  EXPECT_EQ(moved.groups[1].lists()[1], &extra);
  EXPECT_NE(moved.groups[1].lists().data(), moved.list_ptrs.data() + 2);
  EXPECT_EQ(moved.list_ptrs.size(), 3u);
}

// A list keeps its name through a move (ListStore's array of lists moves them before they join a group):
// a short name lives in the moved-to list's own string, not in the moved-from one.
TEST(CommandList, AMovedListKeepsItsName) {
  std::vector<CommandList> lists;
  lists.emplace_back("short", Queue::direct);
  lists.emplace_back("a name longer than a short string's buffer", Queue::compute);
  lists.reserve(lists.capacity() + 1);  // moves both
  EXPECT_EQ(lists[0].name(), "short");
  EXPECT_EQ(lists[1].name(), "a name longer than a short string's buffer");
  const auto* bytes = reinterpret_cast<const char*>(&lists[0]);
  EXPECT_TRUE(lists[0].name().data() >= bytes && lists[0].name().data() < bytes + sizeof(CommandList));
}

// A move (construction and assignment) keeps everything a list has: a name of its own (short: inside the
// string object, so the view must follow the move; long: on the heap) or a view of a store's names, and its
// recorded operations, uses and entry states, or the store's it views. A moved-from list's name is empty.
TEST(CommandList, AMoveKeepsNameOperationsUsesAndEntryStates) {
  Fixture f;
  CommandList rec("rec", Queue::direct);
  rec.declare_entry(f.uav, Access::unordered_access);
  rec.record(OpKind::draw, std::vector<Use>{{f.color, Access::render_target}});
  rec.request_break();
  rec.record(OpKind::dispatch, std::vector<Use>{{f.uav, Access::unordered_access, stages(Stage::compute)},
                                                {f.buf, Access::copy_source}});
  const Operation* const ops_at = rec.ops().data();
  CommandList moved(std::move(rec));
  EXPECT_EQ(moved.name(), "rec");
  const auto* bytes = reinterpret_cast<const char*>(&moved);
  EXPECT_TRUE(moved.name().data() >= bytes && moved.name().data() < bytes + sizeof(CommandList));  // its own string
  EXPECT_EQ(rec.name(), "");
  ASSERT_EQ(moved.ops().size(), 2u);
  EXPECT_EQ(moved.ops().data(), ops_at);  // the vector's storage moved with it
  EXPECT_EQ(moved.ops()[0].uses.size(), 1u);
  ASSERT_EQ(moved.ops()[1].uses.size(), 2u);
  EXPECT_EQ(moved.ops()[1].uses[1].resource, f.buf);
  ASSERT_EQ(moved.entry_states().size(), 1u);
  EXPECT_EQ(moved.entry_states()[0].resource, f.uav);
  moved.close();
  EXPECT_EQ(moved.lifecycle(), CommandList::Lifecycle::closed);

  CommandList assigned("another name, long enough to live on the heap", Queue::compute);
  assigned = std::move(moved);
  EXPECT_EQ(assigned.name(), "rec");
  EXPECT_FALSE(assigned.name().data() >= bytes && assigned.name().data() < bytes + sizeof(CommandList));  // not in `moved`
  EXPECT_EQ(assigned.queue(), Queue::direct);
  ASSERT_EQ(assigned.ops().size(), 2u);
  EXPECT_EQ(assigned.ops()[1].uses[0].resource, f.uav);
  EXPECT_EQ(assigned.entry_states().size(), 1u);
  EXPECT_EQ(assigned.lifecycle(), CommandList::Lifecycle::closed);

  // A store's list: its name views the store's names, its operations and entry states the store's arrays.
  ListStore st;
  two_draws(f, st);
  st.entries = {{f.color, Access::render_target}};
  st.reserve_lists(2, 8);
  st.groups.reserve(1);
  CommandListGroup& g = st.add_group("g", Queue::direct);
  CommandList& l = st.add_list(g, "viewed", st.ops, st.entries);
  EXPECT_EQ(l.name().data(), st.names.data());
  CommandList from_store(std::move(l));
  EXPECT_EQ(from_store.name(), "viewed");
  EXPECT_EQ(from_store.name().data(), st.names.data());  // still a view of the store's names
  EXPECT_EQ(from_store.ops().data(), st.ops.data());
  EXPECT_EQ(from_store.ops()[1].uses.data(), st.uses.data() + 1);
  EXPECT_EQ(from_store.entry_states().data(), st.entries.data());
  EXPECT_EQ(from_store.group(), &g);
  CommandList named("x", Queue::direct);
  named = std::move(from_store);
  EXPECT_EQ(named.name().data(), st.names.data());
  EXPECT_EQ(named.ops().size(), 2u);

  // A name of its own longer than the names' room: kept by the list, and moved with it.
  CommandList& own = st.add_list(g, "a name longer than the room reserved", st.ops, {});
  CommandList own_moved(std::move(own));
  EXPECT_EQ(own_moved.name(), "a name longer than the room reserved");
  EXPECT_TRUE(own_moved.name().data() < st.names.data() || own_moved.name().data() >= st.names.data() + 8);
}

// A group made by hand keeps its list pointers in a vector of its own (VecOrView<CommandList*>); a move
// keeps them.
TEST(CommandListGroup, AMoveKeepsItsLists) {
  CommandList a("a", Queue::compute), b("b", Queue::compute);
  a.close();
  b.close();
  CommandListGroup g("g", Queue::compute);
  g.add(a);
  g.add(b);
  CommandListGroup moved(std::move(g));
  ASSERT_EQ(moved.lists().size(), 2u);
  EXPECT_EQ(moved.lists()[0], &a);
  EXPECT_EQ(moved.lists()[1], &b);
  EXPECT_EQ(moved.name(), "g");
}

// A GroupList owns the groups pushed to it and only points to those added as views; both read alike.
TEST(GroupList, OwnsPushedGroupsAndPointsToViews) {
  CommandListGroup kept("kept", Queue::compute);
  GroupList gl;
  gl.push_back(std::make_unique<CommandListGroup>("owned", Queue::direct));
  gl.add_view(kept);
  ASSERT_EQ(gl.size(), 2u);
  EXPECT_EQ(gl.front()->name(), "owned");
  EXPECT_EQ(gl.back(), &kept);
  EXPECT_EQ(gl.at(1)->queue(), Queue::compute);
  EXPECT_THROW((void)gl.at(2), std::out_of_range);
  std::vector<std::string> names;
  for (const CommandListGroup* g : gl) names.push_back(g->name());
  EXPECT_EQ(names, (std::vector<std::string>{"owned", "kept"}));
  EXPECT_EQ(gl.span().size(), 2u);
  GroupList moved = std::move(gl);
  EXPECT_EQ(moved[0]->name(), "owned");
  EXPECT_EQ(moved[1], &kept);
}

}  // namespace
}  // namespace baton
