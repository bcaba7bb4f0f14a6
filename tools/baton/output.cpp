#include "output.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "baton/core.hpp"
#include "baton/input.hpp"
#include "baton/rules.hpp"

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

std::string error_json(std::string_view message, std::string_view id) {
  nlohmann::ordered_json e;
  // A broken legality rule reports its id (baton/rules.hpp); any other error its class (`id`).
  e["id"] = rule_id_of(message) ? std::string(*rule_id_of(message)) : std::string(id);
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

int report_failure(std::string_view id, std::string_view message) {
  std::string line = g_json_errors ? error_json(message, id) : "baton: error: " + input::one_line(message) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
  return 1;
}

// Where `-o` may write: not the input file itself (by any path to it), not through a symbolic link
// (neither into the file the link names nor over the link), nothing but a regular file. Checked
// before the page is built, so a refused output costs nothing.
void check_output(const std::string& path, const std::string& input) {
  struct stat out_st {};
  if (::lstat(path.c_str(), &out_st) != 0) return;  // a new file
  if (S_ISLNK(out_st.st_mode))
    throw Error(input::one_line(path +
                                ": cannot write: a symbolic link (not followed and not replaced; give the "
                                "path of a regular file)"));
  if (!S_ISREG(out_st.st_mode)) throw Error(input::one_line(path + ": cannot write: not a regular file"));
  struct stat in_st {};
  if (input != "-" && ::stat(input.c_str(), &in_st) == 0 && in_st.st_dev == out_st.st_dev &&
      in_st.st_ino == out_st.st_ino)
    throw Error(
        input::one_line(path + ": cannot write: it is the input file (refusing to replace the input)"));
}

// Writes `text` to `path` through a new temporary file in the same folder (created exclusively, so
// never through a link an attacker left at its name) and a rename (atomic on one file system):
// readers see the old file or the whole new one, never a torn page.
void write_atomically(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path target(path);
  std::string tmpl = (target.parent_path() / (target.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0)
    throw Error(input::one_line(path + ": cannot write: cannot create a temporary file next to it"));
  const std::string tmp = tmpl;
  bool ok = true;
  for (size_t done = 0; done < text.size() && ok;) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<size_t>(n);
  }
  // The page is meant to be read by others, like any file the user writes (mkstemp makes it 0600).
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ok = ok && ::fchmod(fd, 0666 & ~mask) == 0;
  ok = (::close(fd) == 0) && ok;
  if (!ok) {
    ::unlink(tmp.c_str());
    throw Error(input::one_line(path + ": cannot write (disk full?)"));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw Error(input::one_line(path + ": cannot write: " + why));
  }
}

}  // namespace baton::cli
