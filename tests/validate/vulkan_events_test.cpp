// Vulkan events (split barriers, issue 17): vkCmdSetEvent2 / vkCmdWaitEvents2. A wait's first scope is
// the set's: accesses before the set (with the chains they had then) are ordered, accesses between the
// set and the wait are not (as the Khronos layer's SyncOpWaitEvents models it). One case per rule.
#include <baton/core.hpp>

#include "cases.hpp"

namespace baton::validate::testing {
namespace {

using M = MessageId;

constexpr const char* kRes =
    R"({"name":"img"},{"name":"buf","type":"buffer"},{"name":"other","type":"buffer"})";

std::string use(std::string_view r, std::string_view access, std::string_view layout = "") {
  if (layout.empty())
    return fmt::format(R"({{"use":{{"resource":"{}","as":{{"stage":"COMPUTE_SHADER","access":"{}"}}}}}})", r,
                       access);
  return fmt::format(
      R"({{"use":{{"resource":"{}","as":{{"stage":"COMPUTE_SHADER","access":"{}","layout":"{}"}}}}}})", r,
      access, layout);
}
const std::string kBufDep =
    R"({"type":"buffer","resource":"buf","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_WRITE",)"
    R"("dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ"})";
const std::string kImgDep =
    R"({"type":"image","resource":"img","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_WRITE",)"
    R"("dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_SAMPLED_READ","old_layout":"GENERAL",)"
    R"("new_layout":"SHADER_READ_ONLY_OPTIMAL"})";
const std::string kToGeneral =
    R"({"barrier":[{"type":"image","resource":"img","src_stage":"NONE","src_access":"NONE","dst_stage":"COMPUTE_SHADER",)"
    R"("dst_access":"SHADER_STORAGE_WRITE","old_layout":"UNDEFINED","new_layout":"GENERAL"}]})";
std::string set(std::string_view ev, const std::string& deps) {
  return fmt::format(R"({{"set_event":{{"event":"{}","barriers":[{}]}}}})", ev, deps);
}
std::string wait(std::string_view ev, const std::string& deps) {
  return fmt::format(R"({{"wait_events":[{{"event":"{}","barriers":[{}]}}]}})", ev, deps);
}
std::string vk(std::initializer_list<std::string> cmds) {
  std::string c;
  for (const std::string& s : cmds) c += (c.empty() ? "" : ",") + s;
  return one_list("vulkan", kRes, c);
}

const std::string kWriteBuf = use("buf", "SHADER_STORAGE_WRITE");
const std::string kReadBuf = use("buf", "SHADER_STORAGE_READ");
const std::string kOther = use("other", "SHADER_STORAGE_WRITE");

// A barrier on bytes [offset, offset + size) of buf that chains its write into TRANSFER (visible to
// nothing), and an event dependency whose first scope is TRANSFER: it reaches the write only
// through that chain.
std::string chain_bytes(std::string_view offset, std::string_view size) {
  return fmt::format(
      R"({{"barrier":[{{"type":"buffer","resource":"buf","offset":{},"size":{},"src_stage":"COMPUTE_SHADER",)"
      R"("src_access":"SHADER_STORAGE_WRITE","dst_stage":"TRANSFER","dst_access":"NONE"}}]}})",
      offset, size);
}
const std::string kTransferToRead =
    R"({"type":"memory","src_stage":"TRANSFER","src_access":"NONE","dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ"})";
std::string use_bytes(std::string_view offset, std::string_view size = "\"WHOLE\"") {
  return fmt::format(
      R"({{"use":{{"resource":"buf","offset":{},"size":{},"as":{{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ"}}}}}})",
      offset, size);
}

class VulkanEvents : public ::testing::TestWithParam<Case> {};
TEST_P(VulkanEvents, ExpectedIds) {
  check_case(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Sync2, VulkanEvents,
    ::testing::Values(
        Case{"SetAfterTheWriteWaitBeforeTheReadIsClean",
             vk({kWriteBuf, set("e", kBufDep), kOther, wait("e", kBufDep), kReadBuf}),
             {}},
        Case{"SplitLayoutTransitionIsClean",
             vk({kToGeneral, use("img", "SHADER_STORAGE_WRITE", "GENERAL"), set("e", kImgDep), kOther,
                 wait("e", kImgDep), use("img", "SHADER_SAMPLED_READ", "SHADER_READ_ONLY_OPTIMAL")}),
             {}},
        // Mutation: the wait dropped, the read races the write.
        Case{"ReadWithoutTheWaitIsAHazard", vk({kWriteBuf, set("e", kBufDep), kOther, kReadBuf}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // The write between set and wait is outside the set's first scope.
        Case{"WriteBetweenSetAndWaitIsNotOrdered",
             vk({set("e", kBufDep), kWriteBuf, wait("e", kBufDep), kReadBuf}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        // The same trace with a pipeline barrier where the wait is: ordered (the event rule, not the
        // barrier's, makes the case above a hazard).
        Case{"WriteBeforeAPipelineBarrierIsOrdered",
             vk({kWriteBuf, fmt::format(R"({{"barrier":[{}]}})", kBufDep), kReadBuf}),
             {}},
        // A layout transition at the wait after a write between set and wait: write-after-write.
        Case{"ImageWrittenBetweenSetAndWaitRacesTheTransition",
             vk({kToGeneral, set("e", kImgDep), use("img", "SHADER_STORAGE_WRITE", "GENERAL"),
                 wait("e", kImgDep), use("img", "SHADER_SAMPLED_READ", "SHADER_READ_ONLY_OPTIMAL")}),
             ids({{M::vk_hazard_write_after_write, 1}})},
        // A chain that grows after the set does not reach back into the set's scope: the write is
        // ordered only before a barrier recorded after the set, whose scope the wait does not include.
        Case{
            "ChainAfterTheSetDoesNotCount",
            vk({use("buf", "SHADER_STORAGE_WRITE"),
                set("e",
                    kBufDep.substr(0, 0) +
                        R"({"type":"memory","src_stage":"TRANSFER","src_access":"NONE","dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ"})"),
                R"({"barrier":[{"type":"memory","src_stage":"COMPUTE_SHADER","src_access":"NONE","dst_stage":"TRANSFER","dst_access":"NONE"}]})",
                wait(
                    "e",
                    R"({"type":"memory","src_stage":"TRANSFER","src_access":"NONE","dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ"})"),
                kReadBuf}),
            ids({{M::vk_hazard_read_after_write, 1}})},
        // A read between set and wait is outside the set's first scope: the write after the wait races it.
        Case{
            "ReadBetweenSetAndWaitIsNotOrderedBeforeTheWrite",
            vk({kReadBuf,
                set("e",
                    R"({"type":"buffer","resource":"buf","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_READ",)"
                    R"("dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_WRITE"})"),
                kReadBuf,
                wait(
                    "e",
                    R"({"type":"buffer","resource":"buf","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_READ",)"
                    R"("dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_WRITE"})"),
                kWriteBuf}),
            ids({{M::vk_hazard_write_after_read, 1}})},
        // The set's scope per run of shadow state: at the set only bytes [0, 256) of buf have the chain
        // into TRANSFER; a barrier after the set gives [256, end) the same chain (the two runs merge),
        // which the wait must not count. Bytes [256, end) race the write, bytes [0, 256) do not.
        Case{"ChainOfOneByteRangeAtTheSetCountsOnlyThere",
             vk({kWriteBuf, chain_bytes("0", "256"), set("e", kTransferToRead),
                 chain_bytes("256", "\"WHOLE\""), wait("e", kTransferToRead), use_bytes("256")}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{"ChainOfOneByteRangeAtTheSetOrdersThatRange",
             vk({kWriteBuf, chain_bytes("0", "256"), set("e", kTransferToRead),
                 chain_bytes("256", "\"WHOLE\""), wait("e", kTransferToRead), use_bytes("0", "256")}),
             {}},
        Case{"WaitWithoutSetIsReported", vk({kWriteBuf, wait("e", kBufDep), kReadBuf}),
             ids({{M::vk_event_wait_not_set, 1}, {M::vk_hazard_read_after_write, 1}})},
        Case{
            "WaitDependencyMustEqualTheSets",
            vk({kWriteBuf, set("e", kBufDep), kOther,
                wait(
                    "e",
                    R"({"type":"buffer","resource":"buf","src_stage":"COMPUTE_SHADER","src_access":"SHADER_STORAGE_WRITE",)"
                    R"("dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ|SHADER_STORAGE_WRITE"})"),
                kReadBuf}),
            ids({{M::vk_event_dependency_mismatch, 1}})}),
    case_name);

TEST(VulkanEventsLoad, EventsAreVulkanOnly) {
  const std::string t =
      one_list("d3d12", R"({"name":"buf","type":"buffer"})", R"({"set_event":{"event":"e","barriers":[]}})");
  EXPECT_THROW(load_trace(t, "t"), baton::Error);
}

TEST(VulkanEventsLoad, EventNamesAreCollected) {
  const Trace t =
      load_trace(vk({kWriteBuf, set("first", kBufDep), wait("first", kBufDep), set("second", kBufDep)}), "t");
  EXPECT_EQ(t.events, (std::vector<std::string>{"first", "second"}));
}

}  // namespace
}  // namespace baton::validate::testing
