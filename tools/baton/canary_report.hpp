// `baton run` and `baton replay` believe the layer only after its canary: when it is not live,
// both print the same one line and exit 1.
#pragma once

#include <fmt/format.h>

#include <string>

#include "baton/exec_vulkan.hpp"
#include "output.hpp"

namespace baton::cli {

// True when the canary gave exactly its one hazard; otherwise prints why on stderr.
inline bool canary_live_or_report(const exec::CanaryResult& canary) {
  if (canary.live) return true;
  std::string ids;
  for (const auto& [id, n] : canary.log.counts) ids += fmt::format(" {} x{}", id, n);
  report_failure("oracle_not_live", "oracle not live: the canary's missing barrier gave" +
                                       (ids.empty() ? std::string(" no messages") : ids) +
                                       " instead of exactly one SYNC-HAZARD-READ-AFTER-WRITE");
  return false;
}

}  // namespace baton::cli
