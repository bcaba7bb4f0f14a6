// A whole recording as one value: resources, lists and groups, as loaded from the JSON recording
// format (docs/recording-format.md) or built in code (the demo frame).
#pragma once

#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "baton/record.hpp"

namespace baton {

struct Recording {
  ResourceTable resources;
  std::vector<std::unique_ptr<CommandList>> lists;  // lists made one by one (loaders, the demo)
  ListStore store;  // lists made in one array each (a frame graph's, recording_from): views of its arrays
  GroupList groups;  // in execution order: groups made one by one, or views of store.groups

  std::vector<CommandListGroup*> group_ptrs() const;
  // Every list: `lists`, then `store.lists`.
  template <class F>
  void for_each_list(F&& f) const {
    for (const auto& l : lists) f(*l);
    for (const CommandList& l : store.lists) f(l);
  }
};

// Parses the JSON recording format. Throws Error with one line that names the file position
// (line:column for syntax errors, the JSON path otherwise), group, list, op and resource.
Recording load_recording(std::string_view json_text, std::string_view source_name = "<input>");
// The same for JSON already parsed by the input gate (input::parse, include/core/baton/input.hpp).
Recording load_recording_json(const nlohmann::json& root, std::string_view source_name = "<input>");
// Reads `path` through the input gate (input::read: regular files only, "-" is standard input, at
// most 256 MiB) and loads it.
Recording load_recording_file(const std::string& path);
// Writes a recording in the same format, deterministically (defaults omitted, one use per line), so
// that load_recording(save_recording(r)) describes the same work as r.
std::string save_recording(const Recording& r);

// The built-in demo: a deferred-renderer frame (shadow, G-buffer, SSAO, lighting, particles
// simulate + draw, TAA, bloom, composite, present) in several lists and two groups.
Recording demo_recording();

}  // namespace baton
