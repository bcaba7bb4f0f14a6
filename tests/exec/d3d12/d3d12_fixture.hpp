// Shared set-up of the D3D12 executor tests: one vkd3d device with the validation layer for the
// whole executable (instance + device creation dominates the cost of a case), and helpers that
// compile a recording and lower it to the plain legacy plan.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "baton/exec_d3d12.hpp"

namespace baton::d3d12::test {

inline Device& shared_device() {
  static Device device(DeviceOptions{true});
  return device;
}

inline Recording load(const std::string& relative) {
  return load_recording_file(std::string(BATON_SOURCE_DIR) + "/" + relative);
}

// Compiles every group and lowers to the plain legacy plan (optionally from earlier real states).
inline PlainPlan compile_plan(const Recording& rec, const LegacyStates* initial = nullptr) {
  const std::vector<CommandListGroup*> groups = rec.group_ptrs();
  const CompileResult c = compile_all(rec.resources, groups, fresh_history(rec.resources));
  return legacy_plan(rec.resources, c.groups, initial);
}

inline std::string describe(const D3D12RunResult& r) {
  std::ostringstream s;
  s << "validation: " << r.validation.summary() << "\n";
  for (const auto& [id, text] : r.validation.texts) s << "  [" << id << "] " << text.substr(0, 400) << "\n";
  for (const Mismatch& m : r.mismatches) s << "  mismatch: " << to_string(m) << "\n";
  s << "groups " << r.groups << " ops " << r.ops << " barriers " << r.barriers << " calls " << r.barrier_calls
    << " discards " << r.discards << " checked " << r.subresources_checked << " undefined "
    << r.subresources_undefined << " omitted " << r.omitted_by_promotion << " emulated promotions "
    << r.emulated_promotions << " decays " << r.emulated_decays << " ms " << r.ms;
  return s.str();
}

}  // namespace baton::d3d12::test
