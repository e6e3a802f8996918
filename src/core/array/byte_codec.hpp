#pragma once
// Byte-level codecs for array values: the hex and base64 text of inline arrays
// (array_hex_meta, array_b64_meta), and the two string dtypes' element encodings
// (numpy 'U' is UTF-32 code units, numpy 'S' raw bytes shown as Latin-1).
#include <cstdint>
#include <string>
#include <string_view>

namespace zanj::array {

/// Hex digits (either case, even count) to bytes. Throws Error saying what is wrong.
std::string decode_hex(std::string_view text);

/// Standard base64 (RFC 4648 alphabet, '=' padding required for a partial last group;
/// no whitespace) to bytes. Throws Error saying what is wrong.
std::string decode_base64(std::string_view text);

/// Append `utf8` as little-endian UTF-32 code units. Throws Error on invalid UTF-8.
void append_utf32le(std::string& out, std::string_view utf8);

/// Append little-endian UTF-32 code units as UTF-8 without the trailing NULs that pad a 'U'
/// element (numpy strips them too). Invalid code points become U+FFFD.
void append_utf8_from_utf32le(std::string& out, std::string_view utf32le);

/// Append bytes without their trailing NULs as UTF-8 text, reading each byte as Latin-1 (so
/// any byte string, ASCII or not, becomes valid text).
void append_utf8_from_latin1(std::string& out, std::string_view bytes);

}  // namespace zanj::array
