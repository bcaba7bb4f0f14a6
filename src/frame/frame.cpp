// One way in, one compiled frame (include/frame/baton/frame.hpp).
#include "baton/frame.hpp"

#include "baton/graph_recording.hpp"
#include "baton/input.hpp"
#include "baton/validated_compile.hpp"

namespace baton {
namespace {
// Messages start with the source, once.
[[noreturn]] void rethrow_named(const std::string& source, const std::exception& e) {
  const std::string m = e.what();
  throw Error(input::located(source, m));
}
}  // namespace

FrameInput parse_frame_input(std::string_view text, std::string source) {
  FrameInput in;
  in.source = std::move(source);
  const nlohmann::json j = input::parse(text, in.source);
  if (graph::is_graph_json(j))
    in.graph = graph::load_graph(j, in.source);
  else
    in.recording = load_recording_json(j, in.source);
  return in;
}

FrameInput load_frame_input(const std::string& path) {
  return parse_frame_input(input::read(path), input::source_name(path));
}

CompiledFrame compile_frame(FrameInput in, const graph::CompileOptions& options, const InspectGraph& inspect) {
  CompiledFrame f;
  f.source = in.source;
  try {
    if (in.is_graph()) {
      auto g = std::make_shared<const graph::Graph>(std::move(*in.graph));
      auto r = std::make_shared<graph::GraphCompileResult>(graph::compile_graph(*g, options));
      if (inspect) inspect(*g, *r);
      f.from_graph = true;
      f.findings = r->findings;
      f.memory = graph::plan_memory(*g, r->aliasing);
      f.history_in = r->trans.history_in;
      f.compiled = std::move(r->trans.compiled);
      r->trans.compiled.clear();
      f.rec = graph::recording_from(std::move(r->trans));  // moves the table, lists and groups only
      f.graph = std::move(g);
      f.graph_result = std::move(r);
    } else {
      f.rec = std::move(*in.recording);
      f.history_in = fresh_history(f.rec.resources);
      CompileResult cr = compile_all(f.rec.resources, f.rec.group_ptrs(), f.history_in);
      f.compiled = std::move(cr.groups);
      if (options.split_barriers) mark_split_barriers(f.rec.group_ptrs(), f.compiled);
    }
  } catch (const Error& e) {
    rethrow_named(f.source, e);
  }
  return f;
}

std::string trace_of(const CompiledFrame& f, Api api) {
  try {
    return trace_of_plan(f.rec.resources, f.rec.group_ptrs(), f.compiled, api, f.history_in,
                         f.memory.empty() ? nullptr : &f.memory);
  } catch (const Error& e) {
    rethrow_named(f.source, e);
  }
}

}  // namespace baton
