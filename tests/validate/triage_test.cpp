// Triage: every class of mistake in examples/triage/ is explained with the expected key facts (list,
// operation, resource, subresource, what the compiler believed, the declaration to change), the
// declaration triage names really removes the message, and Baton's own plans need no explanation.
#include <gtest/gtest.h>

#include <baton/triage.hpp>
#include <baton/validated_compile.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace baton::triage {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kExamples = fs::path(BATON_SOURCE_DIR) / "examples" / "triage";

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every key of `expected` (recursively) is in `actual` with the same value.
void expect_subset(const json& expected, const json& actual, const std::string& path) {
  if (expected.is_object()) {
    ASSERT_TRUE(actual.is_object()) << path;
    for (const auto& [k, v] : expected.items()) {
      ASSERT_TRUE(actual.contains(k)) << path << "/" << k << " missing in " << actual.dump();
      expect_subset(v, actual[k], path + "/" + k);
    }
  } else if (expected.is_array()) {
    ASSERT_TRUE(actual.is_array()) << path;
    ASSERT_EQ(expected.size(), actual.size()) << path;
    for (size_t i = 0; i < expected.size(); ++i)
      expect_subset(expected[i], actual[i], path + "/" + std::to_string(i));
  } else {
    EXPECT_EQ(expected, actual) << path;
  }
}

struct Example {
  std::string name;
  Api api;
  Recording rec;
  validate::Trace trace;
  json expected;
};

Example load_example(const std::string& name) {
  const fs::path dir = kExamples / name;
  Example e{name, Api::d3d12, load_recording_file((dir / "recording.json").string()),
            validate::load_trace_file((dir / "trace.json").string()),
            json::parse(read(dir / "expected.json"))};
  e.api = *parse_api(e.expected["api"].get<std::string>());
  return e;
}

const char* const kClasses[] = {"wrong_entry_state", "undeclared_write", "wrong_resting_layout",
                                "recreated_without_history_reset"};

class TriageExample : public ::testing::TestWithParam<const char*> {};

TEST_P(TriageExample, ExplainsTheDeclaredMistake) {
  const Example e = load_example(GetParam());
  const std::vector<Explanation> got = triage(e.rec, e.trace, e.api);
  const json actual = json::parse(to_json(got));
  const json& want = e.expected["explanations"];
  ASSERT_EQ(actual["count"], want.size()) << to_text(got);
  for (size_t i = 0; i < want.size(); ++i)
    expect_subset(want[i], actual["explanations"][i], e.name + "/explanations/" + std::to_string(i));
}

// expected.txt is the text report for people; it must stay what triage prints.
TEST_P(TriageExample, TextReportMatchesExpectedTxt) {
  const Example e = load_example(GetParam());
  EXPECT_EQ(to_text(triage(e.rec, e.trace, e.api)), read(kExamples / e.name / "expected.txt"));
}

INSTANTIATE_TEST_SUITE_P(Classes, TriageExample, ::testing::ValuesIn(kClasses));

// Baton's own plans need no explanation: every recording under examples/ (frame graphs are skipped),
// and the triage examples whose mistake is in what ran (not in the recording), for every API.
TEST(Triage, OwnPlansNeedNoExplanation) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(BATON_SOURCE_DIR) / "examples"))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  for (const char* n : {"undeclared_write", "wrong_resting_layout", "recreated_without_history_reset"})
    files.push_back(kExamples / n / "recording.json");
  int checked = 0;
  for (const fs::path& f : files) {
    Recording rec;
    try {
      rec = load_recording_file(f.string());
    } catch (const Error&) {
      continue;  // a frame graph, not a recording
    }
    for (Api api : {Api::d3d12, Api::d3d12_legacy, Api::vulkan}) {
      Recording planned = load_recording_file(f.string());
      const validate::Trace own = validate::load_trace(trace_of_recording(planned, api), f.string());
      EXPECT_TRUE(triage(rec, own, api).empty()) << f << " " << to_string(api);
      ++checked;
    }
  }
  EXPECT_GE(checked, 12);
}

// --- The declaration triage names is the fix: apply it, re-plan, replay the same outside work. ---

// The trace of `fixed`'s plan with the lists of `reality` that the recording does not have (outside
// work) put back at their submissions' places.
std::string replay_with_outside_work(Recording& fixed, Api api, const std::string& reality_text) {
  json plan = json::parse(trace_of_recording(fixed, api));
  const json reality = json::parse(reality_text);
  std::set<std::string> recorded;
  for (const auto& l : plan["lists"]) recorded.insert(l["name"].get<std::string>());
  json lists = json::array(), subs = json::array();
  for (const auto& l : reality["lists"])
    if (!recorded.count(l["name"].get<std::string>())) lists.push_back(l);
  for (const auto& l : plan["lists"]) lists.push_back(l);
  size_t next_plan = 0;
  for (const auto& s : reality["submissions"]) {
    if (recorded.count(s["lists"][0].get<std::string>()))
      subs.push_back(plan["submissions"][next_plan++]);
    else
      subs.push_back(s);
  }
  plan["lists"] = lists;
  plan["submissions"] = subs;
  return plan.dump();
}

Recording edit_recording(const std::string& name, const std::function<void(json&)>& edit) {
  json r = json::parse(read(kExamples / name / "recording.json"));
  edit(r);
  return load_recording(r.dump(), name + " (fixed)");
}

json& list_named(json& rec, const std::string& name) {
  for (auto& g : rec["groups"])
    for (auto& l : g["lists"])
      if (l["name"] == name) return l;
  throw Error("no list " + name);
}

TEST(TriageFix, CorrectedEntryStateRemovesTheMismatch) {
  const Example e = load_example("wrong_entry_state");
  const std::vector<Explanation> got = triage(e.rec, e.trace, e.api);
  ASSERT_EQ(got.size(), 1u);
  Recording fixed = edit_recording(e.name, [&](json& r) {
    list_named(r, got[0].list)["entry"] = json::array({json::parse(got[0].fix.declaration)});
  });
  const validate::Trace t = validate::load_trace(
      replay_with_outside_work(fixed, e.api, read(kExamples / e.name / "trace.json")), "fixed");
  EXPECT_TRUE(validate::validate(t).clean()) << validate::to_text(validate::validate(t));
}

TEST(TriageFix, RestingOverrideServesTheOutsideReader) {
  const Example e = load_example("wrong_resting_layout");
  const std::vector<Explanation> got = triage(e.rec, e.trace, e.api);
  ASSERT_EQ(got.size(), 1u);
  const json decl = json::parse("{" + got[0].fix.declaration + "}");
  Recording fixed = edit_recording(e.name, [&](json& r) {
    for (auto& res : r["resources"])
      if (res["name"] == got[0].message.resource) res.update(decl);
  });
  const validate::Trace t = validate::load_trace(
      replay_with_outside_work(fixed, e.api, read(kExamples / e.name / "trace.json")), "fixed");
  EXPECT_TRUE(validate::validate(t).clean()) << validate::to_text(validate::validate(t));
}

TEST(TriageFix, DeclaredWriteMakesThePlanMatchWhatRan) {
  const Example e = load_example("undeclared_write");
  const std::vector<Explanation> got = triage(e.rec, e.trace, e.api);
  ASSERT_FALSE(got.empty());
  ASSERT_TRUE(got[0].op.has_value());
  Recording fixed = edit_recording(e.name, [&](json& r) {
    list_named(r, got[0].list)["ops"][*got[0].op]["uses"][0] = json::parse(got[0].fix.declaration);
  });
  // What ran is now what is declared: the plan's own trace has the sort pass's storage write.
  const std::string text = trace_of_recording(fixed, e.api);
  const validate::Trace t = validate::load_trace(text, "fixed");
  EXPECT_TRUE(validate::validate(t).clean());
  const json sort_use = json::parse(text)["lists"][0]["commands"][3]["use"];
  EXPECT_NE(sort_use["as"]["access"].get<std::string>().find("SHADER_STORAGE_WRITE"), std::string::npos)
      << sort_use.dump();
}

// Resetting the history (the re-created resource planned as new) brings back the initializing discard.
TEST(TriageFix, ResetHistoryRestoresTheInitializingDiscard) {
  Example e = load_example("recreated_without_history_reset");
  const std::vector<Explanation> got = triage(e.rec, e.trace, e.api);
  ASSERT_FALSE(got.empty());
  EXPECT_EQ(got[0].mistake, Mistake::stale_history);
  const ResourceId hdr = *e.rec.resources.find("hdr");
  std::vector<const CommandListGroup*> groups;
  for (const CommandListGroup* g : e.rec.groups) groups.push_back(g);
  const Plan stale = plan(e.rec.resources, groups, fresh_history(e.rec.resources));
  // Frame 1 alone, planned after frame 0 with hdr's history reset as the fix says.
  History h = plan(e.rec.resources, std::span(groups).first(1), fresh_history(e.rec.resources)).history_out;
  h[hdr] = ResourceHistory{};
  const Plan reset = plan(e.rec.resources, std::span(groups).subspan(1), h);
  auto owns_discard = [&](const GroupFacts& f) {
    for (const auto& d : f.discards)
      if (d.resource == hdr) return true;
    return false;
  };
  EXPECT_FALSE(owns_discard(stale.groups[1]));
  EXPECT_TRUE(owns_discard(reset.groups[0]));
}

// --- Options and input checks. ---

TEST(Triage, FiltersById) {
  const Example e = load_example("undeclared_write");
  Options o;
  o.id = 100011;
  const auto got = triage(e.rec, e.trace, e.api, o);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(validate::number(got[0].message.id), 100011u);
}

TEST(Triage, FiltersByResource) {
  const Example e = load_example("undeclared_write");
  Options o;
  o.resource = "color";
  EXPECT_TRUE(triage(e.rec, e.trace, e.api, o).empty());
  o.resource = "particles";
  EXPECT_EQ(triage(e.rec, e.trace, e.api, o).size(), 3u);
}

TEST(Triage, ApiFamilyMustMatchTheTrace) {
  const Example e = load_example("undeclared_write");  // a Vulkan trace
  EXPECT_THROW((void)triage(e.rec, e.trace, Api::d3d12), Error);
}

// A use the recording never declared, in a recorded list: an undeclared use (or write), with the use
// to add, not a barrier.
TEST(Triage, UndeclaredUseInARecordedList) {
  const Example e = load_example("wrong_entry_state");
  const auto no_entry = [](json& r) { list_named(r, "ui").erase("entry"); };
  const Recording rec = edit_recording(e.name, no_entry);
  Recording planned = edit_recording(e.name, no_entry);
  json t = json::parse(trace_of_recording(planned, e.api));
  // The composite draw (op 1) also writes 'hud' as a UAV: nothing declared it.
  json& cmds = t["lists"][0]["commands"];
  cmds.insert(cmds.begin() + 4,
              json{{"use", {{"resource", "hud"}, {"subresource", "all"}, {"as", "UNORDERED_ACCESS"}}}});
  const auto got = triage(rec, validate::load_trace(t.dump(), "undeclared"), e.api);
  ASSERT_FALSE(got.empty());
  EXPECT_EQ(got[0].message.command, 4);
  EXPECT_EQ(got[0].op, 1u);
  EXPECT_EQ(got[0].mistake, Mistake::undeclared_write);
  EXPECT_NE(got[0].fix.declaration.find("unordered_access"), std::string::npos) << got[0].fix.declaration;
}

// A wrongly declared entry state: the list declares that 'hud' arrives as a render target, but it
// arrives as created (COMMON). What ran is Baton's plan for that declaration; triage says to remove it.
TEST(Triage, WrongDeclaredEntryStateIsNamed) {
  const Example e = load_example("wrong_entry_state");
  Recording declared = edit_recording(e.name, [](json& r) {
    list_named(r, "ui")["entry"] = json::array({{{"resource", "hud"}, {"access", "render_target"}}});
  });
  Recording ran = edit_recording(e.name, [](json& r) {
    list_named(r, "ui")["entry"] = json::array({{{"resource", "hud"}, {"access", "render_target"}}});
  });
  // The program's barriers believe the entry state, but nothing put hud there: it is as created.
  // (The trace of the recording itself starts hud in its declared state, so its round trip is clean.)
  json ran_trace = json::parse(trace_of_recording(ran, e.api));
  for (json& r : ran_trace["resources"])
    if (r["name"] == "hud") r["initial_layout"] = "UNDEFINED";
  const validate::Trace t = validate::load_trace(ran_trace.dump(), "ran");  // hud: UNDEFINED
  const auto got = triage(declared, t, e.api);
  ASSERT_FALSE(got.empty());
  EXPECT_EQ(got[0].mistake, Mistake::wrong_entry_state);
  EXPECT_EQ(got[0].list, "ui");
  EXPECT_EQ(got[0].op, 0u);
  ASSERT_TRUE(got[0].belief.entry.has_value());
  EXPECT_EQ(got[0].belief.entry->access, Access::render_target);
  EXPECT_EQ(got[0].fix.declaration.rfind("remove", 0), 0u) << got[0].fix.declaration;
}

}  // namespace
}  // namespace baton::triage
