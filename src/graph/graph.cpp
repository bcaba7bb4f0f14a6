// The graph's own vocabulary: builders, which accesses keep contents (the memory estimate is the
// aliasing phase's, src/graph/aliasing.cpp).
#include <fmt/format.h>

#include "baton/graph.hpp"

namespace baton::graph {

uint32_t Graph::add_resource(Resource r) {
  if (find_resource(r.desc.name)) throw Error(fmt::format("resource '{}' declared twice", r.desc.name));
  if (r.count == 0) throw Error(fmt::format("resource '{}': a set needs at least one member", r.desc.name));
  resources.push_back(std::move(r));
  return static_cast<uint32_t>(resources.size() - 1);
}

uint32_t Graph::add_pass(Pass p) {
  if (find_pass(p.name)) throw Error(fmt::format("pass '{}' declared twice", p.name));
  passes.push_back(std::move(p));
  return static_cast<uint32_t>(passes.size() - 1);
}

std::optional<uint32_t> Graph::find_resource(std::string_view name) const {
  for (size_t i = 0; i < resources.size(); ++i)
    if (resources[i].desc.name == name) return static_cast<uint32_t>(i);
  return std::nullopt;
}

std::optional<uint32_t> Graph::find_pass(std::string_view name) const {
  for (size_t i = 0; i < passes.size(); ++i)
    if (passes[i].name == name) return static_cast<uint32_t>(i);
  return std::nullopt;
}

bool keeps_contents(Access a) {
  return a == Access::unordered_access || a == Access::depth_write || a == Access::render_target;
}

std::string_view to_string(EdgeKind k) {
  switch (k) {
    case EdgeKind::read_after_write: return "read after write";
    case EdgeKind::write_after_read: return "write after read";
    case EdgeKind::explicit_order: return "after";
  }
  return "?";
}

}  // namespace baton::graph
