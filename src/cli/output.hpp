#pragma once
// Small helpers shared by the subcommands' output code: stdout writing, human sizes,
// terminal detection, warnings on stderr.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace zanj::cli {

/// Write to stdout unbuffered by stdio (callers build text in large strings).
void write_out(std::string_view text);
/// True when stdout is a terminal.
bool stdout_is_terminal();
/// True when stderr is a terminal (progress is shown only then).
bool stderr_is_terminal();
/// "2.0 KiB", "1.5 GiB", "312 B".
std::string human_bytes(std::uint64_t bytes);
/// "[32, 16]", "[]" for 0-d.
std::string shape_text(const std::vector<std::uint64_t>& shape);
/// Print `zanj: warning: <message>` on stderr (unless -q).
void warn(std::string_view message);
/// Left-align columns: each row is a vector of cells; the last column is not padded.
std::string format_table(const std::vector<std::vector<std::string>>& rows, std::string_view indent = "");

}  // namespace zanj::cli
