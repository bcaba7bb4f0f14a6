// The input gate (include/core/baton/input.hpp): reading files and standard input with one set of
// checks, and a strict, linear JSON parser built on nlohmann's SAX interface. nlohmann's callback
// parser, used before, rescans the parent array as each element closes (quadratic in the length of
// an array); the SAX handler below builds the value itself, once, like nlohmann's own DOM builder,
// and keeps the JSON path so that a duplicate key is reported where it is.
#include "baton/input.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iterator>
#include <vector>

#include "baton/core.hpp"
#include "baton/input_deferred.hpp"

namespace baton::input {
namespace {

using Json = nlohmann::json;

// Length of the well-formed UTF-8 sequence starting at s[i] (1 to 4), or 0 if it is ill-formed
// (overlong forms, surrogates and code points past U+10FFFF included).
size_t utf8_length(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t n = 0;
  unsigned char lo = 0x80, hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf)
    n = 2;
  else if (c >= 0xe0 && c <= 0xef) {
    n = 3;
    if (c == 0xe0) lo = 0xa0;
    if (c == 0xed) hi = 0x9f;
  } else if (c >= 0xf0 && c <= 0xf4) {
    n = 4;
    if (c == 0xf0) lo = 0x90;
    if (c == 0xf4) hi = 0x8f;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xbf) return 0;
  return n;
}

uint32_t decode(std::string_view s, size_t i, size_t n) {
  const auto b = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(s[k])); };
  if (n == 1) return b(i);
  uint32_t cp = b(i) & (0xffu >> (n + 1));
  for (size_t k = 1; k < n; ++k) cp = (cp << 6) | (b(i + k) & 0x3f);
  return cp;
}

bool needs_escape(uint32_t cp) {
  return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp == 0x2028 || cp == 0x2029 ||
         (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

// The part of nlohmann's exception text after its own "[json.exception...] ... column N: " prefix.
// Non-ASCII bytes are replaced: nlohmann quotes the bytes it last read.
std::string error_detail(const std::string& what) {
  const size_t col = what.find("column ");
  const size_t start = col == std::string::npos ? what.find("] ") : what.find(": ", col);
  std::string detail = start == std::string::npos ? what : what.substr(start + 2);
  for (char& ch : detail)
    if (static_cast<unsigned char>(ch) >= 0x80) ch = '?';
  return detail;
}


// An input iterator over the text that records how far the lexer has read, so that the SAX
// handler, which nlohmann gives no position, can tell where a key ends.
struct CountingIterator {
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;
  const char* p = nullptr;
  const char** seen = nullptr;
  reference operator*() const { return *p; }
  CountingIterator& operator++() {
    *seen = ++p;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const CountingIterator& o) const { return p == o.p; }
  bool operator!=(const CountingIterator& o) const { return p != o.p; }
};

class Builder {
 public:
  Builder(std::string_view text, std::string_view source, const char* const* seen,
          DeferredElements* deferred = nullptr)
      : text_(text), source_(source), seen_(seen), deferred_(deferred) {}

  Json take() { return std::move(root_); }

  bool null() { return put(Json(nullptr)); }
  bool boolean(bool v) { return put(Json(v)); }
  bool number_integer(Json::number_integer_t v) { return put(Json(v)); }
  bool number_unsigned(Json::number_unsigned_t v) { return put(Json(v)); }
  bool number_float(Json::number_float_t v, const std::string&) { return put(Json(v)); }
  bool string(std::string& v) { return put(Json(std::move(v))); }
  bool binary(Json::binary_t& v) { return put(Json::binary(std::move(v))); }
  bool start_object(std::size_t) { return open(Json::value_t::object); }
  bool start_array(std::size_t) { return open(Json::value_t::array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& k) {
    Frame& f = stack_.back();
    if (f.value->contains(k)) {
      // The lexer has read past the closing quote of the key: find the opening one.
      size_t end = static_cast<size_t>(*seen_ - text_.data());
      size_t q = text_.rfind('"', end == 0 ? 0 : end - 1);
      size_t open = q;
      while (open != std::string_view::npos && open > 0) {
        open = text_.rfind('"', open - 1);
        if (open == std::string_view::npos) break;
        size_t backslashes = 0;
        while (open > backslashes && text_[open - 1 - backslashes] == '\\') ++backslashes;
        if (backslashes % 2 == 0) break;
      }
      const LineColumn lc = line_column(text_, open == std::string_view::npos ? 0 : open);
      throw Error(one_line(fmt::format("{}:{}/{}: key {} appears twice in one object (line {}, column {})",
                                       source_, path(), pointer_token(k), quote(k), lc.line, lc.column)));
    }
    f.key = std::move(k);
    return true;
  }

  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) {
    // position is the number of characters read, the offending one included.
    const LineColumn lc = line_column(text_, position == 0 ? 0 : position - 1);
    throw Error(one_line(
        fmt::format("{}:{}:{}: JSON syntax error: {}", source_, lc.line, lc.column, error_detail(e.what()))));
  }

 private:
  struct Frame {
    Json* value;
    std::string key;     // objects: the key of the value being read
    bool defer = false;  // an element of DeferredElements: replaced by a discarded value when it closes
    size_t begin = 0;    // its text's first byte ('{')
  };
  // The byte the lexer read last: the token that made the SAX call ('{' or '}' here).
  size_t last_read(char token) const {
    const size_t read = static_cast<size_t>(*seen_ - text_.data());
    const size_t at = text_.rfind(token, read == 0 ? 0 : read - 1);
    return at == std::string_view::npos ? 0 : at;
  }
  // Whether an object opened now is at /OUTER/i/INNER/j of a root object.
  bool deferred_here() const {
    return deferred_ && stack_.size() == 4 && stack_[0].value->is_object() && stack_[0].key == deferred_->outer &&
           stack_[1].value->is_array() && stack_[2].value->is_object() && stack_[2].key == deferred_->inner &&
           stack_[3].value->is_array();
  }

  Json* place(Json&& v) {
    if (stack_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Frame& f = stack_.back();
    if (f.value->is_array()) {
      f.value->get_ref<Json::array_t&>().push_back(std::move(v));
      return &f.value->get_ref<Json::array_t&>().back();
    }
    auto [it, inserted] =
        f.value->get_ref<Json::object_t&>().emplace(f.key, std::move(v));  // the key stays for path()
    (void)inserted;                                                        // a duplicate was refused in key()
    return &it->second;
  }
  bool put(Json&& v) {
    place(std::move(v));
    return true;
  }
  bool open(Json::value_t type) {
    if (stack_.size() >= kMaxDepth) {
      const size_t pos = static_cast<size_t>(*seen_ - text_.data());
      const LineColumn lc = line_column(text_, pos == 0 ? 0 : pos - 1);
      throw Error(fmt::format("{}:{}:{}: nested deeper than {} arrays and objects", source_, lc.line,
                              lc.column, kMaxDepth));
    }
    const bool defer = type == Json::value_t::object && deferred_here();
    Json* v = place(Json(type));
    stack_.push_back({v, {}, defer, defer ? last_read('{') : 0});
    return true;
  }
  bool close() {
    const Frame f = std::move(stack_.back());
    stack_.pop_back();
    if (f.defer) {  // keep its text, drop its value (the parent array keeps its place)
      deferred_->slices.push_back({f.begin, last_read('}') + 1});
      *f.value = Json(Json::value_t::discarded);
    }
    return true;
  }
  std::string path() const {
    std::string p;
    for (size_t i = 0; i + 1 < stack_.size(); ++i) {
      const Frame& f = stack_[i];
      if (f.value->is_array())
        p += fmt::format("/{}", f.value->size() - 1);
      else
        p += "/" + pointer_token(f.key);
    }
    return p;
  }

  std::string_view text_;
  std::string_view source_;
  const char* const* seen_;
  DeferredElements* deferred_;
  Json root_;
  std::vector<Frame> stack_;
};

// NUL and ill-formed UTF-8, anywhere in the text (nlohmann checks UTF-8 only inside strings and
// takes a NUL byte for the end of the document).
void check_bytes(std::string_view text, std::string_view source) {
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == 0) {
      const LineColumn lc = line_column(text, i);
      throw Error(fmt::format("{}:{}:{}: NUL byte at offset {} (JSON text cannot contain one)", source,
                              lc.line, lc.column, i));
    }
    if (c < 0x80) {
      ++i;
      continue;
    }
    const size_t n = utf8_length(text, i);
    if (n == 0) {
      const LineColumn lc = line_column(text, i);
      throw Error(fmt::format("{}:{}:{}: ill-formed UTF-8: byte 0x{:02X} at offset {}", source, lc.line,
                              lc.column, c, i));
    }
    i += n;
  }
}

std::string errno_text(int err) {
  if (err == ENOENT) return "no such file";
  if (err == EACCES) return "permission denied";
  return std::strerror(err);
}

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

std::string source_name(std::string_view path) {
  return path == "-" ? "<stdin>" : std::string(path);
}

std::string read(const std::string& path) {
  const bool from_stdin = path == "-";
  const std::string src = one_line(source_name(path));
  auto fail = [&](const std::string& why) -> void { throw Error(one_line(src + ": cannot read: " + why)); };
  int fd = 0;
  if (!from_stdin) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
    fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) fail(errno_text(errno));
  }
  struct FdCloser {
    int fd;
    ~FdCloser() {
      if (fd > 0) ::close(fd);
    }
  } closer{from_stdin ? -1 : fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) fail(errno_text(errno));
  if (!from_stdin && !S_ISREG(st.st_mode))
    fail(kind_of(st.st_mode) + ", only regular files are read (- reads standard input)");
  const std::string too_big = fmt::format("larger than {} MiB", kMaxInputBytes >> 20);
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > kMaxInputBytes) fail(too_big);
  if (!from_stdin) {
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  }
  std::string out;
  if (S_ISREG(st.st_mode) && st.st_size > 0) out.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(errno_text(errno));
    }
    if (n == 0) break;
    if (out.size() + static_cast<size_t>(n) > kMaxInputBytes) fail(too_big);  // a file that grows, or stdin
    out.append(buf, static_cast<size_t>(n));
  }
  return out;
}

namespace {
Json parse_with(std::string_view text, std::string_view source, DeferredElements* deferred) {
  const std::string src = one_line(source);
  check_bytes(text, src);
  const char* seen = text.data();
  Builder b(text, src, &seen, deferred);
  CountingIterator first{text.data(), &seen}, last{text.data() + text.size(), &seen};
  try {
    Json::sax_parse(first, last, &b, Json::input_format_t::json, /*strict=*/true, /*ignore_comments=*/false);
  } catch (const Error&) {
    throw;
  } catch (const Json::exception& e) {  // defensive: nlohmann reports through parse_error above
    throw Error(one_line(fmt::format("{}: invalid JSON: {}", src, error_detail(e.what()))));
  }
  return b.take();
}
}  // namespace

Json parse(std::string_view text, std::string_view source) {
  return parse_with(text, source, nullptr);
}
Json parse(std::string_view text, std::string_view source, DeferredElements& d) {
  return parse_with(text, source, &d);
}

Json load(const std::string& path) {
  return parse(read(path), source_name(path));
}

LineColumn line_column(std::string_view text, size_t pos) {
  pos = std::min(pos, text.size());
  LineColumn lc;
  size_t column = 1;
  for (size_t i = 0; i < pos; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++lc.line;
      column = 1;
    } else if ((c & 0xc0) != 0x80) {  // a continuation byte belongs to the character before
      ++column;
    }
  }
  lc.column = column;
  return lc;
}

std::string escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : utf8_length(s, i);
    if (n == 0) {
      out += fmt::format("\\x{:02X}", c);
      ++i;
      continue;
    }
    const uint32_t cp = decode(s, i, n);
    if (!needs_escape(cp))
      out.append(s.substr(i, n));
    else if (cp == '\n')
      out += "\\n";
    else if (cp == '\r')
      out += "\\r";
    else if (cp == '\t')
      out += "\\t";
    else if (cp < 0x80)
      out += fmt::format("\\x{:02X}", cp);
    else
      out += fmt::format("\\u{{{:04X}}}", cp);
    i += n;
  }
  return out;
}

std::string elide(std::string_view s, size_t max) {
  // Count characters (UTF-8 sequences); byte offsets of the cut points.
  size_t chars = 0;
  for (char ch : s) chars += (static_cast<unsigned char>(ch) & 0xc0) != 0x80;
  if (chars <= max || max < 5) return std::string(s);
  const size_t keep_head = (max - 3) / 2, keep_tail = max - 3 - keep_head;
  size_t head_end = 0, tail_start = s.size();
  for (size_t i = 0, k = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xc0) == 0x80) continue;
    if (k == keep_head) head_end = i;
    if (k == chars - keep_tail) {
      tail_start = i;
      break;
    }
    ++k;
  }
  return std::string(s.substr(0, head_end)) + "..." + std::string(s.substr(tail_start));
}

// JSON pointer escaping (RFC 6901): '~' -> "~0", '/' -> "~1".
std::string pointer_token(std::string_view key) {
  std::string out;
  for (char ch : key) {
    if (ch == '~')
      out += "~0";
    else if (ch == '/')
      out += "~1";
    else
      out += ch;
  }
  return out;
}

std::string quote(std::string_view s) {
  return "'" + escape(elide(s, kMaxQuotedChars)) + "'";
}

std::string one_line(std::string_view s) {
  return elide(escape(s), kMaxMessageChars);
}

}  // namespace baton::input
