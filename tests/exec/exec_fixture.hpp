// One lavapipe context per test executable (instance + device creation is the slow part), and
// the path from a recording to an ExecPlan through Baton's compiler and Vulkan lowering.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "baton/exec_vulkan.hpp"
#include "baton/lower_vulkan.hpp"
#include "baton/plan.hpp"

namespace baton::exec::test {

// The device the suite runs on: BATON_VK_DEVICE=lavapipe|gpu (default lavapipe, as in CI), so
// that the same test_exec binary runs the same suite on the GPU machine (scripts/h200.sh).
inline DeviceKind test_device() {
  const char* v = std::getenv("BATON_VK_DEVICE");
  if (!v || !*v) return DeviceKind::lavapipe;
  const std::optional<DeviceKind> d = parse_device_kind(v);
  if (!d) throw Error(std::string("BATON_VK_DEVICE must be lavapipe or gpu, not '") + v + "'");
  return *d;
}

// Created on first use, destroyed by the test environment before main() returns: tearing a
// Vulkan device down from a static destructor hangs in lavapipe's threads. (Named for CI's device;
// it is the device test_device() picks.)
inline std::unique_ptr<VulkanContext>& lavapipe_slot() {
  static std::unique_ptr<VulkanContext> ctx;
  return ctx;
}
inline VulkanContext& lavapipe() {
  auto& ctx = lavapipe_slot();
  if (!ctx) {
    ctx = std::make_unique<VulkanContext>(ContextOptions{test_device(), true});
    std::printf("test_exec device: %s (%s)\n", ctx->device_name().c_str(),
                std::string(to_string(ctx->device_kind())).c_str());
  }
  return *ctx;
}
class LavapipeEnvironment : public ::testing::Environment {
 public:
  void TearDown() override { lavapipe_slot().reset(); }
};

// Compiles (marks the lists compiled, so once per recording) and lowers to Vulkan.
inline ExecPlan baton_plan(const Recording& rec) {
  CompileResult cr = compile_all(rec.resources, rec.group_ptrs(), fresh_history(rec.resources));
  return to_exec_plan(lower_vulkan(rec.resources, cr.groups));
}

inline std::string summary(const RunReport& r) {
  std::string s;
  for (const auto& [id, n] : r.validation.counts) s += id + " x" + std::to_string(n) + "\n";
  for (const auto& [id, text] : r.validation.texts) s += "  " + id + ": " + text.substr(0, 600) + "\n";
  for (const Mismatch& m : r.mismatches) s += to_string(m) + "\n";
  return s;
}

// The recording as text, for failure messages (a failing seed can be read without a debugger).
inline std::string dump(const Recording& rec) {
  std::string s;
  for (ResourceId r = 0; r < rec.resources.size(); ++r) {
    const ResourceDesc& d = rec.resources[r];
    s += d.name +
         (d.type == ResourceType::buffer
              ? " buffer " + std::to_string(d.size)
              : " " + std::string(to_string(d.format)) + " " + std::to_string(d.width) + "x" +
                    std::to_string(d.height) + " mips " + std::to_string(d.mips) + " layers " +
                    std::to_string(d.layers)) +
         "\n";
  }
  for (const auto& g : rec.groups)
    for (const CommandList* l : g->lists())
      for (size_t o = 0; o < l->ops().size(); ++o) {
        const Operation& op = l->ops()[o];
        s += g->name() + "/" + std::string(l->name()) + " op " + std::to_string(o) + " " +
             std::string(to_string(op.kind)) + ":";
        for (const Use& u : op.uses) {
          const ResourceDesc& d = rec.resources[u.resource];
          s += " " + d.name + "." + std::string(to_string(u.access));
          if (u.stages) s += "@" + stages_to_string(u.stages);
          if (d.type == ResourceType::texture) s += "[" + to_string(resolve(d, u.range), d) + "]";
        }
        s += "\n";
      }
  return s;
}

}  // namespace baton::exec::test
