// A generator of random but valid frame graphs, shared by the graph tests and the executor tests
// (tests/exec/graph_run_test.cpp runs them on lavapipe).
#pragma once

#include <random>
#include <string>
#include <vector>

#include "baton/graph.hpp"

namespace baton::graph::test {

// Random but valid graphs: every write is a read-modify-write (UAV) of one resource, so writes
// are ordered by declaration; reads only of resources written before (or persistent ones).
inline Graph random_graph(uint64_t seed, uint32_t passes) {
  std::mt19937_64 rng(seed);
  auto pick = [&](uint32_t n) { return static_cast<uint32_t>(rng() % n); };
  Graph g;
  const uint32_t nres = 4 + pick(8);
  for (uint32_t r = 0; r < nres; ++r) {
    Resource res;
    res.desc.name = "r" + std::to_string(r);
    res.desc.type = pick(3) == 0 ? ResourceType::buffer : ResourceType::texture;
    if (res.desc.type == ResourceType::buffer) {
      res.desc.size = 4096;
    } else {
      res.desc.width = res.desc.height = 64u << pick(3);
      res.desc.mips = 1 + pick(3);
    }
    res.desc.usage = bit(Access::unordered_access) | bit(Access::shader_resource) | bit(Access::copy_source) |
                     bit(Access::copy_dest);
    res.transient = r >= 2 && pick(2) == 0;
    g.resources.push_back(res);
  }
  std::vector<bool> written(nres, false);
  const Stages cs = stages(Stage::compute);
  for (uint32_t p = 0; p < passes; ++p) {
    Pass pass;
    pass.name = "p" + std::to_string(p);
    pass.queue = Queue::compute;
    pass.async = pick(3) == 0;
    const uint32_t w = pick(nres);
    pass.uses.push_back({w, Access::unordered_access, cs, {}});
    for (uint32_t k = 0, reads = pick(3); k < reads; ++k) {
      const uint32_t r = pick(nres);
      bool dup = false;
      for (const PassUse& u : pass.uses) dup |= u.resource == r;
      if (dup || (g.resources[r].transient && !written[r])) continue;
      pass.uses.push_back({r, Access::shader_resource, cs, {}});
    }
    written[w] = true;
    pass.side_effect = p + 1 == passes;
    g.passes.push_back(std::move(pass));
  }
  for (uint32_t r = 0; r < nres; ++r)
    if (!g.resources[r].transient && written[r]) g.outputs.push_back(r);
  return g;
}

}  // namespace baton::graph::test
