// Heap blocks of the core planner in steady state (issue 16): compile_all keeps its plan's facts per
// thread and plan()/compile() their working memory, so a frame compiled again takes, per group, only the
// blocks of its result (a CompiledGroup's lists, barriers and points, which share one block since session
// 16 of issue 16; three before). A per-group vector of the
// facts (entry history, hand-ons, discards, retired resources) or a per-group copy in the compiler coming
// back adds blocks per group, which the slope below sees.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "builder.hpp"

#include "../count_heap_blocks.hpp"

namespace baton::test {
namespace {

constexpr AccessMask kRtSampled = bit(Access::render_target) | bit(Access::shader_resource);

// n groups of one list each: list i renders into placed texture t_i (an initializing discard) and samples
// t_{i-1}, which it declares as its entry state (so group i-1 hands t_{i-1} on); every texture dies after
// its last use (a retired resource). Every vector of GroupFacts is filled in every group but the first.
struct Frame {
  Rec r;
  std::vector<CommandListGroup*> ptrs;
  History history;
  explicit Frame(size_t n) {
    std::vector<ResourceId> t;
    for (size_t i = 0; i < n; ++i)
      t.push_back(r.texture("t" + std::to_string(i), kRtSampled, 1, 1, FormatClass::color, /*placed=*/true));
    for (size_t i = 0; i < n; ++i) {
      CommandList& l = r.list("p" + std::to_string(i));
      std::vector<Use> uses{use(t[i], Access::render_target)};
      if (i > 0) {
        l.declare_entry(t[i - 1], Access::shader_resource, stages(Stage::pixel));
        uses.push_back(use(t[i - 1], Access::shader_resource, stages(Stage::pixel)));
      }
      op(l, OpKind::draw, uses);
      r.group("g" + std::to_string(i), {&l});
    }
    ptrs = r.ptrs();
    history = fresh_history(r.rt);
    for (const ResourceId x : t) history[x].dies = true;
  }
};

// Blocks taken by compile_all of an n-group frame, after a compile of another frame of the same shape
// (the per-thread working memory grown to it). The frame is built before the count starts.
uint64_t blocks_per_compile(size_t n) {
  Frame warm(n);
  const CompileResult w = compile_all(warm.r.rt, warm.ptrs, std::move(warm.history));
  EXPECT_EQ(w.groups.size(), n);
  Frame f(n);
  const uint64_t before = heap_blocks();
  const CompileResult res = compile_all(f.r.rt, f.ptrs, std::move(f.history));
  const uint64_t blocks = heap_blocks() - before;
  EXPECT_EQ(res.groups.size(), n);
  // The frame is what the comment above says: a discard in every group, a hand-on in every group but the
  // last (each group's restore goes to the next one's entry state instead).
  size_t discards = 0, hand_ons = 0;
  for (const CompiledGroup& g : res.groups)
    for (const Barrier& b : g.barriers) {
      discards += b.discard ? 1 : 0;
      hand_ons += b.reason == Reason::hand_on ? 1 : 0;
    }
  EXPECT_EQ(discards, n);
  EXPECT_EQ(hand_ons, n - 1);
  return blocks;
}

TEST(PlannerHeapBlocks, AFrameCompiledAgainTakesOnlyItsResultsBlocksPerGroup) {
  const uint64_t b50 = blocks_per_compile(50), b100 = blocks_per_compile(100);
  const double per_group = (static_cast<double>(b100) - static_cast<double>(b50)) / 50.0;
  std::printf("planner heap blocks per compile_all: %llu at 50 groups, %llu at 100 (%.2f per group)\n",
              static_cast<unsigned long long>(b50), static_cast<unsigned long long>(b100), per_group);
  // One per group: the compiled group's one block for its lists, barriers and points (list and group
  // names fit in place).
  EXPECT_LE(per_group, 1.0) << b50 << " blocks at 50 groups, " << b100 << " at 100";
  EXPECT_LE(b100, 100u + 2u) << b50 << " blocks at 50 groups, " << b100 << " at 100";
}

// A group of several lists, each with barriers and points, still takes one block for its whole result:
// compile() reserves the lists, the barriers and the points together, and the points' room (two per
// operation) is never outgrown, so no point moves the barriers to a second block.
TEST(PlannerHeapBlocks, OneGroupOfManyListsTakesOneBlock) {
  Rec r;
  std::vector<ResourceId> t;
  for (size_t i = 0; i < 8; ++i) t.push_back(r.texture("t" + std::to_string(i), kRtSampled));
  std::vector<CommandList*> lists;
  for (size_t i = 0; i < 8; ++i) {
    CommandList& l = r.list("l" + std::to_string(i));
    for (size_t k = 0; k < 4; ++k) {
      op(l, OpKind::draw, {use(t[(i + k) % 8], Access::render_target)});
      op(l, OpKind::draw, {use(t[(i + k + 1) % 8], Access::shader_resource, stages(Stage::pixel))});
    }
    lists.push_back(&l);
  }
  r.group("g", lists);
  const std::vector<CommandListGroup*> ptrs = r.ptrs();
  const std::vector<const CommandListGroup*> cptrs(ptrs.begin(), ptrs.end());
  const Plan p = plan(r.rt, cptrs, fresh_history(r.rt));
  (void)compile(r.rt, *ptrs[0], p.groups[0]);  // the per-thread working memory grown to this group
  const uint64_t before = heap_blocks();
  const CompiledGroup g = compile(r.rt, *ptrs[0], p.groups[0]);
  const uint64_t blocks = heap_blocks() - before;
  ASSERT_EQ(g.lists.size(), 8u);
  EXPECT_GT(g.barriers.size(), 8u);
  EXPECT_GT(g.points.size(), 8u);
  // The list names fit in place: the group's one block is all.
  EXPECT_EQ(blocks, 1u);
}

// compile_all plans into facts kept per thread, and each group's entry history is collected in the storage
// an earlier call left in its facts (no copy). After frames of other shapes (more groups, fewer, none with
// storage for this one's later groups), a frame's plan is still the one of a fresh plan() and compile().
TEST(PlannerHeapBlocks, AFrameCompiledAgainPlansAsAFreshPlan) {
  for (const size_t warm : {size_t{40}, size_t{3}, size_t{12}}) {
    Frame w(warm);
    (void)compile_all(w.r.rt, w.ptrs, std::move(w.history));
    Frame f(20), fresh(20);
    const CompileResult res = compile_all(f.r.rt, f.ptrs, std::move(f.history));
    const std::vector<const CommandListGroup*> cptrs(fresh.ptrs.begin(), fresh.ptrs.end());
    const Plan p = plan(fresh.r.rt, cptrs, fresh.history);
    ASSERT_EQ(res.groups.size(), p.groups.size());
    for (size_t i = 0; i < p.groups.size(); ++i) {
      const CompiledGroup c = compile(fresh.r.rt, *fresh.ptrs[i], p.groups[i]);
      EXPECT_EQ(dump(f.r.rt, *f.ptrs[i], res.groups[i]), dump(fresh.r.rt, *fresh.ptrs[i], c))
          << "group " << i << " after a frame of " << warm << " groups";
    }
  }
}

// compile_all_into compiles group i of a frame into the group the call before left at place i (its block
// reused). Frames of other sizes (more groups, fewer) compiled into one result, on one thread and on two,
// each equal the fresh plan() and compile() of the same frame, and a frame compiled again into its own
// result takes no heap block.
TEST(PlannerHeapBlocks, FramesCompiledIntoOneResultEqualFreshCompiles) {
  CompileResult kept;
  for (const unsigned threads : {1u, 2u}) {
    for (const size_t n : {size_t{12}, size_t{30}, size_t{5}, size_t{30}}) {
      Frame f(n), fresh(n);
      compile_all_into(kept, f.r.rt, f.ptrs, std::move(f.history), threads);
      const std::vector<const CommandListGroup*> cptrs(fresh.ptrs.begin(), fresh.ptrs.end());
      const Plan p = plan(fresh.r.rt, cptrs, fresh.history);
      ASSERT_EQ(kept.groups.size(), n);
      for (size_t i = 0; i < n; ++i) {
        const CompiledGroup c = compile(fresh.r.rt, *fresh.ptrs[i], p.groups[i]);
        EXPECT_EQ(dump(f.r.rt, *f.ptrs[i], kept.groups[i]), dump(fresh.r.rt, *fresh.ptrs[i], c))
            << "group " << i << " of " << n << ", " << threads << " thread(s)";
      }
      EXPECT_EQ(kept.history_out, p.history_out) << n << " groups, " << threads << " thread(s)";
    }
  }
  Frame again(30);  // the same shape as the last frame: every group's block has room
  const uint64_t before = heap_blocks();
  compile_all_into(kept, again.r.rt, again.ptrs, std::move(again.history), 1);
  EXPECT_EQ(heap_blocks() - before, 0u);
}

}  // namespace
}  // namespace baton::test
