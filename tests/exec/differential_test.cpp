// Differential testing (docs/replay.md): seeded random Vulkan traces through Baton's validator and
// through the trace player under the Khronos layer on lavapipe; per trace and per kind (RAW, WAR,
// WAW, layout) both must agree, or the disagreement must be one of the documented differences of
// layer 1.3.239. BATON_DIFF_TRACES (default 2000) and BATON_DIFF_SEED (default 1) set the run
// (scripts/differential.sh).
#ifdef BATON_HAVE_TRACE_PLAYER

#include "differential.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "baton/trace_player.hpp"
#include "exec_fixture.hpp"
#include "random_vk_trace.hpp"

namespace baton::exec::test {
namespace {

uint64_t env_u64(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

// `sync`: the submission-synchronization traces (random_vk_trace's `sync`), else one submission or,
// with BATON_DIFF_MULTI=1, several.
void differential(bool sync, uint64_t n) {
  VulkanContext& ctx = lavapipe();
  ASSERT_TRUE(run_canary(ctx).live);
  TracePlayer player(ctx);
  const uint64_t seed0 = env_u64("BATON_DIFF_SEED", 1);
  const uint64_t max_print = env_u64("BATON_DIFF_PRINT", 10);
  const bool multi = env_u64("BATON_DIFF_MULTI", 0) != 0;
  const bool explain = env_u64("BATON_DIFF_EXPLAIN", 1) != 0;  // 0: count documented differences too
  // 0: the generator without secondary command buffers, signal stage masks and host signals.
  const bool features = env_u64("BATON_DIFF_FEATURES", 1) != 0;
  validate::ValidateOptions layer_1_3_239;
  layer_1_3_239.vk_barrier_orders_all_resources = false;
  uint32_t validator_only[kKinds] = {}, layer_only[kKinds] = {}, agree_hazard = 0, clean = 0;
  uint32_t printed = 0;
  std::map<std::string, uint32_t> explained;
  const auto t0 = std::chrono::steady_clock::now();
  for (uint64_t i = 0; i < n; ++i) {
    const uint64_t seed = seed0 + i;
    const std::string text = random_vk_trace(seed, multi, sync, features);
    const validate::Trace trace = validate::load_trace(text, "seed " + std::to_string(seed));
    const ReplayReport rep = player.play(trace);
    const validate::Trace played = rep.queues_merged ? merge_queues(trace) : trace;
    const validate::ValidationResult v = validate::validate(inline_secondaries(played), layer_1_3_239);
    const uint32_t kv = kinds_of(v), kl = kinds_of(rep.log);
    // Executing secondary command buffers is running their commands there: the same verdict.
    EXPECT_EQ(kinds_of(validate::validate(played, layer_1_3_239)), kv) << text;
    if (kv == kl) {
      (kv ? agree_hazard : clean) += 1;
      continue;
    }
    // Documented differences of layer 1.3.239 (docs/replay.md), each counted by name.
    // D9: the layer records no access for dynamic rendering's load and store operations and checks no
    // attachment layout; recognized when the validator, judging the trace without its render pass
    // instances (the trace as the layer sees it), gives the layer's kinds (or those but D1's
    // write-after-write). `seen` are those kinds, for D11 and D10 below.
    uint32_t seen = kv;
    const bool rendering = has_rendering(trace);
    if (explain && rendering) {
      const validate::ValidationResult v9 =
          validate::validate(inline_secondaries(without_rendering(played)), layer_1_3_239);
      seen = kinds_of(v9);
      if (seen == kl || ((seen & ~kl) == kWaw && (kl & ~seen) == 0 && waw_same_access_only(v9))) {
        ++explained["D9"];
        continue;
      }
    }
    // D11: a layout transition the layer judges by its barrier's own source access scope only.
    if (explain && (kl & ~seen) == kWaw && (seen & ~kl) == 0 && barrier_transition_waw_only(rep.log)) {
      ++explained[rendering ? "D9+D11" : "D11"];
      continue;
    }
    if (explain && (kv & ~kl) == kWaw && (kl & ~kv) == 0 && waw_same_access_only(v)) {
      ++explained["D1"];
      continue;
    }
    if (explain && (kl & ~kv) == kWaw && (kv & ~kl) == 0 && transition_after_wait_only(rep.log) &&
        std::any_of(trace.submissions.begin(), trace.submissions.end(),
                    [](const validate::TraceSubmission& s) { return !s.wait.empty(); })) {
      ++explained["D4"];
      continue;
    }
    if (explain && (kl & ~kv) == 0 && hidden_by_later_transition(trace, v, kl)) {
      ++explained["D5"];
      continue;
    }
    if (explain && (kl & ~kv) == 0 && later_read_at_submit(trace, v, kl)) {
      ++explained["D8"];
      continue;
    }
    if (explain && (kl & ~kv) == 0 && one_hazard_per_command(v, kl)) {
      ++explained["D3"];
      continue;
    }
    if (explain && (kl & kLayout) && (kl & ~kv) == 0 && ((kv & ~kl) & ~(kRaw | kWar | kWaw)) == 0) {
      ++explained["D2"];
      continue;
    }
    // D10: the layer judges accesses recorded in executed secondaries differently from the same commands
    // recorded inline; recognized when the layer, played the inlined trace, gives the validator's kinds
    // (or those but D1's write-after-write).
    if (explain && std::any_of(trace.lists.begin(), trace.lists.end(),
                               [](const validate::TraceList& l) { return l.secondary; })) {
      const uint32_t inlined = kinds_of(player.play(inline_secondaries(trace)).log);
      if (inlined == seen || ((kv & ~inlined) == kWaw && (inlined & ~kv) == 0 && waw_same_access_only(v))) {
        ++explained[rendering && seen != kv ? "D9+D10" : "D10"];
        continue;
      }
    }
    for (int k = 0; k < kKinds; ++k) {
      if ((kv & ~kl) & (1u << k)) ++validator_only[k];
      if ((kl & ~kv) & (1u << k)) ++layer_only[k];
    }
    if (printed++ < max_print) {
      std::printf("disagreement, seed %llu (validator %#x, layer %#x): %s\n  validator:\n",
                  static_cast<unsigned long long>(seed), kv, kl, text.c_str());
      for (const validate::Message& m : v.messages) std::printf("    %s\n", m.text.c_str());
      std::printf("  layer:\n");
      for (const auto& [id, t] : rep.log.texts) std::printf("    %.400s\n", t.c_str());
    }
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "differential (%s): %llu traces (seeds %llu..%llu) in %.1f s: %u agree clean, %u agree with findings\n",
      sync    ? "submission sync"
      : multi ? "multi-submission"
              : "one submission",
      static_cast<unsigned long long>(n), static_cast<unsigned long long>(seed0),
      static_cast<unsigned long long>(seed0 + n - 1), s, clean, agree_hazard);
  for (const auto& [name, count] : explained)
    std::printf("  documented difference %s: %u traces\n", name.c_str(), count);
  uint32_t total = 0;
  for (int k = 0; k < kKinds; ++k) {
    std::printf("  %-6s validator only %u, layer only %u\n", kKindNames[k], validator_only[k], layer_only[k]);
    total += validator_only[k] + layer_only[k];
  }
  EXPECT_EQ(total, 0u);
  EXPECT_GT(agree_hazard, n / 10);  // the generator does make broken streams
  EXPECT_GT(clean, n / 10);         // and correct ones
}

TEST(Differential, RandomTracesAgreeWithTheLayer) {
  differential(false, env_u64("BATON_DIFF_TRACES", 2000));
}

// Semaphore wait stage masks, timeline semaphores, fences and host waits between two submissions of one
// queue (issue 14). Not in CI: it still has unexplained disagreements (docs/replay.md, "Open");
// BATON_DIFF_SYNC_TRACES=N runs N of them.
TEST(Differential, SubmissionSyncTracesAgreeWithTheLayer) {
  const uint64_t n = env_u64("BATON_DIFF_SYNC_TRACES", 0);
  if (n == 0) GTEST_SKIP() << "set BATON_DIFF_SYNC_TRACES=N (docs/replay.md)";
  differential(true, n);
}

}  // namespace
}  // namespace baton::exec::test

#endif  // BATON_HAVE_TRACE_PLAYER
