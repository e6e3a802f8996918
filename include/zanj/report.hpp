#pragma once
// `zanj report`: self-contained HTML pages drawn from what info, verify, stats and diff compute.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "zanj/safe_files.hpp"
#include "zanj/archive.hpp"
#include "zanj/diff.hpp"
#include "zanj/summary.hpp"

namespace zanj {

struct ReportOptions {
  ProfileOptions profile{256, 128};
  /// Verify the archive (verify_zanj_file, with the limits it was opened with) while the
  /// external arrays' values are profiled from the bytes verify reads; false: the page says it
  /// was not verified.
  bool verify = true;
  /// Threads verify reads members on (VerifyOptions::threads; 0: the CPUs this process may
  /// use). The page does not depend on it.
  unsigned threads = 0;
};

/// `zanj report FILE`: one self-contained HTML page (inline CSS and SVG, a small inline script,
/// no URL) with the info summary, verify's verdict, where the bytes go, and the object tree
/// with each array's statistics, histogram and heatmap thumbnail.
std::string report_page(const ZanjFile& file, const ReportOptions& options = {});

/// A page's text, handed over in pieces, in order.
using PageWriter = std::function<void(std::string_view text)>;
/// report_page handed to `write` in pieces: the same bytes, never held as one string (the tree,
/// most of a large page, is kept in pieces of about 64 KiB). Nothing is written before every
/// member has been read and the tree drawn, so a page that fails writes nothing.
void write_report_page(const ZanjFile& file, const ReportOptions& options, const PageWriter& write);

/// `zanj report OLD NEW`: the comparison page. Every difference of diff_archives(a, b, options),
/// and per differing array a histogram of a - b and its largest differences.
std::string comparison_page(const ZanjFile& a, const ZanjFile& b, const DiffOptions& options);

/// Write `page` to `path` atomically: a temporary file in the same directory, renamed into
/// place when complete (an existing file is replaced). Throws Error (usage) when it cannot.
void save_page(const std::string& path, std::string_view page);
/// The same through `options`: --no-clobber, and an s3://, gs:// or http(s):// `path`
/// uploaded (appearing only when complete). Returns the uploaded object's ETag or generation.
OutputObject save_page(const std::string& path, std::string_view page, const OutputOptions& options);
/// The same for a page that `produce` writes in pieces (write_report_page): the output is
/// opened at the first piece, so that a page that fails before any opens nothing. Returns the
/// page's size in bytes.
std::uint64_t save_streamed_page(const std::string& path, const std::function<void(const PageWriter&)>& produce,
                                 const OutputOptions& options);

}  // namespace zanj
