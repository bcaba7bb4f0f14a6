// Runs the C++ escape hatches that docs/escape-hatches.md quotes (docs/examples/escape_hatches.cpp)
// and checks the barriers each one produces.
#include "docs/examples/escape_hatches.cpp"

#include <gtest/gtest.h>

#include <memory>

namespace baton {
namespace {

struct Compiled {
  std::vector<Barrier> barriers;
  std::vector<uint32_t> ops;  // operations per list
};

// Compiles lists as one group each, in order.
Compiled compile_groups(const ResourceTable& t, std::vector<CommandList*> lists) {
  std::vector<std::unique_ptr<CommandListGroup>> groups;
  std::vector<CommandListGroup*> ptrs;
  for (CommandList* l : lists) {
    groups.push_back(std::make_unique<CommandListGroup>(std::string(l->name()), l->queue()));
    groups.back()->add(*l);
    ptrs.push_back(groups.back().get());
  }
  Compiled c;
  for (const CompiledGroup& g : compile_all(t, ptrs, fresh_history(t)).groups)
    for (const CompiledList& l : g.lists)
      c.barriers.insert(c.barriers.end(), l.barriers.begin(), l.barriers.end());
  for (CommandList* l : lists) c.ops.push_back(static_cast<uint32_t>(l->ops().size()));
  return c;
}

size_t count(const Compiled& c, Reason r) {
  size_t n = 0;
  for (const Barrier& b : c.barriers) n += b.reason == r;
  return n;
}

ResourceDesc buffer(const char* name) {
  ResourceDesc d;
  d.name = name;
  d.type = ResourceType::buffer;
  d.size = 256;
  return d;
}

ResourceTable two_buffers(ResourceId& a, ResourceId& b) {
  ResourceTable t;
  a = t.add(buffer("a"));
  b = t.add(buffer("b"));
  return t;
}

TEST(EscapeHatches, DispatchesMergeUnlessSplit) {
  ResourceId a = 0, b = 0;
  const ResourceTable t = two_buffers(a, b);
  CommandList merged("merged", Queue::compute), split("split", Queue::compute);
  escape_hatches::two_dispatches(t, merged, a, b, /*split=*/false, /*full=*/false);
  escape_hatches::two_dispatches(t, split, a, b, /*split=*/true, /*full=*/false);
  EXPECT_EQ(merged.ops().size(), 1u);
  EXPECT_EQ(split.ops().size(), 2u);
}

TEST(EscapeHatches, FullBarrierIsAGlobalBarrierBeforeTheNextCommand) {
  ResourceId a = 0, b = 0;
  const ResourceTable t = two_buffers(a, b);
  CommandList l("full", Queue::compute);
  escape_hatches::two_dispatches(t, l, a, b, /*split=*/false, /*full=*/true);
  ASSERT_EQ(l.ops().size(), 2u);
  EXPECT_TRUE(l.ops()[1].full_barrier);
  const Compiled c = compile_groups(t, {&l});
  ASSERT_EQ(count(c, Reason::full_barrier), 1u);
  for (const Barrier& x : c.barriers)
    if (x.reason == Reason::full_barrier) {
      EXPECT_EQ(x.resource, kGlobalResource);
    }
}

TEST(EscapeHatches, DeclaredEntryStateIsWhereTheFirstBarrierStarts) {
  ResourceTable t;
  ResourceDesc d;
  d.name = "exposure";
  d.usage = bit(Access::unordered_access) | bit(Access::shader_resource);
  const ResourceId exposure = t.add(d);
  CommandList adapt("adapt", Queue::compute), post("tonemap", Queue::direct);
  const Use write[] = {{exposure, Access::unordered_access, stages(Stage::compute)}};
  adapt.record(OpKind::dispatch, write);
  adapt.close();
  escape_hatches::tonemap(post, exposure);
  const Compiled c = compile_groups(t, {&adapt, &post});
  ASSERT_EQ(count(c, Reason::entry_state), 1u);
  for (const Barrier& x : c.barriers)
    if (x.reason == Reason::entry_state) {
      EXPECT_EQ(x.before.layout, Layout::unordered_access);
    }
  EXPECT_EQ(count(c, Reason::hand_on), 0u) << "already in the declared state: nothing to hand on";
  // The read runs to the end of the group, so it opens straight into the resting state (every
  // shading stage) and nothing needs restoring afterwards.
  EXPECT_EQ(count(c, Reason::restore), 0u);
  for (const Barrier& x : c.barriers)
    if (x.reason == Reason::entry_state) {
      EXPECT_EQ(x.after, resting_state(t[exposure]));
    }
}

TEST(EscapeHatches, RestingOverrideRemovesRestoresAndLeavesRestWithoutALayoutChange) {
  for (bool overridden : {false, true}) {
    ResourceTable t;
    ResourceDesc d = escape_hatches::histogram();
    if (!overridden) d.resting.reset();
    const ResourceId h = t.add(d);
    CommandList f0("frame0", Queue::compute), f1("frame1", Queue::compute);
    const Use write[] = {{h, Access::unordered_access, stages(Stage::compute)}};
    for (CommandList* l : {&f0, &f1}) {
      l->record(OpKind::dispatch, write);
      l->close();
    }
    const Compiled c = compile_groups(t, {&f0, &f1});
    if (overridden) {
      EXPECT_EQ(count(c, Reason::restore), 0u);
      for (const Barrier& x : c.barriers) EXPECT_EQ(x.after.layout, Layout::unordered_access);
    } else {
      EXPECT_EQ(count(c, Reason::restore), 2u) << "each group restores to shader_resource";
    }
  }
}

}  // namespace
}  // namespace baton
