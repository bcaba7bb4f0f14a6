// Declares a three-pass frame graph in code, lets Baton compute its barriers, and prints the Vulkan
// plan. Built against an installed Baton (find_package(baton), see CMakeLists.txt next to it).
#include <baton/graph.hpp>
#include <cstdio>

int main() {
  using namespace baton;
  graph::Graph g;

  auto texture = [](const char* name, FormatClass format) {
    graph::Resource r;
    r.desc.name = name;
    r.desc.width = 1920;
    r.desc.height = 1080;
    r.desc.format = format;
    r.transient = true;  // the graph owns its memory for this frame: it may alias
    return r;
  };
  const uint32_t depth = g.add_resource(texture("depth", FormatClass::depth));
  const uint32_t hdr = g.add_resource(texture("hdr", FormatClass::color));
  graph::Resource back;
  back.desc.name = "backbuffer";
  back.desc.width = 1920;
  back.desc.height = 1080;
  back.desc.swapchain = true;
  back.imported = true;
  const uint32_t swapchain = g.add_resource(back);

  const auto pixel = stages(Stage::pixel);
  g.add_pass({.name = "depth_prepass", .uses = {{depth, Access::depth_write}}});
  g.add_pass({.name = "lighting", .uses = {{depth, Access::depth_read}, {hdr, Access::render_target}}});
  g.add_pass({.name = "tonemap",
              .uses = {{hdr, Access::shader_resource, pixel}, {swapchain, Access::render_target}}});
  g.add_pass({.name = "present", .side_effect = true, .uses = {{swapchain, Access::present}}});
  g.outputs.push_back(swapchain);

  try {
    const graph::GraphCompileResult r = graph::compile_graph(g);
    std::fputs(graph::plan_text(g, r, Api::vulkan).c_str(), stdout);
    return r.findings.empty() ? 0 : 1;
  } catch (const Error& e) {  // a declaration Baton cannot plan: one line naming pass and resource
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
}
