#include "zip/deflate_blocks.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstring>
#include <string>

#include "zanj/error.hpp"

namespace zanj::zip {
// The walker's parts, in a namespace of their own: the unity build compiles this file with the
// rest of zip/, whose files use names such as Kind and entry.
namespace deflate_walk {
namespace {

[[noreturn]] void malformed(const char* why) {
  throw Error(std::string("deflate: internal: not one complete deflate stream (") + why + ")");
}

// ---- Bits ------------------------------------------------------------------------

/// The stream's bits, low bit first, through a 64-bit buffer refilled 8 bytes at a time
/// (libdeflate's way: the bytes past those counted are loaded again, identical, next time).
/// Past the end it reads zeros, and fails as soon as one of them is used.
class Bits {
 public:
  explicit Bits(std::string_view s)
      : begin_(reinterpret_cast<const unsigned char*>(s.data())), at_(begin_), end_(begin_ + s.size()) {}

  /// What the hot loop copies into locals.
  struct State {
    const unsigned char* at;
    std::uint64_t buffer;
    unsigned count;
  };
  State state() const { return {at_, buffer_, count_}; }
  void set_state(const State& s) {
    at_ = s.at;
    buffer_ = s.buffer;
    count_ = s.count;
  }
  /// refill_fast() may be used while `at` is before this.
  const unsigned char* fast_end() const { return end_ - std::min<std::ptrdiff_t>(end_ - begin_, 7); }
  static void refill_fast(State& s) {
    std::uint64_t word;
    std::memcpy(&word, s.at, 8);
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    s.buffer |= word << s.count;
    s.at += (63 - s.count) >> 3;
    s.count |= 56;
  }

  /// At least 56 bits in the buffer afterwards.
  void refill() {
    if (end_ - at_ >= 8) {
      State s = state();
      refill_fast(s);
      set_state(s);
      return;
    }
    // Near the end: byte by byte, zeros past it. A zero already used means the stream is cut.
    if (past_end_ * 8 > count_) malformed("cut short");
    while (count_ <= 56) {
      if (at_ < end_) {
        buffer_ |= std::uint64_t{*at_++} << count_;
      } else {
        ++past_end_;
      }
      count_ += 8;
    }
  }
  std::uint64_t peek() const { return buffer_; }
  void drop(unsigned n) {
    buffer_ >>= n;
    count_ -= n;
  }
  /// The next `n` (at most 32) bits as a number.
  unsigned take(unsigned n) {
    if (count_ < n) refill();
    const auto v = static_cast<unsigned>(buffer_ & ((std::uint64_t{1} << n) - 1));
    drop(n);
    return v;
  }
  /// Bits used so far; more than size() * 8 when the stream was cut.
  std::uint64_t position() const { return static_cast<std::uint64_t>(at_ - begin_ + past_end_) * 8 - count_; }
  std::uint64_t size_bits() const { return static_cast<std::uint64_t>(end_ - begin_) * 8; }
  /// Continue at byte `offset` (not past the end), with nothing buffered.
  void seek_byte(std::size_t offset) {
    at_ = begin_ + offset;
    buffer_ = 0;
    count_ = 0;
    past_end_ = 0;
  }
  const unsigned char* data() const { return begin_; }

 private:
  const unsigned char* begin_;
  const unsigned char* at_;
  const unsigned char* end_;
  std::uint64_t buffer_ = 0;
  unsigned count_ = 0;
  std::size_t past_end_ = 0;
};

// ---- Huffman tables --------------------------------------------------------------

// A table entry, 32 bits: the number of bits to drop (a code's own and, as nothing is decoded,
// the extra bits that follow it) in bits 0-7; what the code is in bits 8-11; for a subtable,
// its index bits in 12-15 and offset in 16-31; for a code-length code, the symbol in 16-31.
// While a table is built, the code's own length is in bits 12-15.
enum Kind : std::uint32_t { kLiteral = 0, kLength = 1, kEndOfBlock = 2, kSubtable = 3, kBad = 4, kDistance = 5 };

constexpr std::uint32_t entry(unsigned drop, Kind kind, unsigned sub_bits = 0, unsigned offset = 0) {
  return drop | (kind << 8) | (sub_bits << 12) | (offset << 16);
}
constexpr Kind kind_of(std::uint32_t e) { return static_cast<Kind>((e >> 8) & 15); }
constexpr unsigned drop_of(std::uint32_t e) { return e & 0xff; }

constexpr unsigned kMaxCodeBits = 15;
constexpr unsigned kLitLenBits = 12;  // index bits of the literal/length table's first level
constexpr unsigned kDistBits = 8;     // and of the distance table's
constexpr unsigned kCodeLenBits = 7;  // code-length codes are at most 7 bits: one level
constexpr unsigned kNumLitLen = 288, kNumDist = 32, kNumCodeLen = 19;

// Large enough for any code. A subtable of 2^d entries (d = its longest code's length less the
// first level's bits) holds at least d + 1 codes, so it has at most 2^d / (d + 1) entries per
// symbol, d at most 15 less the first level's bits.
constexpr std::size_t table_size(unsigned bits, unsigned symbols) {
  const unsigned d = kMaxCodeBits - bits;
  return (std::size_t{1} << bits) + symbols * (std::size_t{1} << d) / (d + 1) + 1;
}
constexpr std::size_t kLitLenSize = table_size(kLitLenBits, 286), kDistSize = table_size(kDistBits, 30);

constexpr std::array<std::uint8_t, 29> kLengthExtra = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                                       2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
constexpr std::array<std::uint8_t, 30> kDistExtra = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                                     6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/// What a literal/length symbol is, with its extra bits as the bits to drop.
constexpr std::uint32_t litlen_info(unsigned symbol) {
  if (symbol < 256) return entry(0, kLiteral);
  if (symbol == 256) return entry(0, kEndOfBlock);
  if (symbol < 286) return entry(kLengthExtra[symbol - 257], kLength);
  return entry(0, kBad);  // 286 and 287 have codes in the fixed code, but mean nothing
}
constexpr std::uint32_t dist_info(unsigned symbol) {
  return symbol < 30 ? entry(kDistExtra[symbol], kDistance) : entry(0, kBad);
}
constexpr std::uint32_t codelen_info(unsigned symbol) { return entry(0, kLiteral, 0, symbol); }

unsigned reverse_bits(unsigned code, unsigned n) {
  unsigned r = 0;
  for (unsigned i = 0; i < n; ++i, code >>= 1) r = (r << 1) | (code & 1);
  return r;
}

/// Fill `table` (first level `bits` wide) for the canonical code of `lengths`, with
/// `info(symbol)` giving each entry's kind and extra bits. Refuses what zlib's inflate
/// refuses: an over-subscribed code, or an incomplete one unless `single_ok` and it is a
/// single one-bit code (or no code at all, an error only once used).
template <typename Info>
void build_table(const std::uint8_t* lengths, unsigned n, unsigned bits, std::uint32_t* table, std::size_t capacity,
                 bool single_ok, Info info) {
  std::array<unsigned, kMaxCodeBits + 1> count{};
  for (unsigned s = 0; s < n; ++s) ++count[lengths[s]];
  count[0] = 0;
  unsigned max = kMaxCodeBits;
  while (max > 0 && count[max] == 0) --max;
  int left = 1;
  for (unsigned len = 1; len <= kMaxCodeBits; ++len) {
    left = 2 * left - static_cast<int>(count[len]);
    if (left < 0) malformed("over-subscribed code");
  }
  if (left > 0) {
    if (!single_ok || max > 1) malformed("incomplete code");
    for (std::size_t i = 0; i < (std::size_t{1} << bits); ++i) table[i] = entry(0, kBad);
    if (max == 0) return;
  }
  // Symbols in code order (by length, then symbol), each with its code, first bit high.
  std::array<unsigned, kMaxCodeBits + 2> next{};
  for (unsigned len = 1; len <= kMaxCodeBits; ++len) next[len + 1] = next[len] + count[len];
  std::array<std::uint16_t, kNumLitLen> sorted{};
  for (unsigned s = 0; s < n; ++s)
    if (lengths[s]) sorted[next[lengths[s]]++] = static_cast<std::uint16_t>(s);
  const unsigned total = next[kMaxCodeBits];  // (next[len] now ends length len's run)
  std::array<std::uint16_t, kNumLitLen> codes{};
  unsigned code = 0, prev_len = 0;
  for (unsigned i = 0; i < total; ++i) {
    const unsigned len = lengths[sorted[i]];
    if (i > 0) code = (code + 1) << (len - prev_len);
    codes[i] = static_cast<std::uint16_t>(code);
    prev_len = len;
  }
  const unsigned size = 1u << bits;
  std::size_t used = size;
  unsigned group = ~0u, sub_bits = 0, sub_offset = 0;
  for (unsigned i = 0; i < total; ++i) {
    const unsigned len = lengths[sorted[i]];
    const std::uint32_t base = info(sorted[i]);
    if (len <= bits) {
      const std::uint32_t e = base + len + (len << 12);
      for (unsigned at = reverse_bits(codes[i], len); at < size; at += 1u << len) table[at] = e;
      continue;
    }
    // A longer code: a subtable per first-level prefix, as wide as the group's longest code
    // (the last of the group in code order).
    const unsigned prefix = codes[i] >> (len - bits);
    if (prefix != group) {
      group = prefix;
      unsigned last = i;
      while (last + 1 < total && static_cast<unsigned>(codes[last + 1]) >> (lengths[sorted[last + 1]] - bits) == prefix)
        ++last;
      sub_bits = lengths[sorted[last]] - bits;
      sub_offset = static_cast<unsigned>(used);
      used += std::size_t{1} << sub_bits;
      if (used > capacity) malformed("code too large");  // cannot happen: see kLitLenSize
      table[reverse_bits(prefix, bits)] = entry(bits, kSubtable, sub_bits, sub_offset);
    }
    const unsigned rest = len - bits;
    const unsigned low = reverse_bits(codes[i], len) >> bits;
    for (unsigned at = low; at < (1u << sub_bits); at += 1u << rest) table[sub_offset + at] = base + rest;
  }
}

/// Make each first-level entry of a literal/length table that starts with a literal stand for
/// as many symbols as its index bits hold whole: the literals, then possibly a length code
/// (with its extra bits) or the end-of-block code. Literal-heavy blocks (numeric arrays) then
/// take one lookup for two or three symbols: the walk is a chain of dependent lookups, and
/// each one costs the same whatever it covers.
void pack_literals(std::uint32_t* table) {
  constexpr unsigned size = 1u << kLitLenBits;
  std::array<std::uint32_t, size> single;
  std::copy(table, table + size, single.begin());
  for (unsigned i = 0; i < size; ++i) {
    std::uint32_t e = single[i];
    if (kind_of(e) != kLiteral) continue;
    unsigned used = drop_of(e), drop = used;
    Kind kind = kLiteral;
    while (used < kLitLenBits) {
      const std::uint32_t next = single[i >> used];
      const Kind next_kind = kind_of(next);
      if (next_kind == kSubtable || next_kind == kBad || ((next >> 12) & 15) > kLitLenBits - used) break;
      if (next_kind == kLiteral) {
        used += drop_of(next);
        drop = used;
        continue;
      }
      drop = used + drop_of(next);  // a length code and its extra bits, or the end of the block
      kind = next_kind;
      break;
    }
    table[i] = entry(drop, kind);
  }
}

struct Tables {
  std::array<std::uint32_t, kLitLenSize> litlen;
  std::array<std::uint32_t, kDistSize> dist;
};

const Tables& fixed_tables() {
  static const Tables fixed = [] {
    Tables t{};
    std::array<std::uint8_t, kNumLitLen> lit{};
    for (unsigned s = 0; s < kNumLitLen; ++s) lit[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
    build_table(lit.data(), kNumLitLen, kLitLenBits, t.litlen.data(), t.litlen.size(), false, litlen_info);
    pack_literals(t.litlen.data());
    std::array<std::uint8_t, kNumDist> dist{};
    dist.fill(5);
    build_table(dist.data(), kNumDist, kDistBits, t.dist.data(), t.dist.size(), false, dist_info);
    return t;
  }();
  return fixed;
}

/// Read a dynamic block's header (after its first 3 bits) into `t`.
void read_dynamic_header(Bits& in, Tables& t) {
  const unsigned nlit = in.take(5) + 257, ndist = in.take(5) + 1, ncodelen = in.take(4) + 4;
  if (nlit > 286 || ndist > 30) malformed("too many length or distance symbols");
  static constexpr std::array<std::uint8_t, kNumCodeLen> kOrder = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                                                   11, 4,  12, 3, 13, 2, 14, 1, 15};
  std::array<std::uint8_t, kNumCodeLen> codelen_lengths{};
  for (unsigned i = 0; i < ncodelen; ++i) codelen_lengths[kOrder[i]] = static_cast<std::uint8_t>(in.take(3));
  std::array<std::uint32_t, 1u << kCodeLenBits> codelen{};
  build_table(codelen_lengths.data(), kNumCodeLen, kCodeLenBits, codelen.data(), codelen.size(), false, codelen_info);

  std::array<std::uint8_t, kNumLitLen + kNumDist> lengths{};
  for (unsigned i = 0; i < nlit + ndist;) {
    in.refill();
    const std::uint32_t e = codelen[in.peek() & ((1u << kCodeLenBits) - 1)];
    if (kind_of(e) != kLiteral) malformed("invalid code-length code");
    in.drop(drop_of(e));
    const unsigned symbol = e >> 16;
    if (symbol < 16) {
      lengths[i++] = static_cast<std::uint8_t>(symbol);
      continue;
    }
    unsigned repeat = 0;
    std::uint8_t value = 0;
    if (symbol == 16) {
      if (i == 0) malformed("repeat with no previous length");
      value = lengths[i - 1];
      repeat = 3 + in.take(2);
    } else if (symbol == 17) {
      repeat = 3 + in.take(3);
    } else {
      repeat = 11 + in.take(7);
    }
    if (i + repeat > nlit + ndist) malformed("too many lengths");
    for (unsigned k = 0; k < repeat; ++k) lengths[i++] = value;
  }
  if (lengths[256] == 0) malformed("no end-of-block code");
  build_table(lengths.data(), nlit, kLitLenBits, t.litlen.data(), t.litlen.size(), true, litlen_info);
  pack_literals(t.litlen.data());
  build_table(lengths.data() + nlit, ndist, kDistBits, t.dist.data(), t.dist.size(), true, dist_info);
}

/// Step over one Huffman-coded block's symbols, through its end-of-block code. The bit state
/// is kept in locals here, the hot loop, so that it stays in registers.
void skip_symbols(Bits& in, const Tables& t) {
  constexpr std::uint64_t kLitMask = (1u << kLitLenBits) - 1, kDistMask = (1u << kDistBits) - 1;
  // 48 bits hold a longest match: a 15-bit length code, 5 extra bits, a 15-bit distance code
  // and 13 extra bits.
  constexpr unsigned kMatchBits = 48;
  const std::uint32_t* litlen = t.litlen.data();
  const std::uint32_t* dist = t.dist.data();
  Bits::State s = in.state();
  const unsigned char* fast_end = in.fast_end();
  for (;;) {
    if (s.count < kMatchBits) {
      if (s.at < fast_end) {
        Bits::refill_fast(s);
      } else {
        in.set_state(s);
        in.refill();
        s = in.state();
      }
    }
    std::uint32_t e = litlen[s.buffer & kLitMask];
    if (kind_of(e) == kLiteral) {  // most symbols: on with no other test
      s.buffer >>= drop_of(e);
      s.count -= drop_of(e);
      continue;
    }
    if (kind_of(e) == kSubtable) {
      s.buffer >>= kLitLenBits;
      s.count -= kLitLenBits;
      e = litlen[(e >> 16) + (s.buffer & ((1u << ((e >> 12) & 15)) - 1))];
    }
    s.buffer >>= drop_of(e);
    s.count -= drop_of(e);
    const Kind kind = kind_of(e);
    if (kind == kLiteral) continue;
    if (kind == kEndOfBlock) break;
    if (kind != kLength) malformed("invalid literal/length code");
    std::uint32_t d = dist[s.buffer & kDistMask];
    if (kind_of(d) == kSubtable) {
      s.buffer >>= kDistBits;
      s.count -= kDistBits;
      d = dist[(d >> 16) + (s.buffer & ((1u << ((d >> 12) & 15)) - 1))];
    }
    if (kind_of(d) != kDistance) malformed("invalid distance code");
    s.buffer >>= drop_of(d);
    s.count -= drop_of(d);
  }
  in.set_state(s);
}

}  // namespace
}  // namespace deflate_walk

DeflateBlockEnds find_deflate_block_ends(std::string_view stream) {
  using namespace deflate_walk;
  Bits in(stream);
  Tables dynamic;
  for (;;) {
    const std::uint64_t header = in.position();
    const unsigned final = in.take(1), type = in.take(2);
    if (type == 0) {
      // Stored: to the byte boundary, LEN and its complement, LEN bytes.
      const std::uint64_t at = (in.position() + 7) / 8;
      if (at * 8 > in.size_bits() || at + 4 > stream.size()) malformed("cut short");
      const unsigned char* p = in.data() + at;
      const unsigned len = p[0] | (p[1] << 8), nlen = p[2] | (p[3] << 8);
      if (len != (~nlen & 0xffff)) malformed("stored block length and its complement disagree");
      if (at + 4 + len > stream.size()) malformed("cut short");
      in.seek_byte(at + 4 + len);
    } else if (type == 1) {
      skip_symbols(in, fixed_tables());
    } else if (type == 2) {
      read_dynamic_header(in, dynamic);
      skip_symbols(in, dynamic);
    } else {
      malformed("invalid block type");
    }
    const std::uint64_t end = in.position();
    if (end > in.size_bits()) malformed("cut short");
    if (final) {
      if ((end + 7) / 8 != stream.size()) malformed("bytes after the final block");
      return {header, end};
    }
  }
}

}  // namespace zanj::zip
