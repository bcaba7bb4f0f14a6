// Names shared by the frame printers (JSON for the page, dot).
#pragma once

#include <string>

#include "baton/record.hpp"

namespace baton::view {

// Frame graphs call the direct queue "graphics" (docs/graph-format.md); the pictures do too.
inline std::string queue_label(Queue q) {
  return q == Queue::direct ? "graphics" : std::string(to_string(q));
}

}  // namespace baton::view
