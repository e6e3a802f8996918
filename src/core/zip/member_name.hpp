#pragma once
// Which ZIP member names are safe to use as relative file paths. One rule set, shared by
// `verify` (reports) and `extract` (refuses): extracting and validating never disagree.
#include <optional>
#include <string>
#include <string_view>

#include "base/utf8.hpp"

namespace zanj::zip {

/// Why `name` is unsafe as a relative path below an extraction directory, or nullopt when it
/// is fine: empty, not UTF-8, NUL or control characters, absolute ("/x"), a drive letter
/// ("C:"), backslashes, or "." / ".." segments.
std::optional<std::string> member_name_problem(std::string_view name);

// UTF-8 checks and terminal_safe, THE escape for text on its way to a terminal: base/utf8.hpp.

/// The same escape, under the name older callers use.
inline std::string printable_name(std::string_view name) { return terminal_safe(name); }

}  // namespace zanj::zip
