// Never a crash: seeded random damage to the demo recording (bytes and values) must either load
// or fail with baton::Error, and whatever loads must plan and lower for every API or fail with
// baton::Error. Any other exception (or a sanitizer report) is a bug.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

#include "baton/lower.hpp"
#include "baton/recording.hpp"

namespace baton {
namespace {

using Json = nlohmann::json;

// Loads and, if that works, compiles and lowers; returns false when a baton::Error stopped it.
bool load_and_lower(const std::string& text) {
  try {
    Recording rec = load_recording(text, "mutated");
    const CompileResult r = compile_all(rec.resources, rec.group_ptrs(), fresh_history(rec.resources));
    for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) lower(api, rec.resources, r.groups);
    return true;
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    return false;
  }
}

TEST(Mutation, DamagedBytesLoadOrFailWithError) {
  const std::string demo = save_recording(demo_recording());
  std::mt19937 rng(1234);
  const std::string alphabet = "{}[]\",:0123456789-.eE truefalsn\\\n\x01\xff";
  for (int i = 0; i < 300; ++i) {
    std::string text = demo;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int k = 0; k < edits && !text.empty(); ++k) {
      const size_t pos = rng() % text.size();
      switch (rng() % 3) {
        case 0:
          text.erase(pos, 1 + rng() % 8);
          break;
        case 1:
          text.insert(pos, 1, alphabet[rng() % alphabet.size()]);
          break;
        default:
          text[pos] = alphabet[rng() % alphabet.size()];
          break;
      }
    }
    EXPECT_NO_FATAL_FAILURE(load_and_lower(text)) << "seed step " << i;
  }
}

// Replaces one random value somewhere in the tree by a random value of a random type.
void damage(Json& j, std::mt19937& rng) {
  Json* node = &j;
  while (node->is_structured() && !node->empty() && rng() % 4 != 0) {
    auto it = node->begin();
    std::advance(it, static_cast<std::ptrdiff_t>(rng() % node->size()));
    node = &*it;
  }
  const std::array<Json, 12> values = {Json(nullptr),   Json(-1),
                                       Json(0),         Json(1),
                                       Json(3),         Json(4294967295u),
                                       Json(2.5),       Json("shader_resource"),
                                       Json("compute"), Json::array({0, 1}),
                                       Json::object(),  Json(true)};
  *node = values[rng() % values.size()];
}

TEST(Mutation, DamagedValuesLoadOrFailWithError) {
  const Json demo = Json::parse(save_recording(demo_recording()));
  std::mt19937 rng(99);
  int loaded = 0;
  for (int i = 0; i < 400; ++i) {
    Json j = demo;
    damage(j, rng);
    loaded += load_and_lower(j.dump()) ? 1 : 0;
  }
  // Some damage is harmless (a label, a size), most is rejected; both paths must have run.
  EXPECT_GT(loaded, 0);
  EXPECT_LT(loaded, 400);
}

}  // namespace
}  // namespace baton
