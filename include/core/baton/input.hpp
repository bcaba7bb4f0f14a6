// The one input gate: every command and every format (recording, frame graph, trace) reads its
// file and parses its JSON here, so the rules of docs/cli.md "Input rules" hold everywhere:
// regular files only (or `-`, standard input), at most kMaxInputBytes, UTF-8, no NUL byte, no
// duplicate key, nesting at most kMaxDepth, and every syntax error with its line and column.
// Parsing is linear in the size of the text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace baton::input {

inline constexpr uint64_t kMaxInputBytes = uint64_t{256} << 20;  // 256 MiB, files and stdin alike
inline constexpr size_t kMaxDepth = 256;                         // arrays and objects inside each other
inline constexpr size_t kMaxQuotedChars = 120;    // a quoted name longer than this is elided in the middle
inline constexpr size_t kMaxMessageChars = 2000;  // an error line longer than this is elided in the middle

// One JSON pointer token (RFC 6901): '~' -> "~0", '/' -> "~1".
std::string pointer_token(std::string_view key);

// "<stdin>" for "-", else the path itself: the name messages give the input.
std::string source_name(std::string_view path);

// The bytes of `path` ("-" reads standard input). Throws baton::Error "SOURCE: cannot read: WHY"
// for a path that is not a regular file (directory, FIFO, device, socket), does not exist or
// cannot be opened, and for input larger than kMaxInputBytes. Never blocks on a FIFO and never
// reads more than kMaxInputBytes + 1 bytes.
std::string read(const std::string& path);

// Parses JSON text strictly. Throws baton::Error, one line:
//   "SOURCE:LINE:COLUMN: JSON syntax error: ..."      (also number overflow such as 1e400)
//   "SOURCE:LINE:COLUMN: ill-formed UTF-8 ..."         (checked over the whole text)
//   "SOURCE:LINE:COLUMN: NUL byte at offset N ..."     (nlohmann would end the document there)
//   "SOURCE:/pointer: key 'k' appears twice in one object (line L, column C)"
//   "SOURCE:LINE:COLUMN: nested deeper than 256 arrays and objects"
nlohmann::json parse(std::string_view text, std::string_view source);

// read + parse, the source named by source_name(path).
nlohmann::json load(const std::string& path);

// 1-based line and column (in characters, a UTF-8 sequence counting once) of byte `pos` of `text`.
struct LineColumn {
  size_t line = 1, column = 1;
};
LineColumn line_column(std::string_view text, size_t pos);

// Control characters made visible: \n, \r, \t and \xNN for the other C0 bytes and DEL, \u{NNNN}
// for C1 controls, U+2028/U+2029 and the bidirectional overrides, ill-formed UTF-8 as \xNN. The
// result is printable on one line and cannot forge another line of output.
std::string escape(std::string_view s);
// `s` if it has at most `max` characters, else its start and end around "...": the middle elided.
std::string elide(std::string_view s, size_t max);
// A user string quoted for a message: 'escaped', elided to kMaxQuotedChars.
std::string quote(std::string_view s);
// A whole message made one bounded line: escaped, elided to kMaxMessageChars.
std::string one_line(std::string_view s);
// A message located in `source`: unchanged when it already starts with it; "SOURCE:/pointer: ..." when
// it starts with a JSON pointer (the frame graph's semantic errors: "/passes/3/after: ..."); else
// "SOURCE: message".
inline std::string located(std::string_view source, std::string_view message) {
  if (message.starts_with(source)) return std::string(message);
  return std::string(source) + (message.starts_with('/') ? ":" : ": ") + std::string(message);
}

}  // namespace baton::input
