#pragma once
// Small helpers shared by the subcommands' output code: stdout writing, human sizes,
// terminal detection. Messages on stderr go through diagnostics.hpp.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/error.hpp"
#include "zanj/json.hpp"

namespace zanj::cli {

/// Write to stdout unbuffered by stdio (callers build text in large strings). When the reader
/// has gone (`zanj ls big.zanj | head -1`), the default SIGPIPE ends the process silently;
/// if SIGPIPE is ignored, write fails with EPIPE and this throws output_closed_error(), which
/// main turns into a silent exit 0.
void write_out(std::string_view text);
/// The Error write_out throws on EPIPE: empty message, Exit::ok.
Error output_closed_error();
/// True for that error. Loops that catch Error to go on with the next file (info FILE...)
/// must rethrow it: nobody is reading any more.
bool is_output_closed(const Error& e);
/// True when stdout is a terminal.
bool stdout_is_terminal();
/// True when stderr is a terminal (progress is shown only then).
bool stderr_is_terminal();
/// The width of the terminal stdout is on, when it is one that knows its size.
std::optional<std::size_t> stdout_columns();
/// Whether the user's locale (LC_ALL, LC_CTYPE, LANG) writes UTF-8; the process's own locale
/// stays "C", so numbers keep their '.'.
bool locale_is_utf8();
/// The text outputs' marker of an array's tensor library, after its kind or dtype: " (torch)"
/// for "torch", nothing for numpy (ArrayNode::library).
std::string library_mark(std::string_view library);
/// 1234567 as "1,234,567": a parameter count read at a glance.
std::string grouped(std::uint64_t n);
/// "2.0 KiB", "1.5 GiB", "312 B".
std::string human_bytes(std::uint64_t bytes);
/// A CRC-32 as 8 lowercase hex digits, as `unzip -v` and the corpus facts write it.
std::string crc32_hex(std::uint32_t crc);
/// The archive's ZIP members as JSON, one object each with name, size, compressed_size,
/// method, crc32 and modified: `info --json`'s member_list and `ls --members --json`'s members.
JsonArray members_json(const Archive& archive);
/// Left-align columns: each row is a vector of cells; the last column is not padded. Cells
/// may be coloured (style.hpp): widths are measured in terminal columns, not bytes.
std::string format_table(const std::vector<std::vector<std::string>>& rows, std::string_view indent = "");
/// format_table in two passes, for tables too large to hold: measure() every row first, then
/// append_line() each row again (rebuilt by the caller) with the same result.
struct TableWidths {
  std::vector<std::size_t> width;
  void measure(const std::vector<std::string>& row);
  void append_line(std::string& out, const std::vector<std::string>& row, std::string_view indent = "") const;
};
/// Output written in 64 KiB pieces through write_out, so a listing proportional to the tree is
/// never held whole. Call flush() at the end.
class ChunkedOutput {
 public:
  void add(std::string_view text);
  std::string& buffer() { return buffer_; }  ///< append directly, then call maybe_flush()
  void maybe_flush() {
    if (buffer_.size() >= kFlushBytes) flush();
  }
  void flush();

 private:
  static constexpr std::size_t kFlushBytes = std::size_t{64} * 1024;
  std::string buffer_;
};

}  // namespace zanj::cli
