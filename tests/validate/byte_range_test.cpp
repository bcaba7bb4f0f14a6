// Buffer byte ranges (docs/trace-format.md): Vulkan uses and buffer barriers name bytes ("offset",
// "size"); the validator keeps one shadow per byte segment, so accesses to disjoint bytes do not
// conflict and a barrier orders only the bytes it names. D3D12 states are per buffer (ranges are
// accepted on uses and change nothing). Bad ranges are bad input.
#include <baton/core.hpp>

#include "cases.hpp"

namespace baton::validate::testing {
namespace {

using M = MessageId;

std::string use(std::string_view access, uint64_t offset, std::string_view size) {
  return fmt::format(
      R"({{"use":{{"resource":"buf","offset":{},"size":{},"as":{{"stage":"COMPUTE_SHADER","access":"{}"}}}}}})",
      offset, size, access);
}
std::string barrier(uint64_t offset, std::string_view size) {
  return fmt::format(
      R"({{"barrier":[{{"type":"buffer","resource":"buf","offset":{},"size":{},"src_stage":"COMPUTE_SHADER",)"
      R"("src_access":"SHADER_STORAGE_WRITE","dst_stage":"COMPUTE_SHADER","dst_access":"SHADER_STORAGE_READ"}}]}})",
      offset, size);
}
std::string vk(std::initializer_list<std::string> cmds) {
  std::string c;
  for (const std::string& s : cmds) c += (c.empty() ? "" : ",") + s;
  return one_list("vulkan", R"({"name":"buf","type":"buffer"})", c);
}
const std::string kWrite0 = use("SHADER_STORAGE_WRITE", 0, "256");

class ByteRanges : public ::testing::TestWithParam<Case> {};
TEST_P(ByteRanges, ExpectedIds) {
  check_case(GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Vulkan, ByteRanges,
    ::testing::Values(
        Case{"DisjointBytesNeedNoBarrier", vk({kWrite0, use("SHADER_STORAGE_READ", 256, "256")}), {}},
        Case{"OverlappingBytesAreAReadAfterWrite", vk({kWrite0, use("SHADER_STORAGE_READ", 128, "256")}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{"ABarrierOnOtherBytesDoesNotMakeTheWriteVisible",
             vk({kWrite0, barrier(256, "256"), use("SHADER_STORAGE_READ", 0, "256")}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{"ABarrierOnTheBytesMakesTheWriteVisible",
             vk({kWrite0, barrier(0, "256"), use("SHADER_STORAGE_READ", 0, "256")}),
             {}},
        Case{"AWholeSizeBarrierCoversEveryByte",
             vk({kWrite0, barrier(0, R"("WHOLE")"), use("SHADER_STORAGE_READ", 0, R"("WHOLE")")}),
             {}},
        Case{"ABarrierOnPartOfTheReadLeavesTheRestUnordered",
             vk({use("SHADER_STORAGE_WRITE", 0, "512"), barrier(0, "256"),
                 use("SHADER_STORAGE_READ", 0, "512")}),
             ids({{M::vk_hazard_read_after_write, 1}})},
        Case{"AWholeBufferWriteAfterARangeReadIsOrderedOnlyByItsBarrier",
             vk({use("SHADER_STORAGE_READ", 64, "64"), use("SHADER_STORAGE_WRITE", 0, R"("WHOLE")")}),
             ids({{M::vk_hazard_write_after_read, 1}})}),
    case_name);

INSTANTIATE_TEST_SUITE_P(
    D3D12, ByteRanges,
    ::testing::Values(Case{
        "RangesOnUsesChangeNoState",
        one_list("d3d12", R"({"name":"buf","type":"buffer"})",
                 R"({"use":{"resource":"buf","offset":256,"size":64,"as":"UNORDERED_ACCESS"}},)"
                 R"({"use":{"resource":"buf","as":"UNORDERED_ACCESS"}})"),
        {}}),
    case_name);

struct BadRange {
  std::string name, trace, path;
};
void PrintTo(const BadRange& b, std::ostream* os) {
  *os << b.name;
}
class BadByteRange : public ::testing::TestWithParam<BadRange> {};
TEST_P(BadByteRange, IsOneLineErrorNamingThePath) {
  try {
    (void)load_trace(GetParam().trace, "t.json");
    FAIL() << "accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find("t.json:" + GetParam().path), std::string::npos) << what;
  }
}
INSTANTIATE_TEST_SUITE_P(
    Trace, BadByteRange,
    ::testing::Values(
        BadRange{"ZeroSize", vk({use("SHADER_STORAGE_READ", 0, "0")}), "/lists/0/commands/0/use/size"},
        BadRange{"Overflow", vk({use("SHADER_STORAGE_READ", 18446744073709551615u, "2")}),
                 "/lists/0/commands/0/use: offset 18446744073709551615 + size 2 overflows 64 bits"},
        BadRange{"SizeNotWhole", vk({use("SHADER_STORAGE_READ", 0, R"("ALL")")}),
                 "/lists/0/commands/0/use/size"},
        BadRange{
            "NegativeOffset",
            vk({R"({"use":{"resource":"buf","offset":-4,"as":{"stage":"COMPUTE_SHADER","access":"SHADER_STORAGE_READ"}}})"}),
            "/lists/0/commands/0/use/offset"},
        BadRange{"BarrierZeroSize", vk({barrier(0, "0")}), "/lists/0/commands/0/barrier/0/size"},
        BadRange{
            "OffsetOnAnImageUse",
            one_list(
                "vulkan", R"({"name":"img"})",
                R"({"use":{"resource":"img","offset":0,"as":{"stage":"COPY","access":"TRANSFER_READ","layout":"GENERAL"}}})"),
            "/lists/0/commands/0/use: unknown key 'offset' (expected one of: resource, subresource, range, "
            "as)"},
        BadRange{
            "OffsetOnAnImageBarrier",
            one_list(
                "vulkan", R"({"name":"img"})",
                R"({"barrier":[{"type":"image","resource":"img","offset":0,"old_layout":"UNDEFINED","new_layout":"GENERAL"}]})"),
            "/lists/0/commands/0/barrier/0: unknown key 'offset'"},
        BadRange{
            "OffsetOnAD3D12BufferBarrier",
            one_list(
                "d3d12", R"({"name":"buf","type":"buffer"})",
                R"({"barrier":[{"type":"buffer","resource":"buf","offset":0,"sync_before":"ALL","sync_after":"ALL","access_before":"COMMON","access_after":"COMMON"}]})"),
            "/lists/0/commands/0/barrier/0: unknown key 'offset'"}),
    [](const ::testing::TestParamInfo<BadRange>& i) { return i.param.name; });

}  // namespace
}  // namespace baton::validate::testing
