// Split barriers (issue 17): mark_split_barriers begins a barrier right after the producer's last
// access on the same list and ends it before the consumer when independent work lies between.
#include "builder.hpp"

namespace baton::test {
namespace {

constexpr Stages kCompute = stages(Stage::compute);

std::vector<const Barrier*> barriers_on(const CompiledGroup& g, ResourceId r, uint32_t op) {
  std::vector<const Barrier*> out;
  for (const CompiledList& l : g.lists)
    for (const BarrierPoint& p : l.points)
      if (p.op == op && p.where == Where::before)
        for (const Barrier& b : l.barriers_at(p))
          if (b.resource == r) out.push_back(&b);
  return out;
}

TEST(SplitBarriers, BeginAfterTheProducerEndBeforeTheConsumerWithWorkBetween) {
  Rec r;
  const ResourceId a = r.buffer("a"), b = r.buffer("b");
  const ResourceId t = r.texture("t", bit(Access::unordered_access) | bit(Access::shader_resource));
  CommandList& l = r.list("main");
  op(l, OpKind::dispatch,
     {use(a, Access::unordered_access, kCompute), use(t, Access::unordered_access, kCompute)});
  op(l, OpKind::dispatch, {use(b, Access::unordered_access, kCompute)});
  op(l, OpKind::dispatch,
     {use(a, Access::shader_resource, kCompute), use(t, Access::shader_resource, kCompute)});
  r.group("frame", {&l});
  CompileResult res = r.compile();
  const std::string whole = r.dump_all(res);
  EXPECT_EQ(mark_split_barriers(*r.groups[0], res.groups[0]), 2u);
  ASSERT_EQ(barriers_on(res.groups[0], a, 2).size(), 1u);
  EXPECT_EQ(barriers_on(res.groups[0], a, 2)[0]->split_after, 0u);
  ASSERT_EQ(barriers_on(res.groups[0], t, 2).size(), 1u);
  EXPECT_EQ(barriers_on(res.groups[0], t, 2)[0]->split_after, 0u);
  EXPECT_NE(r.dump_all(res), whole);
  expect_golden("rule_split_barrier", r.dump_all(res));
}

TEST(SplitBarriers, AdjacentProducerAndConsumerStayWhole) {
  Rec r;
  const ResourceId a = r.buffer("a");
  CommandList& l = r.list("main");
  op(l, OpKind::dispatch, {use(a, Access::unordered_access, kCompute)});
  op(l, OpKind::dispatch, {use(a, Access::shader_resource, kCompute)});
  r.group("frame", {&l});
  CompileResult res = r.compile();
  EXPECT_EQ(mark_split_barriers(*r.groups[0], res.groups[0]), 0u);
  ASSERT_EQ(barriers_on(res.groups[0], a, 1).size(), 1u);
  EXPECT_FALSE(barriers_on(res.groups[0], a, 1)[0]->split());
}

// The last access is the latest touch, not the first write: a read between moves the begin.
TEST(SplitBarriers, BeginsAfterTheLatestTouchOfTheResource) {
  Rec r;
  const ResourceId a = r.buffer("a"), b = r.buffer("b");
  CommandList& l = r.list("main");
  op(l, OpKind::dispatch, {use(a, Access::unordered_access, kCompute)});
  op(l, OpKind::dispatch, {use(a, Access::shader_resource, kCompute)});
  op(l, OpKind::dispatch, {use(b, Access::unordered_access, kCompute)});
  op(l, OpKind::dispatch, {use(a, Access::unordered_access, kCompute)});
  r.group("frame", {&l});
  CompileResult res = r.compile();
  EXPECT_EQ(mark_split_barriers(*r.groups[0], res.groups[0]), 1u);
  ASSERT_EQ(barriers_on(res.groups[0], a, 3).size(), 1u);
  EXPECT_EQ(barriers_on(res.groups[0], a, 3)[0]->split_after, 1u);
  EXPECT_EQ(split_reason(res.groups[0], 0, *barriers_on(res.groups[0], a, 3)[0], 3),
            "split: begins after op 1, op 2 between does not touch it");
}

// A hand-off from an earlier list of the group begins on that list, after the producer.
TEST(SplitBarriers, HandOffBeginsOnTheProducersList) {
  Rec r;
  const ResourceId a = r.buffer("a"), b = r.buffer("b"), c = r.buffer("c");
  CommandList& l1 = r.list("producer");
  op(l1, OpKind::dispatch, {use(a, Access::unordered_access, kCompute)});
  CommandList& l2 = r.list("consumer");
  op(l2, OpKind::dispatch, {use(b, Access::unordered_access, kCompute)});
  op(l2, OpKind::dispatch, {use(b, Access::shader_resource, kCompute)});
  op(l2, OpKind::dispatch,
     {use(a, Access::shader_resource, kCompute), use(c, Access::unordered_access, kCompute)});
  r.group("frame", {&l1, &l2});
  CompileResult res = r.compile();
  EXPECT_EQ(mark_split_barriers(*r.groups[0], res.groups[0]), 1u);
  ASSERT_EQ(barriers_on(res.groups[0], a, 2).size(), 1u);
  const Barrier& h = *barriers_on(res.groups[0], a, 2)[0];
  EXPECT_EQ(h.reason, Reason::hand_off);
  EXPECT_EQ(h.split_list, 0u);
  EXPECT_EQ(h.split_after, 0u);
  EXPECT_EQ(split_reason(res.groups[0], 1, h, 2),
            "split: begins after op 0 of list 'producer', the work between does not touch it");
  // b's barrier at op 1 follows its producer directly: whole.
  ASSERT_EQ(barriers_on(res.groups[0], b, 1).size(), 1u);
  EXPECT_FALSE(barriers_on(res.groups[0], b, 1)[0]->split());
}

// A before side from outside the group (from rest) has no producer in the group to begin after.
TEST(SplitBarriers, FromRestStaysWhole) {
  Rec r;
  const ResourceId t = r.texture("t", bit(Access::unordered_access) | bit(Access::shader_resource));
  const ResourceId b = r.buffer("b");
  CommandList& l1 = r.list("first");
  op(l1, OpKind::dispatch, {use(t, Access::unordered_access, kCompute)});
  r.group("one", {&l1});
  CommandList& l2 = r.list("second");
  op(l2, OpKind::dispatch, {use(b, Access::unordered_access, kCompute)});
  op(l2, OpKind::dispatch, {use(t, Access::unordered_access, kCompute)});
  r.group("two", {&l2});
  CompileResult res = r.compile();
  EXPECT_EQ(mark_split_barriers(*r.groups[1], res.groups[1]), 0u);
  ASSERT_EQ(barriers_on(res.groups[1], t, 1).size(), 1u);
  EXPECT_EQ(barriers_on(res.groups[1], t, 1)[0]->reason, Reason::from_rest);
}

// Transition operations (no work) between the halves are not independent work.
TEST(SplitBarriers, OnlyTransitionOperationsBetweenStayWhole) {
  Rec r;
  const ResourceId a = r.buffer("a"), b = r.buffer("b");
  CommandList& l = r.list("main");
  op(l, OpKind::dispatch, {use(a, Access::unordered_access, kCompute)});
  op(l, OpKind::transition, {use(b, Access::shader_resource, kCompute)});
  op(l, OpKind::dispatch, {use(a, Access::shader_resource, kCompute)});
  r.group("frame", {&l});
  CompileResult res = r.compile();
  EXPECT_EQ(mark_split_barriers(*r.groups[0], res.groups[0]), 0u);
}

}  // namespace
}  // namespace baton::test
