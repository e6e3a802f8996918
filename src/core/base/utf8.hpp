#pragma once
// Strict UTF-8, and THE escape for text on its way to a terminal. Here, at the bottom, because
// every layer above checks or prints names: the JSON parser, inline string arrays, member
// names, object paths, reports.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace zanj::base {

/// True when `text` is valid UTF-8 (no overlongs, no surrogates, at most U+10FFFF).
bool is_valid_utf8(std::string_view text);

/// Length of the valid UTF-8 sequence (no overlong, no surrogate, at most U+10FFFF) at the
/// start of `text` and its code point, or 0 when `text` starts with an invalid byte.
std::size_t utf8_sequence(std::string_view text, std::uint32_t& code_point);

}  // namespace zanj::base

namespace zanj {

/// Every byte of a C0 control, DEL, a C1 control or an invalid UTF-8 sequence as \xNN;
/// everything else unchanged. The API declares it too, as part of zanj/format.hpp (where its
/// contract is written); declaring it here keeps the public headers out of the lowest layer.
std::string terminal_safe(std::string_view text);

}  // namespace zanj
