// Async compute on a queue family of its own (issue 3, item 6; the GPU machine only: lavapipe has
// one family and the test skips). Baton plans the barriers of direct and compute groups serially;
// the executor submits compute groups to the compute-only family, resources shared CONCURRENT
// between the two families (the lowering plans no ownership transfers), and a group on the other
// queue than its predecessor waits for the predecessor's timeline value. Zero validation messages
// and correct data.
#include "exec_fixture.hpp"

namespace baton::exec::test {
namespace {

const auto* const kEnvironment = ::testing::AddGlobalTestEnvironment(new LavapipeEnvironment);

// direct: A = f()                     compute: B = f(A)
// direct: T = draw(B), A = f(A, B)    compute: C = f(A, B, T is not touched: compute groups use
// buffers only, a texture resting in a graphics layout cannot be handed to a compute list)
Recording async_recording() {
  Recording rec;
  auto buffer = [&](const char* name, AccessMask usage) {
    ResourceDesc d;
    d.name = name;
    d.type = ResourceType::buffer;
    d.size = 1024;
    d.usage = usage;
    return rec.resources.add(d);
  };
  const AccessMask rw = bit(Access::unordered_access) | bit(Access::shader_resource);
  const ResourceId a = buffer("A", rw), b = buffer("B", rw), c = buffer("C", rw);
  ResourceDesc t;
  t.name = "T";
  t.type = ResourceType::texture;
  t.width = t.height = 16;
  t.format = FormatClass::color;
  t.usage = bit(Access::render_target);
  const ResourceId tex = rec.resources.add(t);

  const Stages cs = stages(Stage::compute), ps = stages(Stage::pixel);
  auto op = [](OpKind k, std::vector<Use> uses) {
    Operation o;
    o.kind = k;
    o.uses = std::move(uses);
    return o;
  };
  const std::vector<std::pair<Queue, std::vector<Operation>>> groups = {
      {Queue::direct, {op(OpKind::dispatch, {{a, Access::unordered_access, cs, {}}})}},
      {Queue::compute,
       {op(OpKind::dispatch, {{a, Access::shader_resource, cs, {}}, {b, Access::unordered_access, cs, {}}})}},
      {Queue::direct,
       {op(OpKind::draw, {{b, Access::shader_resource, ps, {}}, {tex, Access::render_target, kNoStages, {}}}),
        op(OpKind::dispatch, {{b, Access::shader_resource, cs, {}}, {a, Access::unordered_access, cs, {}}})}},
      {Queue::compute,
       {op(OpKind::dispatch, {{a, Access::shader_resource, cs, {}},
                              {b, Access::shader_resource, cs, {}},
                              {c, Access::unordered_access, cs, {}}})}},
  };
  for (size_t g = 0; g < groups.size(); ++g) {
    const Queue q = groups[g].first;
    auto group = std::make_unique<CommandListGroup>("g" + std::to_string(g), q);
    auto list = std::make_unique<CommandList>("g" + std::to_string(g) + "l0", q);
    for (const Operation& o : groups[g].second) list->append_operation(o);
    list->close();
    group->add(*list);
    rec.lists.push_back(std::move(list));
    rec.groups.push_back(std::move(group));
  }
  return rec;
}

TEST(AsyncCompute, ComputeFamilyQueueWithTimelineWaitsIsCleanAndCorrect) {
  if (VulkanContext::compute_only_families(lavapipe().physical_device()).empty())
    GTEST_SKIP() << lavapipe().device_name() << " has no compute-only queue family";
  VulkanContext ctx(ContextOptions{test_device(), true, /*async_compute=*/true});
  ASSERT_TRUE(ctx.compute_family().has_value());
  EXPECT_NE(*ctx.compute_family(), ctx.queue_family());

  Recording rec = async_recording();
  const ExecPlan plan = baton_plan(rec);
  const RunReport r = run(ctx, rec, plan);
  EXPECT_TRUE(r.clean()) << summary(r) << dump(rec);
  EXPECT_EQ(r.queues_used, 2u);
  EXPECT_EQ(r.submits, 4u);
  EXPECT_EQ(r.semaphore_waits, 3u);  // every group follows one on the other queue
  EXPECT_GE(r.subresources_checked, 4u);  // A, B, C and T
  std::printf("async compute on %s: families %u (graphics) + %u (compute), %u barriers, %u subresources "
              "checked, %u validation messages\n",
              ctx.device_name().c_str(), ctx.queue_family(), *ctx.compute_family(), r.barriers,
              r.subresources_checked, r.validation.total());
}

}  // namespace
}  // namespace baton::exec::test
