// The differential comparison of docs/replay.md: per trace, which kinds of problem Baton's
// validator reports and which the Khronos layer reports when the trace is played.
#pragma once

#include <cstdint>
#include <string>

#include "baton/exec_vulkan.hpp"
#include "baton/validate.hpp"

namespace baton::exec::test {

enum Kind : uint32_t { kRaw = 1, kWar = 2, kWaw = 4, kLayout = 8, kOther = 16 };
inline constexpr const char* kKindNames[] = {"RAW", "WAR", "WAW", "layout", "other"};
inline constexpr int kKinds = 5;

inline uint32_t kinds_of(const validate::ValidationResult& r) {
  uint32_t k = 0;
  for (const auto& [id, n] : r.counts) {
    if (id == 100001) k |= kRaw;
    else if (id == 100002) k |= kWar;
    else if (id == 100003) k |= kWaw;
    else if (id == 100010 || id == 100011 || id == 100012) k |= kLayout;
    else k |= kOther;
  }
  return k;
}

inline bool is_layout_id(const std::string& id) {
  // The layout VUIDs of the commands the player records, and core validation's layout check.
  return id.find("Layout") != std::string::npos || id.find("oldLayout") != std::string::npos ||
         id.find("imageLayout") != std::string::npos || id.find("ImageLayout") != std::string::npos;
}

inline uint32_t kinds_of(const ValidationLog& log) {
  uint32_t k = 0;
  for (const auto& [id, n] : log.counts) {
    if (id == "SYNC-HAZARD-READ-AFTER-WRITE") k |= kRaw;
    else if (id == "SYNC-HAZARD-WRITE-AFTER-READ") k |= kWar;
    else if (id == "SYNC-HAZARD-WRITE-AFTER-WRITE") k |= kWaw;
    else if (is_layout_id(id)) k |= kLayout;
    else k |= kOther;
  }
  return k;
}

}  // namespace baton::exec::test
