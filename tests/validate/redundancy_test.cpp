// Issue 17 item 6, the Vulkan side: the same-state barriers the D3D12 lowerings omit (render-target
// and depth-stencil writes ordered by the queue there) are required on Vulkan. The spec guarantees
// rasterization order for attachment accesses only within a subpass, so two attachment writes in
// different rendering instances (an operation each) form a hazard without a
// barrier. Layer 1.3.239 does not report this case (docs/executor.md, blind spots), so Baton's
// validator is the proof: the demo's plan is clean, and without its `write order` barrier on
// shadow_map, or its `hand-off` barrier on hdr_color, it is a hazard (SYNC-HAZARD-READ-AFTER-WRITE: attachment accesses read and write, and the read side is
// reported first, as the Khronos layer does).
#include <gtest/gtest.h>

#include <baton/validate.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "baton/recording.hpp"
#include "baton/validated_compile.hpp"

namespace baton {
namespace {

using validate::MessageId;

// The demo's Vulkan trace with the same-state barrier on `resource` in list `list` removed; sets
// *removed to the number of barrier entries taken out.
std::string without_same_state(const std::string& trace, const std::string& list, const std::string& resource,
                               int* removed) {
  nlohmann::json t = nlohmann::json::parse(trace);
  *removed = 0;
  for (auto& l : t["lists"]) {
    if (l["name"] != list) continue;
    for (auto& c : l["commands"]) {
      if (!c.contains("barrier")) continue;
      auto& bs = c["barrier"];
      for (size_t i = bs.size(); i-- > 0;) {
        const auto& b = bs[i];
        if (b["resource"] == resource && b.value("old_layout", "") == b.value("new_layout", "-") &&
            b["src_access"] == b["dst_access"]) {
          bs.erase(i);
          ++*removed;
        }
      }
    }
  }
  // Empty barrier calls are not valid trace entries.
  for (auto& l : t["lists"]) {
    auto& cs = l["commands"];
    for (size_t i = cs.size(); i-- > 0;)
      if (cs[i].contains("barrier") && cs[i]["barrier"].empty()) cs.erase(i);
  }
  return t.dump();
}

TEST(VulkanRedundancy, SameStateAttachmentBarriersAreRequired) {
  Recording rec = demo_recording();
  const std::string trace = trace_of_recording(rec, Api::vulkan);
  const validate::ValidationResult clean = validate::validate(validate::load_trace(trace, "demo.vk"));
  ASSERT_TRUE(clean.clean()) << validate::to_text(clean);
  struct Case {
    const char* list;
    const char* resource;
  };
  for (const Case c : {Case{"shadow", "shadow_map"}, Case{"particles", "hdr_color"}}) {
    int removed = 0;
    const std::string mutated = without_same_state(trace, c.list, c.resource, &removed);
    ASSERT_EQ(removed, 1) << c.resource;
    const validate::ValidationResult r = validate::validate(validate::load_trace(mutated, "demo.vk mutated"));
    EXPECT_EQ(r.count(MessageId::vk_hazard_read_after_write), 1u) << c.resource << "\n" << validate::to_text(r);
  }
}

}  // namespace
}  // namespace baton
