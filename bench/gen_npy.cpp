// Deterministic benchmark input: writes .npy files of pseudo-random float32 values (normal-ish,
// like trained weights, so they compress about as badly as real ones), with no numpy needed.
//
// usage: zanj_bench_gen OUT_DIR COUNT ELEMENTS_PER_ARRAY [SEED]
//   writes OUT_DIR/w00000.npy ... as float32 arrays of shape (ELEMENTS/256, 256)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "array/dtype.hpp"
#include "array/npy_header.hpp"

namespace {

/// xorshift64*: fast, deterministic across platforms.
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ull;
  }
  /// Sum of uniforms: a cheap bell curve around 0 with unit-ish spread.
  float weight() {
    const std::uint64_t r = next();
    const int sum = static_cast<int>(r & 0xffff) + static_cast<int>((r >> 16) & 0xffff) +
                    static_cast<int>((r >> 32) & 0xffff) - 3 * 32768;
    return static_cast<float>(sum) / 32768.0f;
  }
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s OUT_DIR COUNT ELEMENTS_PER_ARRAY [SEED]\n", argv[0]);
    return 2;
  }
  const std::string dir = argv[1];
  const long count = std::atol(argv[2]);
  const std::uint64_t elements = std::strtoull(argv[3], nullptr, 10);
  Rng rng{argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 0x5eed5eedull};
  const std::uint64_t cols = elements >= 256 ? 256 : elements;
  const std::uint64_t rows = elements / cols;
  const zanj::array::Dtype f4 = zanj::array::parse_descr("<f4");
  std::vector<float> row(cols);
  for (long i = 0; i < count; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "/w%05ld.npy", i);
    FILE* out = std::fopen((dir + name).c_str(), "wb");
    if (!out) {
      std::perror((dir + name).c_str());
      return 1;
    }
    const std::string header = zanj::array::make_npy_header(f4, false, {rows, cols});
    std::fwrite(header.data(), 1, header.size(), out);
    for (std::uint64_t r = 0; r < rows; ++r) {
      for (auto& v : row) v = rng.weight();
      std::fwrite(row.data(), sizeof(float), row.size(), out);
    }
    if (std::fclose(out) != 0) {
      std::perror((dir + name).c_str());
      return 1;
    }
  }
  return 0;
}
