// The runtime's default job system: every job of a batch runs exactly once, batches do not mix,
// and results written by jobs are visible to the caller when run() returns (ThreadSanitizer in CI).
#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "thread_pool.hpp"

namespace baton::runtime {
namespace {

TEST(RuntimePool, EveryJobRunsOnceAndResultsAreVisible) {
  ThreadPool pool(4);
  EXPECT_EQ(pool.size(), 4u);
  for (uint32_t batch = 0; batch < 50; ++batch) {
    const uint32_t n = 1 + batch % 17;
    std::vector<uint32_t> out(n, 0);  // plain writes, one slot per job: a race if run() returned early
    std::atomic<uint32_t> ran{0};
    pool.run(n, [&](uint32_t i) {
      out[i] += i + batch;
      ++ran;
    });
    ASSERT_EQ(ran.load(), n);
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], i + batch) << "batch " << batch << " job " << i;
  }
}

TEST(RuntimePool, EmptyBatchAndSingleThreadPool) {
  ThreadPool one(1);
  int calls = 0;
  one.run(0, [&](uint32_t) { ++calls; });
  EXPECT_EQ(calls, 0);
  one.run(5, [&](uint32_t) { ++calls; });  // only the caller's thread: no data race on `calls`
  EXPECT_EQ(calls, 5);
}

}  // namespace
}  // namespace baton::runtime
