#pragma once
// The byte scans the text goes through before simdjson sees it (json_packed.cpp finds arrays
// of bare scalars, json_fragments.cpp where to cut): to the next byte of interest, and past a
// string, eight bytes at a time. Private to json/.
#include <cstddef>
#include <cstdint>

#include "base/byte_words.hpp"

namespace zanj::json_scan {

/// Past the closing quote of the string whose opening quote is text[i], or n when unterminated.
inline std::size_t past_string(const char* text, std::size_t i, std::size_t n) {
  for (++i; i < n;) {
    if (i + 8 <= n) {
      const std::uint64_t w = words::load(text + i);
      const std::uint64_t stops = words::bytes_equal(w, '"') | words::bytes_equal(w, '\\');
      if (!stops) {
        i += 8;
        continue;
      }
      i += words::first_marked(stops);
    }
    if (text[i] == '"') return i + 1;
    i += text[i] == '\\' ? 2 : 1;
  }
  return n;
}

}  // namespace zanj::json_scan
