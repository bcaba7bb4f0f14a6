// The compiler's two walks agree: a plain group (every use covers its whole resource, no resource twice in
// one operation) is compiled in one forward walk that keeps each read run open and widens the barrier
// that opened it (compile.cpp, forward<true>); any other group takes the reverse pass first (backward()).
// The same group with its ranges spelled out as the whole resource (not plain, the same uses) must
// compile to the same plan, for seeded random recordings made plain and random histories.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "baton/plan.hpp"
#include "random_recording.hpp"

namespace baton::test {
namespace {

// The recording with every use made whole (the second use of a resource in one operation dropped), and
// with `spelled`, every use but presents naming the whole resource as an explicit range instead.
std::unique_ptr<RandomRecording> made_plain(const RandomRecording& in, bool spelled) {
  auto out = std::make_unique<RandomRecording>();
  out->rt = in.rt;
  for (const auto& g : in.groups) {
    auto ng = std::make_unique<CommandListGroup>(g->name(), g->queue());
    for (const CommandList* l : g->lists()) {
      auto nl = std::make_unique<CommandList>(std::string(l->name()), l->queue());
      for (const Operation& o : l->ops()) {
        Operation no = o;
        std::vector<Use> uses;
        for (const Use& u : o.uses) {
          bool again = false;
          for (const Use& k : uses) again = again || k.resource == u.resource;
          if (again) continue;
          Use w = u;
          w.range = SubresourceRange{};
          if (spelled && w.access != Access::present) {
            const ResourceDesc& d = in.rt[u.resource];
            w.range = SubresourceRange{0, d.mips, 0, d.layers, 0, d.planes};
          }
          uses.push_back(w);
        }
        no.uses = uses;
        nl->append_operation(std::move(no));
      }
      for (const EntryState& e : l->entry_states()) nl->declare_entry(e.resource, e.access, e.stages, e.shared);
      nl->close();
      ng->add(*nl);
      out->lists.push_back(std::move(nl));
    }
    out->groups.push_back(std::move(ng));
  }
  return out;
}

History seeded_history(const RandomRecording& rec, uint64_t seed) {
  History h = fresh_history(rec.rt);
  constexpr Takeover kScopes[] = {
      {sync::render_target, bit(Access::render_target), kGlobalResource},
      {sync::compute_shading, bit(Access::unordered_access), kGlobalResource},
      {sync::copy, bit(Access::copy_dest) | bit(Access::copy_source), kGlobalResource},
  };
  for (size_t r = 0; r < h.size(); ++r) {
    const uint64_t x = (seed * 0x9E3779B97F4A7C15ull) ^ ((r + 1) * 0xC2B2AE3D27D4EB4Full);
    if ((x >> 20) % 4 == 0) h[r].takeover = kScopes[(x >> 30) % 3];
    h[r].dies = (x >> 40) % 3 == 0;
    h[r].touched = !h[r].takeover.any() && (x >> 44) % 2 == 0;
    h[r].written = h[r].touched && (x >> 46) % 2 == 0;
  }
  return h;
}

std::string compiled_text(const RandomRecording& rec, const History& h) {
  const std::vector<const CommandListGroup*> gs = rec.group_ptrs();
  const Plan p = plan(rec.rt, gs, h);
  std::string s;
  for (size_t i = 0; i < gs.size(); ++i) s += dump(rec.rt, *gs[i], compile(rec.rt, *gs[i], p.groups[i]));
  return s;
}

TEST(PlainGroup, OneForwardWalkPlansAsTheReversePass) {
  size_t compared = 0, barriers = 0;
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    const std::unique_ptr<RandomRecording> rec = make_random_recording(seed);
    const std::unique_ptr<RandomRecording> plain = made_plain(*rec, false);
    const std::unique_ptr<RandomRecording> spelled = made_plain(*rec, true);
    const History h = seeded_history(*rec, seed);
    std::string a, b;
    try {
      a = compiled_text(*plain, h);
    } catch (const Error&) {
      continue;  // a recording the plan refuses once made whole (an entry state of a dropped use)
    }
    b = compiled_text(*spelled, h);
    ASSERT_EQ(a, b) << "seed " << seed;
    ++compared;
    for (size_t p = a.find("->"); p != std::string::npos; p = a.find("->", p + 2)) ++barriers;
  }
  EXPECT_GT(compared, 2500u);
  EXPECT_GT(barriers, 10000u);
  std::printf("compared %zu recordings, %zu barriers\n", compared, barriers);
}

// GroupFacts::plain() is plan()'s word, which compile() trusts without checking the group again: facts
// made by hand cannot set it (no member to assign), read false, and compile the same plan the long way.
template <class F>
concept PlainFlagWritable = requires(F f) { f.plain_ = true; };
template <class F>
concept PlainFieldWritable = requires(F f) { f.plain = true; };
static_assert(!PlainFlagWritable<GroupFacts> && !PlainFieldWritable<GroupFacts>,
              "only plan() may mark a group plain");

TEST(PlainGroup, OnlyPlanMarksAGroupPlain) {
  size_t groups = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const std::unique_ptr<RandomRecording> rec = make_random_recording(seed);
    const std::unique_ptr<RandomRecording> plain = made_plain(*rec, false);
    const std::unique_ptr<RandomRecording> spelled = made_plain(*rec, true);
    const History h = seeded_history(*rec, seed);
    const std::vector<const CommandListGroup*> gs = plain->group_ptrs(), ss = spelled->group_ptrs();
    Plan p, sp;
    try {
      p = plan(plain->rt, gs, h);
    } catch (const Error&) {
      continue;
    }
    sp = plan(spelled->rt, ss, h);
    for (size_t i = 0; i < gs.size(); ++i) {
      const GroupFacts& f = p.groups[i];
      EXPECT_TRUE(f.plain()) << "seed " << seed << " group " << i;
      bool ranged = false;  // the same uses naming their resources as ranges: not plain
      for (const CommandList* l : ss[i]->lists())
        for (const Operation& o : l->ops())
          for (const Use& u : o.uses) ranged = ranged || !is_whole(u.range);
      if (ranged) {
        EXPECT_FALSE(sp.groups[i].plain()) << "seed " << seed << " group " << i;
      }
      GroupFacts hand;  // the same facts, made by hand
      hand.entry_history = f.entry_history;
      hand.discards = f.discards;
      hand.hand_on = f.hand_on;
      hand.retire = f.retire;
      EXPECT_FALSE(hand.plain());
      const GroupFacts copy = f;  // a copy of planned facts keeps plan()'s word
      EXPECT_TRUE(copy.plain());
      const std::string want = dump(plain->rt, *gs[i], compile(plain->rt, *gs[i], f));
      EXPECT_EQ(dump(plain->rt, *gs[i], compile(plain->rt, *gs[i], hand)), want) << "seed " << seed << " group " << i;
      EXPECT_EQ(dump(plain->rt, *gs[i], compile(plain->rt, *gs[i], copy)), want) << "seed " << seed << " group " << i;
      ++groups;
    }
  }
  EXPECT_GT(groups, 200u);
}

}  // namespace
}  // namespace baton::test
