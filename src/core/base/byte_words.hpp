#pragma once
// Eight bytes at a time in a 64-bit word ("SWAR"), for the scans the JSON text goes through
// (strings, commas; the minifier's and the plan's 64-byte masks, byte_blocks.hpp, where a CPU
// has no SSE2). The build targets any x86-64, so there is no SSE4.2 or POPCNT to
// rely on (std::popcount became a libgcc call, 2% of `zanj info`); these tests are exact (a
// byte's test never carries into its neighbour), and the first marked byte is found with
// countr_zero, which every x86-64 has (bsf).
#include <bit>
#include <cstdint>
#include <cstring>

namespace zanj::base::words {

inline constexpr std::uint64_t kOnes = 0x0101010101010101ull;
inline constexpr std::uint64_t kHighs = 0x8080808080808080ull;
inline constexpr std::uint64_t kLow7 = 0x7F7F7F7F7F7F7F7Full;

/// Bytes p[0, 8) as a little-endian word (the first byte lowest).
inline std::uint64_t load(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}
inline void store(char* p, std::uint64_t w) { std::memcpy(p, &w, 8); }

/// The high bit of each byte of `w` that is zero.
constexpr std::uint64_t zero_bytes(std::uint64_t w) { return ~(((w & kLow7) + kLow7) | w) & kHighs; }
/// The high bit of each byte of `w` equal to `c`.
constexpr std::uint64_t bytes_equal(std::uint64_t w, unsigned char c) { return zero_bytes(w ^ (kOnes * c)); }
/// The high bit of each byte of `w` below `n` (n <= 0x80).
constexpr std::uint64_t bytes_below(std::uint64_t w, unsigned char n) {
  return ~(((w & kLow7) + kOnes * (0x80u - n)) | w) & kHighs;
}
/// The position (0-7) of the first byte marked in a non-zero `marks`.
constexpr unsigned first_marked(std::uint64_t marks) { return static_cast<unsigned>(std::countr_zero(marks)) / 8; }
/// How many bytes `marks` marks: the high bits moved to the low ones, summed by one multiply.
constexpr unsigned count_marked(std::uint64_t marks) { return static_cast<unsigned>(((marks >> 7) * kOnes) >> 56); }

}  // namespace zanj::base::words
