// The input gate's parser for large documents: parse() with the elements of one nested array left
// out of the document as it is read, kept as their text instead (the trace loader's commands: a
// trace is mostly commands, and a JSON document costs about 8 heap bytes per byte of its text). The
// whole text is still checked as parse() checks it (bytes, syntax with line:column, duplicate keys
// with their JSON pointer, nesting), so re-parsing a kept element cannot fail.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string_view>
#include <vector>

namespace baton::input {

// The objects at /OUTER/i/INNER/j (e.g. /lists/i/commands/j) of a root object. Each is replaced in the
// document by a discarded value (nlohmann::json::value_t::discarded, which JSON text cannot produce)
// and its text [begin, end) is appended to `slices`, in document order. Other values at those places
// (not objects) stay in the document, for the loader to report.
struct DeferredElements {
  std::string_view outer, inner;
  struct Slice {
    size_t begin = 0, end = 0;
  };
  std::vector<Slice> slices;
};

// parse(text, source), deferring `d`'s elements.
nlohmann::json parse(std::string_view text, std::string_view source, DeferredElements& d);

}  // namespace baton::input
