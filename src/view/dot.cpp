// `baton compile FILE --dot`: the frame as a Graphviz digraph. Queues are clusters with their passes
// chained in submission order; a barrier is a note between its resource and its pass (before the
// pass: note -> pass, after it: pass -> note); uses are thin edges (read: resource -> pass, write:
// pass -> resource); cross-queue waits are dashed red edges.
#include <fmt/format.h>

#include "baton/view.hpp"
#include "names.hpp"

namespace baton::view {
namespace {

// A DOT double-quoted string: quotes and backslashes escaped, a newline becomes DOT's centred line
// break, other control characters are dropped.
std::string q(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string render_dot(const Frame& f, Api api) {
  const Lowering& low = f.lowering(api);
  std::string s = "digraph frame {\n";
  s += fmt::format("  graph [rankdir=LR, fontname=\"Helvetica\", label={}, labelloc=t];\n",
                   q(f.source + " (" + std::string(to_string(api)) + ")"));
  s += "  node [fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n";
  for (Queue queue : {Queue::direct, Queue::compute, Queue::copy}) {
    std::string body;
    int64_t prev = -1;
    for (uint32_t p = 0; p < f.passes.size(); ++p) {
      if (f.passes[p].queue != queue) continue;
      body += fmt::format("    p{} [shape=box, style=filled, fillcolor=\"#dbe8f7\", label={}];\n", p,
                          q(f.passes[p].name + "\n" + f.passes[p].group));
      if (prev >= 0) body += fmt::format("    p{} -> p{} [style=bold, weight=10];\n", prev, p);
      prev = p;
    }
    if (!body.empty())
      s += fmt::format("  subgraph cluster_{} {{\n    label={};\n{}  }}\n", queue_label(queue),
                       q(queue_label(queue)), body);
  }
  for (uint32_t r = 0; r < f.resources.size(); ++r)
    s += fmt::format("  r{} [shape={}, label={}];\n", r, f.resources[r].buffer ? "cylinder" : "ellipse",
                     q(f.resources[r].name));
  for (const Use& u : f.uses) {
    if (u.write)
      s += fmt::format("  p{} -> r{} [color=gray60, arrowsize=0.5];\n", u.pass, u.resource);
    else
      s += fmt::format("  r{} -> p{} [color=gray60, arrowsize=0.5];\n", u.resource, u.pass);
  }
  for (const Wait& w : f.waits)
    s += fmt::format("  p{} -> p{} [style=dashed, color=red, penwidth=1.5, label=\"wait\"];\n", w.signal,
                     w.wait);
  if (!low.error.empty()) s += fmt::format("  lowering_error [shape=plaintext, label={}];\n", q(low.error));
  for (size_t i = 0; i < low.barriers.size(); ++i) {
    const Barrier& b = low.barriers[i];
    std::string label = fmt::format("{}[{}]\n{} -> {}\n({})", f.resources[b.resource].name, b.range, b.before,
                                    b.after, to_string(b.reason));
    if (b.omitted) label += "\nomitted: " + b.omitted_why;
    s += fmt::format("  b{} [shape=note, fontsize=8, {}label={}];\n", i,
                     b.omitted ? "style=dashed, " : "style=filled, fillcolor=\"#fff3c4\", ", q(label));
    s += fmt::format("  r{} -> b{} [style=dotted, arrowhead=none];\n", b.resource, i);
    if (b.where == Where::before)
      s += fmt::format("  b{} -> p{} [label=\"op {}\"];\n", i, b.pass, b.op);
    else
      s += fmt::format("  p{} -> b{} [label=\"after op {}\"];\n", b.pass, i, b.op);
  }
  s += "}\n";
  return s;
}

}  // namespace baton::view
