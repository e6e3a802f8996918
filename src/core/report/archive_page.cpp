// report_page: the page for one archive. verify inflates every member once; the external
// arrays' statistics, histograms and thumbnails come from those same bytes (VerifiedValues),
// so the page costs about one verify. The page is handed out in pieces (write_report_page): the
// tree, most of it, is never one string.
#include <algorithm>
#include <memory>
#include <optional>
#include <set>

#if defined(__GLIBC__)
#include <malloc.h>  // malloc_trim
#endif

#include "zanj/report.hpp"
#include "zanj/verify.hpp"
#include "report/byte_groups.hpp"
#include "report/html_text.hpp"
#include "report/object_tree.hpp"
#include "report/page_frame.hpp"
#include "report/svg_figures.hpp"
#include "report/verified_values.hpp"

namespace zanj {
namespace {

using report::append_escaped;
using report::ArrayRecord;
using report::byte_size_text;

/// One row of the summary table; `text` is escaped.
void table_row(std::string& out, std::string_view term, std::string_view text) {
  out += "<tr><th>";
  out += term;
  out += "</th><td>";
  report::append_escaped(out, text);
  out += "</td></tr>";
}

/// A setting's value as text: strings bare, lists of strings joined by commas, others as JSON.
std::string setting_text(const Json& value) {
  if (value.is_string()) return value.as_string();
  if (value.is_array()) {
    std::string text;
    for (const Json& item : value.as_array()) text += (text.empty() ? "" : ", ") + setting_text(item);
    return text.empty() ? "none" : text;
  }
  return to_json(value);
}

/// The root's type as `zanj info` writes it: with its count of keys or elements when it is a
/// plain dict or list (a format-keyed root's JSON size would count the format key too).
std::string root_text(const Summary& s) {
  if (s.root_type == "dict") return "dict, " + std::to_string(s.root_length) + (s.root_length == 1 ? " key" : " keys");
  if (s.root_type == "list")
    return "list, " + std::to_string(s.root_length) + (s.root_length == 1 ? " element" : " elements");
  return s.root_type;
}

// The summary comes after the verdict, as a table; the library's settings follow as a table of
// their own (one row per setting), so the page never opens with raw JSON.
void summary_section(std::string& out, const ZanjFile& file) {
  const Summary s = summarize(file, 0);
  out += "<section id=\"summary\"><h2>Summary</h2><table class=\"facts\">";
  table_row(out, "saved", s.saved_at.empty() ? "unknown" : s.saved_at);
  if (!s.python.empty()) table_row(out, "Python", s.python);
  if (!s.torch.empty()) table_row(out, "torch", s.torch);
  table_row(out, "root", root_text(s));
  table_row(out, "members", std::to_string(s.members));
  table_row(out, "packed",
            report::byte_size_text(s.compressed_bytes) + " (" + std::to_string(s.compressed_bytes) + " bytes)");
  table_row(out, "unpacked",
            report::byte_size_text(s.uncompressed_bytes) + " (" + std::to_string(s.uncompressed_bytes) + " bytes)");
  table_row(out, "arrays",
            std::to_string(s.arrays) + " (" + std::to_string(s.external_arrays) + " external, " +
                std::to_string(s.inline_arrays) + " inline), " + report::byte_size_text(s.array_bytes) +
                (s.row_arrays ? "; " + std::to_string(s.row_arrays) + " more in list rows (in the tree below)"
                              : std::string()));
  table_row(out, "tables, lists",
            std::to_string(s.tables) + " tables, " + std::to_string(s.external_lists) + " external lists");
  // The settings name the handlers themselves; without them, the handlers get their own row.
  if (!s.zanj_cfg && !s.handlers.empty()) {
    std::string handlers;
    for (const auto& h : s.handlers) handlers += (handlers.empty() ? "" : ", ") + h;
    table_row(out, "handlers", handlers);
  }
  out += "</table>";
  for (const auto& problem : file.problems()) {
    out += "<p class=\"warn\">";
    report::append_escaped(out, problem);
    out += "</p>";
  }
  if (s.zanj_cfg && s.zanj_cfg->is_object() && !s.zanj_cfg->as_object().empty()) {
    out += "<h3>Settings</h3><table class=\"facts\" id=\"settings\">";
    for (const auto& [key, value] : s.zanj_cfg->as_object()) {
      out += "<tr><th><code>";
      report::append_escaped(out, key);
      out += "</code></th><td>";
      report::append_escaped(out, setting_text(value));
      out += "</td></tr>";
    }
    out += "</table>";
  } else if (s.zanj_cfg) {
    out += "<h3>Settings</h3><p>";
    report::append_escaped(out, to_json(*s.zanj_cfg));
    out += "</p>";
  }
  out += "</section>\n";
}

// Verify's problems listed on the page; zanj verify lists them all.
constexpr std::size_t kListedProblems = 200;

void problem_list(std::string& out, const std::vector<Problem>& problems, std::string_view css) {
  if (problems.empty()) return;
  out += "<ul>";
  for (std::size_t i = 0; i < problems.size() && i < kListedProblems; ++i) {
    const Problem& p = problems[i];
    out += "<li class=\"";
    out += css;
    out += "\"><code>";
    report::append_escaped(out, p.code);
    out += "</code> ";
    report::append_escaped(out, (p.path.empty() ? "" : p.path + ": ") + p.message);
    out += "</li>";
  }
  if (problems.size() > kListedProblems)
    out += "<li class=\"k\">and " + std::to_string(problems.size() - kListedProblems) +
           " more (<code>zanj verify</code> lists them all)</li>";
  out += "</ul>";
}

void verify_section(std::string& out, const std::optional<VerifyReport>& verify) {
  out += "<section id=\"verify\"><h2>Verify</h2>";
  if (!verify) {
    out += "<p>Not verified. Run <code>zanj verify</code> on the file.</p>";
  } else {
    out += verify->ok() ? "<p class=\"ok\">valid" : "<p class=\"bad\">INVALID";
    out += "</p><p>" + std::to_string(verify->errors.size()) + " errors, " + std::to_string(verify->warnings.size()) +
           " warnings; " + std::to_string(verify->checked.members_read) + " members read whole, " +
           report::byte_size_text(verify->checked.bytes_read) + " checked.</p>";
    problem_list(out, verify->errors, "bad");
    problem_list(out, verify->warnings, "warn");
  }
  out += "</section>\n";
}

// Lists of arrays on the page stop after this many items ("and K more"): a checkpoint of
// 50,000 fresh biases must not make a page of links.
constexpr std::size_t kListedArrays = 100;

/// An array's path, a link to its tree item when the tree lists it.
void array_link(std::string& out, const report::ArrayRecord& r) {
  out += r.anchor.empty() ? "<li><span class=\"p\">" : "<li><a href=\"#" + r.anchor + "\" class=\"p\">";
  report::append_escaped(out, r.path.empty() ? "/" : r.path);
  out += r.anchor.empty() ? "</span>" : "</a>";
}

void more_items(std::string& out, std::size_t listed, std::size_t all) {
  if (all > listed) out += "<li class=\"k\">and " + std::to_string(all - listed) + " more</li>";
}

// NaN, infinities and unreadable arrays are alarms; arrays of zeros only a note (a freshly
// initialised bias or buffer is all zero by design).
void attention_section(std::string& out, const std::vector<report::ArrayRecord>& records) {
  out += "<section id=\"attention\"><h2>Arrays to look at</h2>";
  std::size_t alarms = 0, zeros = 0;
  for (const report::ArrayRecord& r : records) {
    if (!r.flagged()) continue;
    if (r.nan || r.inf || !r.all_zero) {
      if (alarms++ >= kListedArrays) continue;
      if (alarms == 1) out += "<ul>";
      array_link(out, r);
      if (r.nan) out += " <span class=\"flag\">" + std::to_string(r.nan) + " NaN</span>";
      if (r.inf) out += " <span class=\"flag\">" + std::to_string(r.inf) + " infinite</span>";
      if (r.all_zero) out += " <span class=\"note\">all zero</span>";
      if (!r.nan && !r.inf && !r.all_zero) out += " <span class=\"flag\">unreadable</span>";
      out += "</li>";
    } else {
      ++zeros;
    }
  }
  if (alarms) {
    more_items(out, kListedArrays, alarms);
    out += "</ul>";
  } else {
    out += "<p class=\"ok\">No array holds NaN or infinite values; every one was read.</p>";
  }
  if (zeros) {
    out += "<p class=\"note\">" + std::to_string(zeros) + (zeros == 1 ? " array holds" : " arrays hold") +
           " only zeros, as freshly initialised biases and buffers do:</p><ul>";
    std::size_t listed = 0;
    for (const report::ArrayRecord& r : records) {
      if (!r.flagged() || r.nan || r.inf || !r.all_zero) continue;
      if (listed++ == kListedArrays) break;
      array_link(out, r);
      out += " <span class=\"note\">all zero</span></li>";
    }
    more_items(out, kListedArrays, zeros);
    out += "</ul>";
  }
  out += "</section>\n";
}

void bytes_section(std::string& out, const std::vector<report::ArrayRecord>& records) {
  out +=
      "<section id=\"bytes\"><h2>Where the bytes go</h2><p>Array values by subtree, each parent above its largest "
      "parts: the light bar is the unpacked size, the dark bar the packed (compressed) size of external members; "
      "inline arrays are packed inside the JSON and count as unpacked only.</p>";
  std::vector<report::ArrayBytes> arrays;
  arrays.reserve(records.size());
  for (const report::ArrayRecord& r : records) arrays.push_back({r.path, r.bytes, r.packed, r.external});
  const std::vector<report::Bar> bars = report::byte_group_bars(arrays);
  out += bars.empty()
             ? "<p>No arrays.</p>"
             : "<figure>" + report::bars_svg(bars, "Array bytes by subtree, unpacked and packed") + "</figure>";
  out += "</section>\n";
}

}  // namespace

void write_report_page(const ZanjFile& file, const ReportOptions& options, const PageWriter& write) {
  // verify reads every member once, on options.threads threads; the external arrays' values
  // are profiled from those same bytes, and the tree then reads only what verify could not
  // hand over.
  std::optional<VerifyReport> verify;
  // Freed once the tree has taken its profiles: the sections above the tree then reuse its
  // memory (5 MiB on 50,000 members) rather than add to it.
  auto verified = std::make_unique<report::VerifiedValues>();
  if (options.verify) {
    report::expect_external_arrays(file, options.profile, *verified);
    VerifyOptions verify_options;
    verify_options.limits = file.archive().limits();
    verify_options.member_data = [&](const std::string& member) { return verified->sink(member); };
    verify_options.threads = options.threads;
    verify = verify_zanj_file(file, verify_options);  // the file's documents, not parsed again
    // verify's own working memory (member plans, the ZIP checks) is freed now, but glibc keeps
    // the pages in its arenas (about 19 MiB of 72 on 50,000 members) and the tree's strings and
    // records do not fit its holes well: handing them back to the OS here lowered the report's
    // peak by 5 MiB. A report is one such point per process, so the cost (a walk
    // of the free lists) is paid once.
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
  }
  std::set<std::string> broken;  // members verify found a problem with
  if (verify)
    for (const auto* problems : {&verify->errors, &verify->warnings})
      for (const Problem& p : *problems)
        if (!p.member.empty()) broken.insert(p.member);
  // The tree is kept in pieces of about 64 KiB until the sections above it are written: grown
  // as one string it was copied at each doubling, and then copied again behind those sections
  // (4.5 MiB of tree on 50,000 members, at a 73 MiB peak).
  std::vector<std::string> tree;
  std::string piece;
  const std::vector<report::ArrayRecord> records = report::write_object_tree(
      piece, file, options.profile,
      [&](const std::string& member) { return verified->take(member, broken.count(member) > 0); },
      [&](std::string& text) {
        tree.push_back(std::move(text));
        text = std::string();
        text.reserve(report::kTreePieceBytes + report::kTreePieceBytes / 4);
      });
  tree.push_back(std::move(piece));
  verified.reset();

  std::string head;
  report::open_page(head, "zanj report: " + file.name(), "zanj report: " + file.name());
  head += "<main>";
  verify_section(head, verify);  // the verdict first
  summary_section(head, file);
  attention_section(head, records);
  bytes_section(head, records);
  head += "<section id=\"tree\"><h2>Objects</h2>";
  report::tree_search_box(head);
  write(head);
  for (std::string& text : tree) {
    write(text);
    std::string().swap(text);  // written: its memory goes back as the rest is written
  }
  std::string end = "</section></main>\n";
  report::close_page(end);
  write(end);
}

std::string report_page(const ZanjFile& file, const ReportOptions& options) {
  std::string page;
  write_report_page(file, options, [&](std::string_view text) { page += text; });
  return page;
}

}  // namespace zanj
