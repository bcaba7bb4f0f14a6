// Shared by the libFuzzer targets: the one rule they all check. Bad input must come back as a
// baton::Error (one line, exit code 2 in the CLI); any other exception, a crash, a sanitizer report,
// a hang or a huge allocation is a bug. So only baton::Error is caught: anything else escapes and
// libFuzzer records the input as a crash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "baton/core.hpp"

namespace baton::fuzz {

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs f(text); a baton::Error is the expected answer to bad input.
template <class F>
int run_one(const uint8_t* data, size_t size, F&& f) {
  try {
    f(as_text(data, size));
  } catch (const baton::Error&) {
  }
  return 0;
}

}  // namespace baton::fuzz
