#pragma once
// Sixty-four bytes at a time as bit masks (bit k for byte k), for the JSON text's scans that
// stop every few bytes: the minifier, and the plan's stops and strings. A byte-at-a-time loop
// pays a load, a table lookup and a branch for every byte; here a block's masks cost a few
// compares of 16 bytes each, and every stop in it one countr_zero. SSE2 is part of every
// x86-64 (the build targets any), so no run-time dispatch is needed; elsewhere the same masks
// come from byte_words.hpp's words, eight bytes at a time.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "base/byte_words.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace zanj::base::blocks {

inline constexpr std::size_t kBlockBytes = 64;

/// Bit k set where an odd number of the bits 0..k of `x` are set: between a quote and the next
/// one (the opening quote included, the closing one not), when `x` marks the quotes.
constexpr std::uint64_t prefix_xor(std::uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

/// A block read as 64-bit words: the portable masks.
class WordBlock {
 public:
  /// p[0, 64) must be readable.
  explicit WordBlock(const char* p) {
    for (std::size_t k = 0; k < 8; ++k) w_[k] = words::load(p + 8 * k);
  }
  /// Bit k set where byte k equals one of `cs`.
  template <class... C>
  std::uint64_t any_of(C... cs) const {
    std::uint64_t mask = 0;
    for (unsigned k = 0; k < 8; ++k) {
      const std::uint64_t marks = (words::bytes_equal(w_[k], static_cast<unsigned char>(cs)) | ...);
      // Each byte's high bit, moved to bit k of one byte: the multiply's terms never overlap.
      mask |= (((marks >> 7) * 0x0102040810204080ull) >> 56) << (8 * k);
    }
    return mask;
  }

 private:
  std::uint64_t w_[8];
};

#if defined(__SSE2__)
/// A block in four SSE2 registers.
class VectorBlock {
 public:
  explicit VectorBlock(const char* p) {
    for (std::size_t k = 0; k < 4; ++k) v_[k] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
  }
  template <class... C>
  std::uint64_t any_of(C... cs) const {
    std::uint64_t mask = 0;
    for (unsigned k = 0; k < 4; ++k) {
      __m128i hit = _mm_setzero_si128();
      ((hit = _mm_or_si128(hit, _mm_cmpeq_epi8(v_[k], _mm_set1_epi8(static_cast<char>(cs))))), ...);
      mask |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(hit))} << (16 * k);
    }
    return mask;
  }

 private:
  __m128i v_[4];
};
using Block = VectorBlock;
#else
using Block = WordBlock;
#endif

/// The block at text[at, at + 64) of a text of `size` bytes, read as zeros past its end (so no
/// mask marks them when no wanted byte is zero).
inline Block block_at(const char* text, std::size_t at, std::size_t size) {
  if (size - at >= kBlockBytes) return Block(text + at);
  char padded[kBlockBytes] = {};
  std::memcpy(padded, text + at, size - at);
  return Block(padded);
}

}  // namespace zanj::base::blocks
