// An operation of many uses (past 16 the compiler sums the syncs of each (resource, access) once per
// operation instead of once per write): the barrier of a resource written twice in it, at two stages,
// opens both, exactly as in the same operation without the other uses.
#include <gtest/gtest.h>

#include <vector>

#include "builder.hpp"

namespace baton::test {
namespace {

// The barrier before the second operation on t, which is read and then written twice (vertex, pixel).
Barrier write_barrier(uint32_t extra_buffers) {
  Rec r;
  const ResourceId t = r.texture("t", bit(Access::shader_resource) | bit(Access::unordered_access));
  std::vector<ResourceId> bufs;
  for (uint32_t k = 0; k < extra_buffers; ++k) bufs.push_back(r.buffer("b" + std::to_string(k)));
  CommandList& l = r.list("l");
  op(l, OpKind::draw, {use(t, Access::shader_resource, stages(Stage::pixel))});
  std::vector<Use> uses = {use(t, Access::unordered_access, stages(Stage::vertex))};
  for (ResourceId b : bufs) uses.push_back(use(b, Access::shader_resource, stages(Stage::pixel)));
  uses.push_back(use(t, Access::unordered_access, stages(Stage::pixel)));
  op(l, OpKind::draw, uses);
  r.group("g", {&l});
  const CompileResult c = r.compile();
  for (const Barrier& b : c.groups[0].lists[0].barriers)
    if (b.resource == t && b.after.access == bit(Access::unordered_access)) return b;
  ADD_FAILURE() << "no barrier into the write";
  return {};
}

TEST(ManyUses, WritesOfOneAccessInALargeOperationOpenEveryStage) {
  const Barrier few = write_barrier(0), many = write_barrier(30);
  EXPECT_EQ(few.after, many.after);
  EXPECT_EQ(few.before, many.before);
  EXPECT_EQ(many.after.sync, sync_of(Access::unordered_access, stages(Stage::vertex) | stages(Stage::pixel)));
}

}  // namespace
}  // namespace baton::test
