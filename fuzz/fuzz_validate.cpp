// libFuzzer target: the validator's replay (src/validate) on every trace the loader accepts, and
// its reports. Findings are messages, never exceptions: validate() itself throws only baton::Error,
// and only for its hard limits (kMaxReplayRuns, kMaxReplayVisits).
#include "baton/validate.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  baton::validate::Trace trace;
  try {
    trace = baton::validate::load_trace(baton::fuzz::as_text(data, size), "fuzz");
  } catch (const baton::Error&) {
    return 0;  // rejected input: the loader's target covers it
  }
  baton::validate::ValidationResult r;
  try {
    r = baton::validate::validate(trace);
  } catch (const baton::Error&) {
    return 0;  // a hard limit of the replay
  }
  (void)baton::validate::to_text(r);
  (void)baton::validate::to_json(r);
  return 0;
}
