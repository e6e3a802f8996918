// libFuzzer entry point; the target itself is in fuzz_targets.hpp.
#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  zanj::fuzz::archive(data, size);
  return 0;
}
