// The recorder's merging rules and the immediate-mode front end (issue 2 item 3).
#include <gtest/gtest.h>

#include "baton/plan.hpp"
#include "baton/record.hpp"

namespace baton {
namespace {

struct Fixture {
  ResourceTable rt;
  ResourceId color, depth, uav, buf, swap;
  Fixture() {
    ResourceDesc c;
    c.name = "color";
    c.usage = bit(Access::render_target) | bit(Access::shader_resource);
    color = rt.add(c);
    ResourceDesc d;
    d.name = "depth";
    d.format = FormatClass::depth;
    d.usage = bit(Access::depth_write);
    depth = rt.add(d);
    ResourceDesc u;
    u.name = "uav";
    u.usage = bit(Access::unordered_access);
    uav = rt.add(u);
    ResourceDesc b;
    b.name = "buf";
    b.type = ResourceType::buffer;
    b.size = 256;
    buf = rt.add(b);
    ResourceDesc s;
    s.name = "swap";
    s.swapchain = true;
    s.usage = bit(Access::render_target);
    swap = rt.add(s);
  }
};

using B = ImmediateRecorder::Binding;
constexpr Stages kPixel = stages(Stage::pixel);
constexpr Stages kCompute = stages(Stage::compute);

TEST(Recorder, DrawsToTheSameTargetsMergeAndATargetChangeBreaks) {
  Fixture f;
  CommandList l("main", Queue::direct);
  ImmediateRecorder rec(f.rt);
  rec.begin_list(l);
  const B targets[] = {{f.color, Access::render_target}, {f.depth, Access::depth_write}};
  const B reads[] = {{f.buf, Access::constant_buffer, kPixel}};
  rec.draw(targets, reads);
  rec.draw(targets, reads);
  const B other[] = {{f.swap, Access::render_target}};
  const B sample[] = {{f.color, Access::shader_resource, kPixel}};
  rec.draw(other, sample);
  rec.end_list();
  ASSERT_EQ(l.ops().size(), 2u);
  EXPECT_EQ(l.ops()[0].commands, 2u);
  EXPECT_EQ(l.ops()[1].commands, 1u);
  EXPECT_EQ(l.lifecycle(), CommandList::Lifecycle::closed);
}

TEST(Recorder, AUavTouchedAgainByAnotherCommandStartsANewOperation) {
  Fixture f;
  CommandList l("sim", Queue::compute);
  ImmediateRecorder rec(f.rt);
  rec.begin_list(l);
  const B w[] = {{f.uav, Access::unordered_access, kCompute}};
  const B r[] = {{f.buf, Access::shader_resource, kCompute}};
  rec.dispatch(r);  // reads merge freely
  rec.dispatch(r);
  rec.dispatch(w);  // different resource: still merges
  rec.dispatch(w);  // the same UAV again: new operation (needs a UAV barrier)
  rec.end_list();
  ASSERT_EQ(l.ops().size(), 2u);
  EXPECT_EQ(l.ops()[0].commands, 3u);
  EXPECT_EQ(l.ops()[1].commands, 1u);
}

// Byte ranges (issue 13): UAV writes of disjoint bytes of one buffer merge (no barrier can be needed
// between them); overlapping bytes, or the whole buffer after a range, start a new operation.
TEST(Recorder, UavWritesOfDisjointBytesMerge) {
  Fixture f;
  CommandList l("fill", Queue::compute);
  auto write = [&](uint64_t offset, uint64_t size) {
    Use u{f.buf, Access::unordered_access, kCompute, {}};
    u.range.byte_offset = offset;
    u.range.byte_size = size;
    const Use uses[] = {u};
    return l.record(OpKind::dispatch, uses);
  };
  EXPECT_EQ(write(0, 64), 0u);
  EXPECT_EQ(write(64, 64), 0u);   // disjoint: merges
  EXPECT_EQ(write(96, 64), 1u);   // overlaps the second: new operation
  EXPECT_EQ(write(0, kWholeBytes), 2u);  // the whole buffer overlaps every range
  l.close();
  EXPECT_EQ(l.ops()[0].commands, 2u);
}

TEST(Recorder, AddBarrierForcesABarrierPointAndFullBarrierIsAGlobalBarrier) {
  Fixture f;
  CommandList l("l", Queue::direct);
  ImmediateRecorder rec(f.rt);
  rec.begin_list(l);
  const B r[] = {{f.buf, Access::shader_resource, kCompute}};
  rec.dispatch(r);
  rec.add_barrier();
  rec.dispatch(r);
  rec.full_barrier();
  rec.dispatch(r);
  rec.end_list();
  ASSERT_EQ(l.ops().size(), 3u);
  EXPECT_FALSE(l.ops()[1].full_barrier);
  EXPECT_TRUE(l.ops()[2].full_barrier);
  CommandListGroup g("g", Queue::direct);
  g.add(l);
  CommandListGroup* gs[] = {&g};
  const CompileResult res = compile_all(f.rt, gs, fresh_history(f.rt));
  const CompiledList& cl = res.groups[0].lists[0];
  bool global = false;
  for (const Barrier& b : cl.barriers) global |= b.resource == kGlobalResource && b.reason == Reason::full_barrier;
  EXPECT_TRUE(global);
}

TEST(Recorder, CopyClearAndPresentRecordTheirAccesses) {
  Fixture f;
  CommandList l("l", Queue::direct);
  ImmediateRecorder rec(f.rt);
  rec.begin_list(l);
  rec.clear(f.color);
  rec.copy(f.color, f.uav);
  rec.present(f.swap);
  rec.end_list();
  ASSERT_EQ(l.ops().size(), 3u);
  EXPECT_EQ(l.ops()[0].uses[0].access, Access::render_target);
  EXPECT_EQ(l.ops()[1].uses[0].access, Access::copy_source);
  EXPECT_EQ(l.ops()[1].uses[1].access, Access::copy_dest);
  EXPECT_EQ(l.ops()[2].kind, OpKind::present);
  EXPECT_EQ(l.ops()[2].uses[0].access, Access::present);
}

TEST(Recorder, MisuseIsAnErrorNamingTheList) {
  Fixture f;
  CommandList a("a", Queue::direct), b("b", Queue::direct);
  ImmediateRecorder rec(f.rt);
  EXPECT_THROW(rec.add_barrier(), Error);  // outside begin/end
  rec.begin_list(a);
  try {
    rec.begin_list(b);
    FAIL() << "nested begin_list accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("list 'a' is open"), std::string::npos) << e.what();
  }
  rec.end_list();
  EXPECT_THROW(rec.begin_list(a), Error);  // closed lists do not record again
}

}  // namespace
}  // namespace baton
