#pragma once
// Which ZIP member names are safe to use as relative file paths. One rule set, shared by
// `verify` (reports) and `extract` (refuses): extracting and validating never disagree.
#include <optional>
#include <string>
#include <string_view>

namespace zanj {

/// Why `name` is unsafe as a relative path below an extraction directory, or nullopt when it
/// is fine: empty, not UTF-8, NUL or control characters, absolute ("/x"), a drive letter
/// ("C:"), backslashes, or "." / ".." segments.
std::optional<std::string> member_name_problem(std::string_view name);

/// True when `text` is valid UTF-8 (no overlongs, no surrogates, at most U+10FFFF).
bool is_valid_utf8(std::string_view text);

/// The name with control and non-UTF-8 bytes escaped as \xNN, for one-line messages.
std::string printable_name(std::string_view name);

}  // namespace zanj
