// The legality rules catalog (include/core/baton/rules.hpp): every rule fires with its id from each path
// that can reach it: the recording loader (and plan() after it, for the rules only a whole group
// shows), the frame-graph loader and validator, and plan() / ResourceTable / CommandList on a
// programmatic recording. Each case asserts the id, never the prose.
#include "baton/rules.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <string>

#include "../plan/builder.hpp"
#include "baton/graph.hpp"
#include "baton/plan.hpp"
#include "baton/recording.hpp"

namespace baton {
namespace {

using test::Rec;
using test::use;

// The id of the error `f` throws; "no error" when it throws none.
std::string id_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    const std::optional<std::string_view> id = rule_id_of(e.what());
    return id ? std::string(*id) : "no id in: " + std::string(e.what());
  }
  return "no error";
}

// A recording of one group on `queue` with one list: resources, optional entry states, ops.
std::string recording(const std::string& resources, const std::string& ops,
                      const std::string& queue = "direct", const std::string& entry = "") {
  return R"({"resources": [)" + resources + R"(], "groups": [{"name": "g", "queue": ")" + queue +
         R"(", "lists": [{"name": "l", )" + (entry.empty() ? "" : R"("entry": [)" + entry + "], ") +
         R"("ops": [)" + ops + "]}]}]}";
}
// Loads the recording and plans it, as `baton compile` does.
std::string recording_id(const std::string& text) {
  return id_of([&] {
    const Recording rec = load_recording(text, "rec.json");
    (void)plan(rec.resources, rec.group_ptrs(), fresh_history(rec.resources));
  });
}
// Loads and validates the frame graph, as `baton compile` does first.
std::string graph_id(const std::string& resources, const std::string& passes) {
  const std::string text = R"({"resources": [)" + resources + R"(], "passes": [)" + passes + "]}";
  return id_of([&] { (void)graph::validate(graph::load_graph_text(text, "graph.json")); });
}
// One op of one list in one group, planned.
std::string plan_id(Rec& r, OpKind kind, std::vector<Use> uses, Queue q = Queue::direct) {
  return id_of([&] {
    CommandList& l = r.list("l", q);
    Operation op;
    op.kind = kind;
    op.uses = std::move(uses);
    l.append_operation(std::move(op));
    r.group("g", {&l}, q);
    (void)plan(r.rt, r.ptrs(), fresh_history(r.rt));
  });
}

constexpr const char* kColor = R"({"name": "c", "type": "texture", "width": 8, "height": 8})";
constexpr const char* kDepth =
    R"({"name": "c", "type": "texture", "width": 8, "height": 8, "format": "depth"})";
constexpr const char* kBuffer = R"({"name": "c", "type": "buffer", "size": 64})";
std::string draw(const std::string& uses) {
  return R"({"kind": "draw", "uses": [)" + uses + "]}";
}
std::string pass(const std::string& uses, const std::string& queue = "graphics") {
  return R"({"name": "p", "side_effect": true, "queue": ")" + queue + R"(", "uses": [)" + uses + "]}";
}
std::string u(const std::string& access, const std::string& extra = "") {
  return R"({"resource": "c", "access": ")" + access + "\"" + extra + "}";
}

ResourceDesc texture(FormatClass f = FormatClass::color) {
  ResourceDesc d;
  d.name = "c";
  d.width = d.height = 8;
  d.format = f;
  return d;
}
ResourceDesc buffer() {
  ResourceDesc d;
  d.name = "c";
  d.type = ResourceType::buffer;
  d.size = 64;
  return d;
}
ResourceDesc buffer2() {
  ResourceDesc d = buffer();
  d.name = "d";
  return d;
}
std::string add_id(const ResourceDesc& d) {
  return id_of([&] {
    ResourceTable t;
    t.add(d);
  });
}

void expect_id(const std::string& got, const char* id, const char* path) {
  EXPECT_EQ(got, id) << path;
}

TEST(RulesEveryPath, ResourceDeclarations) {
  // R0101: a usage entry of the other resource type.
  expect_id(recording_id(
                recording(R"({"name": "c", "type": "buffer", "size": 64, "usage": ["render_target"]})", "")),
            "R0101", "recording");
  expect_id(graph_id(R"({"name": "c", "type": "buffer", "size": 64, "usage": ["render_target"]})",
                     pass(u("copy_dest"))),
            "R0101", "graph");
  ResourceDesc d = texture();
  d.usage = bit(Access::vertex_buffer);
  expect_id(add_id(d), "R0101", "programmatic");
  // R0102, R0103, R0104: the file formats have no way to say these (their keys are refused or bounded).
  d = buffer();
  d.mips = 2;
  expect_id(add_id(d), "R0102", "programmatic");
  d = buffer();
  d.resting = Access::copy_dest;
  expect_id(add_id(d), "R0103", "programmatic");
  d = texture();
  d.layers = 0;
  expect_id(add_id(d), "R0104", "programmatic");
  // R0105: planes the format does not have.
  expect_id(recording_id(recording(R"({"name": "c", "type": "texture", "planes": 2})", "")), "R0105",
            "recording");
  expect_id(
      graph_id(R"({"name": "c", "type": "texture", "format": "depth", "planes": 2})", pass(u("depth_write"))),
      "R0105", "graph");
  d = texture(FormatClass::depth_stencil);
  d.planes = 3;
  expect_id(add_id(d), "R0105", "programmatic");
  d.planes = 2;
  EXPECT_EQ(add_id(d), "no error") << "depth_stencil has two planes";
  // R0106: simultaneous access on a depth texture.
  expect_id(recording_id(recording(
                R"({"name": "c", "type": "texture", "format": "depth", "simultaneous_access": true})", "")),
            "R0106", "recording");
  expect_id(graph_id(R"({"name": "c", "type": "texture", "format": "depth_stencil", "planes": 2,
                        "simultaneous_access": true})",
                     pass(u("depth_write"))),
            "R0106", "graph");
  d = texture(FormatClass::depth);
  d.simultaneous_access = true;
  expect_id(add_id(d), "R0106", "programmatic");
  d = texture();
  d.simultaneous_access = true;
  EXPECT_EQ(add_id(d), "no error") << "color textures may be simultaneous-access";
}

TEST(RulesEveryPath, RestingAccessFollowsTheUseRules) {
  // Issue 15: the graph loader accepted a depth resting layout on a color texture.
  expect_id(recording_id(recording(R"({"name": "c", "type": "texture", "resting": "depth_write"})", "")),
            "R0204", "recording");
  expect_id(
      graph_id(R"({"name": "c", "type": "texture", "resting": "depth_write"})", pass(u("render_target"))),
      "R0204", "graph");
  ResourceDesc d = texture();
  d.resting = Access::depth_read;
  expect_id(add_id(d), "R0204", "programmatic");
  expect_id(graph_id(R"({"name": "c", "type": "texture", "resting": "present"})", pass(u("render_target"))),
            "R0203", "graph");
  expect_id(recording_id(recording(R"({"name": "c", "type": "texture", "resting": "vertex_buffer"})", "")),
            "R0202", "recording");
  expect_id(
      graph_id(
          R"({"name": "c", "type": "texture", "usage": ["render_target"], "resting": "shader_resource"})",
          pass(u("render_target"))),
      "R0206", "graph");
  // Without a declared usage the graph's default usage includes the resting access.
  EXPECT_EQ(
      graph_id(R"({"name": "c", "type": "texture", "resting": "shader_resource"})", pass(u("render_target"))),
      "no error");
}

TEST(RulesEveryPath, OneUse) {
  struct Case {
    const char* id;
    const char* resource;  // JSON
    std::string use_json;
    std::string queue;  // recording queue; the graph says graphics for direct
    ResourceDesc desc;
    Use use;
    Queue q;
  };
  const Stages px = stages(Stage::pixel);
  const std::vector<Case> cases = {
      {"R0201", kBuffer, u("render_target"), "direct", buffer(), use(0, Access::render_target),
       Queue::direct},
      {"R0202", kColor, u("index_buffer"), "direct", texture(), use(0, Access::index_buffer), Queue::direct},
      {"R0203", kColor, u("present"), "direct", texture(), use(0, Access::present), Queue::direct},
      {"R0204", kColor, u("depth_read"), "direct", texture(), use(0, Access::depth_read), Queue::direct},
      {"R0205", kDepth, u("render_target"), "direct", texture(FormatClass::depth),
       use(0, Access::render_target), Queue::direct},
      {"R0207", kColor, u("shader_resource"), "direct", texture(), use(0, Access::shader_resource),
       Queue::direct},
      {"R0208", kColor, u("render_target", R"(, "stages": "pixel")"), "direct", texture(),
       use(0, Access::render_target, px), Queue::direct},
      {"R0209", kColor, u("shader_resource", R"(, "stages": "pixel")"), "compute", texture(),
       use(0, Access::shader_resource, px), Queue::compute},
      {"R0210", kColor, u("copy_dest", R"(, "mips": [1, 1])"), "direct", texture(),
       use(0, Access::copy_dest, kNoStages, test::mips(1, 1)), Queue::direct},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.id);
    // external: an op kind that allows every access, so that only the use rule can fire.
    const std::string op = R"({"kind": "external", "uses": [)" + c.use_json + "]}";
    expect_id(recording_id(recording(c.resource, op, c.queue)), c.id, "recording");
    expect_id(graph_id(c.resource, pass(c.use_json, c.queue == "direct" ? "graphics" : c.queue)), c.id,
              "graph");
    Rec r;
    r.rt.add(c.desc);
    expect_id(plan_id(r, OpKind::external, {c.use}, c.q), c.id, "plan");
  }
  // R0206: the loaders check the declared usage; plan() takes usage as a creation hint.
  const char* rt_only = R"({"name": "c", "type": "texture", "usage": ["render_target"]})";
  expect_id(recording_id(recording(rt_only, R"({"kind": "external", "uses": [)" + u("copy_dest") + "]}")),
            "R0206", "recording");
  expect_id(graph_id(rt_only, pass(u("copy_dest"))), "R0206", "graph");
  Rec r;
  ResourceDesc d = texture();
  d.usage = bit(Access::render_target);
  r.rt.add(d);
  EXPECT_EQ(plan_id(r, OpKind::copy, {use(0, Access::copy_dest)}), "no error");
}

TEST(RulesEveryPath, OneOperation) {
  // R0301: the op kind cannot perform the access (a frame graph's pass has no kind).
  expect_id(recording_id(recording(kColor, R"({"kind": "copy", "uses": [)" + u("render_target") + "]}")),
            "R0301", "recording");
  {
    Rec r;
    r.rt.add(texture());
    expect_id(plan_id(r, OpKind::copy, {use(0, Access::render_target)}), "R0301", "plan");
  }
  // R0302: a write and another access of the same subresource.
  const Stages px = stages(Stage::pixel);
  const std::string rt_and_uav = u("render_target") + ", " + u("unordered_access", R"(, "stages": "pixel")");
  expect_id(recording_id(recording(kColor, draw(rt_and_uav))), "R0302", "recording");
  expect_id(graph_id(kColor, pass(rt_and_uav)), "R0302", "graph");
  {
    Rec r;
    r.rt.add(texture());
    expect_id(plan_id(r, OpKind::draw, {use(0, Access::render_target), use(0, Access::shader_resource, px)}),
              "R0302", "plan");
  }
  // R0303: present with another access (a read), which the recording loader used to accept.
  const char* swapchain = R"({"name": "c", "type": "texture", "swapchain": true})";
  const std::string present_and_read = u("present") + ", " + u("copy_source");
  expect_id(recording_id(recording(swapchain, R"({"kind": "external", "uses": [)" + present_and_read + "]}")),
            "R0303", "recording");
  expect_id(graph_id(swapchain, pass(present_and_read)), "R0303", "graph");
  {
    Rec r;
    ResourceDesc d = texture();
    d.swapchain = true;
    r.rt.add(d);
    expect_id(plan_id(r, OpKind::external, {use(0, Access::present), use(0, Access::copy_source)}), "R0303",
              "plan");
  }
  // A pass has no kind: one that draws and copies becomes an external operation, so plan() accepts
  // what no single op kind could perform (R0301 cannot fire for a graph).
  {
    const std::string text =
        R"({"resources": [{"name": "c", "type": "texture"}, {"name": "d", "type": "buffer", "size": 64}],
            "passes": [{"name": "p", "side_effect": true, "uses": [{"resource": "c", "access": "render_target"},
                                                                  {"resource": "d", "access": "copy_dest"}]}]})";
    EXPECT_EQ(id_of([&] { (void)graph::compile_graph(graph::load_graph_text(text, "graph.json")); }),
              "no error");
  }
  // Reads of one subresource merge; the same write merges.
  EXPECT_EQ(graph_id(kColor, pass(u("copy_source") + ", " + u("shader_resource", R"(, "stages": "pixel")"))),
            "no error");
}

TEST(RulesEveryPath, EntryStatesAndLists) {
  const char* two = R"({"name": "c", "type": "texture", "width": 8, "height": 8},
                       {"name": "d", "type": "texture", "width": 8, "height": 8})";
  const std::string entry_c = R"({"resource": "c", "access": "copy_dest"})";
  const std::string op_d = R"({"kind": "copy", "uses": [{"resource": "d", "access": "copy_dest"}]})";
  // R0401: an entry state for a resource the list does not use.
  expect_id(recording_id(recording(two, op_d, "direct", entry_c)), "R0401", "recording");
  {
    Rec r;
    r.rt.add(texture());
    r.rt.add(buffer2());
    CommandList& l = r.list("l");
    l.declare_entry(0, Access::copy_dest);
    test::op(l, OpKind::copy, {use(1, Access::copy_dest)});
    r.group("g", {&l});
    expect_id(id_of([&] { (void)plan(r.rt, r.ptrs(), fresh_history(r.rt)); }), "R0401", "plan");
  }
  // R0402: the entry state is declared by a later list than the first user in the group.
  {
    const std::string text =
        R"({"resources": [{"name": "c", "type": "texture"}], "groups": [{"name": "g", "queue": "direct", "lists": [
             {"name": "a", "ops": [{"kind": "copy", "uses": [{"resource": "c", "access": "copy_dest"}]}]},
             {"name": "b", "entry": [{"resource": "c", "access": "copy_dest"}],
              "ops": [{"kind": "copy", "uses": [{"resource": "c", "access": "copy_dest"}]}]}]}]})";
    expect_id(recording_id(text), "R0402", "recording");
    Rec r;
    r.rt.add(texture());
    CommandList& a = r.list("a");
    CommandList& b = r.list("b");
    test::op(a, OpKind::copy, {use(0, Access::copy_dest)});
    b.declare_entry(0, Access::copy_dest);
    test::op(b, OpKind::copy, {use(0, Access::copy_dest)});
    r.group("g", {&a, &b});
    expect_id(id_of([&] { (void)plan(r.rt, r.ptrs(), fresh_history(r.rt)); }), "R0402", "plan");
  }
  // R0403: two entry states for one resource in one list.
  expect_id(recording_id(recording(kColor, draw(u("render_target")), "direct",
                                   R"({"resource": "c", "access": "render_target"},
                                      {"resource": "c", "access": "copy_dest"})")),
            "R0403", "recording");
  {
    CommandList l("l", Queue::direct);
    l.declare_entry(1, Access::copy_dest);
    expect_id(id_of([&] {
                l.declare_entry(0, Access::copy_dest);
                l.declare_entry(1, Access::copy_source);
              }),
              "R0403", "programmatic");
  }
  // R0404: a list recorded for another queue than its group's (a file cannot say this: its lists
  // take their group's queue).
  {
    CommandList l("l", Queue::compute);
    l.close();
    CommandListGroup g("g", Queue::direct);
    expect_id(id_of([&] { g.add(l); }), "R0404", "programmatic");
  }
}

// A frame graph's own rules (R05xx): its order, its outputs and (R0507) the transitions phase's
// read states. Each as `baton compile` runs it: loaded, then compiled through every phase.
std::string graph_compile_id(const std::string& resources, const std::string& passes,
                             const std::string& outputs = "[]") {
  const std::string text =
      R"({"resources": [)" + resources + R"(], "passes": [)" + passes + R"(], "outputs": )" + outputs + "}";
  return id_of([&] { (void)graph::compile_graph(graph::load_graph_text(text, "graph.json")); });
}

TEST(RulesEveryPath, FrameGraphOrderAndOutputs) {
  const char* two = R"({"name": "c", "type": "texture", "width": 8, "height": 8},
                       {"name": "t", "type": "texture", "width": 8, "height": 8, "transient": true})";
  const std::string side = R"("side_effect": true, )";
  // R0501: a pass after itself.
  expect_id(graph_compile_id(kColor, R"({"name": "p", "after": ["p"], )" + side + R"("uses": [)" +
                                         u("render_target") + "]}"),
            "R0501", "graph");
  // R0502: a cycle, closed by "after".
  expect_id(graph_compile_id(kColor, R"({"name": "p", "after": ["q"], )" + side + R"("uses": [)" +
                                         u("render_target") + R"(]}, {"name": "q", )" + side +
                                         R"("uses": [)" + u("shader_resource", R"(, "stages": "pixel")") + "]}"),
            "R0502", "graph");
  // R0503: two blind writes with no path between them.
  expect_id(graph_compile_id(kColor, R"({"name": "p", )" + side + R"("uses": [)" + u("copy_dest") +
                                         R"(]}, {"name": "q", )" + side + R"("uses": [)" + u("copy_dest") + "]}"),
            "R0503", "graph");
  // R0504: a transient read before any pass writes it.
  expect_id(graph_compile_id(two, R"({"name": "p", )" + side +
                                      R"("uses": [{"resource": "t", "access": "shader_resource", "stages": "pixel"}]})"),
            "R0504", "graph");
  // R0505: an output nobody writes; R0506: a transient output.
  expect_id(graph_compile_id(two, R"({"name": "p", )" + side + R"("uses": [)" + u("render_target") + "]}",
                             R"(["t"])"),
            "R0505", "graph");
  expect_id(graph_compile_id(two, R"({"name": "p", "uses": [{"resource": "t", "access": "render_target"}]})",
                             R"(["t"])"),
            "R0506", "graph");
  // R0507: a copy source on the graphics queue and sampling on async compute, unordered: no one read
  // state holds both (transitions phase).
  expect_id(graph_compile_id(kColor, R"({"name": "w", "uses": [)" + u("render_target") + R"(]},
                             {"name": "s", "queue": "compute", "async": true, )" + side + R"("uses": [)" +
                                         u("shader_resource", R"(, "stages": "compute")") + R"(]},
                             {"name": "r", )" + side + R"("uses": [)" + u("copy_source") + "]}"),
            "R0507", "graph");
  // The same frames, made legal, compile.
  EXPECT_EQ(graph_compile_id(kColor, R"({"name": "p", )" + side + R"("uses": [)" + u("copy_dest") +
                                         R"(]}, {"name": "q", "after": ["p"], )" + side + R"("uses": [)" +
                                         u("copy_dest") + "]}"),
            "no error");
}

// Every row of the catalog has a case in this file (ctest runs each test on its own, so the cases
// are found in the source, as the expect_id calls name them).
TEST(RulesEveryPath, EveryRuleHasACase) {
  std::ifstream in(std::string(BATON_SOURCE_DIR) + "/tests/graph/rules_test.cpp");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(text.empty());
  for (const RuleInfo& r : rules()) {
    const std::string id(r.id);
    const bool in_case_table = text.find("{\"" + id + "\", k") != std::string::npos;
    EXPECT_TRUE(in_case_table || text.find("\"" + id + "\", \"") != std::string::npos)
        << id << " has no test";
  }
}

// The formats' error sections list every id (docs/recording-format.md#rule-ids).
TEST(RulesEveryPath, EveryIdIsDocumented) {
  std::ifstream in(std::string(BATON_SOURCE_DIR) + "/docs/recording-format.md");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(text.empty());
  for (const RuleInfo& r : rules())
    EXPECT_NE(text.find("| `" + std::string(r.id) + "` |"), std::string::npos)
        << r.id << " is not in the table";
}

}  // namespace
}  // namespace baton
