// libFuzzer target: the recording loader (src/io/load_recording.cpp) on arbitrary bytes.
#include "baton/recording.hpp"
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return baton::fuzz::run_one(data, size, [](std::string_view text) {
    const baton::Recording r = baton::load_recording(text, "fuzz");
    // A loaded recording must also save (the loader accepted it, so it is well-formed).
    (void)baton::save_recording(r);
  });
}
