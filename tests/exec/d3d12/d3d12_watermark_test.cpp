// Completion watermark on an ID3D12Fence: frames recycle exactly when their GPU work completed.
#include "d3d12_fixture.hpp"

namespace baton::d3d12::test {
namespace {

// Three frames in flight, no layer: the watermark's own checks (payload landed before recycling,
// nothing held past the first poll that could see it complete).
TEST(D3D12Watermark, LoadTestNeverEarlyNeverHeld) {
  Device device(DeviceOptions{false});
  const WatermarkLoadResult r = watermark_load_test(device, 2000, 3);
  std::cout << "frames " << r.frames << " polls " << r.polls << " max in flight " << r.max_in_flight << " ms " << r.ms
            << " late landings " << r.late_landings << "\n";
  EXPECT_EQ(r.frames, 2000u);
  EXPECT_EQ(r.early, 0u) << r.first_anomaly;
  // A fence underneath that reports completion a moment before the copy's bytes are visible is a
  // defect below Baton (docs/d3d12.md); it is counted, described and bounded, never hidden.
  EXPECT_LE(r.late_landings, r.frames / 100) << r.first_anomaly;
  if (r.late_landings > 0) std::cout << "first anomaly: " << r.first_anomaly << "\n";
  EXPECT_EQ(r.held, 0u);
  EXPECT_EQ(r.max_in_flight, 3u);
}

// Under the layer, one frame in flight: resetting an allocator whose list still executes would be
// reported. (With several frames in flight vkd3d's fence thread waits on several VkFences with
// waitAll = false, and layer 1.3.239 then misses the host synchronisation and reports
// SYNC-HAZARD-WRITE-AFTER-WRITE between frames that the fence did separate: see docs/d3d12.md.)
TEST(D3D12Watermark, LoadTestUnderTheLayerIsClean) {
  const WatermarkLoadResult r = watermark_load_test(shared_device(), 200, 1);
  EXPECT_EQ(r.frames, 200u);
  EXPECT_EQ(r.early, 0u) << r.first_anomaly;
  EXPECT_LE(r.late_landings, 2u) << r.first_anomaly;
  EXPECT_EQ(r.held, 0u);
  EXPECT_TRUE(r.validation.empty()) << r.validation.summary();
}

TEST(D3D12Watermark, PollHandsBackExactlyTheCompletedFrames) {
  FenceWatermark wm(shared_device());
  EXPECT_TRUE(wm.poll().empty());
  wm.signal(1);
  wm.signal(2);
  wm.wait(2);
  EXPECT_EQ(wm.completed(), 2u);
  EXPECT_EQ(wm.poll(), (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(wm.pending(), 0u);
  EXPECT_THROW(wm.signal(2), Error);  // frame numbers increase strictly
}

}  // namespace
}  // namespace baton::d3d12::test
