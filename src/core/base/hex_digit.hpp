#pragma once
// Reading hexadecimal digits: hex-encoded arrays, '~xNN' escapes in object paths, and JSON's
// \uXXXX escapes all need it.

namespace zanj::base {

/// The value of one hexadecimal digit (either case), or -1 when `c` is not one.
constexpr int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace zanj::base
