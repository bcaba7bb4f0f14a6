// The core benchmark's generated recordings (plan + compile of every group), shared by
// bench_report and graph_bench so that both measure the same workloads:
//  "chain": dispatch i writes r_i (UAV) and reads r_{i-1}, r_{i-2}; a draw into the swapchain;
//  "deferred": the built-in deferred-renderer frame (demo_recording) replicated over N/20 frames;
//  "random": seeded draws and dispatches over textures with 1-4 mips and 1-2 layers, single-mip
//            ranges, one list per 1,000 operations.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "baton/plan.hpp"
#include "baton/recording.hpp"

namespace baton::bench {

struct Workload {
  std::string name;
  size_t n = 0;  // the size parameter (operations)
  ResourceTable rt;
  std::vector<std::unique_ptr<CommandList>> lists;
  std::vector<std::unique_ptr<CommandListGroup>> groups;
  std::vector<const CommandListGroup*> ptrs;
  size_t uses = 0, ops = 0;

  // Closes the lists not yet in a group into one direct group, then counts.
  void finish() {
    std::unique_ptr<CommandListGroup> g;
    for (auto& l : lists) {
      if (l->group()) continue;
      l->close();
      if (!g) g = std::make_unique<CommandListGroup>(name, Queue::direct);
      g->add(*l);
    }
    if (g) groups.push_back(std::move(g));
    for (auto& x : groups) ptrs.push_back(x.get());
    for (auto& l : lists) {
      ops += l->ops().size();
      for (const Operation& o : l->ops()) uses += o.uses.size();
    }
  }
};

inline std::unique_ptr<Workload> chain(size_t n) {
  auto w = std::make_unique<Workload>();
  w->name = "chain";
  w->n = n;
  const uint32_t sizes[] = {256, 512, 1024};
  for (size_t i = 0; i < n; ++i) {
    ResourceDesc d;
    d.name = "r" + std::to_string(i);
    d.width = d.height = sizes[i % 3];
    d.usage = bit(Access::unordered_access) | bit(Access::shader_resource);
    w->rt.add(d);
  }
  ResourceDesc sc;
  sc.name = "swapchain";
  sc.usage = bit(Access::render_target);
  sc.swapchain = true;
  const ResourceId swap = w->rt.add(sc);
  w->lists.push_back(std::make_unique<CommandList>("chain", Queue::direct));
  CommandList& l = *w->lists.back();
  const Stages cs = stages(Stage::compute);
  for (size_t i = 0; i < n; ++i) {
    std::vector<Use> uses{{static_cast<ResourceId>(i), Access::unordered_access, cs, {}}};
    if (i >= 1) uses.push_back({static_cast<ResourceId>(i - 1), Access::shader_resource, cs, {}});
    if (i >= 2) uses.push_back({static_cast<ResourceId>(i - 2), Access::shader_resource, cs, {}});
    l.request_break();
    l.record(OpKind::dispatch, uses);
  }
  const Use draw[] = {{static_cast<ResourceId>(n - 1), Access::shader_resource, stages(Stage::pixel), {}},
                      {swap, Access::render_target, kNoStages, {}}};
  l.request_break();
  l.record(OpKind::draw, draw);
  w->finish();
  return w;
}

// `seed` 0 is the benchmark's recording; another seed draws another recording of the same shape and size
// (graph_bench's predictor check compiles two of them in turn).
inline std::unique_ptr<Workload> random_workload_seeded(size_t n, uint32_t seed) {
  auto w = std::make_unique<Workload>();
  w->name = "random";
  w->n = n;
  std::mt19937 rng(static_cast<uint32_t>(n) + seed * 7919u);
  const size_t resources = std::max<size_t>(8, n / 8);
  for (size_t i = 0; i < resources; ++i) {
    ResourceDesc d;
    d.name = "t" + std::to_string(i);
    d.width = d.height = 512;
    d.mips = 1 + static_cast<uint32_t>(rng() % 4);
    d.layers = 1 + static_cast<uint32_t>(rng() % 2);
    d.usage = bit(Access::render_target) | bit(Access::shader_resource) | bit(Access::unordered_access);
    w->rt.add(d);
  }
  const size_t lists = std::max<size_t>(1, n / 1000);
  for (size_t li = 0; li < lists; ++li)
    w->lists.push_back(std::make_unique<CommandList>("l" + std::to_string(li), Queue::direct));
  for (size_t i = 0; i < n; ++i) {
    CommandList& l = *w->lists[i * lists / n];  // contiguous runs of operations per list
    const bool draw = rng() % 2 == 0;
    std::vector<Use> uses;
    std::vector<ResourceId> picked;
    for (int k = 0; k < 3; ++k) {
      const auto r = static_cast<ResourceId>(rng() % resources);
      if (std::find(picked.begin(), picked.end(), r) != picked.end()) continue;
      picked.push_back(r);
      const uint32_t m = static_cast<uint32_t>(rng() % w->rt[r].mips);
      const SubresourceRange range{m, 1, 0, kAll, 0, kAll};
      if (k == 0)
        uses.push_back(draw ? Use{r, Access::render_target, kNoStages, range}
                            : Use{r, Access::unordered_access, stages(Stage::compute), range});
      else
        uses.push_back({r, Access::shader_resource, draw ? stages(Stage::pixel) : stages(Stage::compute), range});
    }
    l.request_break();
    l.record(draw ? OpKind::draw : OpKind::dispatch, uses);
  }
  w->finish();
  return w;
}
inline std::unique_ptr<Workload> random_workload(size_t n) { return random_workload_seeded(n, 0); }

// The built-in deferred frame (demo_recording) replicated over `frames` frames: each frame's groups
// and lists copied with their operations, in order.
inline std::unique_ptr<Workload> deferred(size_t frames) {
  const Recording demo = demo_recording();
  auto w = std::make_unique<Workload>();
  w->name = "deferred";
  w->rt = demo.resources;
  for (size_t f = 0; f < frames; ++f)
    for (const auto& g : demo.groups) {
      auto ng = std::make_unique<CommandListGroup>(fmt::format("{}#{}", g->name(), f), g->queue());
      for (const CommandList* l : g->lists()) {
        w->lists.push_back(std::make_unique<CommandList>(fmt::format("{}#{}", l->name(), f), l->queue()));
        CommandList& nl = *w->lists.back();
        for (const EntryState& e : l->entry_states()) nl.declare_entry(e.resource, e.access, e.stages);
        for (const Operation& o : l->ops()) nl.append_operation(o);
        nl.close();
        ng->add(nl);
      }
      w->groups.push_back(std::move(ng));
    }
  w->finish();
  w->n = w->ops;
  return w;
}

}  // namespace baton::bench
