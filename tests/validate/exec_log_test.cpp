// The Vulkan replay's execution-dependency log (src/validate/exec_log.hpp): what a run of barrier
// calls adds to a stage mask equals the call-by-call fold, over every block size the log composes;
// and the replay with the log gives exactly the verdicts of the eager walk over every resource
// (ValidateOptions::vk_eager_execution_dependencies) on random traces, the examples and big frames.
#include <gtest/gtest.h>

#include <baton/validate.hpp>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "../../src/validate/exec_log.hpp"
#include "../exec/random_vk_trace.hpp"
#include "baton/frame.hpp"

namespace baton::validate {
namespace {

using vulkan::ExecLog;

TEST(ExecLog, AddedEqualsTheCallByCallFold) {
  std::mt19937_64 rng(7);
  // Stage masks from a few bits, as barriers' scopes are: overlaps are frequent.
  auto mask = [&] {
    uint64_t m = 0;
    for (int k = 0, n = 1 + static_cast<int>(rng() % 3); k < n; ++k) m |= uint64_t{1} << (rng() % 12);
    return m;
  };
  for (int trial = 0; trial < 20; ++trial) {
    ExecLog log;
    std::vector<std::vector<ExecLog::Pair>> calls;
    const uint64_t n = 1 + rng() % 300;
    for (uint64_t c = 0; c < n; ++c) {
      std::vector<ExecLog::Pair> pairs;
      for (int k = 0, m = 1 + static_cast<int>(rng() % 3); k < m; ++k) pairs.emplace_back(mask(), mask());
      log.append(pairs);
      calls.push_back(pairs);
    }
    ASSERT_EQ(log.size(), n);
    for (int q = 0; q < 200; ++q) {
      const uint64_t from = rng() % (n + 1), to = from + rng() % (n - from + 1), x = mask();
      uint64_t state = x, add = 0;
      for (uint64_t c = from; c < to; ++c) {
        uint64_t a = 0;
        for (const auto& [src, dst] : calls[c])
          if (state & src) a |= dst;  // judged on the state before the call
        state |= a;
        add |= a;
      }
      ASSERT_EQ(log.added(x, from, to), add) << "trial " << trial << " [" << from << ", " << to << ")";
    }
  }
  ExecLog empty;
  empty.append({});
  EXPECT_EQ(empty.size(), 0u);  // a call with no pairs adds nothing and is not logged
}

void expect_same_verdicts(const std::string& text, const std::string& name) {
  const Trace t = load_trace(text, name);
  for (const bool all : {true, false}) {
    ValidateOptions lazy, eager;
    lazy.vk_barrier_orders_all_resources = eager.vk_barrier_orders_all_resources = all;
    eager.vk_eager_execution_dependencies = true;
    const ValidationResult a = validate(t, lazy), b = validate(t, eager);
    ASSERT_EQ(to_text(a), to_text(b)) << name << (all ? "" : " (layer 1.3.239 scopes)");
  }
}

// The barriers of one call are independent (issue 14), through the log too: a read at COMPUTE, then
// one call with a:COMPUTE->COPY and b:COPY->FRAGMENT. The second pair does not chain with the first,
// so a later FRAGMENT write is still a write-after-read, on the named resource `a` (whose accesses
// take the call eagerly and must not take it again from the log) and on `c`, which the call does not
// name (it gets the call from the log, once).
TEST(ExecLog, OneCallsPairsDoNotChainThroughTheLog) {
  auto use = [](const char* r, const char* stage, const char* access) {
    return std::string(R"({"use":{"resource":")") + r + R"(","as":{"stage":")" + stage + R"(","access":")" + access +
           R"("}}})";
  };
  auto barrier = [](const char* r, const char* src, const char* dst) {
    return std::string(R"({"type":"buffer","resource":")") + r + R"(","src_stage":")" + src +
           R"(","src_access":"NONE","dst_stage":")" + dst + R"(","dst_access":"NONE"})";
  };
  for (const char* r : {"a", "c"}) {
    const std::string text = std::string(R"({"api":"vulkan","resources":[{"name":"a","type":"buffer"},)") +
                             R"({"name":"b","type":"buffer"},{"name":"c","type":"buffer"}],)" +
                             R"("lists":[{"name":"l","type":"direct","commands":[)" +
                             use(r, "COMPUTE_SHADER", "SHADER_STORAGE_READ") + R"(,{"barrier":[)" +
                             barrier("a", "COMPUTE_SHADER", "COPY") + "," + barrier("b", "COPY", "FRAGMENT_SHADER") +
                             "]}," + use(r, "FRAGMENT_SHADER", "SHADER_STORAGE_WRITE") +
                             R"(]}],"submissions":[{"queue":"q","type":"direct","lists":["l"]}]})";
    const ValidationResult v = validate(load_trace(text, r));
    EXPECT_EQ(v.count(MessageId::vk_hazard_write_after_read), 1u) << r << "\n" << to_text(v);
    expect_same_verdicts(text, r);
  }
}

TEST(ExecLog, ReplayGivesTheEagerVerdictsOnRandomTraces) {
  int hazards = 0;
  for (uint64_t seed = 1; seed <= 1000; ++seed)
    for (const int mode : {0, 1, 2}) {  // one submission; several; submission synchronization
      const std::string text = exec::test::random_vk_trace(seed, mode >= 1, mode == 2);
      expect_same_verdicts(text, "seed " + std::to_string(seed) + " mode " + std::to_string(mode));
      hazards += validate(load_trace(text, "t")).clean() ? 0 : 1;
      if (HasFatalFailure()) return;
    }
  // The traces are not all clean: the comparison covers hazards found through the log too.
  EXPECT_GT(hazards, 500);
}

TEST(ExecLog, ReplayGivesTheEagerVerdictsOnTheExamples) {
  int checked = 0;
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(BATON_SOURCE_DIR) / "examples")) {
    if (e.path().extension() != ".json") continue;
    FrameInput in;
    try {
      in = load_frame_input(e.path().string());
    } catch (const Error&) {
      continue;  // not a recording or graph (e.g. a trace)
    }
    const CompiledFrame f = compile_frame(std::move(in));
    expect_same_verdicts(trace_of(f, baton::Api::vulkan), e.path().filename().string());
    ++checked;
  }
  EXPECT_GE(checked, 8);
}

}  // namespace
}  // namespace baton::validate
