// Helpers of the view tests: reading repository files and running the baton binary.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace baton::view::test {

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string example(const std::string& name) {
  return read_text(std::filesystem::path(BATON_SOURCE_DIR) / "examples" / name);
}

struct Result {
  int code = -1;
  std::string out, err;
};

// Runs `command` through the shell with stdout and stderr captured in files of `dir`.
inline Result run(const std::string& command, const std::filesystem::path& dir) {
  const auto out = dir / "stdout.txt", err = dir / "stderr.txt";
  const std::string full = command + " >" + out.string() + " 2>" + err.string();
  const int status = std::system(full.c_str());
  Result r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

// A fresh, empty folder under the build tree for one test.
inline std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::path(BATON_BINARY_DIR) / "tests" / "view" / "scratch" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace baton::view::test
