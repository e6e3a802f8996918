#include "array/byte_codec.hpp"

#include <array>

#include "zanj/error.hpp"
#include "base/utf8.hpp"
#include "base/hex_digit.hpp"
#include "base/unicode.hpp"

namespace zanj::array {
namespace {

constexpr std::array<std::int8_t, 256> base64_table() {
  std::array<std::int8_t, 256> t{};
  for (auto& v : t) v = -1;
  constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (std::size_t i = 0; i < alphabet.size(); ++i)
    t[static_cast<unsigned char>(alphabet[i])] = static_cast<std::int8_t>(i);
  return t;
}

/// A code point from array data; what is not a character becomes U+FFFD, as numpy shows it.
void append_character(std::string& out, std::uint32_t cp) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
  base::append_utf8(out, cp);
}

}  // namespace

std::string decode_hex(std::string_view text) {
  if (text.size() % 2 != 0) throw Error("hex data has an odd number of digits (" + std::to_string(text.size()) + ")");
  std::string out;
  out.reserve(text.size() / 2);
  for (std::size_t i = 0; i < text.size(); i += 2) {
    const int hi = base::hex_digit_value(text[i]), lo = base::hex_digit_value(text[i + 1]);
    if (hi < 0 || lo < 0)
      throw Error("hex data has a non-hex character at offset " + std::to_string(hi < 0 ? i : i + 1));
    out += static_cast<char>(hi * 16 + lo);
  }
  return out;
}

std::string decode_base64(std::string_view text) {
  static constexpr auto table = base64_table();
  if (text.size() % 4 != 0)
    throw Error("base64 data length " + std::to_string(text.size()) + " is not a multiple of 4");
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (std::size_t i = 0; i < text.size(); i += 4) {
    const bool last = i + 4 == text.size();
    // '=' may only pad the last group: "xx==" (one byte) or "xxx=" (two bytes).
    const std::size_t padding = !last ? 0 : text[i + 3] != '=' ? 0 : text[i + 2] == '=' ? 2 : 1;
    std::uint32_t group = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      const std::int8_t v = table[static_cast<unsigned char>(c)];
      if (k >= 4 - padding) continue;
      if (v < 0) throw Error("base64 data has an invalid character at offset " + std::to_string(i + k));
      group |= static_cast<std::uint32_t>(v) << (18 - 6 * k);
    }
    out += static_cast<char>(group >> 16);
    if (padding < 2) out += static_cast<char>((group >> 8) & 0xFF);
    if (padding < 1) out += static_cast<char>(group & 0xFF);
  }
  return out;
}

void append_utf32le(std::string& out, std::string_view utf8) {
  if (!base::is_valid_utf8(utf8)) throw Error("string is not valid UTF-8");
  for (std::size_t i = 0; i < utf8.size();) {
    const auto lead = static_cast<unsigned char>(utf8[i]);
    const std::size_t len = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    std::uint32_t cp = len == 1 ? lead : len == 2 ? (lead & 0x1Fu) : len == 3 ? (lead & 0x0Fu) : (lead & 0x07u);
    for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3Fu);
    for (int b = 0; b < 4; ++b) out += static_cast<char>((cp >> (8 * b)) & 0xFF);
    i += len;
  }
}

void append_utf8_from_utf32le(std::string& out, std::string_view utf32le) {
  auto unit = [&](std::size_t i) {
    std::uint32_t cp = 0;
    for (std::size_t b = 4; b-- > 0;) cp = (cp << 8) | static_cast<unsigned char>(utf32le[i + b]);
    return cp;
  };
  std::size_t end = utf32le.size() / 4 * 4;
  while (end >= 4 && unit(end - 4) == 0) end -= 4;  // numpy strips trailing NULs only
  for (std::size_t i = 0; i < end; i += 4) append_character(out, unit(i));
}

void append_utf8_from_latin1(std::string& out, std::string_view bytes) {
  while (!bytes.empty() && bytes.back() == '\0') bytes.remove_suffix(1);
  for (unsigned char c : bytes) append_character(out, c);
}

}  // namespace zanj::array
