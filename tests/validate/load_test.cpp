// Bad input: malformed traces, unknown names, unknown references and out-of-range subresources
// are baton::Error with one line naming the file and the JSON path, never a crash.
#include <baton/core.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cases.hpp"

namespace baton::validate::testing {
namespace {

struct Bad {
  std::string name;
  std::string trace;
  std::string path_in_message;  // the JSON path the error must name
};
void PrintTo(const Bad& b, std::ostream* os) {
  *os << b.name;
}

const std::string kRes = R"({"name":"tex","mips":2})";
std::string d3d(std::string_view cmd) {
  return one_list("d3d12", kRes, cmd);
}

class BadInput : public ::testing::TestWithParam<Bad> {};
TEST_P(BadInput, IsOneLineError) {
  try {
    (void)validate(load_trace(GetParam().trace, "t.json"));
    FAIL() << "accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_EQ(what.rfind("t.json:", 0), 0u) << what;  // "t.json: path" or "t.json:LINE:COLUMN"
    EXPECT_NE(what.find(GetParam().path_in_message), std::string::npos) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Trace, BadInput,
    ::testing::Values(
        Bad{"MalformedJson", R"({"api":"d3d12",)", "t.json:1:16: JSON syntax error"},
        // A misspelt key is an error, not a default: "subresourse" would otherwise mean "all".
        Bad{"MisspeltSubresource", d3d(R"({"use":{"resource":"tex","subresourse":1,"as":"COPY_DEST"}})"),
            "t.json:/lists/0/commands/0/use: unknown key 'subresourse'"},
        Bad{"UnknownKeyInResource",
            one_list("d3d12", R"({"name":"tex","mip":2})", R"({"use":{"resource":"tex","as":"COPY_DEST"}})"),
            "/resources/0: unknown key 'mip'"},
        Bad{"UnknownKeyAtRoot", R"({"api":"d3d12","resource":[]})", "t.json: unknown key 'resource'"},
        Bad{"UnknownKeyInBarrier",
            d3d(R"({"barrier":[{"type":"transition","resource":"tex","before":"COMMON","after":"COPY_DEST","subresouce":1}]})"),
            "/barrier/0: unknown key 'subresouce'"},
        // A long name is elided in the middle (input::kMaxQuotedChars), so the line stays short.
        Bad{"LongNameIsElided",
            d3d(R"({"use":{"resource":")" + std::string(5000, 'n') + R"(END","as":"COPY_DEST"}})"),
            "unknown resource '" + std::string(58, 'n') + "..." + std::string(56, 'n') + "END'"},
        Bad{"DuplicateKey", R"({"api":"d3d12","api":"vulkan"})", "t.json:/api: key 'api' appears twice"},
        Bad{"NulByte", std::string("{\"api\":\"d3d12\"}\0{}", 18), "t.json:1:16: NUL byte at offset 15"},
        Bad{"ControlCharacterInName",
            one_list("d3d12", R"({"name":"te\nsummary: 0 errors"})",
                     R"({"use":{"resource":"te\nsummary: 0 errors","as":"COPY_DEST"}})"),
            "/resources/0/name: a name must not contain control characters"},
        Bad{"NotAnObject", R"([1,2])", "t.json: expected an object"},
        Bad{"UnknownApi", R"({"api":"metal"})", "t.json:/api: unknown api"},
        Bad{"MissingApi", R"({"resources":[]})", "missing \"api\""},
        Bad{"UnknownState", d3d(R"({"use":{"resource":"tex","as":"PIXEL_SHADER_RESOURS"}})"),
            "/lists/0/commands/0/use/as"},
        Bad{"UnknownLayout",
            d3d(R"({"barrier":[{"type":"texture","resource":"tex","sync_before":"ALL","sync_after":"ALL","access_before":"COMMON","access_after":"COMMON","layout_before":"NOPE","layout_after":"COMMON"}]})"),
            "layout_before"},
        Bad{"UnknownSyncInList",
            d3d(R"({"barrier":[{"type":"buffer","resource":"tex","sync_before":"ALL|DRAWW","sync_after":"ALL","access_before":"COMMON","access_after":"COMMON"}]})"),
            "sync_before"},
        Bad{"UnknownResource", d3d(R"({"use":{"resource":"nope","as":"COPY_DEST"}})"),
            "unknown resource 'nope'"},
        Bad{"UnknownBarrierType", d3d(R"({"barrier":[{"type":"transitoin","resource":"tex"}]})"), "type"},
        Bad{"UnknownCommand", d3d(R"({"draw":{}})"), "/commands/0"},
        Bad{"TwoKeysInCommand", d3d(R"({"use":{"resource":"tex","as":"COPY_DEST"},"clear":{}})"),
            "/commands/0"},
        Bad{"UseSubresourceOutOfRange", d3d(R"({"use":{"resource":"tex","subresource":2,"as":"COPY_DEST"}})"),
            "subresource"},
        Bad{"UseRangeOutOfRange",
            d3d(R"({"use":{"resource":"tex","range":{"mips":[1,2]},"as":"COPY_DEST"}})"), "/range/mips"},
        Bad{"UseOfCommon", d3d(R"({"use":{"resource":"tex","as":"COMMON"}})"), "as"},
        Bad{"UseWriteWithRead", d3d(R"({"use":{"resource":"tex","as":"COPY_DEST|COPY_SOURCE"}})"), "as"},
        Bad{"NegativeMips", R"({"api":"d3d12","resources":[{"name":"t","mips":-1}]})", "/resources/0/mips"},
        Bad{"BufferWithMips", R"({"api":"d3d12","resources":[{"name":"b","type":"buffer","mips":2}]})",
            "/resources/0"},
        Bad{"DuplicateResource", R"({"api":"d3d12","resources":[{"name":"t"},{"name":"t"}]})",
            "duplicate resource"},
        Bad{"UnknownFlag", R"({"api":"d3d12","resources":[{"name":"t","flags":["fast"]}]})", "/flags/0"},
        Bad{"UnknownList", R"({"api":"d3d12","submissions":[{"queue":"q","lists":["x"]}]})",
            "unknown list 'x'"},
        Bad{"ListTypeDiffersFromQueue",
            R"({"api":"d3d12","lists":[{"name":"c","type":"compute"}],"submissions":[{"queue":"q","type":"direct","lists":["c"]}]})",
            "/submissions/0/lists/0"},
        Bad{"WaitWithoutSignal", R"({"api":"vulkan","submissions":[{"queue":"q","wait":["s"]}]})", "/wait/0"},
        Bad{"VulkanUseWithoutLayout",
            one_list("vulkan", kRes,
                     R"({"use":{"resource":"tex","as":{"stage":"COPY","access":"TRANSFER_READ"}}})"),
            "missing \"layout\""},
        Bad{"VulkanBarrierRangeOutOfRange",
            one_list(
                "vulkan", kRes,
                R"({"barrier":[{"type":"image","resource":"tex","range":{"mips":[2,1]},"old_layout":"UNDEFINED","new_layout":"GENERAL"}]})"),
            "range"},
        Bad{"VulkanBufferBarrierOnImage",
            one_list("vulkan", kRes, R"({"barrier":[{"type":"buffer","resource":"tex"}]})"), "type"},
        Bad{"VulkanDiscard", one_list("vulkan", kRes, R"({"discard":{"resource":"tex"}})"), "discard"}),
    [](const ::testing::TestParamInfo<Bad>& i) { return i.param.name; });

TEST(BadInputFile, MissingFileIsError) {
  EXPECT_THROW(load_trace_file("/nonexistent/trace.json"), Error);
}

// Every prefix of every example trace is either a valid trace or one baton::Error: no other
// exception and no crash, whatever the cut.
TEST(BadInputFuzz, TruncatedExamplesNeverCrash) {
  const std::filesystem::path dir = std::filesystem::path(BATON_SOURCE_DIR) / "examples" / "traces";
  ASSERT_TRUE(std::filesystem::exists(dir));
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".json") continue;
    ++files;
    std::ifstream in(entry.path());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    for (size_t cut = 0; cut < text.size(); cut += 7) {
      try {
        (void)validate(load_trace(std::string_view(text).substr(0, cut), "cut"));
      } catch (const Error&) {
      }
    }
  }
  EXPECT_GT(files, 0);
}

// A message's text (which quotes names from the trace) is printed escaped: whatever it holds, the
// text output has one line per message and exactly one "summary:" line, the last.
TEST(TextOutput, AMessageCannotForgeALine) {
  ValidationResult r;
  Message m;
  m.id = MessageId::barrier_matching_states;
  m.text = "resource 'x\nsummary: 0 error(s), 0 warning(s)\x1b[2K'";
  r.messages.push_back(m);
  r.counts[525] = 1;
  r.errors = 1;
  const std::string out = to_text(r);
  EXPECT_NE(out.find("resource 'x\\nsummary: 0 error(s), 0 warning(s)\\x1B[2K'"), std::string::npos) << out;
  size_t summaries = 0;
  for (size_t at = out.find("summary:"); at != std::string::npos; at = out.find("summary:", at + 1))
    summaries += at == 0 || out[at - 1] == '\n';
  EXPECT_EQ(summaries, 1u) << out;
  EXPECT_EQ(out.substr(out.rfind("\nsummary:") + 1), "summary: 1 error(s), 0 warning(s)\n");
}

// JSON output stays valid JSON whatever the names hold (quotes, markup, U+2028, non-ASCII).
TEST(JsonOutput, HostileNamesGiveValidJson) {
  const std::string name = "q\\\"</script>\u2028\u00e9";
  const std::string text = one_list("d3d12", R"({"name":")" + name + R"(","initial":"COMMON"})",
                                    R"({"barrier":[{"type":"transition","resource":")" + name +
                                        R"(","before":"COPY_DEST","after":"COPY_DEST"}]})");
  const ValidationResult r = validate(load_trace(text, "t.json"));
  ASSERT_FALSE(r.messages.empty());
  const nlohmann::json j = nlohmann::json::parse(to_json(r));
  EXPECT_EQ(j["messages"][0]["resource"], "q\"</script>\xe2\x80\xa8\xc3\xa9");
}

}  // namespace
}  // namespace baton::validate::testing
