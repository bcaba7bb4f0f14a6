#include "triage_trace.hpp"

#include <fmt/format.h>

#include <baton/validate_names.hpp>
#include <variant>

namespace baton::triage_detail {
namespace {

using validate::format_name;
using validate::NameKind;

bool range_covers(const validate::TraceRange& r, uint32_t mip, uint32_t layer, uint32_t plane) {
  if (r.all) return true;
  return mip >= r.mip0 && mip < r.mip0 + r.mips && layer >= r.layer0 && layer < r.layer0 + r.layers &&
         plane >= r.plane0 && plane < r.plane0 + r.planes;
}

struct Sub {
  uint32_t index, mip, layer, plane;
};

Sub split(const validate::TraceResource& r, uint32_t index) {
  return Sub{index, index % r.mips, index / r.mips % r.layers, index / (r.mips * r.layers)};
}

bool covers(const validate::Subresources& s, const Sub& sub) {
  if (s.index != validate::kAllSubresources) return s.index == sub.index;
  return range_covers(s.range, sub.mip, sub.layer, sub.plane);
}

std::string list_name(const validate::Trace& t, int list) {
  return t.lists[static_cast<size_t>(list)].name;
}

}  // namespace

CommandMap map_commands(const ResourceTable& resources, const CommandList& list, const validate::Trace& trace,
                        const validate::TraceList& tlist) {
  // The recorded uses in order, flattened: (op, use index, resource name).
  struct Flat {
    int op, use;
    const std::string* name;
  };
  std::vector<Flat> flat;
  for (size_t o = 0; o < list.ops().size(); ++o)
    for (size_t u = 0; u < list.ops()[o].uses.size(); ++u)
      flat.push_back(
          {static_cast<int>(o), static_cast<int>(u), &resources[list.ops()[o].uses[u].resource].name});
  CommandMap m;
  const size_t n = tlist.commands.size();
  m.op.assign(n, -1);
  m.use.assign(n, -1);
  size_t next = 0;  // first recorded use not matched yet
  int last_op = -1;
  for (size_t c = 0; c < n; ++c) {
    const auto* use = std::get_if<validate::UseCmd>(&tlist.commands[c]);
    if (use == nullptr) continue;
    const std::string& name = trace.resources[static_cast<size_t>(use->resource)].name;
    size_t k = next;
    while (k < flat.size() && *flat[k].name != name) ++k;
    if (k < flat.size()) {
      m.op[c] = flat[k].op;
      m.use[c] = flat[k].use;
      last_op = flat[k].op;
      next = k + 1;
    } else {  // not declared: it happened inside the current operation (or before the first)
      m.op[c] = last_op >= 0 ? last_op : (flat.empty() ? -1 : flat[next < flat.size() ? next : 0].op);
    }
  }
  // Non-use commands: the operation of the next use (its before-point), else the last operation.
  int following = list.ops().empty() ? -1 : static_cast<int>(list.ops().size()) - 1;
  for (size_t c = n; c-- > 0;) {
    if (std::holds_alternative<validate::UseCmd>(tlist.commands[c]))
      following = m.op[c];
    else
      m.op[c] = following;
  }
  return m;
}

NameFamily state_family(const validate::Trace& trace, const validate::TraceResource& r, bool enhanced) {
  if (trace.api == validate::Api::vulkan) return r.buffer ? NameFamily::vk_access : NameFamily::vk_layout;
  if (!enhanced) return NameFamily::d3d12_state;
  return r.buffer ? NameFamily::d3d12_access : NameFamily::d3d12_layout;
}

std::string use_state_name(const validate::Trace& trace, const validate::UseState& as, bool buffer) {
  if (trace.api == validate::Api::d3d12) return format_name(NameKind::d3d12_state, as.d3d12_state);
  std::string s = fmt::format("{} {}", format_name(NameKind::vk_stage, as.vk_stage),
                              format_name(NameKind::vk_access, as.vk_access));
  if (!buffer) s += " " + format_name(NameKind::vk_layout, as.vk_layout);
  return s;
}

bool use_writes(const validate::Trace& trace, const validate::UseState& as) {
  if (trace.api == validate::Api::d3d12)
    return name_writes(NameFamily::d3d12_state, format_name(NameKind::d3d12_state, as.d3d12_state));
  return name_writes(NameFamily::vk_access, format_name(NameKind::vk_access, as.vk_access));
}

triage::Observed observe(const validate::Trace& trace, const validate::Message& m, int resource,
                         uint32_t subresource, const std::set<std::string>& recorded) {
  triage::Observed o;
  const validate::TraceResource& res = trace.resources[static_cast<size_t>(resource)];
  const Sub sub = split(res, subresource);
  // The state as created.
  if (trace.api == validate::Api::vulkan)
    o.state = res.buffer ? "NONE" : format_name(NameKind::vk_layout, res.initial);
  else
    o.state = res.initial_is_layout && !res.buffer ? format_name(NameKind::d3d12_layout, res.initial)
                                                   : format_name(NameKind::d3d12_state, res.initial);
  auto set_by = [&](int list, int command, std::string what, std::string state) {
    o.by_list = list_name(trace, list);
    o.by_command = command;
    o.by_in_recording = recorded.count(o.by_list) != 0;
    o.by_what = std::move(what);
    o.state = std::move(state);
  };
  for (const validate::TraceSubmission& s : trace.submissions) {
    for (int li : s.lists) {
      const validate::TraceList& l = trace.lists[static_cast<size_t>(li)];
      for (size_t ci = 0; ci < l.commands.size(); ++ci) {
        const int c = static_cast<int>(ci);
        if (!m.list.empty() && l.name == m.list && c == m.command) {
          if (const auto* u = std::get_if<validate::UseCmd>(&l.commands[ci]); u && u->resource == resource) {
            o.use_as = use_state_name(trace, u->as, res.buffer);
            o.use_writes = use_writes(trace, u->as);
          }
          return o;
        }
        const validate::Command& cmd = l.commands[ci];
        if (const auto* u = std::get_if<validate::UseCmd>(&cmd)) {
          if (u->resource == resource && covers(u->subresources, sub) && use_writes(trace, u->as)) {
            o.last_write_list = l.name;
            o.last_write_command = c;
          }
          continue;
        }
        if (const auto* cl = std::get_if<validate::ClearCmd>(&cmd)) {
          if (cl->resource == resource && covers(cl->subresources, sub)) {
            o.last_write_list = l.name;
            o.last_write_command = c;
          }
          continue;
        }
        const auto* b = std::get_if<validate::BarrierCmd>(&cmd);
        if (b == nullptr) continue;
        for (const validate::Barrier& bar : b->barriers) {
          if (const auto* t = std::get_if<validate::LegacyTransition>(&bar)) {
            if (t->resource != resource || t->split == validate::Split::begin_only) continue;
            if (t->subresource != validate::kAllSubresources && t->subresource != sub.index) continue;
            const std::string before = format_name(NameKind::d3d12_state, t->before);
            const std::string after = format_name(NameKind::d3d12_state, t->after);
            set_by(li, c, fmt::format("transition {} -> {}", before, after), after);
          } else if (const auto* a = std::get_if<validate::LegacyAliasing>(&bar)) {
            if (a->after != resource) continue;
            o.activated_list = l.name;
            o.activated_command = c;
            set_by(li, c, "aliasing barrier activating it (contents undefined)", o.state);
          } else if (const auto* e = std::get_if<validate::EnhancedBarrier>(&bar)) {
            if (e->resource != resource || !range_covers(e->range, sub.mip, sub.layer, sub.plane)) continue;
            if (e->kind == validate::EnhancedKind::texture) {
              const std::string before = format_name(NameKind::d3d12_layout, e->layout_before);
              const std::string after = format_name(NameKind::d3d12_layout, e->layout_after);
              set_by(li, c, fmt::format("barrier layout {} -> {}", before, after), after);
            } else {
              const std::string before = format_name(NameKind::d3d12_access, e->access_before);
              const std::string after = format_name(NameKind::d3d12_access, e->access_after);
              set_by(li, c, fmt::format("barrier access {} -> {}", before, after), after);
            }
          } else if (const auto* v = std::get_if<validate::VkBarrier>(&bar)) {
            if (v->resource != resource || !range_covers(v->range, sub.mip, sub.layer, sub.plane)) continue;
            if (v->kind == validate::VkBarrierKind::image) {
              const std::string before = format_name(NameKind::vk_layout, v->old_layout);
              const std::string after = format_name(NameKind::vk_layout, v->new_layout);
              set_by(li, c, fmt::format("image barrier {} -> {}", before, after), after);
            } else {
              const std::string before = format_name(NameKind::vk_access, v->src_access);
              const std::string after = format_name(NameKind::vk_access, v->dst_access);
              set_by(li, c, fmt::format("buffer barrier {} -> {}", before, after), after);
            }
          }
        }
      }
    }
  }
  return o;
}

}  // namespace baton::triage_detail
