// Runs the built `baton` executable and captures its exit code, stdout and stderr.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace baton::test {

struct RunResult {
  int exit_code = -1;
  std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// `args` is appended to the command line as is (quote it yourself); runs in the source tree.
// raw: `args` is the whole command line (a pipeline, a `timeout` around baton), not baton's arguments.
inline RunResult run_baton(const std::string& args, const std::string& stdin_file = "/dev/null",
                           bool raw = false) {
  const auto dir = std::filesystem::temp_directory_path();
  const std::string tag = std::to_string(::getpid());
  const auto out = dir / ("baton_cli_test_" + tag + ".out");
  const auto err = dir / ("baton_cli_test_" + tag + ".err");
  const std::string line = raw ? "{ " + args + "; }" : "'" BATON_CLI "' " + args;
  const std::string cmd = "cd '" BATON_SOURCE_DIR "' && " + line + " <'" + stdin_file + "' >'" +
                          out.string() + "' 2>'" + err.string() + "'";
  const int status = std::system(cmd.c_str());
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

}  // namespace baton::test
