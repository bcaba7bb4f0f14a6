// libFuzzer target: the trace loader (src/validate/trace_load.cpp) on arbitrary bytes.
#include "baton/validate.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return baton::fuzz::run_one(data, size, [](std::string_view text) {
    (void)baton::validate::load_trace(text, "fuzz");
  });
}
