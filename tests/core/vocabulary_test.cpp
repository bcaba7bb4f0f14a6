#include <gtest/gtest.h>

#include "baton/core.hpp"

namespace baton {
namespace {

ResourceDesc tex(AccessMask usage) {
  ResourceDesc d;
  d.name = "t";
  d.usage = usage;
  return d;
}

TEST(RestingLayout, DerivedFromCreationUsage) {
  ResourceDesc sc = tex(bit(Access::render_target));
  sc.swapchain = true;
  EXPECT_EQ(resting_access(sc), Access::present);
  EXPECT_EQ(resting_access(tex(bit(Access::render_target) | bit(Access::shader_resource))), Access::shader_resource);
  EXPECT_EQ(resting_access(tex(bit(Access::unordered_access))), Access::unordered_access);
  EXPECT_EQ(resting_access(tex(bit(Access::render_target))), Access::render_target);
  ResourceDesc depth = tex(bit(Access::depth_write) | bit(Access::shader_resource));
  depth.format = FormatClass::depth;
  EXPECT_EQ(resting_access(depth), Access::depth_write);
  depth.resting = Access::shader_resource;  // per-resource override wins
  EXPECT_EQ(resting_access(depth), Access::shader_resource);
  ResourceDesc buf;
  buf.type = ResourceType::buffer;
  EXPECT_EQ(resting_access(buf), std::nullopt);
  EXPECT_EQ(resting_state(buf).layout, Layout::none);
}

TEST(Access, NamesRoundTrip) {
  for (int i = 0; i < kAccessCount; ++i) {
    const Access a = static_cast<Access>(i);
    EXPECT_EQ(parse_access(to_string(a)), a);
  }
  EXPECT_EQ(parse_access("render_targte"), std::nullopt);
}

TEST(Access, WritesAreExactlyTheWriteClass) {
  EXPECT_TRUE(is_write(Access::render_target));
  EXPECT_TRUE(is_write(Access::depth_write));
  EXPECT_TRUE(is_write(Access::unordered_access));
  EXPECT_TRUE(is_write(Access::copy_dest));
  EXPECT_TRUE(is_write(Access::resolve_dest));
  EXPECT_TRUE(is_write(Access::host_write));
  EXPECT_FALSE(is_write(Access::depth_read));
  EXPECT_FALSE(is_write(Access::shader_resource));
  EXPECT_FALSE(is_write(Access::present));
}

TEST(Ranges, ResolveChecksBounds) {
  ResourceDesc d = tex(bit(Access::shader_resource));
  d.mips = 4;
  d.layers = 2;
  EXPECT_EQ(resolve(d, {}), (Box{0, 4, 0, 2, 0, 1}));
  EXPECT_EQ(resolve(d, {1, 2, 1, 1, 0, kAll}), (Box{1, 3, 1, 2, 0, 1}));
  EXPECT_THROW(resolve(d, {3, 2, 0, kAll, 0, kAll}), Error);
  EXPECT_THROW(resolve(d, {0, 0, 0, kAll, 0, kAll}), Error);
  EXPECT_THROW(resolve(d, {0xfffffff0u, 0x20u, 0, kAll, 0, kAll}), Error);  // overflow
  EXPECT_EQ(to_string(Box{1, 3, 0, 2, 0, 1}, d), "mip 1..2");
  EXPECT_EQ(to_string(full_box(d), d), "all");
}

TEST(ResourceTable, RejectsDuplicatesAndBadShapes) {
  ResourceTable t;
  t.add(tex(bit(Access::shader_resource)));
  EXPECT_THROW(t.add(tex(bit(Access::shader_resource))), Error);
  ResourceDesc b;
  b.name = "b";
  b.type = ResourceType::buffer;
  b.mips = 2;
  EXPECT_THROW(t.add(b), Error);
  ResourceDesc z = tex(0);
  z.name = "z";
  z.mips = 0;
  EXPECT_THROW(t.add(z), Error);
}

// The name index grows past its first size (16 slots) and through reserve(); every name is found
// with its id, unknown names are not, a duplicate is rejected at any size, and a copy finds the same.
TEST(ResourceTable, FindsEveryNameAsTheIndexGrows) {
  ResourceTable t;
  for (uint32_t i = 0; i < 300; ++i) {
    ResourceDesc d = tex(bit(Access::shader_resource));
    d.name = "r" + std::to_string(i);
    EXPECT_EQ(t.add(d), i);
  }
  t.reserve(5000);
  for (uint32_t i = 300; i < 1000; ++i) {
    ResourceDesc d = tex(bit(Access::shader_resource));
    d.name = "r" + std::to_string(i);
    EXPECT_EQ(t.add(d), i);
  }
  const ResourceTable copy = t;
  for (uint32_t i = 0; i < 1000; ++i) {
    EXPECT_EQ(t.find("r" + std::to_string(i)), std::optional<ResourceId>(i));
    EXPECT_EQ(copy.find("r" + std::to_string(i)), std::optional<ResourceId>(i));
  }
  EXPECT_EQ(t.find("r1000"), std::nullopt);
  EXPECT_EQ(t.find(""), std::nullopt);
  EXPECT_EQ(ResourceTable().find("r0"), std::nullopt);
  ResourceDesc dup = tex(bit(Access::shader_resource));
  dup.name = "r777";
  EXPECT_THROW(t.add(dup), Error);
  EXPECT_EQ(t.size(), 1000u);
}

// A copy shares the descriptions until either side adds or reserves; a change on one side never shows
// in the other, and both keep finding their own names (graph::transitions hands its kept member table
// to every result this way).
TEST(ResourceTable, CopiesShareUntilOneSideChanges) {
  ResourceTable t;
  EXPECT_FALSE(t.shares_with(ResourceTable()));
  for (uint32_t i = 0; i < 40; ++i) {
    ResourceDesc d = tex(bit(Access::shader_resource));
    d.name = "r" + std::to_string(i);
    t.add(d);
  }
  ResourceTable copy = t;
  EXPECT_TRUE(copy.shares_with(t));
  EXPECT_EQ(&copy.all(), &t.all());  // no description copied
  ResourceDesc extra = tex(bit(Access::shader_resource));
  extra.name = "extra";
  EXPECT_EQ(copy.add(extra), 40u);
  EXPECT_FALSE(copy.shares_with(t));
  EXPECT_EQ(t.size(), 40u);
  EXPECT_EQ(copy.size(), 41u);
  EXPECT_EQ(t.find("extra"), std::nullopt);
  EXPECT_EQ(copy.find("extra"), std::optional<ResourceId>(40));
  EXPECT_EQ(copy.find("r39"), std::optional<ResourceId>(39));
  EXPECT_EQ(t.find("r39"), std::optional<ResourceId>(39));
  ResourceTable other = t;
  other.reserve(1000);  // reserving is a change too
  EXPECT_FALSE(other.shares_with(t));
  EXPECT_EQ(other.find("r7"), std::optional<ResourceId>(7));
  // Moving hands the descriptions over and leaves an empty table.
  ResourceTable moved = std::move(other);
  EXPECT_EQ(moved.size(), 40u);
  EXPECT_EQ(other.size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_EQ(other.find("r7"), std::nullopt);
  EXPECT_EQ(other.add(extra), 0u);
  EXPECT_THROW(t[40], std::out_of_range);
  EXPECT_EQ(t[3].name, "r3");
}

}  // namespace
}  // namespace baton
