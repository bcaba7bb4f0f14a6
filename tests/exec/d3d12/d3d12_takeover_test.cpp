// A resource taking over memory gets a legacy aliasing barrier naming the one previous occupant
// (pResourceBefore), and the plan with them runs clean through vkd3d with correct data.
#include <algorithm>

#include "d3d12_fixture.hpp"

namespace baton::d3d12::test {
namespace {

// a (placed render target) is cleared and copied out; the buffer x then takes over a's memory, is
// cleared and copied out; the placed texture b then takes over x's memory.
constexpr const char* kTakeover = R"({
  "resources": [
    {"name": "a", "type": "texture", "width": 64, "height": 64, "placed": true, "usage": ["render_target", "copy_source"]},
    {"name": "x", "type": "buffer", "size": 16384, "usage": ["copy_dest", "copy_source"]},
    {"name": "b", "type": "texture", "width": 64, "height": 64, "placed": true, "usage": ["render_target", "copy_source"]},
    {"name": "out_a", "type": "texture", "width": 64, "height": 64, "usage": ["copy_dest", "copy_source"]},
    {"name": "out_x", "type": "buffer", "size": 16384, "usage": ["copy_dest"]},
    {"name": "out_b", "type": "texture", "width": 64, "height": 64, "usage": ["copy_dest", "copy_source"]}
  ],
  "groups": [{"name": "frame", "queue": "direct", "lists": [{"name": "l", "ops": [
    {"kind": "clear", "uses": [{"resource": "a", "access": "render_target"}]},
    {"kind": "copy", "uses": [{"resource": "a", "access": "copy_source"}, {"resource": "out_a", "access": "copy_dest"}]},
    {"kind": "clear", "uses": [{"resource": "x", "access": "copy_dest"}]},
    {"kind": "copy", "uses": [{"resource": "x", "access": "copy_source"}, {"resource": "out_x", "access": "copy_dest"}]},
    {"kind": "clear", "uses": [{"resource": "b", "access": "render_target"}]},
    {"kind": "copy", "uses": [{"resource": "b", "access": "copy_source"}, {"resource": "out_b", "access": "copy_dest"}]}
  ]}]}]
})";

TEST(D3D12Takeover, AliasingBarriersNameThePreviousOccupantAndRunClean) {
  const Recording rec = load_recording(kTakeover, "takeover");
  const ResourceId a = 0, x = 1, b = 2;
  History h = fresh_history(rec.resources);
  h[x].takeover = Takeover{sync::copy, bit(Access::copy_source), a};
  h[b].takeover = Takeover{sync::copy, bit(Access::copy_source), x};
  for (ResourceId r : {a, x, b}) h[r].dies = true;
  const CompileResult c = compile_all(rec.resources, rec.group_ptrs(), h);
  const PlainPlan plan = legacy_plan(rec.resources, c.groups);
  std::vector<std::pair<ResourceId, ResourceId>> aliasing;  // (pResourceBefore, pResourceAfter)
  for (const PlainGroup& g : plan.groups)
    for (const PlainList& l : g.lists)
      for (const PlainPoint& p : l.points)
        for (const PlainBarrier& pb : p.barriers)
          if (pb.kind == BarrierKind::aliasing) aliasing.push_back({pb.previous, pb.resource});
  const std::vector<std::pair<ResourceId, ResourceId>> want = {{kGlobalResource, a}, {a, x}, {x, b}};
  EXPECT_EQ(aliasing, want);
  const D3D12RunResult r = run(shared_device(), rec, plan);
  EXPECT_TRUE(r.clean()) << describe(r);
  EXPECT_EQ(r.barriers, plan.barrier_count());
  EXPECT_EQ(r.discards, 2u) << "the placed textures' initializing discards";
  EXPECT_GT(r.subresources_checked, 0u) << describe(r);
}

}  // namespace
}  // namespace baton::d3d12::test
