// The immediate-mode front end: commands with bindings, recorded into CommandList operations.
#include <fmt/format.h>

#include "baton/record.hpp"

namespace baton {

CommandList& ImmediateRecorder::current(const char* what) {
  if (list_ == nullptr) throw Error(fmt::format("immediate recorder: {} outside begin_list/end_list", what));
  return *list_;
}

void ImmediateRecorder::begin_list(CommandList& list) {
  if (list_ != nullptr)
    throw Error(fmt::format("immediate recorder: begin_list('{}') while list '{}' is open", list.name(),
                            list_->name()));
  if (list.lifecycle() != CommandList::Lifecycle::recording)
    throw Error(fmt::format("immediate recorder: list '{}' is not recording", list.name()));
  list_ = &list;
  last_targets_.clear();
}

namespace {
Use to_use(const ImmediateRecorder::Binding& b) { return Use{b.resource, b.access, b.stages, b.range}; }
bool same_targets(const std::vector<ImmediateRecorder::Binding>& a, std::span<const ImmediateRecorder::Binding> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].resource != b[i].resource || a[i].access != b[i].access || !(a[i].range == b[i].range)) return false;
  return true;
}
}  // namespace

void ImmediateRecorder::draw(std::span<const Binding> targets, std::span<const Binding> bindings) {
  CommandList& l = current("draw");
  // A change of render targets ends the render pass: a new operation.
  if (!same_targets(last_targets_, targets)) l.request_break();
  last_targets_.assign(targets.begin(), targets.end());
  std::vector<Use> uses;
  uses.reserve(targets.size() + bindings.size());
  for (const Binding& b : targets) uses.push_back(to_use(b));
  for (const Binding& b : bindings) uses.push_back(to_use(b));
  l.record(OpKind::draw, uses);
}

void ImmediateRecorder::dispatch(std::span<const Binding> bindings) {
  CommandList& l = current("dispatch");
  last_targets_.clear();
  std::vector<Use> uses;
  for (const Binding& b : bindings) uses.push_back(to_use(b));
  l.record(OpKind::dispatch, uses);
}

void ImmediateRecorder::copy(ResourceId src, ResourceId dst, SubresourceRange src_range, SubresourceRange dst_range) {
  CommandList& l = current("copy");
  last_targets_.clear();
  const Use uses[] = {{src, Access::copy_source, kNoStages, src_range}, {dst, Access::copy_dest, kNoStages, dst_range}};
  l.record(OpKind::copy, uses);
}

void ImmediateRecorder::clear(ResourceId target, SubresourceRange range) {
  CommandList& l = current("clear");
  last_targets_.clear();
  const ResourceDesc& d = resources_[target];
  Access a = Access::copy_dest;
  if (d.type == ResourceType::texture)
    a = d.format == FormatClass::color
            ? ((d.usage & bit(Access::render_target)) ? Access::render_target : Access::unordered_access)
            : Access::depth_write;
  const Stages s = a == Access::unordered_access ? stages(Stage::compute) : kNoStages;
  const Use uses[] = {{target, a, s, range}};
  l.record(OpKind::clear, uses);
}

void ImmediateRecorder::present(ResourceId swapchain) {
  CommandList& l = current("present");
  last_targets_.clear();
  const Use uses[] = {{swapchain, Access::present, kNoStages, {}}};
  l.request_break();
  l.record(OpKind::present, uses);
}

void ImmediateRecorder::add_barrier() {
  current("add_barrier").request_break();
  last_targets_.clear();
}

void ImmediateRecorder::full_barrier() {
  current("full_barrier").full_barrier();
  last_targets_.clear();
}

CommandList& ImmediateRecorder::end_list() {
  CommandList& l = current("end_list");
  l.close();
  list_ = nullptr;
  return l;
}

}  // namespace baton
