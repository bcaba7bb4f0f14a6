// Buffer byte ranges on lavapipe under the Khronos layer (issue 13 item 4): two fills of disjoint
// halves of one buffer with no barrier between them run clean and the data read back is right; fills
// of overlapping ranges get one buffer barrier on the overlap (offset/size), and without it the layer
// reports the write-after-write hazard.
#include <baton/recording.hpp>
#include <filesystem>

#include "exec_fixture.hpp"

namespace baton::exec::test {
namespace {

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new LavapipeEnvironment);

// Barriers before op `op` of the one list, on buffers.
size_t buffer_barriers_at(const ExecPlan& p, uint32_t op) {
  size_t n = 0;
  for (const ExecBarrierPoint& pt : p.points)
    if (pt.op == op && pt.where == Where::before) n += pt.buffers.size();
  return n;
}

TEST(ExecBytes, DisjointFillsWithoutABarrierRunCleanAndRight) {
  Recording rec = load_recording_file((std::filesystem::path(BATON_SOURCE_DIR) / "examples" / "byte_ranges.json").string());
  const ExecPlan plan = baton_plan(rec);
  EXPECT_EQ(buffer_barriers_at(plan, 1), 0u);  // the second fill does not wait for the first
  EXPECT_GE(buffer_barriers_at(plan, 2), 1u);  // the whole-buffer copy waits for both
  const RunReport r = run(lavapipe(), rec, plan);
  EXPECT_TRUE(r.clean()) << summary(r);
  EXPECT_TRUE(r.mismatches.empty()) << summary(r);
  EXPECT_GE(r.subresources_checked, 2u);
}

Recording overlapping() {
  return load_recording(R"({"resources": [{"name": "objects", "type": "buffer", "size": 1024, "usage": ["copy_dest", "copy_source"]},
      {"name": "readback", "type": "buffer", "size": 1024, "usage": ["copy_dest"]}],
    "groups": [{"name": "frame", "queue": "direct", "lists": [{"name": "main", "ops": [
      {"kind": "clear", "uses": [{"resource": "objects", "access": "copy_dest", "bytes": [0, 768]}]},
      {"kind": "clear", "uses": [{"resource": "objects", "access": "copy_dest", "bytes": [512, 512]}]},
      {"kind": "copy", "uses": [{"resource": "objects", "access": "copy_source"}, {"resource": "readback", "access": "copy_dest"}]}]}]}]})");
}

TEST(ExecBytes, OverlappingFillsNeedTheirBarrier) {
  Recording rec = overlapping();
  const ExecPlan plan = baton_plan(rec);
  ASSERT_EQ(buffer_barriers_at(plan, 1), 1u);
  size_t point = 0;
  while (!(plan.points[point].op == 1 && plan.points[point].where == Where::before)) ++point;
  const VkBufferMemoryBarrier2& b = plan.points[point].buffers[0];
  EXPECT_EQ(b.offset, 512u);
  EXPECT_EQ(b.size, 256u);
  const RunReport r = run(lavapipe(), rec, plan);
  EXPECT_TRUE(r.clean()) << summary(r);
  EXPECT_TRUE(r.mismatches.empty()) << summary(r);

  Recording again = overlapping();
  const ExecPlan plan2 = baton_plan(again);
  RunOptions o;
  o.skip = BarrierRef{point, BarrierRef::Kind::buffer, 0};
  const RunReport m = run(lavapipe(), again, plan2, o);
  EXPECT_EQ(m.validation.counts.count("SYNC-HAZARD-WRITE-AFTER-WRITE"), 1u) << summary(m);
}

}  // namespace
}  // namespace baton::exec::test
