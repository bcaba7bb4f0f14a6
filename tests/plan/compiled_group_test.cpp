// The flat compiled group (issue 16): CompiledGroup owns every list's barriers and points, list after
// list, and each CompiledList views its part. Copies view their own arrays, moves keep the storage,
// writers (add_list, set_list, barriers_of) keep every other list's part.
#include <memory>

#include "builder.hpp"

namespace baton::test {
namespace {

constexpr Stages kCompute = stages(Stage::compute);

Barrier barrier_of(ResourceId r, Reason why) {
  Barrier b;
  b.resource = r;
  b.reason = why;
  return b;
}

// Every list's views lie inside the group's arrays, list after list, and together cover them.
void expect_views_tile_the_arrays(const CompiledGroup& g) {
  size_t b = 0, p = 0;
  for (size_t li = 0; li < g.lists.size(); ++li) {
    const CompiledList& l = g.lists[li];
    if (!l.barriers.empty()) {
      EXPECT_EQ(l.barriers.data(), g.barriers.data() + b) << "list " << li;
    }
    if (!l.points.empty()) {
      EXPECT_EQ(l.points.data(), g.points.data() + p) << "list " << li;
    }
    EXPECT_EQ(g.barrier_offset(li), b) << "list " << li;
    EXPECT_EQ(g.point_offset(li), p) << "list " << li;
    for (const BarrierPoint& pt : l.points) EXPECT_LE(pt.first + pt.count, l.barriers.size()) << "list " << li;
    b += l.barriers.size();
    p += l.points.size();
  }
  EXPECT_EQ(b, g.barriers.size());
  EXPECT_EQ(p, g.points.size());
}

// Three lists, the middle one with no barriers (a buffer's first touch needs none): compile fills
// the arrays in list order.
TEST(CompiledGroup, CompileWritesListAfterListIntoTheGroupsArrays) {
  Rec r;
  const ResourceId t = r.texture("t", bit(Access::unordered_access) | bit(Access::shader_resource));
  const ResourceId c = r.buffer("c");
  CommandList& x = r.list("x");
  op(x, OpKind::dispatch, {use(t, Access::unordered_access, kCompute)});
  CommandList& quiet = r.list("quiet");
  op(quiet, OpKind::dispatch, {use(c, Access::unordered_access, kCompute)});
  CommandList& y = r.list("y");
  op(y, OpKind::dispatch, {use(t, Access::shader_resource, kCompute)});
  r.group("g", {&x, &quiet, &y});
  const CompileResult res = r.compile();
  const CompiledGroup& g = res.groups[0];
  ASSERT_EQ(g.lists.size(), 3u);
  EXPECT_FALSE(g.lists[0].barriers.empty());
  EXPECT_TRUE(g.lists[1].barriers.empty());
  EXPECT_FALSE(g.lists[2].barriers.empty());  // the hand-off into the read
  EXPECT_EQ(g.barrier_count(), g.barriers.size());
  expect_views_tile_the_arrays(g);
}

// compile() reserves about one barrier per use; a group that needs more reallocates the array after
// earlier lists' views were made, and those views must follow it (relink). Here list "y" writes eight
// single mips of a sixteen-mip texture: eight barriers, then one restore per written mip at its end.
TEST(CompiledGroup, CompileRelinksTheViewsWhenTheArraysOutgrowWhatItReserved) {
  Rec r;
  const ResourceId a = r.texture("a", bit(Access::unordered_access));
  const ResourceId t = r.texture("t", bit(Access::unordered_access), 16);
  CommandList& x = r.list("x");
  op(x, OpKind::dispatch, {use(a, Access::unordered_access, kCompute)});
  CommandList& y = r.list("y");
  for (uint32_t m = 0; m < 16; m += 2) op(y, OpKind::dispatch, {use(t, Access::unordered_access, kCompute, mips(m, 1))});
  r.group("g", {&x, &y});
  const CompileResult res = r.compile();
  const CompiledGroup& g = res.groups[0];
  ASSERT_EQ(g.lists.size(), 2u);
  // More barriers than the 9 uses and 2 lists reserved room for (9 + 2 * 2).
  ASSERT_GT(g.barriers.size(), 13u);
  expect_views_tile_the_arrays(g);
  ASSERT_EQ(g.lists[0].barriers.size(), 1u);
  EXPECT_EQ(g.lists[0].barriers.data(), g.barriers.data());
  EXPECT_EQ(g.lists[0].barriers[0].resource, a);
  EXPECT_EQ(g.lists[1].barriers.data(), g.barriers.data() + 1);
  for (const Barrier& b : g.lists[1].barriers) EXPECT_EQ(b.resource, t);
}

// A copy views its own arrays: it outlives the original and reads what the original held.
TEST(CompiledGroup, ACopyViewsItsOwnArrays) {
  auto original = std::make_unique<CompiledGroup>();
  const Barrier b0 = barrier_of(0, Reason::first_touch), b1 = barrier_of(1, Reason::hand_off);
  original->add_list("x", Queue::direct, std::vector<Barrier>{b0}, std::vector<BarrierPoint>{{0, Where::before, 0, 1}});
  original->add_list("y", Queue::direct, std::vector<Barrier>{b1}, std::vector<BarrierPoint>{{2, Where::after, 0, 1}});
  CompiledGroup copy(*original);
  CompiledGroup assigned;
  assigned = *original;
  original.reset();
  for (const CompiledGroup* g : {&copy, &assigned}) {
    expect_views_tile_the_arrays(*g);
    ASSERT_EQ(g->lists[1].barriers.size(), 1u);
    EXPECT_EQ(g->lists[1].barriers[0].resource, 1u);
    EXPECT_EQ(g->lists[1].barriers[0].reason, Reason::hand_off);
    EXPECT_EQ(g->lists[1].points[0].op, 2u);
  }
}

// A move keeps the arrays' storage, so the moved lists' views stay where they were.
TEST(CompiledGroup, AMoveKeepsTheViews) {
  CompiledGroup g;
  g.add_list("x", Queue::compute, std::vector<Barrier>{barrier_of(4, Reason::state_change)},
             std::vector<BarrierPoint>{{0, Where::before, 0, 1}});
  const Barrier* where = g.lists[0].barriers.data();
  const CompiledGroup moved(std::move(g));
  EXPECT_EQ(moved.lists[0].barriers.data(), where);
  expect_views_tile_the_arrays(moved);
}

// Replacing one list's barriers keeps the others' (before and after it in the arrays).
TEST(CompiledGroup, SetListReplacesOneListOnly) {
  CompiledGroup g;
  for (ResourceId r = 0; r < 3; ++r)
    g.add_list("l" + std::to_string(r), Queue::direct, std::vector<Barrier>{barrier_of(r, Reason::state_change)},
               std::vector<BarrierPoint>{{0, Where::before, 0, 1}});
  g.set_list(1, {barrier_of(7, Reason::restore), barrier_of(8, Reason::restore)}, {{3, Where::after, 0, 2}});
  expect_views_tile_the_arrays(g);
  ASSERT_EQ(g.barriers.size(), 4u);
  EXPECT_EQ(g.lists[0].barriers[0].resource, 0u);
  ASSERT_EQ(g.lists[1].barriers.size(), 2u);
  EXPECT_EQ(g.lists[1].barriers[1].resource, 8u);
  EXPECT_EQ(g.lists[2].barriers[0].resource, 2u);
  g.set_list(1, {}, {});  // an empty list between two others
  expect_views_tile_the_arrays(g);
  EXPECT_EQ(g.barrier_offset(2), 1u);
  EXPECT_TRUE(g.barriers_of(1).empty());
  g.barriers_of(2)[0].resource = 9;  // the writable view is list 2's part of the array
  EXPECT_EQ(g.lists[2].barriers[0].resource, 9u);
}

// clear() keeps the group's list slots made (a list's name keeps its storage for the next compile into
// the group): a list pushed after it is a new, empty one, whatever the slot held; copies, moves and growth
// past the slots made keep every list's name; a group copied after a clear holds only its lists.
TEST(CompiledGroup, AListPushedAfterAClearIsEmptyAndNamesSurviveGrowth) {
  const std::string long_name(100, 'n');
  CompiledGroup g;
  for (ResourceId r = 0; r < 3; ++r)
    g.add_list(long_name + std::to_string(r), Queue::compute, std::vector<Barrier>{barrier_of(r, Reason::state_change)},
               std::vector<BarrierPoint>{{0, Where::before, 0, 1}});
  g.clear();
  EXPECT_TRUE(g.lists.empty());
  EXPECT_TRUE(g.barriers.empty());
  CompiledList& l = g.push_list();
  EXPECT_TRUE(l.name.empty());
  EXPECT_EQ(l.queue, Queue::direct);
  EXPECT_TRUE(l.barriers.empty());
  EXPECT_TRUE(l.points.empty());
  l.name = "first";
  // More lists than the block had slots for: the block grows, the names move with their lists.
  for (int i = 0; i < 40; ++i) g.add_list(long_name + "#" + std::to_string(i), Queue::direct);
  ASSERT_EQ(g.lists.size(), 41u);
  EXPECT_EQ(g.lists[0].name, "first");
  EXPECT_EQ(g.lists[40].name, long_name + "#39");
  const CompiledGroup copy(g);
  ASSERT_EQ(copy.lists.size(), 41u);
  EXPECT_EQ(copy.lists[17].name, long_name + "#16");
  g.clear();
  g.add_list("only", Queue::compute, std::vector<Barrier>{barrier_of(5, Reason::restore)},
             std::vector<BarrierPoint>{{1, Where::after, 0, 1}});
  const CompiledGroup after(g);
  ASSERT_EQ(after.lists.size(), 1u);
  EXPECT_EQ(after.lists[0].name, "only");
  EXPECT_EQ(after.lists[0].queue, Queue::compute);
  expect_views_tile_the_arrays(after);
  const CompiledGroup moved(std::move(g));
  ASSERT_EQ(moved.lists.size(), 1u);
  EXPECT_EQ(moved.lists[0].barriers[0].resource, 5u);
}

// Views that claim more than the arrays hold are refused, not read past the end.
TEST(CompiledGroup, RelinkRefusesViewsPastTheArrays) {
  CompiledGroup g;
  g.add_list("x", Queue::direct, std::vector<Barrier>{barrier_of(0, Reason::state_change)},
             std::vector<BarrierPoint>{{0, Where::before, 0, 1}});
  g.shrink(0, g.point_count());  // the list still claims its one barrier
  EXPECT_THROW(g.relink(), Error);
}

}  // namespace
}  // namespace baton::test
