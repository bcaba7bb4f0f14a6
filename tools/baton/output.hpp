// How every subcommand talks to the terminal: the whole result is built in a string and written
// at the end (so a failure never leaves partial output), and an error is exactly one line on
// stderr, "baton: error: ...", with exit code 2.
#pragma once

#include <string>
#include <string_view>

namespace baton::cli {

inline constexpr int kExitBadInput = 2;

void write_stdout(const std::string& text);
// Prints "baton: error: <message>" as one line on stderr; returns kExitBadInput.
int report_error(std::string_view message);

}  // namespace baton::cli
