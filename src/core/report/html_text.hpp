#pragma once
// Text for the report pages. Everything that comes from an archive (keys, paths, strings,
// dtypes, member names, problem messages) is user data and goes through escape_html: it can
// only ever be text, never markup, in element content and in quoted attribute values alike.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace zanj::report {

/// Append `text` with & < > " ' written as character references, and every byte that is not
/// part of valid UTF-8 (or is a C0/C1 control other than tab and newline) as U+FFFD, so the
/// page stays valid UTF-8 whatever the archive holds.
void append_escaped(std::string& out, std::string_view text);
std::string escape_html(std::string_view text);

/// "312 B", "2.0 KiB", "1.5 GiB".
std::string byte_size_text(std::uint64_t bytes);
/// Six significant digits ("-" for nullopt).
std::string number_text6(std::optional<double> v);

}  // namespace zanj::report
