#include "base/utf8.hpp"

#include <algorithm>
#include <cstdio>

namespace zanj::base {

std::size_t utf8_sequence(std::string_view text, std::uint32_t& code_point) {
  if (text.empty()) return 0;
  const auto c = static_cast<unsigned char>(text[0]);
  std::size_t len = 0;
  std::uint32_t cp = 0;
  if (c < 0x80) {
    code_point = c;
    return 1;
  } else if ((c & 0xE0) == 0xC0) {
    len = 2;
    cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3;
    cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4;
    cp = c & 0x07;
  } else {
    return 0;
  }
  if (len > text.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto cc = static_cast<unsigned char>(text[k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  static constexpr std::uint32_t min_for_len[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < min_for_len[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  code_point = cp;
  return len;
}

bool is_valid_utf8(std::string_view text) {
  std::uint32_t cp = 0;
  while (!text.empty()) {
    const std::size_t len = utf8_sequence(text, cp);
    if (len == 0) return false;
    text.remove_prefix(len);
  }
  return true;
}

}  // namespace zanj::base

namespace zanj {

std::string terminal_safe(std::string_view text) {
  // Printable ASCII passes unchanged: most names are, and ls prints one per member.
  if (std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c < 0x7F; })) return std::string(text);
  std::string out;
  out.reserve(text.size());
  auto escape = [&](std::string_view bytes) {
    for (unsigned char c : bytes) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    }
  };
  std::uint32_t cp = 0;
  while (!text.empty()) {
    std::size_t len = base::utf8_sequence(text, cp);
    if (len == 0) {
      escape(text.substr(0, 1));  // one invalid byte; resynchronise at the next
      len = 1;
    } else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) {
      escape(text.substr(0, len));
    } else {
      out.append(text.substr(0, len));
    }
    text.remove_prefix(len);
  }
  return out;
}

}  // namespace zanj
