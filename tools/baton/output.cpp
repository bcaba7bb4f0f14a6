#include "output.hpp"

#include <cstdio>

#include "baton/input.hpp"

namespace baton::cli {

void write_stdout(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

int report_error(std::string_view message) {
  // Escaped (a name cannot start another line) and bounded (long names elided in the middle).
  std::string line = "baton: error: " + input::one_line(message) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  return kExitBadInput;
}

}  // namespace baton::cli
