// The legality rules catalog, kept as data: one row per rule about a resource declaration, one use
// (or entry state, or resting access) of a resource, or one operation. Each row has a stable id
// (R01xx resources, R02xx uses, R03xx operations, R04xx entry states and lists, R05xx a frame graph's
// order, outputs and queues) and a message
// template. The recording loader, the frame-graph loader and validator, and plan() all check
// through the functions below, so they apply the same rules; each adds only its location (file,
// JSON pointer, group/list/op or pass, resource). A rule's message ends with its id in brackets
// ("... [R0204]"), which rule_id_of() reads back and `--format json` reports as the error's id.
// Tests assert the id, never the prose.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "baton/core.hpp"

namespace baton {

// X(enumerator, id, message template). Template fields: {access}, {other} (accesses), {kind} (op
// kind), {queue}, {stages} (" (pixel)" or empty), {format}, {type} (buffer/texture), {wanted}
// (the other type), {planes}, {max}, {first}, {second} (use indices), {list}, {detail}.
#define BATON_RULES(X)                                                                                       \
  /* ---- resource declarations ---- */                                                                      \
  X(usage_wrong_type, "R0101", "usage {access} is for {wanted}s, but the resource is a {type}")              \
  X(buffer_subresources, "R0102", "a buffer has exactly one subresource (no mips, layers or planes)")        \
  X(buffer_resting, "R0103", "buffers have no resting layout; remove \"resting\"")                           \
  X(texture_extent, "R0104", "width, height, mips, layers and planes must be at least 1")                    \
  X(planes_for_format, "R0105",                                                                              \
    "a {format} texture has at most {max} plane(s), but \"planes\" is {planes} (depth_stencil has 2: depth " \
    "and stencil)")                                                                                          \
  X(simultaneous_on_depth, "R0106",                                                                          \
    "\"simultaneous_access\" is not allowed on a {format} texture (D3D12 forbids it with depth-stencil)")    \
  /* ---- one use, entry state or resting access of a resource ---- */                                       \
  X(texture_access_on_buffer, "R0201", "access {access} is for textures, but the resource is a buffer")      \
  X(buffer_access_on_texture, "R0202", "access {access} is for buffers, but the resource is a texture")      \
  X(present_not_swapchain, "R0203", "access present needs a swapchain texture (\"swapchain\": true)")        \
  X(depth_access_on_color, "R0204",                                                                          \
    "access {access} needs a depth format, but the texture's format is color")                               \
  X(render_target_on_depth, "R0205",                                                                         \
    "access render_target needs a color format, but the texture's format is {format}")                       \
  X(not_in_usage, "R0206", "access {access} is not in the resource's \"usage\"")                             \
  X(needs_stages, "R0207",                                                                                   \
    "access {access} is performed by shaders and needs \"stages\" (vertex, pixel, compute or all_shading)")  \
  X(takes_no_stages, "R0208", "\"stages\" applies only to shader accesses, not to {access}")                 \
  X(queue_cannot, "R0209", "access {access}{stages} cannot be performed on the {queue} queue")               \
  X(range_out_of_bounds, "R0210", "{detail}")                                                                \
  /* ---- one operation (a frame-graph pass for the conflicts) ---- */                                       \
  X(op_kind_cannot, "R0301", "a {kind} op cannot perform access {access}")                                   \
  X(conflicting_uses, "R0302",                                                                               \
    "use {first} ({access}) and use {second} ({other}) touch overlapping subresources ({detail}) in one "    \
    "operation and one of them writes: there is no single state for both")                                   \
  X(present_mixed, "R0303",                                                                                  \
    "use {first} ({access}) and use {second} ({other}) touch overlapping subresources ({detail}) in one "    \
    "operation: present cannot be combined with another access")                                             \
  /* ---- entry states and lists ---- */                                                                     \
  X(entry_unused, "R0401", "the resource has an entry state but the list does not use it")                   \
  X(entry_not_first_list, "R0402",                                                                           \
    "the resource is first used in the group by list '{list}'; declare its entry state there")               \
  X(entry_twice, "R0403", "entry state declared twice for this resource")                                    \
  X(list_queue_mismatch, "R0404", "list '{list}' is for the {queue} queue, but its group is not")       \
  /* ---- a frame graph's order, outputs and queues (the graph validator and transitions) ---- */            \
  X(after_itself, "R0501", "a pass cannot run after itself")                                                 \
  X(dependency_cycle, "R0502", "dependency cycle {detail}")                                                  \
  X(ambiguous_write_order, "R0503",                                                                          \
    "ambiguous write order: {detail} also writes it and no dependency orders the two (read it, or add "      \
    "\"after\")")                                                                                            \
  X(transient_read_first, "R0504", "transient resource read before any pass writes it")                      \
  X(output_not_written, "R0505", "no pass writes it, so the output would be culled")                         \
  X(output_transient, "R0506",                                                                               \
    "a transient resource cannot be an output (its memory is reclaimed when the frame ends)")                \
  X(reads_without_shared_state, "R0507",                                                                     \
    "read on several queues with no one read state all of them can hold ({detail} reads it too); order "     \
    "the readers with \"after\"")

enum class Rule : uint8_t {
  none,
#define BATON_X(e, id, text) e,
  BATON_RULES(BATON_X)
#undef BATON_X
};

struct RuleInfo {
  Rule rule;
  std::string_view id;    // "R0204"
  std::string_view text;  // message template
};
// Every row of the catalog, in id order.
std::span<const RuleInfo> rules();
const RuleInfo& rule_info(Rule r);  // r != Rule::none
// The id a rule's message ends with ("... [R0204]"), or nullopt for a message of no rule.
std::optional<std::string_view> rule_id_of(std::string_view message);

// What a message template may name; unset fields print empty.
struct RuleArgs {
  Access access = Access::shader_resource, other = Access::shader_resource;
  OpKind kind = OpKind::draw;
  Queue queue = Queue::direct;
  Stages stages = kNoStages;
  const ResourceDesc* resource = nullptr;  // {format}, {type}, {wanted}, {planes}
  uint32_t max = 0, first = 0, second = 0;
  std::string_view list, detail;
  std::string_view queue_name;  // instead of to_string(queue) (the frame graph says "graphics")
};
// The rule's message, template filled in and the id appended: "... [R0204]".
std::string rule_message(Rule r, const RuleArgs& a);

// A broken rule: its message, and the declaration field it is about (a JSON key, for the loaders'
// pointers: "usage", "resting", "planes", "simultaneous_access", "access", "stages"; may be empty).
struct Violation {
  Rule rule = Rule::none;
  std::string message;
  std::string_view field;
};

// ---- Checks. The inline classifiers cost a few comparisons and no string; check_* word it.

// Whether access `a` can be used on resource `d` at all (buffer/texture, format, swapchain, and with
// `usage` the declared creation usage).
constexpr Rule access_rule(const ResourceDesc& d, Access a, bool usage = true) {
  const AccessMask b = bit(a);
  if (d.type == ResourceType::buffer) {
    if (b & kTextureOnlyAccesses) return Rule::texture_access_on_buffer;
  } else if (b & kBufferOnlyAccesses) {
    return Rule::buffer_access_on_texture;
  }
  if (a == Access::present && !d.swapchain) return Rule::present_not_swapchain;
  if (has_fact(a, access_facts::depth_format) && d.format == FormatClass::color)
    return Rule::depth_access_on_color;
  if (has_fact(a, access_facts::color_format) && d.format != FormatClass::color)
    return Rule::render_target_on_depth;
  // Both APIs need the creation flags/usage bits for every use (Vulkan usage, D3D12 ALLOW_* flags);
  // swap-chain images are created for presentation.
  if (usage && d.usage != 0 && !(d.usage & b) && !has_fact(a, access_facts::no_usage))
    return Rule::not_in_usage;
  return Rule::none;
}
// Which rule a use that is not plainly legal breaks, if any (use_rule's slow part, out of its line).
constexpr Rule use_rule_broken(const ResourceDesc& d, Access a, Stages s, Queue q, bool usage) {
  if (const Rule r = access_rule(d, a, usage); r != Rule::none) return r;
  if (is_shader_access(a) && s == kNoStages) return Rule::needs_stages;
  if (!is_shader_access(a) && s != kNoStages) return Rule::takes_no_stages;
  if (!queue_allows(q, a, s)) return Rule::queue_cannot;
  return Rule::none;
}
// One use (or entry state) in stages `s` from a list or pass on queue `q`. `usage`: whether the
// declared usage is checked (R0206): the loaders check it for every file; plan() and the graph
// validator, which also take programmatic input, leave it to the caller (usage is a creation hint
// there, and a use outside it a device-time error the caller owns).
[[gnu::always_inline]] constexpr Rule use_rule(const ResourceDesc& d, Access a, Stages s, Queue q,
                                               bool usage = true) {
  // The common case (legal) as one mask test and two comparisons, inline at every caller (the
  // planner asks for every use); anything else takes use_rule_broken.
  constexpr AccessMask depth = core_detail::accesses_with(access_facts::depth_format);
  constexpr AccessMask color = core_detail::accesses_with(access_facts::color_format);
  const AccessMask b = bit(a);
  const AccessMask illegal = d.type == ResourceType::buffer
                                 ? kTextureOnlyAccesses
                                 : kBufferOnlyAccesses | (d.swapchain ? 0 : bit(Access::present)) |
                                       (d.format == FormatClass::color ? depth : color);
  if (!(illegal & b) && (!usage || d.usage == 0) && ((kShaderAccesses & b) != 0) != (s == kNoStages) &&
      (q == Queue::direct || queue_allows(q, a, s)))
    return Rule::none;
  return use_rule_broken(d, a, s, q, usage);
}
// Two uses of overlapping subresources in one operation: reads merge, the same access merges; a
// write with another access, or present with another access, has no single state.
constexpr Rule conflict_rule(Access a, Access b) {
  if (a == b) return Rule::none;
  if (a == Access::present || b == Access::present) return Rule::present_mixed;
  if (is_write(a) || is_write(b)) return Rule::conflicting_uses;
  return Rule::none;
}
constexpr bool conflicts(Access a, Access b) {
  return conflict_rule(a, b) != Rule::none;
}

// The declaration itself: extents, planes for the format, usage entries of the resource's type,
// simultaneous access, and the resting access (every access rule of a use applies to it; the declared
// usage only with `usage`, as for uses: ResourceTable::add, which takes programmatic tables, does not).
std::optional<Violation> check_resource(const ResourceDesc& d, bool usage = true);
// One use or entry state (access_rule, then stages, then the queue). `queue_name` replaces the
// queue's name in the message when not empty.
std::optional<Violation> check_use(const ResourceDesc& d, Access a, Stages s, Queue q,
                                   std::string_view queue_name = {}, bool usage = true);
// An access of an operation of kind `k`.
std::optional<Violation> check_op_access(OpKind k, Access a);
// The message of a conflict between use `first` and use `second` of one operation (conflict_rule
// of their accesses), on the overlapping subresources `where` (to_string(Box)).
std::string conflict_message(uint32_t first, Access a, uint32_t second, Access b, std::string_view where);

}  // namespace baton
