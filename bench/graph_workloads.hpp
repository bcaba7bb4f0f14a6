// The frame-graph benchmark's generated graphs, shared by graph_bench (times) and graph_instructions
// (one compile under callgrind, for instruction counts on a machine too noisy to time):
//  "chain": pass i writes transient r_i (UAV) and reads r_{i-1}, r_{i-2} (compute SRV); sizes
//           256/512/1024 rotating; a final copy into a persistent output.
//  "layered": passes in layers of 8 reading one resource of each of the two previous layers,
//           every fourth pass on async compute (cross-queue waits), all transient, random sizes.
#pragma once

#include <random>
#include <string>

#include "baton/graph.hpp"

namespace baton::bench {

using namespace baton::graph;

inline Resource texture(std::string name, uint32_t size) {
  Resource r;
  r.desc.name = std::move(name);
  r.desc.width = r.desc.height = size;
  r.desc.usage = bit(Access::unordered_access) | bit(Access::shader_resource);
  r.transient = true;
  return r;
}

inline Graph graph_chain(size_t n) {
  Graph g;
  const uint32_t sizes[] = {256, 512, 1024};
  g.resources.reserve(n + 1);
  for (size_t i = 0; i < n; ++i) g.resources.push_back(texture("r" + std::to_string(i), sizes[i % 3]));
  Resource out = texture("out", 1024);
  out.transient = false;
  out.desc.usage = bit(Access::copy_dest) | bit(Access::shader_resource);
  g.resources.push_back(out);
  const Stages cs = stages(Stage::compute);
  g.passes.reserve(n + 1);
  for (uint32_t i = 0; i < n; ++i) {
    Pass p;
    p.name = "p" + std::to_string(i);
    p.queue = Queue::compute;
    p.uses.push_back({i, Access::unordered_access, cs, {}});
    if (i >= 1) p.uses.push_back({i - 1, Access::shader_resource, cs, {}});
    if (i >= 2) p.uses.push_back({i - 2, Access::shader_resource, cs, {}});
    g.passes.push_back(std::move(p));
  }
  Pass c;
  c.name = "copy_out";
  c.uses = {{static_cast<uint32_t>(n - 1), Access::copy_source, kNoStages, {}},
            {static_cast<uint32_t>(n), Access::copy_dest, kNoStages, {}}};
  g.passes.push_back(std::move(c));
  g.outputs.push_back(static_cast<uint32_t>(n));
  return g;
}

// `seed` 0 is the benchmark's graph; another seed draws other texture sizes for the same passes.
inline Graph graph_layered_seeded(size_t n, uint32_t seed) {
  Graph g;
  std::mt19937 rng(static_cast<uint32_t>(n) + seed * 7919u);
  const uint32_t sizes[] = {128, 256, 512};
  const Stages cs = stages(Stage::compute);
  const size_t width = 8;
  for (size_t i = 0; i < n; ++i) g.resources.push_back(texture("t" + std::to_string(i), sizes[rng() % 3]));
  for (uint32_t i = 0; i < n; ++i) {
    Pass p;
    p.name = "q" + std::to_string(i);
    p.queue = Queue::compute;
    p.async = i % 4 == 3;
    p.side_effect = i + width >= n;
    p.uses.push_back({i, Access::unordered_access, cs, {}});
    // Reads of one resource come from passes on one queue (residue mod 4), so no read run of it is
    // split across queues; its writer is on another queue every time.
    const uint32_t k = static_cast<uint32_t>((i + 1) % width);
    if (i >= width) p.uses.push_back({static_cast<uint32_t>((i / width - 1) * width) + k, Access::shader_resource, cs, {}});
    if (i >= 2 * width) p.uses.push_back({static_cast<uint32_t>((i / width - 2) * width) + k, Access::shader_resource, cs, {}});
    g.passes.push_back(std::move(p));
  }
  return g;
}
inline Graph graph_layered(size_t n) { return graph_layered_seeded(n, 0); }

}  // namespace baton::bench
