// Baton's plans on lavapipe: seeded random recordings must run with zero validation messages and
// correct data (BATON_RANDOM_RECORDINGS overrides the count, default 200).
#include <chrono>
#include <cstdlib>

#include "exec_fixture.hpp"
#include "random_exec_recording.hpp"

namespace baton::exec::test {
namespace {

uint32_t recordings_per_run() {
  if (const char* e = std::getenv("BATON_RANDOM_RECORDINGS"))
    return static_cast<uint32_t>(std::strtoul(e, nullptr, 10));
  return 200;
}

TEST(RandomRecordings, RunCleanWithCorrectData) {
  const uint32_t n = recordings_per_run();
  const auto t0 = std::chrono::steady_clock::now();
  uint32_t ops = 0, barriers = 0, hazards = 0, messages = 0, mismatches = 0, checked = 0, failures = 0;
  for (uint32_t seed = 0; seed < n; ++seed) {
    Recording rec = random_exec_recording(seed);
    ExecPlan plan;
    try {
      plan = baton_plan(rec);
    } catch (const Error& e) {
      ADD_FAILURE() << "seed " << seed
                    << ": Baton rejected a recording the generator meant to be valid: " << e.what();
      ++failures;
      continue;
    }
    const RunReport r = run(lavapipe(), rec, plan);
    ops += r.ops;
    barriers += r.barriers;
    hazards += r.validation.hazards();
    messages += r.validation.total();
    mismatches += static_cast<uint32_t>(r.mismatches.size());
    checked += r.subresources_checked;
    if (!r.clean()) {
      ++failures;
      ADD_FAILURE() << "seed " << seed << ":\n" << summary(r) << dump(rec);
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "random recordings: %u run, %u ops, %u barriers, %u validation messages (%u hazards), %u mismatching "
      "subresources of %u checked, %u failing recordings, %.1f s\n",
      n, ops, barriers, messages, hazards, mismatches, checked, failures, s);
  EXPECT_EQ(failures, 0u);
}

}  // namespace
}  // namespace baton::exec::test

namespace baton::exec::test {
namespace {

// The executor and its reference model must agree on their own: with a full barrier before every
// operation, random recordings give no messages and correct data.
TEST(RandomRecordings, ExecutorSelfCheckWithFullBarriers) {
  const uint32_t n = std::min<uint32_t>(recordings_per_run(), 20);
  for (uint32_t seed = 0; seed < n; ++seed) {
    Recording rec = random_exec_recording(seed);
    RunOptions o;
    o.source = BarrierSource::full;
    const RunReport r = run(lavapipe(), rec, ExecPlan{}, o);
    EXPECT_TRUE(r.clean()) << "seed " << seed << ":\n" << summary(r) << dump(rec);
  }
}

}  // namespace
}  // namespace baton::exec::test
