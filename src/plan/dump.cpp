#include <fmt/format.h>

#include "baton/plan.hpp"

namespace baton {

std::string dump(const ResourceTable& rt, const CommandListGroup& group, const CompiledGroup& c) {
  std::string out = fmt::format("group {} ({})\n", c.name, to_string(c.queue));
  for (size_t li = 0; li < c.lists.size(); ++li) {
    const CompiledList& l = c.lists[li];
    out += fmt::format("  list {}\n", l.name);
    for (const BarrierPoint& p : l.points) {
      const Operation& op = group.lists()[li]->ops()[p.op];
      out += fmt::format("    op {} {} {}:\n", p.op, to_string(op.kind), to_string(p.where));
      for (const Barrier& b : l.barriers_at(p)) {
        if (b.resource == kGlobalResource) {
          out += fmt::format("      global {} -> {} ({})\n", to_string(b.before), to_string(b.after), to_string(b.reason));
          continue;
        }
        const ResourceDesc& d = rt[b.resource];
        out += fmt::format("      {}[{}] {} -> {} ({}{}{})\n", d.name, range_text(b, d),
                           to_string(b.before), to_string(b.after), to_string(b.reason),
                           b.discard && b.reason != Reason::discard ? ", discard" : "",
                           b.split() ? ", " + split_reason(c, static_cast<uint32_t>(li), b, p.op) : "");
      }
    }
  }
  return out;
}

}  // namespace baton
