#include "output.hpp"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "baton/input.hpp"

namespace baton::cli {

void write_stdout(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
}

namespace {
bool g_json_errors = false;
std::vector<std::string> g_inputs;
}  // namespace

void set_json_errors(bool on) { g_json_errors = on; }
void set_error_inputs(std::vector<std::string> inputs) { g_inputs = std::move(inputs); }

std::string error_json(std::string_view message) {
  nlohmann::ordered_json e;
  e["id"] = "bad_input";
  e["message"] = input::one_line(message);
  // "FILE:/json/pointer: text" or "FILE:LINE:COLUMN: text", FILE one of the command's inputs.
  for (const std::string& f : g_inputs) {
    const std::string source = input::source_name(f);
    if (message.size() <= source.size() || message.substr(0, source.size()) != source || message[source.size()] != ':')
      continue;
    e["file"] = source;
    std::string_view rest = message.substr(source.size() + 1);
    if (!rest.empty() && rest[0] == '/') {
      e["pointer"] = std::string(rest.substr(0, rest.find(": ")));
    } else {
      size_t i = 0, line = 0, col = 0;
      while (i < rest.size() && rest[i] >= '0' && rest[i] <= '9') line = line * 10 + static_cast<size_t>(rest[i++] - '0');
      if (i > 0 && i < rest.size() && rest[i] == ':') {
        size_t j = ++i;
        while (i < rest.size() && rest[i] >= '0' && rest[i] <= '9') col = col * 10 + static_cast<size_t>(rest[i++] - '0');
        if (i > j) {
          e["line"] = line;
          e["column"] = col;
        }
      }
    }
    break;
  }
  return nlohmann::ordered_json{{"error", e}}.dump() + "\n";
}

int report_error(std::string_view message) {
  // Escaped (a name cannot start another line) and bounded (long names elided in the middle).
  // With --format json the one line is the JSON object instead.
  std::string line = g_json_errors ? error_json(message) : "baton: error: " + input::one_line(message) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  return kExitBadInput;
}

}  // namespace baton::cli
