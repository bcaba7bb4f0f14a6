// The legality rules catalog (baton/rules.hpp): the rows, their messages and the checks.
#include "baton/rules.hpp"

#include <fmt/format.h>

#include <array>
#include <bit>

namespace baton {
namespace {

constexpr std::array kRules = {
#define BATON_X(e, id, text) RuleInfo{Rule::e, id, text},
    BATON_RULES(BATON_X)
#undef BATON_X
};

std::string_view type_name(ResourceType t) {
  return t == ResourceType::buffer ? "buffer" : "texture";
}

Violation violation(Rule r, const RuleArgs& a, std::string_view field) {
  return Violation{r, rule_message(r, a), field};
}

}  // namespace

std::span<const RuleInfo> rules() {
  return kRules;
}

const RuleInfo& rule_info(Rule r) {
  return kRules.at(static_cast<size_t>(r) - 1);
}

std::optional<std::string_view> rule_id_of(std::string_view message) {
  // "... [R0204]": the id is the message's last word, so that a name quoted earlier in the message
  // cannot forge it.
  constexpr size_t kLen = 7;  // "[R0204]"
  if (message.size() < kLen || message.back() != ']') return std::nullopt;
  const std::string_view tail = message.substr(message.size() - kLen);
  if (tail[0] != '[' || tail[1] != 'R') return std::nullopt;
  for (size_t i = 2; i < 6; ++i)
    if (tail[i] < '0' || tail[i] > '9') return std::nullopt;
  const std::string_view id = tail.substr(1, 5);
  for (const RuleInfo& r : kRules)
    if (r.id == id) return r.id;
  return std::nullopt;
}

std::string rule_message(Rule r, const RuleArgs& a) {
  const RuleInfo& info = rule_info(r);
  const ResourceDesc* d = a.resource;
  const std::string stages = a.stages ? fmt::format(" ({})", stages_to_string(a.stages)) : std::string();
  const std::string text = fmt::format(
      fmt::runtime(info.text), fmt::arg("access", to_string(a.access)), fmt::arg("other", to_string(a.other)),
      fmt::arg("kind", to_string(a.kind)),
      fmt::arg("queue", a.queue_name.empty() ? to_string(a.queue) : a.queue_name), fmt::arg("stages", stages),
      fmt::arg("format", d ? to_string(d->format) : std::string_view()),
      fmt::arg("type", d ? type_name(d->type) : std::string_view()),
      fmt::arg("wanted",
               d ? type_name(d->type == ResourceType::buffer ? ResourceType::texture : ResourceType::buffer)
                 : std::string_view()),
      fmt::arg("planes", d ? d->planes : 0u), fmt::arg("max", a.max), fmt::arg("first", a.first),
      fmt::arg("second", a.second), fmt::arg("list", a.list), fmt::arg("detail", a.detail));
  return fmt::format("{} [{}]", text, info.id);
}

std::optional<Violation> check_resource(const ResourceDesc& d, bool usage) {
  RuleArgs args;
  args.resource = &d;
  if (d.type == ResourceType::buffer) {
    if (d.mips != 1 || d.layers != 1 || d.planes != 1) return violation(Rule::buffer_subresources, args, {});
    if (d.resting) return violation(Rule::buffer_resting, args, "resting");
  } else {
    if (d.mips == 0 || d.layers == 0 || d.planes == 0 || d.width == 0 || d.height == 0)
      return violation(Rule::texture_extent, args, {});
  }
  const AccessMask wrong = d.type == ResourceType::buffer ? kTextureOnlyAccesses : kBufferOnlyAccesses;
  if (d.usage & wrong) {
    args.access = static_cast<Access>(std::countr_zero(d.usage & wrong));
    return violation(Rule::usage_wrong_type, args, "usage");
  }
  if (d.type == ResourceType::texture) {
    args.max = d.format == FormatClass::depth_stencil ? 2 : 1;
    if (d.planes > args.max) return violation(Rule::planes_for_format, args, "planes");
    if (d.simultaneous_access && d.format != FormatClass::color)
      return violation(Rule::simultaneous_on_depth, args, "simultaneous_access");
    if (d.resting) {
      args.access = *d.resting;
      if (const Rule r = access_rule(d, *d.resting, usage); r != Rule::none)
        return violation(r, args, "resting");
    }
  }
  return std::nullopt;
}

std::optional<Violation> check_use(const ResourceDesc& d, Access a, Stages s, Queue q,
                                   std::string_view queue_name, bool usage) {
  const Rule r = use_rule(d, a, s, q, usage);
  if (r == Rule::none) return std::nullopt;
  RuleArgs args;
  args.resource = &d;
  args.access = a;
  args.stages = s;
  args.queue = q;
  args.queue_name = queue_name;
  return violation(r, args, r == Rule::needs_stages || r == Rule::takes_no_stages ? "stages" : "access");
}

std::optional<Violation> check_op_access(OpKind k, Access a) {
  if (op_kind_accesses(k) & bit(a)) return std::nullopt;
  RuleArgs args;
  args.kind = k;
  args.access = a;
  return violation(Rule::op_kind_cannot, args, "access");
}

std::string conflict_message(uint32_t first, Access a, uint32_t second, Access b, std::string_view where) {
  RuleArgs args;
  args.first = first;
  args.second = second;
  args.access = a;
  args.other = b;
  args.detail = where;
  const Rule r = conflict_rule(a, b);
  return rule_message(r == Rule::none ? Rule::conflicting_uses : r, args);
}

}  // namespace baton
