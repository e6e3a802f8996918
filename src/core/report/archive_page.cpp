// report_page: the page for one archive. verify inflates every member once; the external
// arrays' statistics, histograms and thumbnails come from those same bytes (VerifiedValues),
// so the page costs about one verify.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "zanj/report.hpp"
#include "zanj/verify.hpp"
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

void definition(std::string& out, std::string_view term, std::string_view text) {
  out += "<dt>";
  out += term;
  out += "</dt><dd>";
  append_escaped(out, text);
  out += "</dd>";
}

void summary_section(std::string& out, const ZanjFile& file) {
  const Summary s = summarize(file, 0);
  out += "<section id=\"summary\"><h2>Summary</h2><dl>";
  definition(out, "saved", s.saved_at.empty() ? "unknown" : s.saved_at);
  if (!s.python.empty()) definition(out, "Python", s.python);
  if (!s.torch.empty()) definition(out, "torch", s.torch);
  definition(out, "root", s.root_type + " (" + std::to_string(s.root_length) + ")");
  definition(out, "members", std::to_string(s.members));
  definition(out, "packed", byte_size_text(s.compressed_bytes) + " (" + std::to_string(s.compressed_bytes) + " bytes)");
  definition(out, "unpacked",
             byte_size_text(s.uncompressed_bytes) + " (" + std::to_string(s.uncompressed_bytes) + " bytes)");
  definition(out, "arrays",
             std::to_string(s.arrays) + " (" + std::to_string(s.external_arrays) + " external, " +
                 std::to_string(s.inline_arrays) + " inline), " + byte_size_text(s.array_bytes) +
                 (s.row_arrays ? "; " + std::to_string(s.row_arrays) + " more in list rows (in the tree below)"
                               : std::string()));
  definition(out, "tables, lists",
             std::to_string(s.tables) + " tables, " + std::to_string(s.external_lists) + " external lists");
  if (s.zanj_cfg) definition(out, "settings", to_json(*s.zanj_cfg));
  if (!s.handlers.empty()) {
    std::string handlers;
    for (const auto& h : s.handlers) handlers += (handlers.empty() ? "" : ", ") + h;
    definition(out, "handlers", handlers);
  }
  out += "</dl>";
  for (const auto& problem : file.problems()) {
    out += "<p class=\"warn\">";
    append_escaped(out, problem);
    out += "</p>";
  }
  out += "</section>\n";
}

void problem_list(std::string& out, const std::vector<Problem>& problems, std::string_view css) {
  if (problems.empty()) return;
  out += "<ul>";
  for (const Problem& p : problems) {
    out += "<li class=\"";
    out += css;
    out += "\"><code>";
    append_escaped(out, p.code);
    out += "</code> ";
    append_escaped(out, (p.path.empty() ? "" : p.path + ": ") + p.message);
    out += "</li>";
  }
  out += "</ul>";
}

void verify_section(std::string& out, const std::optional<VerifyReport>& verify) {
  out += "<section id=\"verify\"><h2>Verify</h2>";
  if (!verify) {
    out += "<p>Not verified: the archive came from standard input. Run <code>zanj verify</code> on the file.</p>";
  } else {
    out += verify->ok() ? "<p class=\"ok\">valid" : "<p class=\"bad\">INVALID";
    out += "</p><p>" + std::to_string(verify->errors.size()) + " errors, " + std::to_string(verify->warnings.size()) +
           " warnings; " + std::to_string(verify->checked.members_read) + " members read whole, " +
           byte_size_text(verify->checked.bytes_read) + " checked.</p>";
    problem_list(out, verify->errors, "bad");
    problem_list(out, verify->warnings, "warn");
  }
  out += "</section>\n";
}

void attention_section(std::string& out, const std::vector<ArrayRecord>& records) {
  out += "<section id=\"attention\"><h2>Arrays to look at</h2>";
  std::size_t flagged = 0;
  for (const ArrayRecord& r : records) {
    if (r.anchor.empty()) continue;
    out += flagged++ ? "" : "<ul>";
    out += "<li><a href=\"#" + r.anchor + "\" class=\"p\">";
    append_escaped(out, r.path.empty() ? "/" : r.path);
    out += "</a>";
    if (r.nan) out += " <span class=\"flag\">" + std::to_string(r.nan) + " NaN</span>";
    if (r.inf) out += " <span class=\"flag\">" + std::to_string(r.inf) + " infinite</span>";
    if (r.all_zero) out += " <span class=\"flag\">all zero</span>";
    if (!r.nan && !r.inf && !r.all_zero) out += " <span class=\"flag\">unreadable</span>";
    out += "</li>";
  }
  out += flagged ? "</ul>"
                 : "<p class=\"ok\">No array holds NaN or infinite values, none is all zeros, every one was read.</p>";
  out += "</section>\n";
}

// Arrays grouped by the shortest path prefix that splits them into more than one group (a
// checkpoint's "state_dict/..." alone would say nothing), at most three levels down.
std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> subtree_sizes(const std::vector<ArrayRecord>& records) {
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> groups;
  for (std::size_t depth = 1; depth <= 3; ++depth) {
    groups.clear();
    for (const ArrayRecord& r : records) {
      std::size_t end = 0;
      for (std::size_t d = 0; d < depth && end != std::string::npos; ++d) end = r.path.find('/', end ? end + 1 : 0);
      auto& g = groups[end == std::string::npos ? r.path : r.path.substr(0, end)];
      g.first += r.bytes;
      g.second += r.packed;
    }
    if (groups.size() > 1) break;
  }
  return groups;
}

void bytes_section(std::string& out, const std::vector<ArrayRecord>& records) {
  constexpr std::size_t kBars = 25;
  out +=
      "<section id=\"bytes\"><h2>Where the bytes go</h2><p>Array values by subtree: the light bar is the "
      "unpacked size, the dark bar the packed (compressed) size of external members; inline arrays are "
      "packed inside the JSON and count as unpacked only.</p>";
  std::vector<report::Bar> bars;
  for (const auto& [path, size] : subtree_sizes(records))
    bars.push_back({path.empty() ? "/" : path, size.first, size.second,
                    byte_size_text(size.first) + " / " + byte_size_text(size.second) + " packed"});
  std::sort(bars.begin(), bars.end(), [](const auto& a, const auto& b) { return a.total > b.total; });
  if (bars.size() > kBars) {
    report::Bar rest{std::to_string(bars.size() - kBars + 1) + " more subtrees", 0, 0, ""};
    for (std::size_t i = kBars - 1; i < bars.size(); ++i) rest.total += bars[i].total, rest.part += bars[i].part;
    rest.value_text = byte_size_text(rest.total) + " / " + byte_size_text(rest.part) + " packed";
    bars.resize(kBars - 1);
    bars.push_back(std::move(rest));
  }
  out += bars.empty()
             ? "<p>No arrays.</p>"
             : "<figure>" + report::bars_svg(bars, "Array bytes by subtree, unpacked and packed") + "</figure>";
  out += "</section>\n";
}

}  // namespace

std::string report_page(const ZanjFile& file, const ReportOptions& options) {
  // verify reads every member once, on options.threads threads; the external arrays' values
  // are profiled from those same bytes, and the tree then reads only what verify could not
  // hand over.
  std::optional<VerifyReport> verify;
  report::VerifiedValues verified;
  if (!options.verify_path.empty()) {
    report::expect_external_arrays(file, options.profile, verified);
    VerifyOptions verify_options;
    verify_options.member_data = [&](const std::string& member) { return verified.sink(member); };
    verify_options.threads = options.threads;
    verify = verify_file(options.verify_path, verify_options);
  }
  std::set<std::string> broken;  // members verify found a problem with
  if (verify)
    for (const auto* problems : {&verify->errors, &verify->warnings})
      for (const Problem& p : *problems)
        if (!p.member.empty()) broken.insert(p.member);
  std::string tree;
  const std::vector<ArrayRecord> records = report::write_object_tree(
      tree, file, options.profile,
      [&](const std::string& member) { return verified.take(member, broken.count(member) > 0); });

  std::string out;
  out.reserve(tree.size() + std::size_t{64} * 1024);
  report::open_page(out, "zanj report: " + file.name(), "zanj report: " + file.name());
  out += "<main>";
  summary_section(out, file);
  verify_section(out, verify);
  attention_section(out, records);
  bytes_section(out, records);
  out += "<section id=\"tree\"><h2>Objects</h2>";
  report::tree_search_box(out);
  out += tree;
  out += "</section></main>\n";
  report::close_page(out);
  return out;
}

}  // namespace zanj
