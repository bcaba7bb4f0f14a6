// The whole D3D12 path for one recording: the checks that need no device, compile, legacy
// lowering, a device with the layer, the canary, the run.
#include "baton/exec_d3d12.hpp"
#include "d3d12_work.hpp"

namespace baton::d3d12 {

void check_runnable(const Recording& rec) {
  const std::vector<Shape> shapes = make_shapes(rec);
  (void)plan_items(rec, shapes);
}

namespace {
D3D12RunResult run_plan(const Recording& rec, const PlainPlan& plan, const D3D12RunOptions& options) {
  Device device(DeviceOptions{options.validation});
  bool live = false;
  if (options.validation) live = run_canary(device).live;
  D3D12RunResult out = run(device, rec, plan);
  out.canary_live = live;
  return out;
}
}  // namespace

D3D12RunResult run_d3d12(const Recording& rec, std::span<const CompiledGroup> compiled,
                         const D3D12RunOptions& options) {
  check_runnable(rec);
  return run_plan(rec, legacy_plan(rec.resources, compiled), options);
}

D3D12RunResult run_d3d12(const Recording& rec, std::span<const CompiledGroup> compiled, const History& history_in,
                         const D3D12RunOptions& options) {
  check_runnable(rec);
  const LegacyStates initial = resting_states(rec.resources, history_in);
  return run_plan(rec, legacy_plan(rec.resources, compiled, &initial), options);
}

D3D12RunResult run_d3d12(const Recording& rec, const D3D12RunOptions& options) {
  check_runnable(rec);
  const CompileResult compiled = compile_all(rec.resources, rec.group_ptrs(), fresh_history(rec.resources));
  return run_d3d12(rec, compiled.groups, options);
}

}  // namespace baton::d3d12
