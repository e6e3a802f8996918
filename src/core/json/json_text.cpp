// Before simdjson sees a document (json_text.hpp): decoding as Python's json.loads(bytes)
// decodes, minifying, and masking the encoded surrogates that strict UTF-8 refuses.
#include "json/json_text.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>

#include "zanj/error.hpp"
#include "base/byte_blocks.hpp"
#include "base/byte_words.hpp"
#include "base/unicode.hpp"
#include "json/json_builder.hpp"

namespace zanj::json {
namespace {

[[noreturn]] void fail(std::string_view what, const std::string& message) {
  throw json_error(what, "invalid JSON (" + message + ")");
}

// ---- Decoding: json.detect_encoding, then bytes.decode(encoding, 'surrogatepass') ----------

/// UTF-16 or UTF-32 text transcoded to generalized UTF-8. Like Python's codecs with
/// 'surrogatepass', a surrogate pair is joined and a lone surrogate is kept as it is.
std::string transcode_wide(std::string_view bytes, unsigned width, bool big_endian, std::string_view what) {
  if (bytes.size() % width != 0) fail(what, "truncated " + std::to_string(width * 8) + "-bit text");
  auto unit = [&](std::size_t i) {
    std::uint32_t v = 0;
    for (unsigned b = 0; b < width; ++b) {
      const auto byte = static_cast<unsigned char>(bytes[i + (big_endian ? b : width - 1 - b)]);
      v = (v << 8) | byte;
    }
    return v;
  };
  std::string out;
  out.reserve(bytes.size() / width);
  for (std::size_t i = 0; i < bytes.size(); i += width) {
    std::uint32_t cp = unit(i);
    if (width == 2 && cp >= 0xD800 && cp < 0xDC00 && i + 2 < bytes.size()) {
      const std::uint32_t low = unit(i + 2);
      if (low >= 0xDC00 && low < 0xE000) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        i += 2;
      }
    }
    if (cp > 0x10FFFF) fail(what, "code point out of range in UTF-32 text");
    base::append_utf8(out, cp);  // surrogates too: generalized UTF-8
  }
  return out;
}

}  // namespace

std::string_view decode_json_bytes(std::string_view bytes, std::string& storage, JsonParseNotes& notes,
                                   std::string_view what) {
  auto starts = [&](std::string_view prefix) { return bytes.substr(0, prefix.size()) == prefix; };
  auto wide = [&](std::string_view encoding, unsigned width, bool big_endian, std::size_t bom) {
    notes.encoding = encoding;
    notes.bom = bom > 0;
    storage = transcode_wide(bytes.substr(bom), width, big_endian, what);
    return std::string_view(storage);
  };
  using namespace std::string_view_literals;
  // Python's order: UTF-32 BOMs first (FF FE 00 00 also starts with the UTF-16 LE BOM).
  if (starts("\x00\x00\xFE\xFF"sv)) return wide("utf-32", 4, true, 4);
  if (starts("\xFF\xFE\x00\x00"sv)) return wide("utf-32", 4, false, 4);
  if (starts("\xFE\xFF"sv)) return wide("utf-16", 2, true, 2);
  if (starts("\xFF\xFE"sv)) return wide("utf-16", 2, false, 2);
  if (starts("\xEF\xBB\xBF"sv)) {
    notes.encoding = "utf-8-sig";
    notes.bom = true;
    return bytes.substr(3);
  }
  const auto b = [&](std::size_t i) { return bytes[i] != 0; };
  if (bytes.size() >= 4) {
    if (!b(0)) return b(1) ? wide("utf-16-be", 2, true, 0) : wide("utf-32-be", 4, true, 0);
    if (!b(1)) return (b(2) || b(3)) ? wide("utf-16-le", 2, false, 0) : wide("utf-32-le", 4, false, 0);
  } else if (bytes.size() == 2) {
    if (!b(0)) return wide("utf-16-be", 2, true, 0);
    if (!b(1)) return wide("utf-16-le", 2, false, 0);
  }
  return bytes;
}

namespace {

enum : unsigned char { kCopy, kSpace, kQuote, kStructural };
/// What the minifier does with each byte outside strings.
constexpr auto kOutside = [] {
  std::array<unsigned char, 256> t{};
  for (unsigned char c : std::string_view(" \t\n\r")) t[c] = kSpace;
  for (unsigned char c : std::string_view("[]{},:")) t[c] = kStructural;
  t['"'] = kQuote;
  return t;
}();
/// Bytes that stop a run inside a string.
constexpr auto kStringStop = [] {
  std::array<bool, 256> t{};
  t['"'] = t['\\'] = true;
  return t;
}();

/// A byte of a scalar token (number, literal, or what is no JSON at all).
bool is_scalar_byte(unsigned char c) { return kOutside[c] == kCopy && c > ' '; }

}  // namespace

namespace {

/// The minifier's state between bytes (JsonMinifier's members, in locals while a loop runs:
/// stores through a char* could alias the members, and the compiler would reload them after
/// every byte).
struct MinifyState {
  bool in_string, escaped, space_kept;
};

/// p[i, n) minified into p[o, ...), a byte at a time: the rule itself, for a block with a
/// backslash and for the last bytes of a piece. Returns the new end.
std::size_t minify_bytes(char* p, std::size_t o, std::size_t i, std::size_t n, MinifyState& s, std::size_t floor) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(p[k]); };
  // o <= i throughout: every byte read writes at most one.
  while (i < n) {
    if (s.in_string) {
      if (s.escaped) {
        p[o++] = p[i++];
        s.escaped = false;
        continue;
      }
      while (i < n && !kStringStop[byte(i)]) p[o++] = p[i++];  // strings are mostly short: no memmove call
      if (i == n) break;
      s.escaped = p[i] == '\\';
      s.in_string = s.escaped;
      p[o++] = p[i++];
      continue;
    }
    // Outside strings: the common bytes (digits, letters, punctuation) copy in a tight loop.
    unsigned char kind = kOutside[byte(i)];
    if (!s.space_kept) {
      while (kind == kCopy || kind == kStructural) {
        p[o++] = p[i++];
        if (i == n) break;
        kind = kOutside[byte(i)];
      }
      if (i == n) break;
    }
    if (kind == kSpace) {
      // One space stays after a scalar until the next byte shows whether it separates two.
      if (!s.space_kept && o > floor && is_scalar_byte(byte(o - 1))) {
        p[o++] = ' ';
        s.space_kept = true;
      }
      ++i;
      while (i < n && kOutside[byte(i)] == kSpace) ++i;  // indentation comes in runs
      continue;
    }
    if (s.space_kept) {
      if (!is_scalar_byte(byte(i))) --o;  // `1 ]`: the space separated nothing
      s.space_kept = false;
    }
    s.in_string = kind == kQuote;
    p[o++] = p[i++];
  }
  return o;
}

/// Copies `size` bytes in pieces of 16, up to 15 bytes past the end both ways (the callers'
/// buffers leave room): a run between two spaces is a few bytes, where a memcpy call costs
/// more than the copy.
void copy_run(char* to, const char* from, std::size_t size) {
  for (std::size_t k = 0; k < size; k += 16) std::memcpy(to + k, from + k, 16);
}

/// The block p[i, i + 64) minified into p[o, ...) by its masks, when it holds no backslash
/// and does not begin after one: its strings are then where its quotes say, and the
/// whitespace outside them goes run by run, under minify_bytes's rule. Returns false, having
/// done nothing, for a block with a backslash (rare in what ZANJ writes), which minify_bytes
/// then takes.
bool minify_block(char* p, std::size_t& o, std::size_t i, MinifyState& s, std::size_t floor) {
  const base::blocks::Block block(p + i);
  if (block.any_of('\\') != 0) return false;
  std::uint64_t inside = base::blocks::prefix_xor(block.any_of('"'));
  if (s.in_string) inside = ~inside;
  std::uint64_t drop = block.any_of(' ', '\t', '\n', '\r') & ~inside;
  s.in_string = (inside >> 63) != 0;
  if (drop == 0 && !s.space_kept) {
    std::memmove(p + o, p + i, 64);
    o += 64;
    return true;
  }
  // The block is read from a copy and written to another, then stored once: both have room
  // for copy_run's overrun, and p[i, i + 64) is not overwritten while it is read.
  alignas(16) char in[64 + 16];
  alignas(16) char out[64 + 16];
  std::memcpy(in, p + i, 64);
  std::memset(in + 64, 0, 16);
  std::size_t n = 0;
  for (std::size_t pos = 0; pos < 64;) {
    const std::size_t run = drop != 0 ? static_cast<std::size_t>(std::countr_zero(drop)) : 64;
    if (run > pos) {
      if (s.space_kept) {
        // The space kept is the last byte written, here or before this block.
        if (!is_scalar_byte(static_cast<unsigned char>(in[pos]))) {
          if (n != 0) {
            --n;
          } else {
            --o;
          }
        }
        s.space_kept = false;
      }
      copy_run(out + n, in + pos, run - pos);
      n += run - pos;
    }
    if (run == 64) break;
    const std::uint64_t kept_after = ~drop & (~std::uint64_t{0} << run);
    pos = kept_after != 0 ? static_cast<std::size_t>(std::countr_zero(kept_after)) : 64;
    drop = pos < 64 ? drop & (~std::uint64_t{0} << pos) : 0;
    if (!s.space_kept) {
      const bool after_scalar = n != 0 ? is_scalar_byte(static_cast<unsigned char>(out[n - 1]))
                                       : o > floor && is_scalar_byte(static_cast<unsigned char>(p[o - 1]));
      if (after_scalar) {
        out[n++] = ' ';
        s.space_kept = true;
      }
    }
  }
  std::memcpy(p + o, out, n);
  o += n;
  return true;
}

}  // namespace

std::size_t JsonMinifier::minify(char* p, std::size_t o, std::size_t i, std::size_t n) {
  MinifyState s{in_string_, escaped_, space_kept_};
  while (i < n) {
    if (n - i >= 64 && !s.escaped && minify_block(p, o, i, s, floor_)) {
      i += 64;
      continue;
    }
    const std::size_t end = std::min(n, i + 64);
    o = minify_bytes(p, o, i, end, s, floor_);
    i = end;
  }
  in_string_ = s.in_string;
  escaped_ = s.escaped;
  space_kept_ = s.space_kept;
  return o;
}

void JsonMinifier::plan_for(const JsonLimits& limits, std::size_t expected_bytes) {
  planner_ = std::make_shared<TextPlanner>(limits, limits.packed_min_elements != 0, expected_bytes);
}

void JsonMinifier::append(std::string& out, std::string_view chunk) {
  minify_appended(out, chunk);
  // Every byte is final but a space kept after a scalar, which the next byte may take back.
  if (planner_ && utf8_) planner_->scan(out.data() + floor_, out.size() - floor_ - (space_kept_ ? 1 : 0));
}

void JsonMinifier::minify_appended(std::string& out, std::string_view chunk) {
  const std::size_t start = out.size();
  out.append(chunk);
  if (!utf8_) {
    // json.detect_encoding decides by the first bytes of the text as written, so minifying
    // waits for them (removing a leading space would change what it sees). Only what it reads
    // as UTF-8 is minified here: no NUL among the first two bytes, no UTF-16/32 byte-order mark.
    // The rest (and a text of under four bytes) passes as it is, for the parser to decode.
    if (decided_ || out.size() < 4) return;
    decided_ = true;
    const auto b0 = static_cast<unsigned char>(out[0]), b1 = static_cast<unsigned char>(out[1]);
    if (b0 == 0 || b1 == 0 || b0 == 0xFE || b0 == 0xFF) return;
    utf8_ = true;
    floor_ = out.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // a BOM is no scalar to keep a space after
    out.resize(minify(out.data(), floor_, floor_, out.size()));
    return;
  }
  out.resize(minify(out.data(), start, start, out.size()));  // may drop a space kept before `start`
}

void JsonMinifier::finish(std::string& out) {
  if (space_kept_ && !out.empty() && out.back() == ' ') out.pop_back();
  space_kept_ = false;
  decided_ = true;
}

std::size_t minify_json(char* text, std::size_t size) {
  JsonMinifier minifier;
  std::size_t n = minifier.minify(text, 0, 0, size);
  if (minifier.space_kept() && n > 0) --n;
  return n;
}

namespace {

/// Every comma, strings included, eight bytes at a time (std::count is not vectorized at -O2):
/// a byte equal to ',' becomes zero after the XOR, and the carry-free test marks each zero
/// byte's high bit.
std::uint64_t all_commas(std::string_view text) {
  std::uint64_t n = 0;
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8)
    n += base::words::count_marked(base::words::bytes_equal(base::words::load(text.data() + i), ','));
  for (; i < text.size(); ++i) n += text[i] == ',';
  return n;
}

}  // namespace

bool has_commas_outside_strings(std::string_view text, std::uint64_t count) {
  // A byte is at most one comma: under the default limit (100M values) no document smaller
  // than 100 MB is passed over at all (the count was 2-3 ms of a 15 MB document's parse).
  if (text.size() < count) return false;
  // Every comma, strings included, first: a fast count that settles nearly every document.
  if (all_commas(text) < count) return false;
  std::uint64_t commas = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == ',') {
      if (++commas >= count) return true;
    } else if (text[i] == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) i += text[i] == '\\';
    }
  }
  return false;
}

std::vector<std::uint32_t> mask_encoded_surrogates(char* text, std::size_t size) {
  std::vector<std::uint32_t> where;
  for (const char* p = text; (p = static_cast<const char*>(std::memchr(p, '\xED', size - (p - text))));) {
    const std::size_t i = static_cast<std::size_t>(p - text);
    if (i + 2 < size && (static_cast<unsigned char>(text[i + 1]) & 0xE0) == 0xA0 &&
        (static_cast<unsigned char>(text[i + 2]) & 0xC0) == 0x80) {
      text[i] = '\xEE';
      where.push_back(static_cast<std::uint32_t>(i));
    }
    ++p;
  }
  return where;
}

void unmask_encoded_surrogates(char* text, const std::vector<std::uint32_t>& where) {
  for (std::uint32_t i : where) text[i] = '\xED';
}

}  // namespace zanj::json
