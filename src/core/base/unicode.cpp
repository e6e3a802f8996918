#include "base/unicode.hpp"

#include <algorithm>

#include "base/unicode_tables.hpp"
#include "base/utf8.hpp"

namespace zanj::base {

bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}
namespace {

namespace t = unicode_tables;

// Hangul syllables decompose by formula (Unicode 3.12), not by table.
constexpr char32_t kSBase = 0xAC00, kLBase = 0x1100, kVBase = 0x1161, kTBase = 0x11A7;
constexpr char32_t kLCount = 19, kVCount = 21, kTCount = 28, kNCount = kVCount * kTCount, kSCount = kLCount * kNCount;

unsigned combining_class(char32_t cp) {
  const auto* end = t::kCombiningClasses + t::kCombiningClassCount;
  const auto* it = std::lower_bound(t::kCombiningClasses, end, cp,
                                    [](const t::CombiningClass& c, char32_t v) { return c.code_point < v; });
  return it != end && it->code_point == cp ? it->ccc : 0;
}

void decompose(char32_t cp, std::vector<char32_t>& out) {
  if (cp >= kSBase && cp < kSBase + kSCount) {
    const char32_t s = cp - kSBase;
    out.push_back(kLBase + s / kNCount);
    out.push_back(kVBase + s % kNCount / kTCount);
    if (s % kTCount != 0) out.push_back(kTBase + s % kTCount);
    return;
  }
  const auto* end = t::kDecompositions + t::kDecompositionCount;
  const auto* it = std::lower_bound(t::kDecompositions, end, cp,
                                    [](const t::Decomposition& d, char32_t v) { return d.code_point < v; });
  if (it == end || it->code_point != cp) {
    out.push_back(cp);
    return;
  }
  out.insert(out.end(), t::kDecompositionPool + it->at, t::kDecompositionPool + it->at + it->length);
}

}  // namespace

std::optional<std::vector<char32_t>> decode_utf8(std::string_view text) {
  std::vector<char32_t> out;
  out.reserve(text.size());
  while (!text.empty()) {
    std::uint32_t cp = 0;
    const std::size_t len = utf8_sequence(text, cp);
    if (len == 0) return std::nullopt;
    out.push_back(cp);
    text.remove_prefix(len);
  }
  return out;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | cp >> 6);
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | cp >> 12);
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | cp >> 18);
    out += static_cast<char>(0x80 | (cp >> 12 & 0x3F));
    out += static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

std::string nfd(std::string_view utf8) {
  if (std::all_of(utf8.begin(), utf8.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
    return std::string(utf8);  // ASCII is its own NFD: the common case, kept cheap
  const auto code_points = decode_utf8(utf8);
  if (!code_points) return std::string(utf8);
  std::vector<char32_t> d;
  d.reserve(code_points->size() * 2);
  for (const char32_t cp : *code_points) decompose(cp, d);
  // Canonical ordering: within each run of non-starters, a stable sort by combining class.
  for (std::size_t i = 0; i < d.size();) {
    if (combining_class(d[i]) == 0) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < d.size() && combining_class(d[j]) != 0) ++j;
    std::stable_sort(d.begin() + static_cast<std::ptrdiff_t>(i), d.begin() + static_cast<std::ptrdiff_t>(j),
                     [](char32_t a, char32_t b) { return combining_class(a) < combining_class(b); });
    i = j;
  }
  std::string out;
  out.reserve(utf8.size() + 8);
  for (const char32_t cp : d) append_utf8(out, cp);
  return out;
}

std::string cp437_to_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x80)
      out += c;
    else
      append_utf8(out, t::kCp437High[b - 0x80]);
  }
  return out;
}

}  // namespace zanj::base
