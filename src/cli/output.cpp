#include "output.hpp"

#include <langinfo.h>
#include <locale.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "style.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"

namespace zanj::cli {

void write_out(std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(STDOUT_FILENO, text.data(), text.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      // The reader went away (SIGPIPE ignored by our parent): stop quietly, like `cat`.
      if (errno == EPIPE) throw output_closed_error();
      throw Error(std::string("cannot write output: ") + std::strerror(errno), Exit::usage);
    }
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

Error output_closed_error() { return Error("", Exit::ok); }

bool is_output_closed(const Error& e) { return e.exit() == Exit::ok; }

bool stdout_is_terminal() { return ::isatty(STDOUT_FILENO) == 1; }
bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

std::optional<std::size_t> stdout_columns() {
  struct winsize ws {};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return std::nullopt;
}

bool locale_is_utf8() {
  const locale_t user = ::newlocale(LC_CTYPE_MASK, "", static_cast<locale_t>(nullptr));
  if (!user) return false;
  const bool utf8 = std::strcmp(::nl_langinfo_l(CODESET, user), "UTF-8") == 0;
  ::freelocale(user);
  return utf8;
}

std::string grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string library_mark(std::string_view library) { return library == "torch" ? " (torch)" : ""; }

std::string human_bytes(std::uint64_t bytes) {
  static constexpr const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double v = static_cast<double>(bytes) / 1024.0;
  std::size_t u = 0;
  while (v >= 1024.0 && u + 1 < std::size(units)) {
    v /= 1024.0;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

std::string crc32_hex(std::uint32_t crc) {
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", crc);
  return buf;
}

JsonArray members_json(const Archive& archive) {
  JsonArray members;
  for (const auto& e : archive.entries())
    members.emplace_back(JsonObject{{"name", e.name},
                                    {"size", e.uncompressed_size},
                                    {"compressed_size", e.compressed_size},
                                    {"method", method_name(e.method)},
                                    {"crc32", crc32_hex(e.crc32)},
                                    {"modified", e.mtime_iso8601()}});
  return members;
}

void TableWidths::measure(const std::vector<std::string>& row) {
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (width.size() <= i) width.resize(i + 1, 0);
    width[i] = std::max(width[i], display_width(row[i]));
  }
}

void TableWidths::append_line(std::string& out, const std::vector<std::string>& row, std::string_view indent) const {
  // Straight into `out`, no line string in between: info and ls call this once per member.
  const std::size_t start = out.size();
  out += indent;
  for (std::size_t i = 0; i < row.size(); ++i) {
    out += row[i];
    if (i + 1 < row.size()) out.append(width[i] - display_width(row[i]) + 2, ' ');
  }
  while (out.size() > start && out.back() == ' ') out.pop_back();
  out += '\n';
}

std::string format_table(const std::vector<std::vector<std::string>>& rows, std::string_view indent) {
  TableWidths widths;
  for (const auto& row : rows) widths.measure(row);
  std::string out;
  for (const auto& row : rows) widths.append_line(out, row, indent);
  return out;
}

void ChunkedOutput::add(std::string_view text) {
  buffer_ += text;
  if (buffer_.size() >= kFlushBytes) flush();
}

void ChunkedOutput::flush() {
  write_out(buffer_);
  buffer_.clear();
}

}  // namespace zanj::cli
