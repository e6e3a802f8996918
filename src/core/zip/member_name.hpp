#pragma once
// Which ZIP member names are safe to use as relative file paths. One rule set, shared by
// `verify` (reports) and `extract` (refuses): extracting and validating never disagree.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "zanj/format.hpp"

namespace zanj {

/// Why `name` is unsafe as a relative path below an extraction directory, or nullopt when it
/// is fine: empty, not UTF-8, NUL or control characters, absolute ("/x"), a drive letter
/// ("C:"), backslashes, or "." / ".." segments.
std::optional<std::string> member_name_problem(std::string_view name);

/// True when `text` is valid UTF-8 (no overlongs, no surrogates, at most U+10FFFF).
bool is_valid_utf8(std::string_view text);

/// Length of the valid UTF-8 sequence (no overlong, no surrogate, at most U+10FFFF) at the
/// start of `text` and its code point, or 0 when `text` starts with an invalid byte.
std::size_t utf8_sequence(std::string_view text, std::uint32_t& code_point);

// terminal_safe, THE escape for text on its way to a terminal, is public (zanj/format.hpp).

/// The same escape, under the name older callers use.
inline std::string printable_name(std::string_view name) { return terminal_safe(name); }

}  // namespace zanj
