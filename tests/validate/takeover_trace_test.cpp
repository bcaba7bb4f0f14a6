// Plans with resources taking over memory, written as traces: the D3D12 legacy trace carries the
// aliasing barrier naming the previous occupant, and every API's trace validates clean.
#include <gtest/gtest.h>

#include <baton/validate.hpp>
#include <baton/validated_compile.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace baton {
namespace {

// a (placed render target) is cleared and copied out; the buffer x takes over a's memory; the placed
// texture b takes over x's.
constexpr const char* kTakeover = R"({
  "resources": [
    {"name": "a", "type": "texture", "width": 64, "height": 64, "placed": true, "usage": ["render_target", "copy_source"]},
    {"name": "x", "type": "buffer", "size": 16384, "usage": ["copy_dest", "copy_source"]},
    {"name": "b", "type": "texture", "width": 64, "height": 64, "placed": true, "usage": ["render_target", "copy_source"]},
    {"name": "out_a", "type": "texture", "width": 64, "height": 64, "usage": ["copy_dest", "copy_source"]},
    {"name": "out_x", "type": "buffer", "size": 16384, "usage": ["copy_dest"]}
  ],
  "groups": [{"name": "frame", "queue": "direct", "lists": [{"name": "l", "ops": [
    {"kind": "clear", "uses": [{"resource": "a", "access": "render_target"}]},
    {"kind": "copy", "uses": [{"resource": "a", "access": "copy_source"}, {"resource": "out_a", "access": "copy_dest"}]},
    {"kind": "clear", "uses": [{"resource": "x", "access": "copy_dest"}]},
    {"kind": "copy", "uses": [{"resource": "x", "access": "copy_source"}, {"resource": "out_x", "access": "copy_dest"}]},
    {"kind": "clear", "uses": [{"resource": "b", "access": "render_target"}]},
    {"kind": "copy", "uses": [{"resource": "b", "access": "copy_source"}, {"resource": "out_a", "access": "copy_dest"}]}
  ]}]}]
})";

std::string trace_for(Api api) {
  Recording rec = load_recording(kTakeover, "takeover");
  History h = fresh_history(rec.resources);
  h[1].takeover = Takeover{sync::copy, bit(Access::copy_source), 0};
  h[2].takeover = Takeover{sync::copy, bit(Access::copy_source), 1};
  for (ResourceId r : {0u, 1u, 2u}) h[r].dies = true;
  const std::vector<CommandListGroup*> gs = rec.group_ptrs();
  const CompileResult c = compile_all(rec.resources, gs, h);
  std::vector<const CommandListGroup*> cgs(gs.begin(), gs.end());
  return trace_of_plan(rec.resources, cgs, c.groups, api, h);
}

// Every {"type": "aliasing"} object of the trace as "before -> after".
void collect_aliasing(const nlohmann::json& j, std::vector<std::string>& out) {
  if (j.is_object() && j.value("type", "") == "aliasing")
    out.push_back((j["before"].is_null() ? std::string("NULL") : j["before"].get<std::string>()) + " -> " +
                  j["after"].get<std::string>());
  if (j.is_structured())
    for (const auto& e : j) collect_aliasing(e, out);
}

TEST(TakeoverTrace, LegacyTraceNamesThePreviousOccupantInTheAliasingBarrier) {
  std::vector<std::string> got;
  collect_aliasing(nlohmann::json::parse(trace_for(Api::d3d12_legacy)), got);
  EXPECT_EQ(got, (std::vector<std::string>{"NULL -> a", "a -> x", "x -> b"}));
}

TEST(TakeoverTrace, EveryApiValidatesClean) {
  for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) {
    const validate::ValidationResult v = validate::validate(validate::load_trace(trace_for(api)));
    EXPECT_TRUE(v.clean()) << to_string(api) << ": " << (v.messages.empty() ? "" : v.messages.front().text);
  }
}

}  // namespace
}  // namespace baton
