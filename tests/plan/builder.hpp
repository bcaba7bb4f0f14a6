// Small helpers to write recordings in tests as a few readable lines.
#pragma once

#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "baton/plan.hpp"

namespace baton::test {

struct Rec {
  ResourceTable rt;
  std::vector<std::unique_ptr<CommandList>> lists;
  std::vector<std::unique_ptr<CommandListGroup>> groups;

  ResourceId texture(std::string name, AccessMask usage, uint32_t mips = 1, uint32_t layers = 1,
                     FormatClass f = FormatClass::color, bool placed = false) {
    ResourceDesc d;
    d.name = std::move(name);
    d.type = ResourceType::texture;
    d.usage = usage;
    d.mips = mips;
    d.layers = layers;
    d.format = f;
    d.planes = f == FormatClass::depth_stencil ? 2 : 1;
    d.placed = placed;
    return rt.add(d);
  }
  ResourceId buffer(std::string name) {
    ResourceDesc d;
    d.name = std::move(name);
    d.type = ResourceType::buffer;
    d.size = 4096;
    return rt.add(d);
  }
  ResourceId swapchain(std::string name) {
    ResourceDesc d;
    d.name = std::move(name);
    d.usage = bit(Access::render_target) | bit(Access::present);
    d.swapchain = true;
    return rt.add(d);
  }
  CommandList& list(std::string name, Queue q = Queue::direct) {
    lists.push_back(std::make_unique<CommandList>(std::move(name), q));
    return *lists.back();
  }
  CommandListGroup& group(std::string name, std::vector<CommandList*> ls, Queue q = Queue::direct) {
    groups.push_back(std::make_unique<CommandListGroup>(std::move(name), q));
    for (CommandList* l : ls) {
      if (l->lifecycle() == CommandList::Lifecycle::recording) l->close();
      groups.back()->add(*l);
    }
    return *groups.back();
  }
  std::vector<CommandListGroup*> ptrs() {
    std::vector<CommandListGroup*> v;
    for (auto& g : groups) v.push_back(g.get());
    return v;
  }
  CompileResult compile() { return compile_all(rt, ptrs(), fresh_history(rt)); }
  std::string dump_all(const CompileResult& r) {
    std::string s;
    for (size_t i = 0; i < r.groups.size(); ++i) s += dump(rt, *groups[i], r.groups[i]);
    return s;
  }
};

inline Use use(ResourceId r, Access a, Stages s = kNoStages, SubresourceRange range = {}) { return Use{r, a, s, range}; }
inline SubresourceRange mips(uint32_t first, uint32_t count) { return SubresourceRange{first, count, 0, kAll, 0, kAll}; }

inline void op(CommandList& l, OpKind k, std::vector<Use> uses) {
  l.request_break();
  l.record(k, uses);
}

// Compares with tests/plan/golden/<name>.txt; BATON_UPDATE_GOLDEN=1 rewrites the file instead.
inline void expect_golden(const std::string& name, const std::string& text) {
  const std::string path = std::string(BATON_SOURCE_DIR) + "/tests/plan/golden/" + name + ".txt";
  if (std::getenv("BATON_UPDATE_GOLDEN")) {
    std::ofstream(path) << text;
    return;
  }
  std::ifstream in(path);
  ASSERT_TRUE(in.good()) << "missing golden file " << path << "; run with BATON_UPDATE_GOLDEN=1 and review it";
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_EQ(ss.str(), text) << "golden " << path;
}

}  // namespace baton::test
