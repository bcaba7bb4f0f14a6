// Mutation test: delete each barrier Baton emitted, one at a time, and check that the deletion is
// detected (a validation message or a data mismatch). Prints the detection rate and every
// undetected deletion with the likely reason.
//
// Baton's own validator is a second oracle on the same deletions (the plan's Vulkan trace without
// that barrier): the differential half of the test. Every deletion the Khronos layer reports must
// be reported by Baton's validator too; deletions only Baton's validator reports are listed (the
// layer's known blind spots: write-after-write in one stage, attachment write-after-write).
#include <cstdlib>
#include <set>
#include <string>

#include "exec_fixture.hpp"
#include "random_exec_recording.hpp"
#include "trace_mutation.hpp"

namespace baton::exec::test {
namespace {

// Why a deletion may go unseen, read off the barrier itself.
std::string likely_reason(const Recording& rec, const ExecPlan& plan, const BarrierRef& ref) {
  const ExecBarrierPoint& p = plan.points[ref.point];
  VkPipelineStageFlags2 src = 0, dst = 0;
  VkAccessFlags2 src_access = 0, dst_access = 0;
  VkImageLayout old_layout = VK_IMAGE_LAYOUT_UNDEFINED, new_layout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImageAspectFlags aspect = 0;
  if (ref.kind == BarrierRef::Kind::image) {
    const auto& b = p.images[ref.index];
    src = b.srcStageMask, dst = b.dstStageMask, src_access = b.srcAccessMask, dst_access = b.dstAccessMask;
    old_layout = b.oldLayout, new_layout = b.newLayout, aspect = b.subresourceRange.aspectMask;
  } else if (ref.kind == BarrierRef::Kind::buffer) {
    const auto& b = p.buffers[ref.index];
    src = b.srcStageMask, dst = b.dstStageMask, src_access = b.srcAccessMask, dst_access = b.dstAccessMask;
  } else {
    const auto& b = p.memory[ref.index];
    src = b.srcStageMask, dst = b.dstStageMask, src_access = b.srcAccessMask, dst_access = b.dstAccessMask;
  }
  constexpr VkAccessFlags2 kWrites =
      VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT |
      VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT |
      VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_HOST_WRITE_BIT;
  constexpr VkAccessFlags2 kAttachmentWrites =
      VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  if ((src_access & kAttachmentWrites) && (dst_access & kAttachmentWrites) && src == dst)
    return "attachment write after attachment write, one rendering instance to the next (layer 1.3.239 does "
           "not "
           "report it; lavapipe runs them in order)";
  if (ref.kind == BarrierRef::Kind::buffer && (src_access & VK_ACCESS_2_TRANSFER_WRITE_BIT)) {
    const AccessMask u = rec.resources[p.buffer_resources[ref.index]].usage;
    if (u & (bit(Access::indirect_argument) | bit(Access::index_buffer)))
      return "executor: copies and fills skip the fixed argument/index words of an argument buffer, so the "
             "transfer write and the indirect/index read do not overlap";
  }
  if (aspect == VK_IMAGE_ASPECT_STENCIL_BIT)
    return "stencil plane only: the executor never reads or writes stencil data";
  if (src == VK_PIPELINE_STAGE_2_NONE && old_layout == VK_IMAGE_LAYOUT_UNDEFINED &&
      ref.kind == BarrierRef::Kind::image && new_layout == VK_IMAGE_LAYOUT_GENERAL)
    return "first touch into GENERAL: lavapipe ignores layouts and the layer accepts UNDEFINED contents";
  if (src == VK_PIPELINE_STAGE_2_NONE) return "first touch: nothing earlier to wait for";
  if (!(src_access & kWrites))
    return "after reads only (write-after-read ordering): no later write overlapped in time";
  if ((src_access & VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT) &&
      (dst_access & VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT) && src == dst)
    return "storage write after storage write in the same stage (layer 1.3.239 does not report it)";
  if (src & VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT)
    return "from the resting state: the previous group's work was already ordered";
  return "unclassified";
}

struct Tally {
  uint32_t total = 0, detected = 0, by_validation = 0, by_data_only = 0;
  uint32_t by_baton = 0, layer_and_baton = 0, undetected_by_both = 0;
  std::vector<std::string> layer_only;  // the layer saw it, Baton's validator did not: a gap in Baton's rules
  // ... explained by the layer's version: only another resource's barrier orders the accesses
  std::vector<std::string> layer_only_explained;
  std::vector<std::string> baton_only, neither;  // with the reason the layer (and the data) could not see it
  std::vector<std::string> undetected;
  std::set<std::string> unclassified;  // recordings with an unexplained undetected deletion
};

void mutate(const std::string& name, Recording& rec, Tally& t) {
  ExecPlan plan;
  const TraceOracle oracle = trace_oracle(rec, plan);
  const RunReport base = run(lavapipe(), rec, plan);
  ASSERT_TRUE(base.clean()) << name << " is not clean before mutation:\n" << summary(base);
  // Baton's validator is live on this trace only if the unmutated trace is clean.
  const validate::ValidationResult clean_trace =
      validate::validate(validate::load_trace(oracle.trace.dump(), name));
  ASSERT_TRUE(clean_trace.clean()) << name << ": Baton's validator reports the unmutated plan:\n"
                                   << validate::to_text(clean_trace);
  for (const BarrierRef& ref : enumerate_barriers(plan)) {
    RunOptions o;
    o.skip = ref;
    const RunReport r = run(lavapipe(), rec, plan, o);
    const validate::ValidationResult v = validate_without(oracle, rec, plan, ref);
    const bool baton_sees = !v.clean();
    const bool layer_sees = !r.validation.empty();
    t.by_baton += baton_sees;
    if (layer_sees && baton_sees) ++t.layer_and_baton;
    if (baton_sees && !layer_sees) {
      t.baton_only.push_back(name + ": " + describe(plan, ref, rec) +
                             "\n      Baton's validator: " + v.messages.front().text.substr(0, 160) +
                             "\n      layer: " + likely_reason(rec, plan, ref));
    }
    if (!baton_sees && !layer_sees && r.mismatches.empty()) {
      ++t.undetected_by_both;
      t.neither.push_back(name + ": " + describe(plan, ref, rec) +
                          "\n      reason: " + likely_reason(rec, plan, ref));
    }
    if (layer_sees && !baton_sees) {
      std::string ids;
      for (const auto& [id, n] : r.validation.counts) ids += " " + id;
      // Layer 1.3.239 gives a synchronization2 buffer/image barrier no execution dependency on other
      // resources (fixed in Vulkan-ValidationLayers PR #10524): Baton's validator with that
      // behaviour must then see what the layer sees.
      validate::ValidateOptions layer_1_3_239;
      layer_1_3_239.vk_barrier_orders_all_resources = false;
      const bool old_layer_sees = !validate_without(oracle, rec, plan, ref, layer_1_3_239).clean();
      (old_layer_sees ? t.layer_only_explained : t.layer_only)
          .push_back(name + ": " + describe(plan, ref, rec) + "\n      layer:" + ids);
    }
    ++t.total;
    if (!r.validation.empty()) {
      ++t.detected;
      ++t.by_validation;
    } else if (!r.mismatches.empty()) {
      ++t.detected;
      ++t.by_data_only;
    } else {
      const std::string reason = likely_reason(rec, plan, ref);
      t.undetected.push_back(name + ": " + describe(plan, ref, rec) + "\n      reason: " + reason);
      if (reason == "unclassified") t.unclassified.insert(name);
    }
  }
}

TEST(Mutation, DeletedBarriersAreDetected) {
  Tally t;
  {
    Recording demo = demo_recording();
    mutate("demo", demo, t);
  }
  uint32_t seeds = 6;
  if (const char* e = std::getenv("BATON_MUTATION_RECORDINGS"))
    seeds = static_cast<uint32_t>(std::strtoul(e, nullptr, 10));
  for (uint32_t seed = 1000; seed < 1000 + seeds; ++seed) {
    Recording rec = random_exec_recording(seed);
    mutate("seed " + std::to_string(seed), rec, t);
  }
  const double rate = t.total ? 100.0 * t.detected / t.total : 0.0;
  std::printf(
      "mutation: %u barriers deleted one at a time, %u detected (%.1f%%): %u by validation, %u by data only; "
      "%zu undetected:\n",
      t.total, t.detected, rate, t.by_validation, t.by_data_only, t.undetected.size());
  for (const std::string& u : t.undetected) std::printf("  %s\n", u.c_str());
  std::printf(
      "Baton's validator on the same deletions: %u detected (%.1f%%); both %u, Baton's validator only %zu, "
      "layer only %zu (+%zu explained by layer 1.3.239), neither (nor the data) %u\n",
      t.by_baton, t.total ? 100.0 * t.by_baton / t.total : 0.0, t.layer_and_baton, t.baton_only.size(),
      t.layer_only.size(), t.layer_only_explained.size(), t.undetected_by_both);
  for (const std::string& u : t.layer_only) std::printf("  layer only: %s\n", u.c_str());
  for (const std::string& u : t.layer_only_explained)
    std::printf(
        "  layer only, a false hazard of layer 1.3.239 (an execution dependency from another resource's "
        "barrier, Vulkan-ValidationLayers PR #10524): %s\n",
        u.c_str());
  for (const std::string& u : t.baton_only) std::printf("  Baton's validator only: %s\n", u.c_str());
  for (const std::string& u : t.neither) std::printf("  neither: %s\n", u.c_str());
  if (!t.unclassified.empty()) {
    std::printf(
        "recordings with unclassified undetected deletions (questions for the compiler or gaps in the "
        "executor):\n");
    for (const std::string& name : t.unclassified) {
      if (name == "demo") continue;
      const Recording rec = random_exec_recording(std::stoull(name.substr(5)));
      std::printf("%s\n%s", name.c_str(), dump(rec).c_str());
    }
  }
  EXPECT_GT(t.total, 50u);
  // Measured 85% on lavapipe (2024-11, layer 1.3.239); a drop means the oracle or the executor lost
  // sight of something.
  EXPECT_GE(rate, 80.0);
  // Differential: what the layer reports, Baton's validator reports too.
  EXPECT_TRUE(t.layer_only.empty()) << t.layer_only.size() << " deletions only the layer reported";
  EXPECT_GE(t.by_baton, t.by_validation);
}

}  // namespace
}  // namespace baton::exec::test
