// How every subcommand talks to the terminal: the whole result is built in a string and written
// at the end (so a failure never leaves partial output), and an error is exactly one line on
// stderr, "baton: error: ...", with exit code 2.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace baton::cli {

inline constexpr int kExitBadInput = 2;

void write_stdout(const std::string& text);
// Prints "baton: error: <message>" as one line on stderr; returns kExitBadInput. With JSON errors
// on (the command line has --format json) that one line is {"error": {...}} instead: "id" (the
// class: "bad_input"; rule ids come with the rules catalog), "message" (the text), and where the
// message names them "file", "pointer" (a JSON pointer) or "line" / "column". stdout stays empty.
int report_error(std::string_view message);
// Turns JSON errors on; main() does when any argument pair is `--format json` (or --format=json).
void set_json_errors(bool on);
// The JSON error object for a message (exposed for tests): files are matched against `inputs`.
std::string error_json(std::string_view message, std::string_view id = "bad_input");
// A failure that is a finding, not bad input (the oracle not live): the same one line (JSON under
// --format json, with `id`), exit code 1.
int report_failure(std::string_view id, std::string_view message);
void set_error_inputs(std::vector<std::string> inputs);

// Where `-o` (and other output files) may write: not the input file itself (by any path to it),
// not through a symbolic link, nothing but a regular file. Throws Error naming the path.
void check_output(const std::string& path, const std::string& input);
// Writes `text` to `path` through a temporary file next to it and a rename: readers see the old
// file or the whole new one.
void write_atomically(const std::string& path, const std::string& text);

}  // namespace baton::cli
