#include "stats_command.hpp"

#include <array>
#include <cstdint>
#include <fnmatch.h>
#include <langinfo.h>
#include <locale.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "diagnostics.hpp"
#include "inputs.hpp"
#include "output.hpp"
#include "style.hpp"
#include "zanj/array.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zanj/summary.hpp"
#include "zanj/tree.hpp"
#include "zanj/archive.hpp"

namespace zanj::cli {
namespace {

struct StatsOptions {
  std::string file;
  std::string path;
  std::string glob;
  bool json = false;
  bool hist = false;
};

Json optional_json(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

/// Integers exactly, reals as Python prints them (min and max keep the array's own values).
Json number_json(const std::optional<Number>& n) {
  if (!n) return nullptr;
  if (n->kind != Number::Kind::integer) return n->re;
  if (n->integer >= 0) return static_cast<std::uint64_t>(n->integer);
  return static_cast<std::int64_t>(n->integer);
}

/// `head` (what the values are: path, then dtype and shape, or kind) and the statistics.
Json stats_json(JsonObject head, const ArrayStats& s) {
  JsonObject stats{{"count", s.count},           {"finite", s.finite},          {"nan", s.nan},
                   {"pos_inf", s.pos_inf},       {"neg_inf", s.neg_inf},        {"min", number_json(s.min)},
                   {"max", number_json(s.max)},  {"sum", optional_json(s.sum)}, {"mean", optional_json(s.mean)},
                   {"std", optional_json(s.std)}};
  head.insert(head.end(), std::make_move_iterator(stats.begin()), std::make_move_iterator(stats.end()));
  return Json(std::move(head));
}

/// Columns of the terminal on stdout, else $COLUMNS, else 80.
std::size_t output_width() {
  struct winsize ws {};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  if (const char* columns = std::getenv("COLUMNS"); columns && std::atoi(columns) > 0)
    return static_cast<std::size_t>(std::atoi(columns));
  return 80;
}

std::string short_number(const std::optional<double>& v);

/// One line under an array's row: "  LO ▁▃█▅▂ HI", the bars filling the width, heights
/// relative to the fullest bin; a non-empty bin never draws blank. ASCII levels outside
/// UTF-8 locales.
std::string histogram_line(const Histogram& fine, std::size_t width, bool utf8) {
  static const char* const kBlocks[] = {" ",      "\u2581", "\u2582", "\u2583", "\u2584",
                                        "\u2585", "\u2586", "\u2587", "\u2588"};
  static const char* const kAscii[] = {" ", ".", ":", "-", "=", "+", "*", "#", "@"};
  const std::string lo = short_number(std::optional<double>(fine.min));
  const std::string hi = short_number(std::optional<double>(fine.max));
  const std::size_t used = 2 + lo.size() + 1 + 1 + hi.size();
  const Histogram h = rebin(fine, width > used + 8 ? width - used : 8);
  if (h.counts.empty()) return "";
  const std::uint64_t top = *std::max_element(h.counts.begin(), h.counts.end());
  std::string bars;
  for (const std::uint64_t c : h.counts) {
    const std::size_t level = c == 0 ? 0 : std::max<std::size_t>(1, static_cast<std::size_t>((c * 8 + top - 1) / top));
    bars += (utf8 ? kBlocks : kAscii)[level];
  }
  return "  " + lo + " " + colored(Color::cyan, bars) + " " + hi + "\n";
}

Json histogram_json(const Histogram& fine) {
  const Histogram h = rebin(fine, fine.counts.size());
  JsonArray counts;
  for (const std::uint64_t c : h.counts) counts.push_back(c);
  return Json(JsonObject{{"lo", h.counts.empty() ? Json(nullptr) : Json(h.lo)},
                         {"hi", h.counts.empty() ? Json(nullptr) : Json(h.hi)},
                         {"counts", Json(std::move(counts))}});
}

/// Six significant digits for the table; integers in full.
std::string short_number(const std::optional<double>& v) {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", *v);
  return buf;
}
std::string short_number(const std::optional<Number>& n) {
  if (n && n->kind == Number::Kind::integer) return number_text(*n);
  return short_number(n ? std::optional<double>(n->re) : std::nullopt);
}

/// The text table's rows, each held as one string and where its cells end: ten strings a row
/// were about 340 bytes each, most of stats' peak on 50,000 arrays. The widths are measured as
/// rows come, and the table is laid out at the end (format_table's two-pass form).
class StatsRows {
 public:
  static constexpr std::size_t kCells = 10;
  void add(const std::vector<std::string>& cells) {
    widths_.measure(cells);
    std::string text;
    std::array<std::uint32_t, kCells> ends{};
    for (std::size_t i = 0; i < kCells; ++i) {
      text += i < cells.size() ? cells[i] : std::string();
      ends[i] = static_cast<std::uint32_t>(text.size());
    }
    texts_.push_back(std::move(text));
    ends_.push_back(ends);
  }
  std::size_t size() const { return texts_.size(); }
  /// Row `i` laid out as format_table would lay it out with all the rows.
  void append_line(std::string& out, std::size_t i) const {
    std::vector<std::string> cells(kCells);
    std::uint32_t start = 0;
    for (std::size_t c = 0; c < kCells; ++c) {
      cells[c] = texts_[i].substr(start, ends_[i][c] - start);
      start = ends_[i][c];
    }
    widths_.append_line(out, cells);
  }

 private:
  TableWidths widths_;
  std::vector<std::string> texts_;
  std::vector<std::array<std::uint32_t, kCells>> ends_;
};

int run_stats(const StatsOptions& opt) {
  const ZanjFile z = open_zanj(opt.file);
  for (const auto& p : z.problems()) warn(z.name() + ": " + p);
  const PathSegments start = split_path(opt.path);
  // A path may go on into the rows of an external list or table (lst/3/arr).
  const FoundNode found = find_node_in_rows(z, NodeTarget{opt.path, start, ""});
  const JsonView node = found.json;

  JsonArray arrays;
  StatsRows rows;
  rows.add({"path", "dtype", "shape", "count", "min", "max", "mean", "std", "nan", "inf"});
  std::vector<Histogram> histograms{{}};  // with --hist, one per row (none for the header)
  ProfileOptions profile_options;
  profile_options.heatmap_side = 0;
  // The walk goes on into the rows of external lists and tables (a list of dataclasses that
  // each hold an array): lst/3/arr is an array like any other.
  JsonArray values;  // --json: lists and table columns
  // Depths of the external lists and tables whose rows the walk is in: a list inside a row
  // (a million rows of [0, 0, ...]) is one of the list's items, not a list of its own to report.
  std::vector<std::size_t> row_lists;
  walk_tree_with_rows(z, node, start, [&](const TreeVisit& v) {
    while (!row_lists.empty() && row_lists.back() >= v.depth) row_lists.pop_back();
    const bool in_rows = !row_lists.empty();
    if (v.node.table || v.node.kind == NodeKind::external_list) row_lists.push_back(v.depth);
    const bool list_of_values =
        v.node.kind == NodeKind::external_list || (v.node.kind == NodeKind::list && is_scalar_list(v.node.json));
    if (!in_rows && (v.node.table || list_of_values)) {
      // A list of numbers, or a table's numeric columns: their statistics beside the arrays'.
      for (const ValueStats& vs : value_stats(z, v.node, v.path())) {
        if (!opt.glob.empty() && fnmatch(opt.glob.c_str(), vs.path.c_str(), 0) != 0) continue;
        const ArrayStats& s = vs.stats;
        if (opt.json) {
          values.push_back(stats_json(JsonObject{{"path", vs.path}, {"kind", vs.kind}}, s));
        } else {
          rows.add({vs.path.empty() ? "/" : vs.path, vs.kind, "[" + std::to_string(s.count) + "]",
                    std::to_string(s.count), short_number(s.min), short_number(s.max), short_number(s.mean),
                    short_number(s.std), std::to_string(s.nan), std::to_string(s.pos_inf + s.neg_inf)});
          if (opt.hist) histograms.emplace_back();  // values get no histogram
        }
      }
      // The rows of an external list or table may still hold arrays; an inline list of
      // scalars holds none.
      return v.node.kind != NodeKind::list;
    }
    if (v.node.kind == NodeKind::list && list_of_values) return false;  // scalars: no arrays below
    if (!v.node.array) return true;
    if (!opt.glob.empty() && fnmatch(opt.glob.c_str(), v.path().c_str(), 0) != 0) return false;
    // --hist reads the values once for both: the statistics are the same either way.
    ArrayProfile profile;
    if (opt.hist) profile = profile_array(z.archive(), *v.node.array, v.path(), profile_options);
    const ArrayStats s = opt.hist ? profile.stats : array_stats(z.archive(), *v.node.array, v.path());
    if (opt.hist) histograms.push_back(std::move(profile.histogram));
    if (opt.json) {
      const ArrayNode& a = *v.node.array;
      arrays.push_back(stats_json(JsonObject{{"path", v.path()},
                                             {"dtype", a.numpy_dtype()},
                                             {"library", std::string(a.library())},
                                             {"shape", shape_json(a.shape)}},
                                  s));
      if (opt.hist) arrays.back().as_object().emplace_back("histogram", histogram_json(histograms.back()));
    } else {
      rows.add({v.path().empty() ? "/" : v.path(),
                terminal_safe(v.node.array->numpy_dtype()) + library_mark(v.node.array->library()),
                shape_text(v.node.array->shape), std::to_string(s.count), short_number(s.min), short_number(s.max),
                short_number(s.mean), short_number(s.std), std::to_string(s.nan),
                std::to_string(s.pos_inf + s.neg_inf)});
    }
    return false;
  });
  if (opt.json) {
    JsonObject result{{"file", opt.file}, {"arrays", Json(std::move(arrays))}, {"values", Json(std::move(values))}};
    add_transfer_json(result, z.archive());
    write_out(to_json(Json(std::move(result))) + "\n");
  } else if (rows.size() > 1) {
    const std::size_t width = output_width();
    const bool utf8 = locale_is_utf8();
    std::string out;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      rows.append_line(out, i);
      if (opt.hist) out += histogram_line(histograms[i], width, utf8);
    }
    write_out(out);
  } else if (!opt.glob.empty()) {  // a filter that matches nothing is an error, as in ls
    throw Error(z.name() + ": no array, list of numbers or numeric table column" +
                    (opt.path.empty() ? std::string() : " under '" + opt.path + "'") + " matches --glob '" + opt.glob +
                    "'",
                Exit::invalid);
  } else {
    // Never silent: the path holds nothing to count.
    write_out("no arrays, lists of numbers or numeric table columns at " +
              (opt.path.empty() ? std::string("the root") : "'" + terminal_safe(opt.path) + "'") + "\n");
  }
  return 0;
}

}  // namespace

Command setup_stats(CLI::App& parent) {
  auto opt = std::make_shared<StatsOptions>();
  CLI::App* app =
      parent.add_subcommand("stats", "Array statistics: count, min, max, mean, std, NaN and infinity counts");
  app->add_option("FILE", opt->file, "Archive to read (- reads it from standard input)")
      ->required()
      ->transform(input_file());
  app->add_option("PATH", opt->path, "Object path to start at (default: the root)");
  app->add_option("--glob", opt->glob, "Only arrays whose path matches this shell pattern ('*' also matches '/')")
      ->type_name("PATTERN");
  app->add_flag("--json", opt->json, "Machine-readable output");
  app->add_flag("--hist", opt->hist,
                "Draw a histogram of each array's finite values under its row (--json: add its bins)");
  return {app, [opt] { return run_stats(*opt); }};
}

}  // namespace zanj::cli
