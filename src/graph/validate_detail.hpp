// validate_into's stamps, for tests. The walk marks each resource's record with the pass that last used
// it, as this call's base + the pass's index; the base moves past every call's passes, so no record is
// cleared per call, and all of them are cleared when the next call's stamps would pass 2^32 - 1.
// Reaching that wrap takes about 4 * 10^9 compiled passes: these let a test put the base next to it.
#pragma once
#include <cstdint>

namespace baton::graph::detail {
// The base the calling thread's next validate_into starts from (0: none yet; the call then starts at 1).
uint32_t validate_epoch();
void set_validate_epoch(uint32_t epoch);
}  // namespace baton::graph::detail
