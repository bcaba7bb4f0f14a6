// libFuzzer target: recording loader -> planner + group compiler -> lowering to all three APIs
// (D3D12 enhanced, D3D12 legacy, Vulkan). Everything after the loader must accept what it accepts
// or throw baton::Error (an access a queue cannot express); nothing may crash.
#include "baton/lower.hpp"
#include "baton/plan.hpp"
#include "baton/recording.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return baton::fuzz::run_one(data, size, [](std::string_view text) {
    baton::Recording rec = baton::load_recording(text, "fuzz");
    const std::vector<baton::CommandListGroup*> groups = rec.group_ptrs();
    const baton::CompileResult compiled =
        baton::compile_all(rec.resources, groups, baton::fresh_history(rec.resources));
    for (baton::Api api : {baton::Api::d3d12, baton::Api::d3d12_legacy, baton::Api::vulkan})
      (void)baton::lower(api, rec.resources, compiled.groups);
    for (size_t i = 0; i < groups.size(); ++i)
      (void)baton::dump(rec.resources, *groups[i], compiled.groups[i]);
  });
}
