// Progress of long work (sweeps, mutation runs, large frames) on one terminal line. It prints only
// when its stream is a terminal, so logs, pipes, CI and tests that capture stderr stay clean; it
// never touches stdout, which belongs to the command's result. Header-only: tools, tests and
// benchmarks use it without linking anything.
//
//   baton::Progress p("mutations", barriers.size());
//   for (...) { ...; p.step(); }
//   p.done();  // or let the destructor clear the line
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace baton {

class Progress {
 public:
  // Reports to `out` when it is a terminal.
  Progress(std::string label, uint64_t total, std::FILE* out = stderr)
      : Progress(std::move(label), total, out, out != nullptr && ::isatty(::fileno(out)) == 1) {}
  // Reports when `enabled` says so (tests, or a --progress flag that forces it).
  Progress(std::string label, uint64_t total, std::FILE* out, bool enabled)
      : label_(std::move(label)), total_(total), out_(out), enabled_(enabled && out != nullptr) {}
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  ~Progress() { done(); }

  bool enabled() const { return enabled_; }
  uint64_t count() const { return done_; }

  // Counts `n` more units; redraws at most every 100 ms (and on the last unit), so a tight loop
  // pays a clock read, not a write.
  void step(uint64_t n = 1, std::string_view what = {}) {
    done_ += n;
    if (!enabled_) return;
    const auto now = std::chrono::steady_clock::now();
    if (drawn_ && done_ < total_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    draw(what);
  }

  // Clears the line (once); later steps print nothing.
  void done() {
    if (!enabled_) return;
    if (drawn_) {
      std::fputs("\r\033[K", out_);
      std::fflush(out_);
    }
    enabled_ = false;
  }

 private:
  void draw(std::string_view what) {
    std::string line = "\r\033[K" + label_ + ": " + std::to_string(done_);
    if (total_ > 0) line += "/" + std::to_string(total_) + " (" + std::to_string(done_ * 100 / total_) + "%)";
    if (!what.empty()) line += " " + std::string(what.substr(0, 60));
    std::fputs(line.c_str(), out_);
    std::fflush(out_);
    drawn_ = true;
  }

  std::string label_;
  uint64_t total_ = 0, done_ = 0;
  std::FILE* out_ = nullptr;
  bool enabled_ = false, drawn_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace baton
