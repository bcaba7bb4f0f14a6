// Heaps and placed resources (docs/trace-format.md, "Heaps"): which resource occupies each byte
// range, use after takeover (200001), unordered takeovers (200002), a takeover's layout (200003) and
// D3D12 legacy aliasing barriers (200004), each finding with its clean counterpart; and the loader's
// positioned errors for bad heaps and placements.
#include <baton/core.hpp>

#include "cases.hpp"

namespace baton::validate::testing {
namespace {

using M = MessageId;

// A heap "h" of 4096 bytes; resources placed in it (or not) as given.
std::string heap_trace(std::string_view api, std::string_view resources, std::string_view commands) {
  return fmt::format(R"({{"api":"{}","heaps":[{{"name":"h","bytes":4096}}],"resources":[{}],)"
                     R"("lists":[{{"name":"L","type":"direct","commands":[{}]}}],)"
                     R"("submissions":[{{"queue":"q","type":"direct","lists":["L"]}}]}})",
                     api, resources, commands);
}
std::string join(std::initializer_list<std::string> parts) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : ",") + p;
  return s;
}
std::string placed(std::string_view name, std::string_view extra, uint64_t offset, uint64_t bytes = 1024) {
  return fmt::format(R"({{"name":"{}"{},"placement":{{"heap":"h","offset":{},"bytes":{}}}}})", name, extra,
                     offset, bytes);
}

// ---- Vulkan ----
const std::string kBufA = placed("a", R"(,"type":"buffer")", 0),
                  kBufB = placed("b", R"(,"type":"buffer")", 512);
const std::string kBufs = kBufA + "," + kBufB + R"(,{"name":"c","type":"buffer"})";
std::string vuse(std::string_view r, std::string_view stage, std::string_view access,
                 std::string_view layout = "") {
  if (layout.empty())
    return fmt::format(R"({{"use":{{"resource":"{}","as":{{"stage":"{}","access":"{}"}}}}}})", r, stage,
                       access);
  return fmt::format(R"({{"use":{{"resource":"{}","as":{{"stage":"{}","access":"{}","layout":"{}"}}}}}})", r,
                     stage, access, layout);
}
std::string vbuf(std::string_view r, std::string_view ss, std::string_view sa, std::string_view ds,
                 std::string_view da) {
  return fmt::format(
      R"({{"barrier":[{{"type":"buffer","resource":"{}","src_stage":"{}","src_access":"{}","dst_stage":"{}","dst_access":"{}"}}]}})",
      r, ss, sa, ds, da);
}
std::string vimg(std::string_view r, std::string_view ss, std::string_view sa, std::string_view ol,
                 std::string_view nl) {
  return fmt::format(
      R"({{"barrier":[{{"type":"image","resource":"{}","src_stage":"{}","src_access":"{}","dst_stage":"COMPUTE_SHADER",)"
      R"("dst_access":"SHADER_STORAGE_READ|SHADER_STORAGE_WRITE","old_layout":"{}","new_layout":"{}"}}]}})",
      r, ss, sa, ol, nl);
}
std::string vk(std::string_view resources, std::initializer_list<std::string> cmds) {
  return heap_trace("vulkan", resources, join(cmds));
}
const std::string kWa = vuse("a", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE"),
                  kRa = vuse("a", "COMPUTE_SHADER", "SHADER_STORAGE_READ"),
                  kWb = vuse("b", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE"),
                  kRc = vuse("c", "COMPUTE_SHADER", "SHADER_STORAGE_READ");
const std::string kOrderB =
    vbuf("b", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE");
const std::string kMemory =
    R"({"barrier":[{"type":"memory","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_WRITE","dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ|SHADER_STORAGE_WRITE"}]})";
const std::string kImgA = placed("A", "", 0), kImgB = placed("B", "", 0);
std::string img_write(std::string_view r) {
  return vuse(r, "COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "GENERAL");
}

// The same buffers without placement: nothing shares memory, so nothing is reported (this is all a
// validator without a heap model, or layer 1.3.239 for compute storage accesses, can see).
std::string unplaced(std::initializer_list<std::string> cmds) {
  return heap_trace("vulkan", R"({"name":"a","type":"buffer"},{"name":"b","type":"buffer"})", join(cmds));
}

class Heaps : public ::testing::TestWithParam<Case> {};
TEST_P(Heaps, ExpectedIds) {
  check_case(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Vulkan, Heaps,
    ::testing::Values(
        Case{"BufferTakeoverOrderedByItsBarrierIsClean", vk(kBufs, {kWa, kOrderB, kWb}), {}},
        Case{"BufferTakeoverWithoutBarrierIsUnordered", vk(kBufs, {kWa, kWb}),
             ids({{M::heap_unordered_takeover, 1}})},
        Case{"UnplacedBuffersShareNothing", unplaced({kWa, kWb}), {}},
        Case{"BufferTakeoverBarrierFromNoneIsUnordered",
             vk(kBufs, {kWa, vbuf("b", "NONE", "NONE", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE"), kWb}),
             ids({{M::heap_unordered_takeover, 1}})},
        // The barrier orders the previous write before TRANSFER only: the compute write is not covered.
        Case{"BufferTakeoverBarrierWithTheWrongDestinationIsUnordered",
             vk(kBufs,
                {kWa, vbuf("b", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "COPY", "TRANSFER_WRITE"), kWb}),
             ids({{M::heap_unordered_takeover, 1}})},
        Case{"BufferTakeoverAfterAReadNeedsAnExecutionDependency", vk(kBufs, {kRa, kWb}),
             ids({{M::heap_unordered_takeover, 1}})},
        // Any buffer barrier is an execution dependency for all earlier work in its source stages.
        Case{"BufferTakeoverAfterAReadOrderedByAnotherResourcesBarrierIsClean",
             vk(kBufs, {kRa, kRc,
                        vbuf("c", "COMPUTE_SHADER", "SHADER_STORAGE_READ", "COMPUTE_SHADER", "NONE"), kWb}),
             {}},
        Case{
            "BufferTakeoverOrderedByAMemoryBarrierIsClean",
            vk(kBufs,
               {kWa,
                R"({"barrier":[{"type":"memory","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_WRITE","dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_WRITE"}]})",
                kWb}),
            {}},
        Case{"DisjointPlacementsShareNothing",
             vk(kBufA + "," + placed("b", R"(,"type":"buffer")", 1024) + R"(,{"name":"c","type":"buffer"})",
                {kWa, kWb}),
             {}},
        Case{"AccessAfterTakeoverIsAUseAfterTakeover", vk(kBufs, {kWa, kOrderB, kWb, kMemory, kRa}),
             ids({{M::heap_use_after_takeover, 1}})},
        // Across submissions of one queue only a semaphore orders (submission order is no memory dependency).
        Case{"BufferTakeoverInALaterSubmissionWithoutSemaphoreIsUnordered",
             R"({"api":"vulkan","heaps":[{"name":"h","bytes":4096}],"resources":[)" + kBufs +
                 R"(],"lists":[{"name":"L1","commands":[)" + kWa + R"(]},{"name":"L2","commands":[)" + kWb +
                 R"(]}],"submissions":[{"queue":"q","lists":["L1"]},{"queue":"q","lists":["L2"]}]})",
             ids({{M::heap_unordered_takeover, 1}})},
        Case{
            "BufferTakeoverAfterASemaphoreWaitIsClean",
            R"({"api":"vulkan","heaps":[{"name":"h","bytes":4096}],"resources":[)" + kBufs +
                R"(],"lists":[{"name":"L1","commands":[)" + kWa + R"(]},{"name":"L2","commands":[)" + kWb +
                R"(]}],"submissions":[{"queue":"q","lists":["L1"],"signal":["s"]},{"queue":"q","lists":["L2"],"wait":["s"]}]})",
            {}},
        Case{
            "ImageTakeoverFromUndefinedOrderedIsClean",
            vk(kImgA + "," + kImgB,
               {vimg("A", "NONE", "NONE", "UNDEFINED", "GENERAL"), img_write("A"),
                vimg("B", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "UNDEFINED", "GENERAL"), img_write("B")}),
            {}},
        // The layout transition of B writes the shared memory while A's write may still run.
        Case{"ImageTakeoverWithAnEmptySourceScopeIsUnordered",
             vk(kImgA + "," + kImgB, {vimg("A", "NONE", "NONE", "UNDEFINED", "GENERAL"), img_write("A"),
                                      vimg("B", "NONE", "NONE", "UNDEFINED", "GENERAL"), img_write("B")}),
             ids({{M::heap_unordered_takeover, 1}})},
        Case{"ImageTakeoverNotFromUndefinedIsATakeoverLayoutError",
             vk(kImgA + "," + placed("B", R"(,"initial":"GENERAL")", 0),
                {vimg("A", "NONE", "NONE", "UNDEFINED", "GENERAL"), img_write("A"),
                 vimg("B", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "GENERAL", "GENERAL"), img_write("B")}),
             ids({{M::heap_takeover_layout, 1}})},
        // A starts over from UNDEFINED after B: a new takeover, ordered after B's write (or not).
        Case{
            "ImageTakenBackFromUndefinedOrderedIsClean",
            vk(kImgA + "," + kImgB,
               {vimg("A", "NONE", "NONE", "UNDEFINED", "GENERAL"), img_write("A"),
                vimg("B", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "UNDEFINED", "GENERAL"), img_write("B"),
                vimg("A", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "UNDEFINED", "GENERAL"), img_write("A")}),
            {}},
        Case{"ImageTakenBackWithoutOrderIsUnordered",
             vk(kImgA + "," + kImgB,
                {vimg("A", "NONE", "NONE", "UNDEFINED", "GENERAL"), img_write("A"),
                 vimg("B", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "UNDEFINED", "GENERAL"), img_write("B"),
                 vimg("A", "NONE", "NONE", "UNDEFINED", "GENERAL"), img_write("A")}),
             // (A's own earlier write is not ordered before the transition either: 100003 on A.)
             ids({{M::heap_unordered_takeover, 1}, {M::vk_hazard_write_after_write, 1}})},
        Case{"ImageUsedAfterTakeoverWithoutStartingOver",
             vk(kImgA + "," + kImgB,
                {vimg("A", "NONE", "NONE", "UNDEFINED", "GENERAL"), img_write("A"),
                 vimg("B", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "UNDEFINED", "GENERAL"), img_write("B"),
                 vimg("A", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "GENERAL", "GENERAL")}),
             ids({{M::heap_use_after_takeover, 1}})}),
    case_name);

// ---- D3D12 ----
std::string d3d(std::string_view resources, std::initializer_list<std::string> cmds) {
  return heap_trace("d3d12", resources, join(cmds));
}
std::string duse(std::string_view r, std::string_view state) {
  return fmt::format(R"({{"use":{{"resource":"{}","as":"{}"}}}})", r, state);
}
std::string ebuf(std::string_view r, std::string_view sync_before) {
  return fmt::format(
      R"({{"barrier":[{{"type":"buffer","resource":"{}","sync_before":"{}","sync_after":"COMPUTE_SHADING",)"
      R"("access_before":"NO_ACCESS","access_after":"UNORDERED_ACCESS"}}]}})",
      r, sync_before);
}
std::string etex(std::string_view r, std::string_view sync_before, std::string_view layout_before) {
  return fmt::format(
      R"({{"barrier":[{{"type":"texture","resource":"{}","sync_before":"{}","sync_after":"COMPUTE_SHADING",)"
      R"("access_before":"NO_ACCESS","access_after":"UNORDERED_ACCESS","layout_before":"{}","layout_after":"UNORDERED_ACCESS"}}]}})",
      r, sync_before, layout_before);
}
std::string alias(std::string_view before, std::string_view after) {
  auto name = [](std::string_view n) { return n.empty() ? std::string("null") : fmt::format(R"("{}")", n); };
  return fmt::format(R"({{"barrier":[{{"type":"aliasing","before":{},"after":{}}}]}})", name(before),
                     name(after));
}
// Enhanced: created with an initial layout (CreatePlacedResource2).
const std::string kEa = placed("a", R"(,"type":"buffer","initial_layout":"UNDEFINED")", 0),
                  kEb = placed("b", R"(,"type":"buffer","initial_layout":"UNDEFINED")", 512);
const std::string kEnh = kEa + "," + kEb;
const std::string kUavA = duse("a", "UNORDERED_ACCESS"), kUavB = duse("b", "UNORDERED_ACCESS");
// Legacy: created in COMMON.
const std::string kLeg = placed("a", R"(,"type":"buffer")", 0) + "," + placed("b", R"(,"type":"buffer")", 0) +
                         R"(,{"name":"c","type":"buffer"})";

INSTANTIATE_TEST_SUITE_P(
    D3D12, Heaps,
    ::testing::Values(
        Case{"EnhancedTakeoverWithSyncBeforeCoveringIsClean",
             d3d(kEnh, {kUavA, ebuf("b", "COMPUTE_SHADING"), kUavB}),
             {}},
        Case{"EnhancedTakeoverWithSyncBeforeAllIsClean", d3d(kEnh, {kUavA, ebuf("b", "ALL"), kUavB}), {}},
        // SyncBefore NONE is legal on b's first touch (no 1417): only the heap model sees the race.
        Case{
            "EnhancedTakeoverWithSyncBeforeNoneIsUnordered",
            d3d(kEnh,
                {kUavA,
                 R"({"barrier":[{"type":"buffer","resource":"b","sync_before":"NONE","sync_after":"COMPUTE_SHADING","access_before":"NO_ACCESS","access_after":"UNORDERED_ACCESS"}]})",
                 kUavB}),
            ids({{M::heap_unordered_takeover, 1}})},
        Case{"EnhancedTakeoverWithSyncBeforeMissingTheStageIsUnordered",
             d3d(kEnh, {kUavA, ebuf("b", "COPY"), kUavB}), ids({{M::heap_unordered_takeover, 1}})},
        Case{"EnhancedTakeoverWithoutBarrierIsUnordered", d3d(kEnh, {kUavA, kUavB}),
             ids({{M::heap_unordered_takeover, 1}})},
        Case{
            "EnhancedTextureTakeoverNotFromUndefinedIsATakeoverLayoutError",
            d3d(placed("A", R"(,"flags":["unordered_access"],"initial_layout":"UNORDERED_ACCESS")", 0) + "," +
                    placed("B", R"(,"flags":["unordered_access"],"initial_layout":"UNORDERED_ACCESS")", 0),
                {duse("A", "UNORDERED_ACCESS"), etex("B", "COMPUTE_SHADING", "UNORDERED_ACCESS"),
                 duse("B", "UNORDERED_ACCESS")}),
            ids({{M::heap_takeover_layout, 1}})},
        Case{"EnhancedTextureTakeoverFromUndefinedIsClean",
             d3d(placed("A", R"(,"flags":["unordered_access"],"initial_layout":"UNORDERED_ACCESS")", 0) +
                     "," + placed("B", R"(,"flags":["unordered_access"],"initial_layout":"UNDEFINED")", 0),
                 {duse("A", "UNORDERED_ACCESS"), etex("B", "COMPUTE_SHADING", "UNDEFINED"),
                  duse("B", "UNORDERED_ACCESS")}),
             {}},
        Case{"EnhancedUseAfterTakeover", d3d(kEnh, {kUavA, ebuf("b", "COMPUTE_SHADING"), kUavB, kUavA}),
             ids({{M::heap_use_after_takeover, 1}})},
        // An earlier ExecuteCommandLists on the same queue completes before the next one starts.
        Case{"TakeoverInALaterExecuteCommandListsIsClean",
             R"({"api":"d3d12","heaps":[{"name":"h","bytes":4096}],"resources":[)" + kEnh +
                 R"(],"lists":[{"name":"L1","commands":[)" + kUavA + R"(]},{"name":"L2","commands":[)" +
                 kUavB + R"(]}],"submissions":[{"queue":"q","lists":["L1"]},{"queue":"q","lists":["L2"]}]})",
             {}},
        Case{
            "TakeoverOnAnotherQueueWithoutFenceIsUnordered",
            R"({"api":"d3d12","heaps":[{"name":"h","bytes":4096}],"resources":[)" + kEnh +
                R"(],"lists":[{"name":"L1","commands":[)" + kUavA +
                R"(]},{"name":"L2","type":"compute","commands":[)" + kUavB +
                R"(]}],"submissions":[{"queue":"q","lists":["L1"]},{"queue":"c","type":"compute","lists":["L2"]}]})",
            ids({{M::heap_unordered_takeover, 1}})},
        // An aliasing barrier orders its own queue's work only: the predecessor's last accesses on
        // another queue need a fence wait, even when the barrier names it.
        Case{"LegacyAliasingBarrierAfterAnotherQueueWithoutFenceIsUnordered",
             R"({"api":"d3d12","heaps":[{"name":"h","bytes":4096}],"resources":[)" + kLeg +
                 R"(],"lists":[{"name":"L1","type":"compute","commands":[)" + kUavA +
                 R"(]},{"name":"L2","commands":[)" + alias("a", "b") + "," + kUavB +
                 R"(]}],"submissions":[{"queue":"c","type":"compute","lists":["L1"]},{"queue":"q","lists":["L2"]}]})",
             ids({{M::heap_unordered_takeover, 1}})},
        Case{"LegacyAliasingBarrierAfterAnotherQueueWithAFenceWaitIsClean",
             R"({"api":"d3d12","heaps":[{"name":"h","bytes":4096}],"resources":[)" + kLeg +
                 R"(],"lists":[{"name":"L1","type":"compute","commands":[)" + kUavA +
                 R"(]},{"name":"L2","commands":[)" + alias("a", "b") + "," + kUavB +
                 R"(]}],"submissions":[{"queue":"c","type":"compute","lists":["L1"],"signal":["f"]},)"
                 R"({"queue":"q","lists":["L2"],"wait":["f"]}]})",
             {}},
        Case{"LegacyAliasingBarrierNamingThePredecessorIsClean",
             d3d(kLeg, {kUavA, alias("a", "b"), kUavB}),
             {}},
        Case{"LegacyAliasingBarrierWithNullBeforeIsClean", d3d(kLeg, {kUavA, alias("", "b"), kUavB}), {}},
        Case{"LegacyAliasingBarrierWithNullAfterIsClean", d3d(kLeg, {kUavA, alias("", ""), kUavB}), {}},
        Case{"LegacyTakeoverWithoutAliasingBarrier", d3d(kLeg, {kUavA, kUavB}),
             ids({{M::heap_missing_aliasing_barrier, 1}})},
        Case{"LegacyAliasingBarrierNamingAnotherResource",
             d3d(kLeg, {kUavA, duse("c", "UNORDERED_ACCESS"), alias("c", "b"), kUavB}),
             ids({{M::heap_missing_aliasing_barrier, 1}})},
        Case{"LegacyUseAfterTakeover", d3d(kLeg, {kUavA, alias("a", "b"), kUavB, kUavA}),
             ids({{M::heap_use_after_takeover, 1}})},
        Case{"LegacyTakenBackByAnAliasingBarrierIsClean",
             d3d(kLeg, {kUavA, alias("a", "b"), kUavB, alias("b", "a"), kUavA}),
             {}}),
    case_name);

TEST(HeapMessages, NameBothResourcesTheHeapAndTheBytes) {
  const ValidationResult r = validate(load_trace(vk(kBufs, {kWa, kWb}), "t.json"));
  ASSERT_EQ(r.messages.size(), 1u) << to_text(r);
  const Message& m = r.messages.front();
  EXPECT_EQ(m.id, M::heap_unordered_takeover);
  EXPECT_EQ(m.resource, "b");
  EXPECT_NE(m.text.find("'a' (heap 'h' bytes [512, 1024))"), std::string::npos) << m.text;
  EXPECT_NE(m.text.find("SYNC-HAZARD-WRITE-AFTER-WRITE"), std::string::npos) << m.text;
}

// ---- the heap model on run-based shadows ----
// A ghost copies a run of the previous occupant's shadow, not a subresource: its cost follows what the
// previous occupant's accesses split it into, and its messages count the subresources it stands for.
std::string error_of(const std::string& trace, const ValidateOptions& o) {
  try {
    (void)validate(load_trace(trace, "t.json"), o);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}
// The replay's total run visits: the smallest max_visits that validates the trace.
uint64_t visits_of(const std::string& trace) {
  uint64_t lo = 0, hi = uint64_t{1} << 24;
  while (lo < hi) {
    ValidateOptions o;
    o.max_visits = lo + (hi - lo) / 2;
    if (error_of(trace, o).empty())
      hi = o.max_visits;
    else
      lo = o.max_visits + 1;
  }
  return lo;
}
// Image "A" (2 mips x 8192 layers) and buffer "b" share heap bytes [0, 1024); mip 0 of every other
// layer of A is written, one command each (8192 runs, 4096 of them written: shadows are kept by run
// index, mip-major, so one command on mip 0 of every layer would be one run), then b is used with no
// barrier (command kTakenAt).
constexpr size_t kTakenAt = 4096;
std::string split_then_taken(std::string_view b_use, int memory_barriers = 0) {
  std::string cmds;
  for (size_t k = 0; k < kTakenAt; ++k)
    cmds += fmt::format(
        R"({{"use":{{"resource":"A","subresource":{},"as":{{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_WRITE","layout":"UNDEFINED"}}}}}},)",
        2 * (2 * k));  // mip 0 of layer 2k: subresource index 0 + 2k * 2 mips
  cmds += std::string(b_use);
  for (int i = 0; i < memory_barriers; ++i) cmds += "," + kMemory;
  return heap_trace(
      "vulkan", placed("A", R"(,"mips":2,"layers":8192)", 0) + "," + placed("b", R"(,"type":"buffer")", 0),
      cmds);
}

TEST(HeapRuns, AGhostStandsForARunAndCountsItsSubresources) {
  // One write of all 2^20 subresources: one run, so one ghost, however many subresources.
  const std::string trace = heap_trace(
      "vulkan", placed("A", R"(,"layers":1048576)", 0) + "," + placed("b", R"(,"type":"buffer")", 0),
      join({vuse("A", "COMPUTE_SHADER", "SHADER_STORAGE_WRITE", "UNDEFINED"), kWb}));
  ValidateOptions tight;
  tight.max_runs = 8;
  tight.max_visits = 64;
  EXPECT_EQ(error_of(trace, tight), "");
  const ValidationResult r = validate(load_trace(trace, "t.json"), tight);
  ASSERT_EQ(r.messages.size(), 1u) << to_text(r);
  EXPECT_EQ(r.messages[0].id, M::heap_unordered_takeover);
  EXPECT_EQ(r.messages[0].resource, "b");
  EXPECT_NE(r.messages[0].text.find("(and 1048575 more like it)"), std::string::npos) << r.messages[0].text;
}

TEST(HeapRuns, GhostsOfASplitOccupantAreItsRunsWithAccesses) {
  const ValidationResult r = validate(load_trace(split_then_taken(kWb), "t.json"));
  ASSERT_EQ(r.messages.size(), 1u) << to_text(r);
  EXPECT_EQ(r.messages[0].id, M::heap_unordered_takeover);
  // The 4096 written runs (one subresource each); the unwritten ones hold no access and make no ghost.
  EXPECT_NE(r.messages[0].text.find("(and 4095 more like it)"), std::string::npos) << r.messages[0].text;
}

// b only reads: the previous occupant's write stays in the ghosts (a write would replace it, and the
// ghosts would be dropped within the command).
const std::string kRb = vuse("b", "COMPUTE_SHADER", "SHADER_STORAGE_READ");

TEST(HeapRuns, GhostsCountIntoTheRunLimit) {
  // A's 8192 runs and b's one fit under 10000; with the 4096 ghosts b takes over they do not.
  ValidateOptions o;
  o.max_runs = 10000;
  EXPECT_EQ(error_of(split_then_taken(kWb), o), "");
  EXPECT_EQ(
      error_of(split_then_taken(kRb), o),
      fmt::format("t.json:/lists/0/commands/{}: the replay needs more than 10000 runs of subresource state at "
                  "once (a hard limit of the validator: docs/trace-format.md, \"Cost and limits\")",
                  kTakenAt));
}

TEST(HeapRuns, AMemoryBarrierVisitsEveryRunAndEveryGhost) {
  EXPECT_EQ(visits_of(split_then_taken(kRb, 2)) - visits_of(split_then_taken(kRb, 1)), 8192u + 1u + 4096u);
}

// ---- loader ----
struct BadHeap {
  std::string name, trace, path;
};
void PrintTo(const BadHeap& b, std::ostream* os) {
  *os << b.name;
}
class BadHeapInput : public ::testing::TestWithParam<BadHeap> {};
TEST_P(BadHeapInput, IsOneLineErrorNamingThePath) {
  try {
    (void)load_trace(GetParam().trace, "t.json");
    FAIL() << "accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find("t.json:" + GetParam().path), std::string::npos) << what;
  }
}
std::string with_resource(std::string_view resource,
                          std::string_view heaps = R"([{"name":"h","bytes":4096}])") {
  return fmt::format(R"({{"api":"vulkan","heaps":{},"resources":[{}]}})", heaps, resource);
}
INSTANTIATE_TEST_SUITE_P(
    Trace, BadHeapInput,
    ::testing::Values(
        BadHeap{"UnknownHeap", with_resource(R"({"name":"a","placement":{"heap":"g","offset":0,"bytes":1}})"),
                "/resources/0/placement/heap: unknown heap 'g'"},
        BadHeap{"PlacementWithoutHeaps",
                with_resource(R"({"name":"a","placement":{"heap":"h","offset":0,"bytes":1}})", "[]"),
                "/resources/0/placement/heap: unknown heap 'h'"},
        BadHeap{"OutOfRange",
                with_resource(R"({"name":"a","placement":{"heap":"h","offset":4000,"bytes":97}})"),
                "/resources/0/placement: bytes [4000, 4097) out of range for heap 'h' (4096 bytes)"},
        BadHeap{
            "Overflow",
            with_resource(R"({"name":"a","placement":{"heap":"h","offset":18446744073709551615,"bytes":2}})"),
            "/resources/0/placement: offset 18446744073709551615 + bytes 2 overflows 64 bits"},
        BadHeap{"ZeroBytes", with_resource(R"({"name":"a","placement":{"heap":"h","offset":0,"bytes":0}})"),
                "/resources/0/placement/bytes"},
        BadHeap{"NegativeOffset",
                with_resource(R"({"name":"a","placement":{"heap":"h","offset":-1,"bytes":1}})"),
                "/resources/0/placement/offset: expected a non-negative integer"},
        BadHeap{"FractionalBytes",
                with_resource(R"({"name":"a","placement":{"heap":"h","offset":0,"bytes":1.5}})"),
                "/resources/0/placement/bytes: expected a non-negative integer"},
        BadHeap{"MissingOffset", with_resource(R"({"name":"a","placement":{"heap":"h","bytes":1}})"),
                "/resources/0/placement: missing \"offset\""},
        BadHeap{"UnknownPlacementKey",
                with_resource(R"({"name":"a","placement":{"heap":"h","offset":0,"bytes":1,"align":4}})"),
                "/resources/0/placement: unknown key 'align'"},
        BadHeap{"PlacementNotAnObject", with_resource(R"({"name":"a","placement":"h"})"),
                "/resources/0/placement: expected an object"},
        BadHeap{"DuplicateHeap", with_resource("", R"([{"name":"h","bytes":1},{"name":"h","bytes":2}])"),
                "/heaps/1/name: duplicate heap 'h'"},
        BadHeap{"EmptyHeap", with_resource("", R"([{"name":"h","bytes":0}])"), "/heaps/0/bytes"},
        BadHeap{"HeapsNotAnArray", with_resource("", R"({"name":"h"})"), "/heaps: expected an array"},
        BadHeap{"UnknownHeapKey", with_resource("", R"([{"name":"h","bytes":1,"type":"default"}])"),
                "/heaps/0: unknown key 'type'"},
        BadHeap{
            "UploadResourcePlaced",
            R"({"api":"d3d12","heaps":[{"name":"h","bytes":4096}],"resources":[{"name":"a","type":"buffer","heap":"upload","placement":{"heap":"h","offset":0,"bytes":1}}]})",
            "/resources/0/placement: upload and readback resources are not placed"}),
    [](const ::testing::TestParamInfo<BadHeap>& i) { return i.param.name; });

TEST(HeapLoad, PlacementIsRead) {
  const Trace t = load_trace(
      with_resource(R"({"name":"a","placement":{"heap":"h","offset":4095,"bytes":1}},{"name":"b"})"));
  ASSERT_EQ(t.heaps.size(), 1u);
  EXPECT_EQ(t.heaps[0].name, "h");
  EXPECT_EQ(t.heaps[0].bytes, 4096u);
  EXPECT_EQ(t.resources[0].placement.heap, 0);
  EXPECT_EQ(t.resources[0].placement.offset, 4095u);
  EXPECT_EQ(t.resources[0].placement.bytes, 1u);
  EXPECT_EQ(t.resources[1].placement.heap, kNotPlaced);
}

}  // namespace
}  // namespace baton::validate::testing
