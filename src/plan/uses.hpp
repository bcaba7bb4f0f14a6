// Small facts about one operation's uses, shared by the plan and the compiler.
#pragma once

#include <vector>

#include "baton/record.hpp"

namespace baton::plan_detail {

// Whether some resource has two uses in the operation: the only case in which uses of one operation
// can conflict or merge. Operations are small, so a pairwise look beats sorting; past 8 uses the
// answer is a conservative "maybe" (true), and callers take their general path.
inline bool shares_a_resource(const std::vector<Use>& uses) {
  const size_t n = uses.size();
  if (n > 8) return true;
  for (size_t i = 1; i < n; ++i)
    for (size_t j = 0; j < i; ++j)
      if (uses[i].resource == uses[j].resource) return true;
  return false;
}

}  // namespace baton::plan_detail
