// Replays the fuzz seeds (fuzz/corpus/) and every input a fuzzer once crashed on
// (fuzz/regressions/) through the harnesses' own code (fuzz/fuzz_targets.hpp), so they run
// in every test build, sanitizers included, not only in the clang fuzz build.
#include <doctest/doctest.h>

#include <filesystem>

#include "fuzz_targets.hpp"
#include "temp_dir.hpp"

#ifndef ZANJ_FUZZ_DIR
#define ZANJ_FUZZ_DIR "fuzz"
#endif

namespace {

using Target = void (*)(const std::uint8_t*, std::size_t);

/// Run every file of fuzz/<folder>/<harness>/ through `target`; returns how many there were.
std::size_t replay(const char* folder, const char* harness, Target target) {
  const std::filesystem::path dir = std::filesystem::path(ZANJ_FUZZ_DIR) / folder / harness;
  std::size_t count = 0;
  if (!std::filesystem::is_directory(dir)) return 0;
  for (const auto& file : std::filesystem::directory_iterator(dir)) {
    if (!file.is_regular_file()) continue;
    const std::string data = zanj::test::read_file(file.path().string());
    CAPTURE(file.path().string());
    CHECK_NOTHROW(target(reinterpret_cast<const std::uint8_t*>(data.data()), data.size()));
    ++count;
  }
  return count;
}

}  // namespace

TEST_SUITE("fuzz_targets") {
  TEST_CASE("seeds and saved crashes run clean through every harness") {
    const std::pair<const char*, Target> harnesses[] = {
        {"npy_header", zanj::fuzz::npy_header}, {"json", zanj::fuzz::json}, {"archive", zanj::fuzz::archive}};
    for (const auto& [name, target] : harnesses) {
      CAPTURE(name);
      CHECK(replay("corpus", name, target) >= 5);  // the seeds are there
      replay("regressions", name, target);
    }
  }

  TEST_CASE("empty and tiny inputs") {
    const std::uint8_t none[1] = {0};
    for (std::size_t size : {0, 1}) {
      zanj::fuzz::npy_header(none, size);
      zanj::fuzz::json(none, size);
      zanj::fuzz::archive(none, size);
    }
  }
}
