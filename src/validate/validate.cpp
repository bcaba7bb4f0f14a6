// Entry point: picks the replay for the trace's API.
#include <baton/validate.hpp>

#include "d3d12_replay.hpp"
#include "report.hpp"
#include "vulkan_replay.hpp"

namespace baton::validate {

ValidationResult validate(const Trace& trace, const ValidateOptions& options) {
  Reporter out(trace, options);
  if (trace.api == Api::d3d12)
    d3d12::Replay(trace, out).run();
  else
    vulkan::Replay(trace, out, options).run();
  return out.finish();
}

}  // namespace baton::validate
