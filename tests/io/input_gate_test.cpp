// The input gate (include/core/baton/input.hpp): what every command reads goes through input::read and
// input::parse, so these are the rules of all three formats. And the conflict search of one
// operation (plan_detail::first_conflict), which must find the same pair as comparing every pair,
// without doing so.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>

#include "../../src/plan/uses.hpp"
#include "baton/core.hpp"
#include "baton/input.hpp"
#include "baton/input_deferred.hpp"
#include "baton/recording.hpp"

namespace baton {
namespace {

std::string error_of_parse(std::string_view text) {
  try {
    (void)input::parse(text, "f.json");
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << text;
  return {};
}

std::string error_of_read(const std::string& path) {
  try {
    (void)input::read(path);
  } catch (const Error& e) {
    return e.what();
  }
  ADD_FAILURE() << "read: " << path;
  return {};
}

TEST(InputParse, NumberOverflowHasLineAndColumn) {
  EXPECT_EQ(error_of_parse("{\n  \"a\": 1e400}"),
            "f.json:2:12: JSON syntax error: number overflow parsing '1e400'");
}

TEST(InputParse, NulByteIsRefusedWithItsPosition) {
  // nlohmann alone stops at a NUL and ignores the rest.
  EXPECT_EQ(error_of_parse(std::string_view("{}\n\0{\"x\"", 8)),
            "f.json:2:1: NUL byte at offset 3 (JSON text cannot contain one)");
}

TEST(InputParse, IllFormedUtf8OutsideStringsIsRefusedWithItsPosition) {
  EXPECT_EQ(error_of_parse("{\"a\": 1} \xc3"), "f.json:1:10: ill-formed UTF-8: byte 0xC3 at offset 9");
  EXPECT_EQ(error_of_parse("[\"\xed\xa0\x80\"]"),
            "f.json:1:3: ill-formed UTF-8: byte 0xED at offset 2");  // a surrogate
  EXPECT_NO_THROW((void)input::parse("[\"caf\xc3\xa9\"]", "f.json"));
}

TEST(InputParse, DuplicateKeyNamesPointerAndPosition) {
  EXPECT_EQ(error_of_parse("{\"a\": [{\"b~/\": 1,\n \"b~/\": 2}]}"),
            "f.json:/a/0/b~0~1: key 'b~/' appears twice in one object (line 2, column 2)");
}

// The parse for large documents (baton/input_deferred.hpp): the elements of /lists/i/commands are left
// out of the document, their text kept, in document order; everything else is as parse() gives it.
TEST(InputDeferred, ElementsAreLeftOutAndTheirTextKept) {
  const std::string text =
      R"({"lists": [{"name": "a", "commands": [{"use": {"x": [1, {"y": 2}]}}, 7, {}]},)"
      R"( {"commands": [ {"z":"}"} ]}], "commands": [{"kept": true}]})";
  input::DeferredElements d{"lists", "commands", {}};
  const nlohmann::json j = input::parse(text, "f.json", d);
  ASSERT_EQ(d.slices.size(), 3u);
  auto slice = [&](size_t i) { return text.substr(d.slices[i].begin, d.slices[i].end - d.slices[i].begin); };
  EXPECT_EQ(slice(0), R"({"use": {"x": [1, {"y": 2}]}})");
  EXPECT_EQ(slice(1), "{}");
  EXPECT_EQ(slice(2), R"({"z":"}"})");  // a brace inside a string is not the end
  const nlohmann::json& first = j["lists"][0]["commands"];
  ASSERT_EQ(first.size(), 3u);  // every element keeps its place
  EXPECT_TRUE(first[0].is_discarded());
  EXPECT_EQ(first[1], 7);  // not an object: kept for the loader to report
  EXPECT_TRUE(first[2].is_discarded());
  EXPECT_EQ(j["lists"][0]["name"], "a");
  EXPECT_TRUE(j["lists"][1]["commands"][0].is_discarded());
  EXPECT_EQ(j["commands"][0]["kept"], true);  // another path: not deferred
  // The rest of the document is what parse() builds.
  nlohmann::json whole = input::parse(text, "f.json");
  whole["lists"][0]["commands"][0] = whole["lists"][0]["commands"][2] = whole["lists"][1]["commands"][0] =
      nlohmann::json(nlohmann::json::value_t::discarded);
  EXPECT_EQ(j.dump(), whole.dump());
}

TEST(InputDeferred, ErrorsInsideDeferredElementsKeepPointerAndPosition) {
  input::DeferredElements d{"lists", "commands", {}};
  try {
    (void)input::parse(R"({"lists": [{"commands": [{}, {"use": {"a": 1,)" "\n" R"( "a": 2}}]}]})", "f.json", d);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "f.json:/lists/0/commands/1/use/a: key 'a' appears twice in one object (line 2, column 2)");
  }
  try {
    (void)input::parse(R"({"lists": [{"commands": [{}, {"use": 1e400}]}]})", "f.json", d);
    ADD_FAILURE() << "accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "f.json:1:42: JSON syntax error: number overflow parsing '1e400'");
  }
}

TEST(InputParse, NestingIsBounded) {
  EXPECT_NO_THROW(
      (void)input::parse(std::string(input::kMaxDepth, '[') + std::string(input::kMaxDepth, ']'), "f"));
  const std::string deep(input::kMaxDepth + 1, '[');
  EXPECT_EQ(error_of_parse(deep), "f.json:1:257: nested deeper than 256 arrays and objects");
}

TEST(InputParse, BuildsTheSameValueAsNlohmann) {
  const std::string text =
      R"({"s": "x\u00e9\n", "n": [1, -2, 3.5, 18446744073709551615, true, false, null], "o": {"k": {}, "e": []}})";
  EXPECT_EQ(input::parse(text, "f"), nlohmann::json::parse(text));
}

// Linear, not quadratic: the callback parser took 2.4 s for 10^5 objects in one array and did not
// finish 10^6 in a minute; this is far inside the bound even under the sanitizers.
TEST(InputParse, LongArrayOfObjectsIsLinear) {
  std::string text = "[";
  for (int i = 0; i < 200000; ++i) text += i ? ",{\"a\":[1]}" : "{\"a\":[1]}";
  text += "]";
  const auto t0 = std::chrono::steady_clock::now();
  const nlohmann::json j = input::parse(text, "f");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(j.size(), 200000u);
  EXPECT_LT(s, 10.0);
}

TEST(InputRead, RefusesWhatIsNotARegularFile) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("baton_gate_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string fifo = (dir / "fifo").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  // Opening a FIFO for reading would wait for a writer: the gate must neither block nor read it.
  EXPECT_EQ(
      error_of_read(fifo),
      fifo + ": cannot read: a FIFO (named pipe), only regular files are read (- reads standard input)");
  EXPECT_EQ(
      error_of_read(dir.string()),
      dir.string() + ": cannot read: a directory, only regular files are read (- reads standard input)");
  EXPECT_EQ(
      error_of_read("/dev/zero"),
      "/dev/zero: cannot read: a character device, only regular files are read (- reads standard input)");
  EXPECT_EQ(error_of_read((dir / "missing").string()),
            (dir / "missing").string() + ": cannot read: no such file");
  std::filesystem::remove_all(dir);
}

TEST(InputRead, ReadsARegularFileWhole) {
  const std::filesystem::path p =
      std::filesystem::temp_directory_path() / ("baton_gate_f_" + std::to_string(::getpid()));
  std::string data(200000, 'x');
  data[123] = '\n';
  std::ofstream(p, std::ios::binary) << data;
  EXPECT_EQ(input::read(p.string()), data);
  std::filesystem::remove(p);
}

TEST(InputRead, FileLargerThanTheLimitIsRefusedBeforeReading) {
  const std::filesystem::path p =
      std::filesystem::temp_directory_path() / ("baton_gate_big_" + std::to_string(::getpid()));
  { std::ofstream(p, std::ios::binary) << "x"; }
  std::filesystem::resize_file(p, input::kMaxInputBytes + 1);  // sparse: no disk used
  EXPECT_EQ(error_of_read(p.string()), p.string() + ": cannot read: larger than 256 MiB");
  std::filesystem::remove(p);
}

TEST(InputText, EscapeMakesControlCharactersVisible) {
  EXPECT_EQ(input::escape("a\nsummary: 0 errors"), "a\\nsummary: 0 errors");
  EXPECT_EQ(input::escape("\x1b[31mred"), "\\x1B[31mred");
  EXPECT_EQ(input::escape("x\xe2\x80\xa8y\xc2\x85z"), "x\\u{2028}y\\u{0085}z");  // LINE SEPARATOR, NEL
  EXPECT_EQ(input::escape("bad\xff"), "bad\\xFF");
  EXPECT_EQ(input::escape("caf\xc3\xa9"), "caf\xc3\xa9");
}

TEST(InputText, LongNamesAreElidedInTheMiddle) {
  const std::string name = std::string(100, 'a') + std::string(100, 'b');
  const std::string q = input::quote(name);
  EXPECT_EQ(q.size(), input::kMaxQuotedChars + 2);
  EXPECT_EQ(q, "'" + std::string(58, 'a') + "..." + std::string(59, 'b') + "'");
  EXPECT_EQ(input::one_line(std::string(100000, 'm')).size(), input::kMaxMessageChars);
  EXPECT_EQ(input::elide("short", 10), "short");
  // Characters, not bytes: a multi-byte character is never cut.
  const std::string e = input::elide(std::string(300, 'a') + "\xc3\xa9" + std::string(300, 'b'), 9);
  EXPECT_EQ(e, "aaa...bbb");
}

// ---- conflicts inside one operation ----

struct Table {
  std::vector<ResourceDesc> descs;
  const ResourceDesc& operator()(ResourceId r) const { return descs[r]; }
};

bool loader_conflict(Access a, Access b) {
  return a != b && (is_write(a) || is_write(b));
}

// The reference: every pair, the first by (second, first).
std::optional<plan_detail::UsePair> pairwise(const std::vector<Use>& uses, const std::vector<Box>& boxes) {
  for (uint32_t b = 1; b < uses.size(); ++b)
    for (uint32_t a = 0; a < b; ++a)
      if (uses[a].resource == uses[b].resource && loader_conflict(uses[a].access, uses[b].access) &&
          overlaps(boxes[a], boxes[b]))
        return plan_detail::UsePair{a, b};
  return std::nullopt;
}

// Few uses (pairwise), many uses on a small resource (dense table), many small boxes on a large
// resource (hash map): every path finds the pair the reference finds.
TEST(FirstConflict, AgreesWithThePairwiseSearch) {
  std::mt19937 rng_engine(7);
  auto rng = [&] { return static_cast<uint32_t>(rng_engine()); };
  const Access kinds[] = {Access::shader_resource, Access::unordered_access, Access::copy_source,
                          Access::render_target};
  int found = 0;
  for (int round = 0; round < 1500; ++round) {
    const int shape = round % 3;  // 0: few uses; 1: many uses, small resource; 2: many uses, large resource
    Table t;
    const uint32_t nres = 1 + rng() % 3;
    for (uint32_t r = 0; r < nres; ++r) {
      ResourceDesc d;
      d.mips = shape == 2 ? 16 : 1 + rng() % 4;
      d.layers = shape == 2 ? 2048 : 1 + rng() % 4;
      d.planes = 1;
      t.descs.push_back(d);
    }
    std::vector<Use> uses;
    std::vector<Box> boxes;
    const uint32_t n = shape == 0 ? 2 + rng() % 8 : 40 + rng() % 80;
    for (uint32_t i = 0; i < n; ++i) {
      Use u;
      u.resource = static_cast<ResourceId>(rng() % nres);
      // Mostly one access per resource, so that conflicts are rare and found late.
      u.access = rng() % 8 == 0 ? kinds[rng() % 4] : kinds[u.resource % 4];
      const ResourceDesc& d = t.descs[u.resource];
      const uint32_t span = shape == 2 ? 2 : 0;  // large resources: small boxes
      Box b;
      b.m0 = rng() % d.mips;
      b.m1 = b.m0 + 1 + rng() % (span ? std::min(span, d.mips - b.m0) : d.mips - b.m0);
      b.l0 = shape == 2 ? rng() % 8 : rng() % d.layers;  // near each other, so that some overlap
      b.l1 = b.l0 + 1 + rng() % (span ? span : d.layers - b.l0);
      uses.push_back(u);
      boxes.push_back(b);
    }
    const auto want = pairwise(uses, boxes);
    const auto got = plan_detail::first_conflict(uses, boxes, t, loader_conflict);
    ASSERT_EQ(want.has_value(), got.has_value()) << "round " << round;
    if (want) {
      ++found;
      EXPECT_EQ(want->first, got->first) << "round " << round;
      EXPECT_EQ(want->second, got->second) << "round " << round;
    }
  }
  EXPECT_GT(found, 100);  // both outcomes are exercised
  EXPECT_LT(found, 1400);
}

// Past the subresource budget the search compares distinct (access, box) pairs: same answer.
TEST(FirstConflict, PastTheBudgetStillFindsTheFirstPair) {
  Table t;
  ResourceDesc d;
  d.mips = 16;
  d.layers = 2048;
  d.planes = 1;
  t.descs.push_back(d);
  std::vector<Use> uses;
  std::vector<Box> boxes;
  for (uint32_t i = 0; i < 4400;
       ++i) {  // 2200 reads of layers 1.. (past 2^26 subresources in all), writes of layer 0
    Use u;
    u.access = i % 2 ? Access::unordered_access : Access::shader_resource;
    uses.push_back(u);
    boxes.push_back(i % 2 ? Box{0, 16, 0, 1, 0, 1} : Box{0, 16, 1, 2048, 0, 1});
  }
  EXPECT_FALSE(plan_detail::first_conflict(uses, boxes, t, loader_conflict).has_value());
  boxes[3001] = Box{0, 16, 0, 2, 0, 1};  // a write reaching layer 1: conflicts with read 0
  const auto got = plan_detail::first_conflict(uses, boxes, t, loader_conflict);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(got->first, 0u);
  EXPECT_EQ(got->second, 3001u);
}

// 10^5 uses of one resource in one operation took 34 s through the pairwise check; now linear.
TEST(FirstConflict, ManyUsesOfOneResourceInOneOpLoadQuickly) {
  std::string text =
      R"({"resources": [{"name": "b", "type": "buffer", "size": 256, "usage": ["shader_resource", "copy_source"]}],
    "groups": [{"name": "g", "queue": "direct", "lists": [{"name": "l", "ops": [{"kind": "dispatch", "uses": [)";
  for (int i = 0; i < 100000; ++i)
    text +=
        std::string(i ? "," : "") + R"({"resource": "b", "access": "shader_resource", "stages": "compute"})";
  text += "]}]}]}]}";
  const auto t0 = std::chrono::steady_clock::now();
  const Recording rec = load_recording(text, "many.json");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(rec.lists.size(), 1u);
  EXPECT_LT(s, 10.0);
}

}  // namespace
}  // namespace baton
