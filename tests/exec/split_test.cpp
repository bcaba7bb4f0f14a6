// Split barriers on lavapipe under the Khronos layer (issue 17): plans with Vulkan events
// (vkCmdSetEvent2 after the producer, vkCmdWaitEvents2 before the consumer) run with zero messages
// and correct data, and leaving a wait out is a hazard the layer sees.
#include <cstdlib>

#include "baton/recording.hpp"
#include "exec_fixture.hpp"
#include "random_exec_recording.hpp"

namespace baton::exec::test {
namespace {

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new LavapipeEnvironment);

// Compiles with split barriers on and lowers to Vulkan.
ExecPlan split_plan(const Recording& rec) {
  CompileResult cr = compile_all(rec.resources, rec.group_ptrs(), fresh_history(rec.resources));
  mark_split_barriers(rec.group_ptrs(), cr.groups);
  return to_exec_plan(lower_vulkan(rec.resources, cr.groups));
}

std::vector<size_t> points_of(const ExecPlan& p, SplitHalf h) {
  std::vector<size_t> out;
  for (size_t i = 0; i < p.points.size(); ++i)
    if (p.points[i].half == h) out.push_back(i);
  return out;
}

Recording split_example() {
  const char* dir = std::getenv("BATON_EXAMPLES_DIR");  // the GPU machine runs from another tree
  return load_recording_file(std::string(dir ? dir : BATON_SOURCE_DIR "/examples") + "/split.json");
}

TEST(SplitBarriers, ExampleRunsCleanAndCorrectWithEvents) {
  Recording rec = split_example();
  const ExecPlan plan = split_plan(rec);
  EXPECT_EQ(points_of(plan, SplitHalf::begin).size(), 2u);
  EXPECT_EQ(points_of(plan, SplitHalf::end).size(), 2u);
  const RunReport r = run(lavapipe(), rec, plan);
  EXPECT_TRUE(r.clean()) << summary(r);
  EXPECT_GT(r.subresources_checked, 0u);
}

// Mutation: each wait left out (its event still set) makes the consumer race the producer.
TEST(SplitBarriers, DroppedWaitIsAHazardTheLayerSees) {
  Recording rec = split_example();
  const ExecPlan plan = split_plan(rec);
  const std::vector<size_t> ends = points_of(plan, SplitHalf::end);
  ASSERT_FALSE(ends.empty());
  for (size_t end : ends) {
    Recording again = split_example();
    RunOptions o;
    o.skip_wait = end;
    const RunReport r = run(lavapipe(), again, plan, o);
    EXPECT_GT(r.validation.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 0u) << "wait at point " << end << "\n"
                                                                             << summary(r);
  }
}

// Random recordings with splits on: every plan clean and correct, and the splits exercised.
TEST(SplitBarriers, RandomRecordingsRunCleanWithEvents) {
  uint32_t splits = 0, failures = 0;
  for (uint32_t seed = 0; seed < 60; ++seed) {
    Recording rec = random_exec_recording(seed);
    const ExecPlan plan = split_plan(rec);
    splits += static_cast<uint32_t>(points_of(plan, SplitHalf::end).size());
    const RunReport r = run(lavapipe(), rec, plan);
    if (!r.clean()) {
      ++failures;
      ADD_FAILURE() << "seed " << seed << ":\n" << summary(r) << dump(rec);
    }
  }
  std::printf("random recordings with split barriers: %u end halves, %u failing\n", splits, failures);
  EXPECT_GT(splits, 10u);
  EXPECT_EQ(failures, 0u);
}

}  // namespace
}  // namespace baton::exec::test
