// Queue-family ownership transfers as a pure function of a lowered plan (src/runtime/ownership.*),
// with the graphics queue on family 0 and async compute on family 1 (as on the H200). Lavapipe has
// one family, so the runtime tests cannot exercise the pairs on a device here.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "../graph/random_graph.hpp"

#include "baton/graph.hpp"
#include "baton/lower_vulkan.hpp"
#include "baton/validate.hpp"
#include "baton/validate_names.hpp"
#include "baton/validated_compile.hpp"
#include "ownership.hpp"

namespace baton::runtime {
namespace {

struct Compiled {
  graph::Graph g;
  graph::GraphCompileResult r;
  VulkanPlan plan;
  OwnershipInput in;
};

// The ownership input of a compiled graph as the runtime builds it: graphics groups on family 0, compute
// groups on family 1, every member exclusive, the graph's persistent resources imported (at rest).
void ownership_input(Compiled& c) {
  c.r = graph::compile_graph(c.g);
  EXPECT_TRUE(c.r.findings.empty());
  const graph::Transitions& tr = c.r.trans;
  c.plan = lower_vulkan(tr.table, tr.compiled);
  OwnershipInput& in = c.in;
  in.table = &tr.table;
  in.plan = &c.plan;
  in.home_family = 0;
  const size_t ng = c.plan.groups.size();
  in.touched.resize(ng);
  in.waits.resize(ng);
  std::vector<uint32_t> group_of(c.g.passes.size(), graph::kNone);
  for (uint32_t gi = 0; gi < ng; ++gi) {
    const graph::GroupInfo& info = tr.info[gi];
    in.group_family.push_back(info.queue == Queue::compute ? 1 : 0);
    in.group_queue.push_back(static_cast<uint32_t>(graph::qi(info.queue)));
    for (uint32_t p : info.passes)
      if (p != graph::kNone) group_of[p] = gi;
    for (const CommandList* l : tr.groups[gi]->lists()) {
      std::vector<ResourceId> used;
      for (const Operation& op : l->ops())
        for (const baton::Use& x : op.uses) used.push_back(x.resource);
      std::sort(used.begin(), used.end());
      used.erase(std::unique(used.begin(), used.end()), used.end());
      in.touched[gi].push_back(used);
    }
    for (uint32_t w2 : info.waits) in.waits[gi].push_back(w2);
  }
  for (const graph::Sync& y : c.r.sched.syncs)
    if (group_of[y.wait] != graph::kNone && group_of[y.signal] != graph::kNone)
      in.waits[group_of[y.wait]].push_back(group_of[y.signal]);
  in.exclusive.assign(tr.table.size(), 1);
  in.imported.assign(tr.table.size(), 0);
  in.initial_layout.assign(tr.table.size(), VK_IMAGE_LAYOUT_UNDEFINED);
  for (uint32_t r = 0; r < c.g.resources.size(); ++r)
    if (!c.g.resources[r].transient)
      for (uint32_t k = 0; k < c.g.resources[r].count; ++k) {
        const ResourceId m = tr.first_member[r] + k;
        in.imported[m] = 1;
        if (tr.table[m].type == ResourceType::texture)
          in.initial_layout[m] = lower_vulkan_state(resting_state(tr.table[m]), true, true).layout;
      }
}

// graphics "write" (UAV) -> async compute "blur" reads it, writes `out` -> graphics "use" reads both.
Compiled three_passes(bool transient_t, bool transient_out = true) {
  Compiled c;
  auto tex = [&](std::string name, bool transient) {
    graph::Resource r;
    r.desc.name = std::move(name);
    r.desc.width = r.desc.height = 64;
    r.desc.usage = bit(Access::unordered_access) | bit(Access::shader_resource);
    r.transient = transient;
    return c.g.add_resource(std::move(r));
  };
  const uint32_t t = tex("t", transient_t), out = tex("out", transient_out), final_ = tex("final", false);
  const Stages cs = stages(Stage::compute), ps = stages(Stage::pixel);
  graph::Pass w{"write", Queue::direct, false, false, {{t, Access::unordered_access, cs, {}}}, {}};
  graph::Pass b{"blur", Queue::compute, true, false,
                {{t, Access::shader_resource, cs, {}}, {out, Access::unordered_access, cs, {}}}, {}};
  graph::Pass u{"use", Queue::direct, false, false,
                {{t, Access::shader_resource, ps, {}}, {out, Access::shader_resource, ps, {}},
                 {final_, Access::unordered_access, ps, {}}},
                {}};
  c.g.add_pass(w);
  c.g.add_pass(b);
  c.g.add_pass(u);
  c.g.outputs = {final_};
  ownership_input(c);
  return c;
}

TEST(Ownership, EveryHandOffAcrossFamiliesGetsAMatchingReleaseAndAcquire) {
  Compiled c = three_passes(true);
  const OwnershipPlan op = plan_ownership(c.in);
  // t: graphics -> compute and compute -> graphics; out: compute -> graphics.
  EXPECT_EQ(op.pairs, 3u);
  const ResourceId t = *c.r.trans.table.find("t");
  size_t releases = 0, acquires = 0;
  for (const TransferBarriers& x : op.transfers) {
    const uint32_t family = c.in.group_family[x.group];
    for (const VkImageMemoryBarrier2& b : x.images) {
      EXPECT_NE(b.srcQueueFamilyIndex, b.dstQueueFamilyIndex);
      EXPECT_EQ(b.oldLayout, b.newLayout) << "the pair transfers ownership, the plan's barriers transition";
      EXPECT_NE(b.oldLayout, VK_IMAGE_LAYOUT_UNDEFINED);
      EXPECT_EQ(x.release ? b.srcQueueFamilyIndex : b.dstQueueFamilyIndex, family) << "on the right side";
    }
    (x.release ? releases : acquires) += x.images.size();
  }
  EXPECT_EQ(releases, acquires);
  // Each release has its acquire: same resource, same layout, same families.
  for (const TransferBarriers& rel : op.transfers) {
    if (!rel.release) continue;
    for (size_t k = 0; k < rel.images.size(); ++k) {
      bool matched = false;
      for (const TransferBarriers& acq : op.transfers)
        for (size_t a = 0; a < acq.images.size() && !acq.release; ++a)
          matched |= acq.image_resources[a] == rel.image_resources[k] &&
                     acq.images[a].oldLayout == rel.images[k].oldLayout &&
                     acq.images[a].srcQueueFamilyIndex == rel.images[k].srcQueueFamilyIndex &&
                     acq.images[a].dstQueueFamilyIndex == rel.images[k].dstQueueFamilyIndex && acq.group > rel.group;
      EXPECT_TRUE(matched) << "release of " << c.r.trans.table[rel.image_resources[k]].name << " has no acquire";
    }
  }
  bool t_to_compute = false;
  for (const TransferBarriers& x : op.transfers)
    for (size_t k = 0; k < x.images.size(); ++k)
      t_to_compute |= !x.release && x.image_resources[k] == t && x.images[k].dstQueueFamilyIndex == 1;
  EXPECT_TRUE(t_to_compute);
}

TEST(Ownership, ConcurrentFamiliesNeedNoTransfers) {
  Compiled c = three_passes(true);
  c.in.exclusive.assign(c.in.exclusive.size(), 0);  // CONCURRENT everywhere
  EXPECT_EQ(plan_ownership(c.in).pairs, 0u);
  c.in.exclusive.assign(c.in.exclusive.size(), 1);
  c.in.group_family.assign(c.in.group_family.size(), 0);  // one family (lavapipe)
  EXPECT_EQ(plan_ownership(c.in).pairs, 0u);
}

// An imported exclusive resource first touched on the compute family cannot be acquired from a
// release nobody made: refused, naming it.
TEST(Ownership, ImportedExclusiveMustStartAndEndOnItsHomeFamily) {
  Compiled c = three_passes(true);
  c.in.home_family = 1;
  c.in.imported.assign(c.in.imported.size(), 1);
  try {
    (void)plan_ownership(c.in);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("VK_SHARING_MODE_EXCLUSIVE"), std::string::npos) << e.what();
  }
}

// Two families with no order between their uses: a pair cannot express it.
TEST(Ownership, UnorderedUseOnTwoFamiliesIsRefused) {
  Compiled c = three_passes(true);
  for (auto& w : c.in.waits) w.clear();  // drop every semaphore
  EXPECT_THROW((void)plan_ownership(c.in), Error);
}

// Baton's validator models queue-family ownership (docs/trace-format.md: exclusive resources, the
// family of each submission, release and acquire barriers). The plan's trace with the graphics
// groups on family 0 and the compute group on family 1 is refused without the pairs, clean with
// them, and refused again when any one release or acquire is left out: the second oracle for the
// pairs where no device with two families is at hand.
nlohmann::json barrier_json(const ResourceTable& t, const VkImageMemoryBarrier2& b, ResourceId m) {
  const ResourceDesc& d = t[m];
  const VkImageSubresourceRange& r = b.subresourceRange;
  nlohmann::json planes = d.format == FormatClass::depth_stencil
                              ? nlohmann::json::array({(r.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT) ? 0 : 1, 1})
                              : nlohmann::json::array({0, d.planes});
  return {{"type", "image"},
          {"resource", d.name},
          {"range", {{"mips", {r.baseMipLevel, r.levelCount}}, {"layers", {r.baseArrayLayer, r.layerCount}}, {"planes", planes}}},
          {"src_stage", validate::format_name(validate::NameKind::vk_stage, b.srcStageMask)},
          {"src_access", validate::format_name(validate::NameKind::vk_access, b.srcAccessMask)},
          {"dst_stage", validate::format_name(validate::NameKind::vk_stage, b.dstStageMask)},
          {"dst_access", validate::format_name(validate::NameKind::vk_access, b.dstAccessMask)},
          {"old_layout", validate::format_name(validate::NameKind::vk_layout, b.oldLayout)},
          {"new_layout", validate::format_name(validate::NameKind::vk_layout, b.newLayout)},
          {"src_queue_family", b.srcQueueFamilyIndex},
          {"dst_queue_family", b.dstQueueFamilyIndex}};
}

nlohmann::json buffer_barrier_json(const ResourceTable& t, const VkBufferMemoryBarrier2& b, ResourceId m) {
  return {{"type", "buffer"},
          {"resource", t[m].name},
          {"src_stage", validate::format_name(validate::NameKind::vk_stage, b.srcStageMask)},
          {"src_access", validate::format_name(validate::NameKind::vk_access, b.srcAccessMask)},
          {"dst_stage", validate::format_name(validate::NameKind::vk_stage, b.dstStageMask)},
          {"dst_access", validate::format_name(validate::NameKind::vk_access, b.dstAccessMask)},
          {"src_queue_family", b.srcQueueFamilyIndex},
          {"dst_queue_family", b.dstQueueFamilyIndex}};
}

// The plan's Vulkan trace on two families, with the given transfers inserted (skip: leave out the
// k-th image barrier of all transfers).
validate::ValidationResult validate_on_two_families(const Compiled& c, const OwnershipPlan& op, int skip = -1) {
  const graph::Transitions& tr = c.r.trans;
  std::vector<const CommandListGroup*> groups;
  for (CommandListGroup* g : tr.groups) groups.push_back(g);
  nlohmann::json j = nlohmann::json::parse(trace_of_plan(tr.table, groups, tr.compiled, Api::vulkan, tr.history_in));
  for (auto& sub : j["submissions"])
    if (sub["type"] == "compute") sub["family"] = 1;
  for (auto& res : j["resources"]) {  // members left CONCURRENT (automatic sharing)
    const std::optional<ResourceId> m = tr.table.find(res["name"].get<std::string>());
    if (m && !c.in.exclusive[*m]) res["flags"].push_back("concurrent");
  }
  int k = 0;
  for (const TransferBarriers& x : op.transfers) {
    const std::string& list = c.plan.groups[x.group].lists[x.list].name;
    nlohmann::json call = nlohmann::json::array();
    for (size_t i = 0; i < x.images.size(); ++i, ++k)
      if (k != skip) call.push_back(barrier_json(tr.table, x.images[i], x.image_resources[i]));
    for (size_t i = 0; i < x.buffers.size(); ++i, ++k)
      if (k != skip) call.push_back(buffer_barrier_json(tr.table, x.buffers[i], x.buffer_resources[i]));
    for (auto& l : j["lists"])
      if (l["name"] == list) {
        auto& cmds = l["commands"];
        if (call.empty()) break;
        if (x.release)
          cmds.push_back({{"barrier", call}});
        else
          cmds.insert(cmds.begin(), nlohmann::json{{"barrier", call}});
      }
  }
  return validate::validate(validate::load_trace(j.dump(), "two families"));
}

TEST(Ownership, BatonsValidatorWantsEveryReleaseAndAcquire) {
  Compiled c = three_passes(false);  // t persistent: its contents must move across families
  const OwnershipPlan op = plan_ownership(c.in);
  ASSERT_GT(op.pairs, 0u);
  const validate::ValidationResult without = validate_on_two_families(c, OwnershipPlan{});
  EXPECT_FALSE(without.messages.empty()) << "the canary: an exclusive resource used on family 1 without a transfer";
  const validate::ValidationResult with = validate_on_two_families(c, op);
  std::string texts;
  for (const validate::Message& m : with.messages) texts += m.text + "\n";
  EXPECT_TRUE(with.messages.empty()) << texts;
  size_t images = 0;
  for (const TransferBarriers& x : op.transfers) images += x.images.size() + x.buffers.size();
  for (size_t k = 0; k < images; ++k)
    EXPECT_FALSE(validate_on_two_families(c, op, static_cast<int>(k)).messages.empty())
        << "leaving out transfer barrier " << k << " went unnoticed";
}

// Every example graph and sixteen generated ones on two families with automatic sharing (issue 12,
// item 4; what `baton run --sharing automatic` runs on the H200): members that pairs can hand over
// are EXCLUSIVE, the others CONCURRENT, each with the reason. Baton's validator (which models
// ownership) accepts each plan with the pairs, refuses it without them where there are any (the
// canary), and refuses it when any one release or acquire barrier is left out.
std::vector<std::pair<std::string, graph::Graph>> example_and_generated_graphs() {
  std::vector<std::pair<std::string, graph::Graph>> graphs;
  const char* dir = std::getenv("BATON_EXAMPLES_DIR");  // the GPU machine runs from another tree
  for (const char* f : {"deferred.json", "async.json", "async_compute.json", "copy_frame.json", "upload.json"}) {
    const std::string path = std::string(dir ? dir : BATON_SOURCE_DIR "/examples") + "/" + f;
    std::ifstream in(path);
    EXPECT_TRUE(in.good()) << path;
    const nlohmann::json j = nlohmann::json::parse(in);
    if (!graph::is_graph_json(j)) continue;  // a recording
    graphs.emplace_back(f, graph::load_graph(j, path));
  }
  for (uint64_t seed = 1; seed <= 16; ++seed)
    graphs.emplace_back("seed " + std::to_string(seed),
                        graph::test::random_graph(seed, 10 + static_cast<uint32_t>(seed * 5)));
  return graphs;
}

TEST(Ownership, AutomaticSharingHandsOverEveryExampleAndGeneratedGraph) {
  size_t graphs = 0, exclusive = 0, concurrent = 0, pairs = 0, barriers = 0, caught = 0;
  for (auto& [name, g] : example_and_generated_graphs()) {
    Compiled c;
    c.g = std::move(g);
    ownership_input(c);
    const std::vector<std::string> why = exclusive_blockers(c.in);
    for (ResourceId m = 0; m < why.size(); ++m) {
      c.in.exclusive[m] = why[m].empty();
      (why[m].empty() ? exclusive : concurrent) += 1;
      if (!why[m].empty()) {
        EXPECT_NE(why[m].find(c.r.trans.table[m].name), std::string::npos) << why[m];
      }
    }
    OwnershipPlan op;
    ASSERT_NO_THROW(op = plan_ownership(c.in)) << name;
    ++graphs;
    pairs += op.pairs;
    std::string texts;
    for (const validate::Message& m : validate_on_two_families(c, op).messages) texts += m.text + "\n";
    EXPECT_TRUE(texts.empty()) << name << ":\n" << texts;
    if (op.pairs > 0) {
      EXPECT_FALSE(validate_on_two_families(c, OwnershipPlan{}).messages.empty()) << name << ": the canary";
    }
    size_t k = 0;
    for (const TransferBarriers& x : op.transfers) k += x.images.size() + x.buffers.size();
    // Up to 24 barriers per graph, spread over its transfers (every one of 1,182 was caught when all
    // were tried; the cap keeps the sanitizer builds' run short).
    const size_t step = std::max<size_t>(1, (k + 23) / 24);
    for (size_t i = 0; i < k; i += step) {
      ++barriers;
      const bool seen = !validate_on_two_families(c, op, static_cast<int>(i)).messages.empty();
      caught += seen;
      EXPECT_TRUE(seen) << name << ": leaving out transfer barrier " << i << " went unnoticed";
    }
  }
  std::printf("automatic sharing: %zu graphs, %zu members exclusive, %zu concurrent, %zu ownership pairs, "
              "%zu of %zu transfer barriers left out one at a time caught\n",
              graphs, exclusive, concurrent, pairs, caught, barriers);
  EXPECT_GT(exclusive, 0u);
  EXPECT_GT(pairs, 0u);
}

// Exclusive everywhere: a graph whose hand-offs are all expressible runs with pairs; one with concurrent
// readers on two families (async.json's gbuffer_normal: ssao on compute, decals on graphics) is refused
// naming the resource and both lists.
TEST(Ownership, StrictExclusiveRefusesConcurrentReadersNamingThem) {
  for (auto& [name, g] : example_and_generated_graphs()) {
    if (name != "async.json" && name != "seed 4") continue;
    Compiled c;
    c.g = std::move(g);
    ownership_input(c);
    if (name == "seed 4") {
      EXPECT_GT(plan_ownership(c.in).pairs, 0u);
      continue;
    }
    try {
      (void)plan_ownership(c.in);
      ADD_FAILURE() << "async.json: expected a refusal";
    } catch (const Error& e) {
      const std::string w = e.what();
      EXPECT_NE(w.find("'gbuffer_normal'"), std::string::npos) << w;
      EXPECT_NE(w.find("'ssao'"), std::string::npos) << w;
      EXPECT_NE(w.find("'decals'"), std::string::npos) << w;
    }
  }
}

// An imported image first used on the compute family is accepted when that first list discards all
// of it (no contents to transfer), refused when it keeps them.
TEST(Ownership, ImportedFirstUsedOffHomeNeedsADiscard) {
  // `out` is first used by "blur" on the compute family. Transient, imported for the test: its first
  // barrier discards it (from UNDEFINED), so no transfer is needed and none is refused.
  Compiled c = three_passes(true);
  const ResourceId out = *c.r.trans.table.find("out");
  c.in.imported[out] = 1;
  EXPECT_TRUE(exclusive_blockers(c.in)[out].empty()) << exclusive_blockers(c.in)[out];
  EXPECT_NO_THROW((void)plan_ownership(c.in));
  // Generated graph 1: persistent r0 is first used by async pass p0 on the compute family with the
  // contents family 0 owns kept (no discard): refused, naming it and the list.
  for (auto& [name, g] : example_and_generated_graphs()) {
    if (name != "seed 1") continue;
    Compiled p;
    p.g = std::move(g);
    ownership_input(p);
    const ResourceId r0 = *p.r.trans.table.find("r0");
    EXPECT_NE(exclusive_blockers(p.in)[r0].find("first used on family 1 (list 'p0') with its contents kept"),
              std::string::npos)
        << exclusive_blockers(p.in)[r0];
    EXPECT_THROW((void)plan_ownership(p.in), Error);
  }
}

}  // namespace
}  // namespace baton::runtime
