// Recordings that this path can run execute through vkd3d with Baton's legacy barriers: zero
// validation messages with the canary live, and the data every operation produced.
#include <algorithm>

#include "d3d12_fixture.hpp"

namespace baton::d3d12::test {
namespace {

constexpr const char* kCopyFrame = "examples/copy_frame.json";

// "group/list/op N where: resource sub S BEFORE -> AFTER" for barrier k of the plan.
std::string describe_barrier(const Recording& rec, const PlainPlan& plan, size_t k) {
  for (const PlainGroup& g : plan.groups)
    for (const PlainList& l : g.lists)
      for (const PlainPoint& p : l.points)
        for (const PlainBarrier& b : p.barriers)
          if (k-- == 0)
            return b.kind == BarrierKind::aliasing
                       ? g.name + "/" + l.name + "/op " + std::to_string(p.op) + " aliasing barrier (" +
                             (b.previous == kGlobalResource ? std::string("NULL")
                                                            : rec.resources[b.previous].name) +
                             " -> " + rec.resources[b.resource].name + ")"
                       : g.name + "/" + l.name + "/op " + std::to_string(p.op) + " " +
                             std::string(to_string(p.where)) + ": " +
                             (b.resource == kGlobalResource ? std::string("(global)")
                                                            : rec.resources[b.resource].name) +
                             " sub " + std::to_string(b.subresource) + " " + state_name(b.before) + " -> " +
                             state_name(b.after);
  return "?";
}

// A graph's plan starts its non-transient resources at rest: their resting state's legacy state on
// every subresource; untouched resources (transients, recordings) start in COMMON (no entry).
TEST(D3D12Run, RestingStatesAreTheLegacyStatesOfTheRestOfWhatStartsAtRest) {
  ResourceTable t;
  ResourceDesc tex;
  tex.name = "history";
  tex.type = ResourceType::texture;
  tex.mips = 3;
  tex.usage = bit(Access::copy_dest) | bit(Access::shader_resource);
  ResourceDesc scratch = tex;
  scratch.name = "scratch";
  const ResourceId a = t.add(tex);
  const ResourceId b = t.add(scratch);
  History h = fresh_history(t);
  h[a].touched = true;
  const LegacyStates s = resting_states(t, h);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[a], std::vector<uint32_t>(3, state::pixel_shader_resource | state::non_pixel_shader_resource));
  EXPECT_TRUE(s[b].empty());
  EXPECT_EQ(legacy_plan(t, {}, &s).initial_states, s);
  EXPECT_TRUE(legacy_plan(t, {}).initial_states.empty());
}

TEST(D3D12Oracle, CanaryReportsTheMissingBarrier) {
  const CanaryResult c = run_canary(shared_device());
  EXPECT_TRUE(c.live) << c.log.summary();
  EXPECT_EQ(c.log.counts.count("SYNC-HAZARD-READ-AFTER-WRITE"), 1u) << c.log.summary();
}

TEST(D3D12Run, CopyFrameRunsCleanWithCorrectData) {
  const Recording rec = load(kCopyFrame);
  const PlainPlan plan = compile_plan(rec);
  const D3D12RunResult r = run(shared_device(), rec, plan);
  EXPECT_TRUE(r.clean()) << describe(r);
  EXPECT_EQ(r.groups, 4u);
  EXPECT_EQ(r.discards, 1u) << "the placed gbuffer's initializing discard";
  EXPECT_GE(r.subresources_checked, 13u) << describe(r);
  EXPECT_EQ(r.barriers, plan.barrier_count());
}

// Item 4: the barriers the legacy lowering leaves to implicit promotion and decay run clean. On
// buffers vkd3d needs nothing; on textures the executor replays the runtime's promotion (vkd3d 1.2
// lacks it), and the lowering's omissions must agree with that replay or the layer reports.
TEST(D3D12Run, PromotionAwareOmissionsRunCleanWithCorrectData) {
  const Recording rec = load(kCopyFrame);
  const PlainPlan plan = compile_plan(rec);
  const auto has = [&](std::string_view what) {
    return std::any_of(plan.omitted.begin(), plan.omitted.end(),
                       [&](const std::string& o) { return o.find(what) != std::string::npos; });
  };
  ASSERT_TRUE(has("albedo all COMMON -> COPY_DEST (implicit promotion from COMMON)")) << plan.omitted.size();
  ASSERT_TRUE(has("particles all COMMON -> UNORDERED_ACCESS (implicit promotion from COMMON)"));
  ASSERT_TRUE(has("(implicit promotion: read states accumulate)"));
  const D3D12RunResult r = run(shared_device(), rec, plan);
  EXPECT_TRUE(r.clean()) << describe(r);
  EXPECT_EQ(r.omitted_by_promotion, plan.omitted.size());
  EXPECT_GT(r.emulated_promotions, 0u);
}

// What vkd3d could not run: without the emulation, every texture that relies on promotion reaches
// its copy in VK_IMAGE_LAYOUT_GENERAL while vkd3d records the copy with a TRANSFER layout. This
// pins the gap; when a vkd3d that implements promotion lands, this test says so.
TEST(D3D12Run, Vkd3dWithoutPromotionReportsTextureLayouts) {
  const Recording rec = load(kCopyFrame);
  const PlainPlan plan = compile_plan(rec);
  ExecOptions raw;
  raw.emulate_texture_promotion = false;
  const D3D12RunResult r = run(shared_device(), rec, plan, raw);
  EXPECT_TRUE(r.mismatches.empty()) << describe(r);  // lavapipe ignores layouts: the data is right
  EXPECT_EQ(r.validation.counts.count("VUID-vkCmdCopyBufferToImage-dstImageLayout-00180"), 1u) << describe(r);
  EXPECT_EQ(r.emulated_promotions, 0u);
}

bool is_aliasing(const PlainPlan& plan, size_t k) {
  for (const PlainGroup& g : plan.groups)
    for (const PlainList& l : g.lists)
      for (const PlainPoint& p : l.points)
        for (const PlainBarrier& b : p.barriers)
          if (k-- == 0) return b.kind == BarrierKind::aliasing;
  return false;
}

// Every transition Baton issued matters: leaving any one out is caught by the layer or the data
// check. Aliasing barriers are exempt: vkd3d 1.2 ignores them ("not implemented yet"), and the
// executor's resources are committed, so no memory is really shared.
TEST(D3D12Run, EveryIssuedTransitionIsNeeded) {
  const Recording rec = load(kCopyFrame);
  const PlainPlan plan = compile_plan(rec);
  size_t caught = 0, mutants = 0;
  std::string missed;
  for (size_t k = 0; k < plan.barrier_count(); ++k) {
    if (is_aliasing(plan, k)) continue;
    ++mutants;
    ExecOptions o;
    o.skip_barrier = k;
    const D3D12RunResult r = run(shared_device(), rec, plan, o);
    if (!r.clean()) ++caught;
    else missed += "\n  " + describe_barrier(rec, plan, k);
  }
  std::cout << "mutants caught: " << caught << " of " << mutants << "\n";
  EXPECT_GE(mutants, 15u);
  EXPECT_EQ(caught, mutants) << "missed barriers:" << missed;
}

TEST(D3D12Run, RejectsDrawsNamingGroupListOpAndResource) {
  const Recording rec = load("examples/minimal.json");
  try {
    check_runnable(rec);
    FAIL() << "draws cannot run on the D3D12 path";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("group 'frame' list 'main' op 0"), std::string::npos) << m;
    EXPECT_NE(m.find("resource 'scene'"), std::string::npos) << m;
    EXPECT_NE(m.find("HLSL"), std::string::npos) << m;
  }
}

TEST(D3D12Run, RunD3D12IsTheWholePathWithTheCanaryLive) {
  const Recording rec = load(kCopyFrame);
  const D3D12RunResult r = run_d3d12(rec);
  EXPECT_TRUE(r.canary_live);
  EXPECT_TRUE(r.clean()) << describe(r);
}

}  // namespace
}  // namespace baton::d3d12::test
