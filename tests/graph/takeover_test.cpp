// Aliasing ordered in every API: a transient that takes over memory waits for the previous occupant's
// last accesses (textures and buffers), a transient whose memory is handed over is not restored to rest,
// and check_takeover finds a takeover barrier that waits for nothing.
#include <gtest/gtest.h>

#include <algorithm>

#include "baton/graph.hpp"
#include "baton/lower_d3d12.hpp"
#include "baton/lower_vulkan.hpp"

namespace baton::graph {
namespace {

PassUse use(uint32_t r, Access a, Stages s = kNoStages) {
  return PassUse{r, a, s, {}};
}

Resource texture(std::string name, AccessMask usage, bool transient) {
  Resource r;
  r.desc.name = std::move(name);
  r.desc.width = r.desc.height = 256;
  r.desc.usage = usage;
  r.transient = transient;
  return r;
}

Resource buffer(std::string name, bool transient) {
  Resource r;
  r.desc.name = std::move(name);
  r.desc.type = ResourceType::buffer;
  r.desc.size = 256 * 256 * 4;  // as large as the textures: it can take over their memory
  r.desc.usage = bit(Access::unordered_access) | bit(Access::shader_resource);
  r.transient = transient;
  return r;
}

// a (texture) is drawn into and sampled by a pixel shader; x (buffer) then takes over its memory, is
// written and read by compute; b (texture) then takes over x's memory.
struct Frame {
  Graph g;
  uint32_t a = 0, x = 0, b = 0;
};

Frame frame() {
  Frame f;
  Graph& g = f.g;
  const AccessMask rt_sampled = bit(Access::render_target) | bit(Access::shader_resource);
  const AccessMask uav_sampled = bit(Access::unordered_access) | bit(Access::shader_resource);
  f.a = g.add_resource(texture("a", rt_sampled, true));
  f.x = g.add_resource(buffer("x", true));
  f.b = g.add_resource(texture("b", uav_sampled, true));
  const uint32_t out = g.add_resource(texture("out", rt_sampled, false));
  const uint32_t out_buf = g.add_resource(buffer("out_buf", false));
  const uint32_t out2 = g.add_resource(texture("out2", uav_sampled, false));
  const Stages cs = stages(Stage::compute), ps = stages(Stage::pixel);
  auto pass = [&](std::string name, Queue q, std::vector<PassUse> uses) {
    Pass p;
    p.name = std::move(name);
    p.queue = q;
    p.uses = std::move(uses);
    g.add_pass(std::move(p));
  };
  pass("draw_a", Queue::direct, {use(f.a, Access::render_target)});
  pass("sample_a", Queue::direct, {use(f.a, Access::shader_resource, ps), use(out, Access::render_target)});
  pass("write_x", Queue::compute, {use(f.x, Access::unordered_access, cs)});
  pass("read_x", Queue::compute,
       {use(f.x, Access::shader_resource, cs), use(out_buf, Access::unordered_access, cs)});
  pass("write_b", Queue::compute, {use(f.b, Access::unordered_access, cs)});
  pass("read_b", Queue::compute,
       {use(f.b, Access::shader_resource, cs), use(out2, Access::unordered_access, cs)});
  g.outputs = {out, out_buf, out2};
  return f;
}

// The first barrier of member `r` in submission order (nullptr when none).
Barrier* first_barrier(GraphCompileResult& r, ResourceId m, std::string* list = nullptr) {
  for (CompiledGroup& cg : r.trans.compiled)
    for (size_t li = 0; li < cg.lists.size(); ++li)
      for (Barrier& b : cg.barriers_of(li))
        if (b.resource == m) {
          if (list) *list = cg.lists[li].name;
          return &b;
        }
  return nullptr;
}

const AliasBarrier* takeover_of(const GraphCompileResult& r, uint32_t resource) {
  for (const AliasBarrier& ab : r.aliasing.barriers)
    if (ab.resource == resource) return &ab;
  return nullptr;
}

TEST(Takeover, TextureAndBufferWaitForThePreviousOccupantInEveryApi) {
  const Frame f = frame();
  GraphCompileResult r = compile_graph(f.g);
  ASSERT_TRUE(r.findings.empty()) << dump(f.g, r, "checks");
  // x takes over a's memory, b takes over x's.
  const AliasBarrier* ax = takeover_of(r, f.x);
  const AliasBarrier* ab = takeover_of(r, f.b);
  ASSERT_NE(ax, nullptr);
  ASSERT_NE(ab, nullptr);
  EXPECT_EQ(std::vector<uint32_t>(ax->previous.begin(), ax->previous.end()), std::vector<uint32_t>{f.a});
  EXPECT_EQ(std::vector<uint32_t>(ab->previous.begin(), ab->previous.end()), std::vector<uint32_t>{f.x});
  const ResourceId ma = r.trans.first_member[f.a], mx = r.trans.first_member[f.x],
                   mb = r.trans.first_member[f.b];

  // Neutral: the before side is the previous occupant's last use, layout undefined, reason takeover.
  std::string list;
  const Barrier* bx = first_barrier(r, mx, &list);
  ASSERT_NE(bx, nullptr) << "the buffer taking over memory has no barrier";
  EXPECT_EQ(list, "write_x");
  EXPECT_EQ(bx->reason, Reason::takeover);
  EXPECT_EQ(bx->before, (State{sync::pixel_shading, bit(Access::shader_resource), Layout::none}));
  EXPECT_EQ(bx->previous, ma);
  const Barrier* bb = first_barrier(r, mb, &list);
  ASSERT_NE(bb, nullptr);
  EXPECT_EQ(list, "write_b");
  EXPECT_EQ(bb->reason, Reason::takeover);
  EXPECT_EQ(bb->before, (State{sync::compute_shading, bit(Access::shader_resource), Layout::undefined}));
  EXPECT_EQ(bb->previous, mx);

  // Vulkan: srcStage/srcAccess of the previous occupant, oldLayout UNDEFINED.
  const VulkanPlan vk = lower_vulkan(r.trans.table, r.trans.compiled);
  bool vk_buffer = false, vk_image = false;
  for (const VulkanGroup& g : vk.groups)
    for (const VulkanList& l : g.lists)
      for (const VulkanPoint& p : l.points) {
        for (size_t i = 0; i < p.buffers.size(); ++i)
          if (p.buffer_resources[i] == mx && l.name == "write_x") {
            vk_buffer = true;
            EXPECT_EQ(p.buffers[i].srcStageMask, VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT);
            EXPECT_EQ(p.buffers[i].srcAccessMask,
                      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
            EXPECT_EQ(p.buffers[i].dstStageMask, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
          }
        for (size_t i = 0; i < p.images.size(); ++i)
          if (p.image_resources[i] == mb && l.name == "write_b") {
            vk_image = true;
            EXPECT_EQ(p.images[i].srcStageMask, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT);
            EXPECT_EQ(p.images[i].srcAccessMask,
                      VK_ACCESS_2_SHADER_SAMPLED_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
            EXPECT_EQ(p.images[i].oldLayout, VK_IMAGE_LAYOUT_UNDEFINED);
            EXPECT_EQ(p.images[i].newLayout, VK_IMAGE_LAYOUT_GENERAL);
          }
      }
  EXPECT_TRUE(vk_buffer);
  EXPECT_TRUE(vk_image);

  // D3D12 enhanced: SyncBefore of the previous occupant, AccessBefore NO_ACCESS, LayoutBefore UNDEFINED.
  const D3D12EnhancedPlan en = lower_d3d12_enhanced(r.trans.table, r.trans.compiled);
  bool en_buffer = false, en_texture = false;
  for (const D3D12EnhancedGroup& g : en.groups)
    for (const D3D12EnhancedList& l : g.lists)
      for (const D3D12EnhancedPoint& p : l.points) {
        for (size_t i = 0; i < p.buffers.size(); ++i)
          if (p.buffer_resources[i] == mx && l.name == "write_x") {
            en_buffer = true;
            EXPECT_EQ(p.buffers[i].SyncBefore, D3D12_BARRIER_SYNC_PIXEL_SHADING);
            EXPECT_EQ(p.buffers[i].AccessBefore, D3D12_BARRIER_ACCESS_NO_ACCESS);
            EXPECT_EQ(p.buffers[i].AccessAfter, D3D12_BARRIER_ACCESS_UNORDERED_ACCESS);
          }
        for (size_t i = 0; i < p.textures.size(); ++i)
          if (p.texture_resources[i] == mb && l.name == "write_b") {
            en_texture = true;
            EXPECT_EQ(p.textures[i].SyncBefore, D3D12_BARRIER_SYNC_COMPUTE_SHADING);
            EXPECT_EQ(p.textures[i].AccessBefore, D3D12_BARRIER_ACCESS_NO_ACCESS);
            EXPECT_EQ(p.textures[i].LayoutBefore, D3D12_BARRIER_LAYOUT_UNDEFINED);
            EXPECT_EQ(p.textures[i].LayoutAfter, D3D12_BARRIER_LAYOUT_UNORDERED_ACCESS);
          }
      }
  EXPECT_TRUE(en_buffer);
  EXPECT_TRUE(en_texture);

  // D3D12 legacy: an aliasing barrier naming the one previous occupant as pResourceBefore.
  const D3D12LegacyPlan lg = lower_d3d12_legacy(r.trans.table, r.trans.compiled);
  std::vector<std::pair<ResourceId, ResourceId>> aliasing;  // (before, after)
  for (const D3D12LegacyGroup& g : lg.groups)
    for (const D3D12LegacyList& l : g.lists)
      for (const D3D12LegacyPoint& p : l.points)
        for (size_t i = 0; i < p.barriers.size(); ++i) {
          if (p.barriers[i].Type != D3D12_RESOURCE_BARRIER_TYPE_ALIASING) continue;
          ResourceId before = kGlobalResource;
          for (const auto& [k, prev] : p.aliasing_before)
            if (k == i) before = prev;
          aliasing.push_back({before, p.resources[i]});
        }
  EXPECT_NE(std::find(aliasing.begin(), aliasing.end(), std::make_pair(ma, mx)), aliasing.end());
  EXPECT_NE(std::find(aliasing.begin(), aliasing.end(), std::make_pair(mx, mb)), aliasing.end());
}

TEST(Takeover, NoRestoreOfATransientWhoseMemoryIsHandedOver) {
  const Frame f = frame();
  const GraphCompileResult r = compile_graph(f.g);
  ASSERT_TRUE(r.findings.empty()) << dump(f.g, r, "checks");
  const ResourceId ma = r.trans.first_member[f.a];
  // a's last use is the pixel-shader read in sample_a: nothing after it, and no restore anywhere.
  size_t barriers_of_a = 0;
  for (const CompiledGroup& cg : r.trans.compiled)
    for (const CompiledList& cl : cg.lists)
      for (const Barrier& b : cl.barriers)
        if (b.resource == ma) {
          ++barriers_of_a;
          EXPECT_NE(b.reason, Reason::restore) << cl.name;
          EXPECT_NE(cl.name, "write_x");
        }
  EXPECT_EQ(barriers_of_a, 2u);  // first touch (discard-free RT) and RT -> sampled
  for (const Restore& x : r.finals.restores) EXPECT_NE(x.member, ma);
  // It ends the frame where its last use left it, which the resting check accepts for a transient.
  EXPECT_EQ(r.finals.at(ma, 0).layout, Layout::shader_resource);
  EXPECT_TRUE(check_resting(f.g, r.sched, r.trans, r.finals).empty());
  // A persistent resource still rests: out is restored after its render-target write.
  const ResourceId out = r.trans.first_member[*f.g.find_resource("out")];
  EXPECT_TRUE(std::any_of(r.finals.restores.begin(), r.finals.restores.end(),
                          [&](const Restore& x) { return x.member == out; }));
}

TEST(Takeover, CheckFindsATakeoverBarrierThatWaitsForNothing) {
  const Frame f = frame();
  GraphCompileResult r = compile_graph(f.g);
  ASSERT_TRUE(check_takeover(f.g, r.sched, r.aliasing, r.trans).empty());
  const ResourceId mx = r.trans.first_member[f.x], mb = r.trans.first_member[f.b];
  {
    GraphCompileResult m = compile_graph(f.g);
    Barrier* b = first_barrier(m, mx);
    ASSERT_NE(b, nullptr);
    b->before = kFirstTouchBuffer;  // back to "first touch": waits for nothing
    const std::vector<std::string> v = check_takeover(f.g, m.sched, m.aliasing, m.trans);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_NE(v[0].find("pass 'write_x', resource 'x': takes over the memory of 'a'"), std::string::npos)
        << v[0];
  }
  {
    GraphCompileResult m = compile_graph(f.g);
    Barrier* b = first_barrier(m, mb);
    ASSERT_NE(b, nullptr);
    b->before = kFirstTouch;
    const std::vector<std::string> v = check_takeover(f.g, m.sched, m.aliasing, m.trans);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_NE(v[0].find("pass 'write_b', resource 'b': takes over the memory of 'x'"), std::string::npos)
        << v[0];
  }
  {
    // Its sync kept, its accesses gone: the previous occupant's last accesses (a's write) are not covered.
    GraphCompileResult m = compile_graph(f.g);
    Barrier* b = first_barrier(m, mx);
    ASSERT_NE(b, nullptr);
    ASSERT_NE(b->before.sync, sync::none);
    b->before.access = 0;
    const std::vector<std::string> v = check_takeover(f.g, m.sched, m.aliasing, m.trans);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_NE(v[0].find("pass 'write_x', resource 'x': takes over the memory of 'a'"), std::string::npos)
        << v[0];
  }
  {
    // The barrier removed: the buffer's first use has nothing ordering it.
    GraphCompileResult m = compile_graph(f.g);
    for (CompiledGroup& cg : m.trans.compiled)
      for (size_t li = 0; li < cg.lists.size(); ++li)
        if (cg.lists[li].name == "write_x") cg.set_list(li, {}, {});
    const std::vector<std::string> v = check_takeover(f.g, m.sched, m.aliasing, m.trans);
    ASSERT_EQ(v.size(), 1u);
    EXPECT_NE(v[0].find("resource 'x': takes over the memory of 'a' but is used with no barrier"),
              std::string::npos)
        << v[0];
  }
}

// The previous occupant's last pass reads one mip and writes another: that pass writes the resource, so
// its accesses start the last accesses over and the pixel-shader read before it is not among them. The
// takeover barrier waits for the compute pass only, and the checks (which work the last accesses out
// for themselves, per resource over every use of a pass) agree: they must see the write in the pass's
// second use, not only its first.
TEST(Takeover, ALastPassThatReadsThenWritesThePreviousOccupantStartsItsLastAccessesOver) {
  Graph g;
  const AccessMask uav_sampled = bit(Access::unordered_access) | bit(Access::shader_resource);
  const AccessMask rt_sampled = bit(Access::render_target) | bit(Access::shader_resource);
  Resource t = texture("t", uav_sampled, true);
  t.desc.mips = 2;
  const uint32_t rt = g.add_resource(std::move(t));
  const uint32_t rb = g.add_resource(texture("b", uav_sampled, true));
  const uint32_t out = g.add_resource(texture("out", rt_sampled, false));
  const uint32_t out2 = g.add_resource(texture("out2", uav_sampled, false));
  const Stages cs = stages(Stage::compute), ps = stages(Stage::pixel);
  auto pass = [&](std::string name, std::vector<PassUse> uses, bool side_effect = false) {
    Pass p;
    p.name = std::move(name);
    p.uses = std::move(uses);
    p.side_effect = side_effect;
    g.add_pass(std::move(p));
  };
  SubresourceRange mip0, mip1;
  mip0.mip_first = 0;
  mip0.mip_count = 1;
  mip1.mip_first = 1;
  mip1.mip_count = 1;
  pass("write_t", {use(rt, Access::unordered_access, cs)});
  pass("sample_t", {use(rt, Access::shader_resource, ps), use(out, Access::render_target)});
  pass("downsample_t", {PassUse{rt, Access::shader_resource, cs, mip0}, PassUse{rt, Access::unordered_access, cs, mip1}},
       /*side_effect=*/true);
  pass("write_b", {use(rb, Access::unordered_access, cs)});
  pass("read_b", {use(rb, Access::shader_resource, cs), use(out2, Access::unordered_access, cs)});
  g.outputs = {out, out2};

  GraphCompileResult r = compile_graph(g);
  ASSERT_TRUE(r.findings.empty()) << dump(g, r, "checks");
  const AliasBarrier* tb = takeover_of(r, rb);
  ASSERT_NE(tb, nullptr) << "b must take over t's memory for this test to mean anything";
  EXPECT_EQ(std::vector<uint32_t>(tb->previous.begin(), tb->previous.end()), std::vector<uint32_t>{rt});
  const Barrier* bb = first_barrier(r, r.trans.first_member[rb]);
  ASSERT_NE(bb, nullptr);
  EXPECT_EQ(bb->reason, Reason::takeover);
  EXPECT_EQ(bb->before.sync, sync::compute_shading) << "the pixel-shader read is ordered before downsample_t's write";
}

// A frame of one graphics group (no async pass): the walk over the uses keeps each resource's last
// accesses as it goes (transitions.cpp's Tail) instead of making entries. A read run over several passes
// (one of which reads the resource twice, in two stages) after the last write: the resource taking over
// the memory waits for every read of the run, and for nothing of the write before it.
TEST(Takeover, InOneGraphicsGroupTheTakeoverWaitsForTheWholeLastReadRun) {
  Graph g;
  const AccessMask uav_sampled = bit(Access::unordered_access) | bit(Access::shader_resource);
  const AccessMask rt_sampled = bit(Access::render_target) | bit(Access::shader_resource);
  const uint32_t rt = g.add_resource(texture("t", uav_sampled, true));
  const uint32_t rb = g.add_resource(texture("b", uav_sampled, true));
  const uint32_t out = g.add_resource(texture("out", rt_sampled, false));
  const uint32_t out2 = g.add_resource(texture("out2", uav_sampled, false));
  const uint32_t out3 = g.add_resource(texture("out3", uav_sampled, false));
  const Stages cs = stages(Stage::compute), ps = stages(Stage::pixel), vs = stages(Stage::vertex);
  auto pass = [&](std::string name, std::vector<PassUse> uses) {
    Pass p;
    p.name = std::move(name);
    p.uses = std::move(uses);
    g.add_pass(std::move(p));
  };
  pass("write_t", {use(rt, Access::unordered_access, cs)});
  pass("sample_t", {use(rt, Access::shader_resource, ps), use(out, Access::render_target),
                    use(rt, Access::shader_resource, vs)});
  pass("read_t", {use(rt, Access::shader_resource, cs), use(out3, Access::unordered_access, cs)});
  pass("write_b", {use(rb, Access::unordered_access, cs)});
  pass("read_b", {use(rb, Access::shader_resource, cs), use(out2, Access::unordered_access, cs)});
  g.outputs = {out, out2, out3};

  GraphCompileResult r = compile_graph(g);
  ASSERT_TRUE(r.findings.empty()) << dump(g, r, "checks");
  ASSERT_EQ(r.trans.groups.size(), 1u);
  ASSERT_EQ(r.trans.groups[0]->queue(), Queue::direct);
  const AliasBarrier* tb = takeover_of(r, rb);
  ASSERT_NE(tb, nullptr) << "b must take over t's memory for this test to mean anything";
  ASSERT_EQ(std::vector<uint32_t>(tb->previous.begin(), tb->previous.end()), std::vector<uint32_t>{rt});
  const Takeover& got = r.trans.history_in[r.trans.first_member[rb]].takeover;
  EXPECT_EQ(got.sync, sync_of(Access::shader_resource, ps) | sync_of(Access::shader_resource, vs) |
                          sync_of(Access::shader_resource, cs));
  EXPECT_EQ(got.access, bit(Access::shader_resource));
  EXPECT_EQ(got.previous, r.trans.first_member[rt]);
  // A resource nothing takes over has no takeover scope.
  EXPECT_FALSE(r.trans.history_in[r.trans.first_member[out]].takeover.any());
}

}  // namespace
}  // namespace baton::graph
