#include "output.hpp"

#include <cstdio>

namespace baton::cli {

void write_stdout(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

int report_error(std::string_view message) {
  std::string line = "baton: error: ";
  for (char ch : message) line += (static_cast<unsigned char>(ch) < 0x20) ? ' ' : ch;
  line += '\n';
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  return kExitBadInput;
}

}  // namespace baton::cli
