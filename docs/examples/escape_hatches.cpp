// The C++ escape hatches of docs/escape-hatches.md. Each region between `// [name]` and `// [/name]`
// is quoted verbatim by the page; tests/docs/escape_hatches_test.cpp compiles this file and runs
// every function, checking the barriers each one produces.
#include <baton/plan.hpp>
#include <baton/record.hpp>

namespace escape_hatches {
using namespace baton;

// [immediate]
// Immediate mode: bind and dispatch as usual. Two dispatches on different UAVs merge into one
// operation (no barrier between them). When the second depends on the first in a way Baton cannot
// see, split them with add_barrier(), or add a full barrier as well with full_barrier().
void two_dispatches(const ResourceTable& resources, CommandList& list, ResourceId a, ResourceId b, bool split,
                    bool full) {
  ImmediateRecorder rec(resources);
  rec.begin_list(list);
  const ImmediateRecorder::Binding write_a[] = {{a, Access::unordered_access, stages(Stage::compute)}};
  const ImmediateRecorder::Binding write_b[] = {{b, Access::unordered_access, stages(Stage::compute)}};
  rec.dispatch(write_a);
  if (split) rec.add_barrier();  // a new operation: a barrier point between the dispatches
  if (full) rec.full_barrier();  // and a global barrier there: every stage, every access
  rec.dispatch(write_b);
  rec.end_list();  // closes the list
}
// [/immediate]

// [entry]
// The list starts with `exposure` in the state an earlier group (here: a compute queue) left it,
// not in its resting state. The first barrier leaves the declared state (reason "entry state"),
// and the earlier group hands the resource on in that state instead of restoring it.
void tonemap(CommandList& list, ResourceId exposure) {
  list.declare_entry(exposure, Access::unordered_access, stages(Stage::compute));
  const Use read[] = {{exposure, Access::shader_resource, stages(Stage::pixel)}};
  list.record(OpKind::draw, read);
  list.close();
}
// [/entry]

// [resting]
// A texture that compute writes every frame and that is also sampled now and then. Its derived
// resting state is shader_resource (it is sampled), so every group that writes it would restore it
// and the next would leave rest again. Make unordered access its permanent state instead.
ResourceDesc histogram() {
  ResourceDesc d;
  d.name = "histogram";
  d.width = 256;
  d.usage = bit(Access::unordered_access) | bit(Access::shader_resource);
  d.resting = Access::unordered_access;
  return d;
}
// [/resting]

}  // namespace escape_hatches
