// `baton run --timestamps FILE` (issue 17, item 5): every operation's GPU time, as Chrome /
// Perfetto trace-event JSON, one thread per queue; refused before any work where it cannot be
// written or measured.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "run_baton.hpp"

namespace baton::test {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()))).string();
}

TEST(RunTimestamps, EveryOperationOfAGraphGetsItsTimeOnItsQueue) {
  const std::string file = temp_path("baton_ts.json");
  std::filesystem::remove(file);
  // Under the asan preset the child runs lavapipe, which the loader unloads before LeakSanitizer
  // looks: the driver's allocations then have no module name, so tests/lsan.supp cannot name them
  // (the runtime sample in tests/docs/install_test.sh runs the same way). Leaks are still checked in
  // every in-process Vulkan test.
  const RunResult r = run_baton(std::string("ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" '") + BATON_CLI +
                                    "' run examples/async.json --format json --timestamps '" + file + "'",
                                "/dev/null", true);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.out);
  const nlohmann::json trace = nlohmann::json::parse(slurp(file));
  std::filesystem::remove(file);
  ASSERT_TRUE(trace["traceEvents"].is_array());
  size_t complete = 0;
  std::set<std::string> names, threads;
  for (const nlohmann::json& e : trace["traceEvents"]) {
    if (e["ph"] != "X") continue;
    ++complete;
    EXPECT_GE(e["dur"].get<double>(), 0.0) << e.dump();
    EXPECT_GE(e["ts"].get<double>(), 0.0) << e.dump();
    names.insert(e["name"].get<std::string>());
    threads.insert(e["tid"].get<std::string>());
  }
  EXPECT_EQ(complete, report["operations"].get<size_t>());
  EXPECT_EQ(names.size(), complete);  // list/op names are unique
  EXPECT_EQ(names.count("ssao/0"), 1u);
  // The groups' logical queues (async.json has async compute), whichever VkQueue ran them.
  EXPECT_EQ(threads, (std::set<std::string>{"compute", "graphics"}));
}

TEST(RunTimestamps, RefusedBeforeAnyWork) {
  const std::string link = temp_path("baton_ts_link");
  std::filesystem::remove(link);
  std::filesystem::create_symlink("/dev/null", link);
  const RunResult through_link = run_baton("run examples/async.json --timestamps '" + link + "'");
  std::filesystem::remove(link);
  EXPECT_EQ(through_link.exit_code, 2);
  EXPECT_TRUE(through_link.out.empty()) << through_link.out;
  EXPECT_NE(through_link.err.find("symbolic link"), std::string::npos) << through_link.err;
  const RunResult d3d12 = run_baton("run examples/copy_frame.json --device d3d12 --timestamps /tmp/x.json");
  EXPECT_EQ(d3d12.exit_code, 2);
  EXPECT_NE(d3d12.err.find("--timestamps: Vulkan devices only"), std::string::npos) << d3d12.err;
  const RunResult itself = run_baton("run examples/async.json --timestamps examples/async.json");
  EXPECT_EQ(itself.exit_code, 2);
  EXPECT_NE(itself.err.find("it is the input file"), std::string::npos) << itself.err;
}

}  // namespace
}  // namespace baton::test
