// The Access table (BATON_ACCESSES in include/core/baton/core.hpp) and the rules catalog's rows
// (include/core/baton/rules.hpp): the masks and predicates derived from the table are the vocabulary's
// facts as the APIs state them, and every rule id is unique and read back from its message.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "baton/core.hpp"
#include "baton/rules.hpp"

namespace baton {
namespace {

AccessMask mask(std::initializer_list<Access> as) {
  AccessMask m = 0;
  for (Access a : as) m |= bit(a);
  return m;
}

TEST(AccessTable, DerivedMasks) {
  EXPECT_EQ(kAccessCount, 16);
  EXPECT_EQ(kWriteAccesses, mask({Access::render_target, Access::depth_write, Access::unordered_access,
                                  Access::copy_dest, Access::resolve_dest, Access::host_write}));
  EXPECT_EQ(kBufferOnlyAccesses, mask({Access::vertex_buffer, Access::index_buffer, Access::constant_buffer,
                                       Access::indirect_argument, Access::host_read, Access::host_write}));
  EXPECT_EQ(kTextureOnlyAccesses, mask({Access::render_target, Access::depth_write, Access::depth_read,
                                        Access::present, Access::resolve_source, Access::resolve_dest}));
  EXPECT_EQ(kShaderAccesses,
            mask({Access::shader_resource, Access::unordered_access, Access::constant_buffer}));
  for (int i = 0; i < kAccessCount; ++i) {
    const auto a = static_cast<Access>(i);
    EXPECT_EQ(parse_access(to_string(a)), a) << to_string(a);
  }
  EXPECT_EQ(to_string(Access::indirect_argument), "indirect_argument");
  EXPECT_EQ(layout_of(Access::depth_read), Layout::depth_read);
  EXPECT_EQ(layout_of(Access::vertex_buffer), Layout::common);
  EXPECT_EQ(sync_of(Access::indirect_argument, kNoStages), sync::execute_indirect);
  EXPECT_EQ(sync_of(Access::present, kNoStages), sync::all);
}

TEST(AccessTable, QueueLegality) {
  const Stages cs = stages(Stage::compute), px = stages(Stage::pixel);
  for (int i = 0; i < kAccessCount; ++i) EXPECT_TRUE(queue_allows(Queue::direct, static_cast<Access>(i), px));
  EXPECT_TRUE(queue_allows(Queue::copy, Access::copy_source, kNoStages));
  EXPECT_TRUE(queue_allows(Queue::copy, Access::copy_dest, kNoStages));
  EXPECT_FALSE(queue_allows(Queue::copy, Access::shader_resource, cs));
  EXPECT_FALSE(queue_allows(Queue::copy, Access::host_read, kNoStages));
  for (Access a : {Access::render_target, Access::depth_write, Access::depth_read, Access::resolve_source,
                   Access::resolve_dest, Access::vertex_buffer, Access::index_buffer, Access::present})
    EXPECT_FALSE(queue_allows(Queue::compute, a, kNoStages)) << to_string(a);
  for (Access a : {Access::shader_resource, Access::unordered_access, Access::constant_buffer}) {
    EXPECT_TRUE(queue_allows(Queue::compute, a, cs)) << to_string(a);
    EXPECT_FALSE(queue_allows(Queue::compute, a, px)) << to_string(a);
    EXPECT_FALSE(queue_allows(Queue::compute, a, kAllShading)) << to_string(a);
  }
  for (Access a : {Access::copy_source, Access::copy_dest, Access::indirect_argument, Access::host_read,
                   Access::host_write})
    EXPECT_TRUE(queue_allows(Queue::compute, a, kNoStages)) << to_string(a);
}

TEST(AccessTable, OpKinds) {
  EXPECT_EQ(op_kind_accesses(OpKind::copy), mask({Access::copy_source, Access::copy_dest}));
  EXPECT_EQ(op_kind_accesses(OpKind::resolve), mask({Access::resolve_source, Access::resolve_dest}));
  EXPECT_EQ(op_kind_accesses(OpKind::present), mask({Access::present}));
  EXPECT_EQ(op_kind_accesses(OpKind::clear),
            mask({Access::render_target, Access::depth_write, Access::unordered_access, Access::copy_dest}));
  EXPECT_EQ(op_kind_accesses(OpKind::dispatch), mask({Access::shader_resource, Access::unordered_access,
                                                      Access::constant_buffer, Access::indirect_argument}));
  EXPECT_EQ(op_kind_accesses(OpKind::draw),
            mask({Access::render_target, Access::depth_write, Access::depth_read, Access::shader_resource,
                  Access::unordered_access, Access::constant_buffer, Access::vertex_buffer,
                  Access::index_buffer, Access::indirect_argument}));
  EXPECT_EQ(op_kind_accesses(OpKind::external), ~AccessMask{0});
  EXPECT_EQ(op_kind_accesses(OpKind::transition), ~AccessMask{0});
}

TEST(RulesCatalog, IdsAreUniqueAndReadBackFromMessages) {
  std::set<std::string_view> ids;
  for (const RuleInfo& r : rules()) {
    EXPECT_TRUE(ids.insert(r.id).second) << r.id;
    EXPECT_EQ(&rule_info(r.rule), &r);
    ASSERT_EQ(r.id.size(), 5u);
    EXPECT_EQ(r.id[0], 'R');
    RuleArgs args;
    const std::string msg = "file.json:/x: resource 'r': " + rule_message(r.rule, args);
    EXPECT_EQ(rule_id_of(msg), r.id) << msg;
  }
  EXPECT_EQ(rule_id_of("resource 'a [R0204]' declared twice"), std::nullopt) << "a name cannot forge the id";
  EXPECT_EQ(rule_id_of("something [R9999]"), std::nullopt) << "only ids of the catalog";
  EXPECT_EQ(rule_id_of("[R0204]"), "R0204");
  EXPECT_EQ(rule_id_of(""), std::nullopt);
}

TEST(RulesCatalog, ClassifiersFollowTheTable) {
  ResourceDesc tex;
  tex.name = "t";
  EXPECT_EQ(access_rule(tex, Access::depth_read), Rule::depth_access_on_color);
  tex.usage = bit(Access::render_target);
  EXPECT_EQ(access_rule(tex, Access::copy_dest), Rule::not_in_usage);
  EXPECT_EQ(access_rule(tex, Access::copy_dest, false), Rule::none);
  tex.swapchain = true;
  EXPECT_EQ(access_rule(tex, Access::present), Rule::none) << "present needs no usage entry";
  EXPECT_EQ(conflict_rule(Access::copy_source, Access::shader_resource), Rule::none);
  EXPECT_EQ(conflict_rule(Access::unordered_access, Access::unordered_access), Rule::none);
  EXPECT_EQ(conflict_rule(Access::copy_dest, Access::copy_source), Rule::conflicting_uses);
  EXPECT_EQ(conflict_rule(Access::present, Access::copy_source), Rule::present_mixed);
  EXPECT_EQ(use_rule(tex, Access::shader_resource, stages(Stage::pixel), Queue::compute, false),
            Rule::queue_cannot);
}

// use_rule's one-mask fast path gives the same answer as the rule-by-rule classification, for every
// access, stage set and queue on every kind of resource.
TEST(RulesCatalog, UseRuleFastPathAgreesWithTheRules) {
  std::vector<ResourceDesc> descs;
  for (FormatClass f : {FormatClass::color, FormatClass::depth, FormatClass::depth_stencil})
    for (bool swapchain : {false, true})
      for (AccessMask usage : {AccessMask{0}, bit(Access::render_target) | bit(Access::shader_resource)}) {
        ResourceDesc d;
        d.format = f;
        d.swapchain = swapchain;
        d.usage = usage;
        descs.push_back(d);
      }
  ResourceDesc b;
  b.type = ResourceType::buffer;
  descs.push_back(b);
  b.usage = bit(Access::vertex_buffer);
  descs.push_back(b);
  for (const ResourceDesc& d : descs)
    for (int i = 0; i < kAccessCount; ++i)
      for (Stages s = 0; s < 8; ++s)
        for (Queue q : {Queue::direct, Queue::compute, Queue::copy})
          for (bool usage : {false, true}) {
            const auto a = static_cast<Access>(i);
            Rule want = access_rule(d, a, usage);
            if (want == Rule::none && is_shader_access(a) && s == kNoStages) want = Rule::needs_stages;
            if (want == Rule::none && !is_shader_access(a) && s != kNoStages) want = Rule::takes_no_stages;
            if (want == Rule::none && !queue_allows(q, a, s)) want = Rule::queue_cannot;
            EXPECT_EQ(use_rule(d, a, s, q, usage), want)
                << to_string(a) << " stages " << int{s} << " on " << to_string(q) << " usage " << usage;
          }
}

}  // namespace
}  // namespace baton
