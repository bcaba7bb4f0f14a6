#include "exec_log.hpp"

#include <bit>

namespace baton::validate::vulkan {

uint64_t ExecLog::call_adds(uint64_t x, uint64_t call) const {
  const uint64_t end = call + 1 < starts_.size() ? starts_[call + 1] : pairs_.size();
  uint64_t add = 0;
  for (uint64_t i = starts_[call]; i < end; ++i)
    if ((x & pairs_[i].first) != 0) add |= pairs_[i].second;
  return add;
}

uint64_t ExecLog::table_adds(const Table& t, uint64_t x) {
  uint64_t add = 0;
  for (; x != 0; x &= x - 1) add |= t[static_cast<unsigned>(std::countr_zero(x))];
  return add;
}

void ExecLog::append(std::span<const Pair> pairs) {
  if (pairs.empty()) return;
  starts_.push_back(pairs_.size());
  pairs_.insert(pairs_.end(), pairs.begin(), pairs.end());
  const uint64_t n = starts_.size();
  // Every block that this call completes gets its table: the lowest from the calls, the others from
  // their two halves (the right half applied to what the left half leaves: x plus its additions).
  for (unsigned k = kMinLevel; n % (uint64_t{1} << k) == 0; ++k) {
    const size_t level = k - kMinLevel;
    if (levels_.size() <= level) levels_.resize(level + 1);
    Table t{};
    const uint64_t first = n - (uint64_t{1} << k);
    for (unsigned s = 0; s < 64; ++s) {
      const uint64_t bit = uint64_t{1} << s;
      if (k == kMinLevel) {
        uint64_t x = bit, add = 0;
        for (uint64_t c = first; c < n; ++c) {
          const uint64_t a = call_adds(x, c);
          x |= a;
          add |= a;
        }
        t[s] = add;
      } else {
        const Table& left = levels_[level - 1][2 * (first >> k)];
        const Table& right = levels_[level - 1][2 * (first >> k) + 1];
        t[s] = left[s] | table_adds(right, bit | left[s]);
      }
    }
    levels_[level].push_back(t);
  }
}

uint64_t ExecLog::added(uint64_t x, uint64_t from, uint64_t to) const {
  uint64_t add = 0;
  uint64_t p = from;
  while (p < to) {
    // The largest complete aligned block that starts at p and ends by `to`, else one call.
    unsigned best = 0;
    for (unsigned k = kMinLevel; k - kMinLevel < levels_.size(); ++k) {
      const uint64_t len = uint64_t{1} << k;
      if (p % len != 0 || p + len > to || (p >> k) >= levels_[k - kMinLevel].size()) break;
      best = k;
    }
    const uint64_t a = best ? table_adds(levels_[best - kMinLevel][p >> best], x) : call_adds(x, p);
    x |= a;
    add |= a;
    p += best ? uint64_t{1} << best : 1;
  }
  return add;
}

}  // namespace baton::validate::vulkan
