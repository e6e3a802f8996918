#include "report/object_tree.hpp"

#include <algorithm>
#include <functional>
#include <optional>

#include "report/html_text.hpp"
#include "report/svg_figures.hpp"
#include "array/inline_check.hpp"

namespace zanj::report {
namespace {

// Heatmaps are the page's largest figures: full-size thumbnails until this many bytes of them
// are on the page, small ones after, so a checkpoint of thousands of matrices stays a page.
constexpr std::size_t kHeatmapBudget = std::size_t{1} << 20;
constexpr std::size_t kSmallHeatmapSide = 16;

/// Integers in full, reals to six digits (as the stats table prints them).
std::string stat_text(const std::optional<Number>& n) {
  if (!n) return "-";
  return n->kind == Number::Kind::integer ? number_text(*n) : number_text6(n->re);
}

bool is_container(const Node& node) {
  return !node.array && (node.kind == NodeKind::dict || node.kind == NodeKind::list ||
                         node.kind == NodeKind::dataclass || node.kind == NodeKind::other);
}

std::string node_description(const Node& node) {
  std::string text(kind_name(node.kind));
  if (node.kind == NodeKind::dict || node.kind == NodeKind::list)
    text += " (" + std::to_string(node.json.size()) + (node.kind == NodeKind::dict ? " keys)" : " items)");
  if (!node.format.empty() && node.kind != NodeKind::array) text += " " + node.format;
  if (node.table) text += " " + std::to_string(node.table->columns.size()) + " columns";
  if (node.table && node.table->rows) text += ", " + std::to_string(*node.table->rows) + " rows";
  if (node.list && node.list->length) text += " " + std::to_string(*node.list->length) + " items";
  if (node.is_reference()) text += " in " + node.member();
  return text;
}

// Which arrays get their figures (statistics table, histogram, heatmap): all of them up to
// kFigureArrays, else the kFigureArrays largest (a checkpoint's big matrices, not its 50,000
// counters); the others show their statistics on their line. Decided from the JSON alone,
// before any value is read.
constexpr std::size_t kFigureArrays = 1000;
// A container lists this many children, then says how many more it has: a page of 50,000
// members stays a few MiB (their arrays still count in the other sections).
constexpr std::size_t kListedChildren = 20000;
// Trees with more nodes than this are folded below the second level by the script.
constexpr std::size_t kLargeTree = 200;
// Smaller trees are <details> elements: containers open above this depth (the root is 0),
// closed from it on, and so is a list of more strings than kLongStringList.
constexpr std::size_t kOpenDepth = 2;
constexpr std::size_t kLongStringList = 8;

/// The tree as `ls` shows it: on into the rows of external lists whose rows are dicts or lists
/// (a list of dataclasses that each hold an array). Every walk of the page goes this way, so
/// the arrays are met in one order by the plan, the verify pass and the tree.
void walk_rows(const ZanjFile& file, const std::function<bool(const TreeVisit&)>& visitor) {
  RowWalkOptions rows;
  rows.tables = false;
  rows.scalar_rows = false;
  // A list whose member cannot be read shows without its rows: the page's verify section
  // names the member's problem.
  rows.on_unreadable_rows = [](const std::string&) {};
  walk_tree_with_rows(file, file.root(), {}, visitor, rows);
}

std::size_t node_count(const ZanjFile& file) {
  std::size_t nodes = 0;
  walk_rows(file, [&](const TreeVisit&) { return ++nodes, true; });
  return nodes;
}

}  // namespace

std::vector<ProfileOptions> plan_arrays(const ZanjFile& file, const ProfileOptions& options) {
  std::vector<std::uint64_t> sizes;
  std::vector<std::vector<std::uint64_t>> shapes;
  walk_rows(file, [&](const TreeVisit& v) {
    if (!v.node.array) return true;
    sizes.push_back(array_value_bytes(v.node.array->dtype, v.node.array->shape).value_or(0));
    shapes.push_back(v.node.array->shape);
    return true;
  });
  std::vector<bool> chosen(sizes.size(), true);
  if (sizes.size() > kFigureArrays) {
    std::vector<std::uint64_t> sorted = sizes;
    std::nth_element(sorted.begin(), sorted.begin() + kFigureArrays - 1, sorted.end(), std::greater<>());
    const std::uint64_t threshold = sorted[kFigureArrays - 1];
    std::size_t taken = 0;
    for (const auto s : sizes) taken += s > threshold;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      chosen[i] = sizes[i] > threshold || (sizes[i] == threshold && taken < kFigureArrays);
      if (sizes[i] == threshold && chosen[i]) ++taken;
    }
  }
  // Heatmaps are the page's largest figures: full-size thumbnails while their estimated
  // bytes (about 14 per cell) stay within kHeatmapBudget, small ones after.
  std::vector<ProfileOptions> plans(sizes.size(), options);
  std::size_t heatmap_bytes = 0;
  for (std::size_t i = 0; i < plans.size(); ++i) {
    if (!chosen[i]) {
      plans[i].bins = 0;
      plans[i].heatmap_side = 0;
      continue;
    }
    if (heatmap_bytes > kHeatmapBudget) plans[i].heatmap_side = std::min(plans[i].heatmap_side, kSmallHeatmapSide);
    if (shapes[i].size() < 2) continue;
    std::uint64_t rows = 1;
    for (std::size_t d = 0; d + 1 < shapes[i].size(); ++d)
      rows = std::min<std::uint64_t>(rows * shapes[i][d], 1u << 20);
    heatmap_bytes += 14 * std::min<std::uint64_t>(rows, plans[i].heatmap_side) *
                     std::min<std::uint64_t>(shapes[i].back(), plans[i].heatmap_side);
  }
  return plans;
}

void expect_external_arrays(const ZanjFile& file, const ProfileOptions& options, VerifiedValues& verified) {
  const std::vector<ProfileOptions> plans = plan_arrays(file, options);
  verified.reserve(plans.size());
  std::size_t i = 0;
  walk_rows(file, [&](const TreeVisit& v) {
    if (!v.node.array) return true;
    // A member not in the archive is never read: the tree finds it unreadable itself.
    if (v.node.array->external())
      if (const ZipEntry* entry = file.archive().find(v.node.array->member))
        verified.expect(entry->python_name, *v.node.array, plans[i]);
    ++i;
    return true;
  });
}

namespace {

class TreeWriter {
 public:
  TreeWriter(std::string& out, const ZanjFile& file, const ProfileOptions& options, bool large,
             const TakenValues& taken)
      : out_(out), file_(file), plans_(plan_arrays(file, options)), large_(large), taken_(taken) {
    records_.reserve(plans_.size());  // one per array: not grown by doubling (50,000 on the bench)
  }

  void visit(const TreeVisit& v) {
    if (hidden_from_ && v.depth > *hidden_from_) return hidden(v);  // inside a node not listed
    hidden_from_.reset();
    close_to(v.depth);
    if (!open_.empty() && ++open_.back().children > kListedChildren) {
      ++open_.back().not_listed;
      hidden_from_ = v.depth;
      return hidden(v);
    }
    if (!open_.empty() && open_.back().what == Open::list_without_rows) {  // its first row
      out_ += "<ul>\n";
      open_.back().what = Open::list_rows;
    }
    // The key as saved (HTML-escaped when written); the script builds paths from these names.
    const std::string name = v.segments().empty() ? "/" : v.segments().back();
    if (v.node.array) return array_item(v, name);
    if (is_container(v.node)) {
      // A small tree uses <details>; a large one plain lists that the script folds with one
      // class on the tree (closing thousands of <details> one by one makes browsers crawl).
      out_ += large_      ? "<li><b class=\"x\" tabindex=\"0\">"
              : opened(v) ? "<li><details open><summary><b>"
                          : "<li><details><summary><b>";
      append_escaped(out_, name);
      out_ += "</b> <span class=\"k\">";
      append_escaped(out_, node_description(v.node));
      out_ += large_ ? "</span><ul>\n" : "</span></summary><ul>\n";
      open_.push_back({v.depth, Open::container});
      return;
    }
    if (v.node.kind == NodeKind::external_list) {
      // Its rows may follow, one level deeper (rows that are dicts or lists): the item stays
      // open until the walk leaves it, and gets a list for them when the first arrives.
      out_ += "<li><b>";
      append_escaped(out_, name);
      out_ += "</b> <span class=\"k\">";
      append_escaped(out_, node_description(v.node));
      out_ += "</span>";
      open_.push_back({v.depth, Open::list_without_rows});
      return;
    }
    out_ += "<li><b>";
    append_escaped(out_, name);
    out_ += "</b> <span class=\"k\">";
    append_escaped(out_, node_description(v.node));
    out_ += "</span>";
    if (!v.node.is_reference() && v.node.kind != NodeKind::table && v.node.kind != NodeKind::external_list &&
        v.node.kind != NodeKind::null) {
      out_ += " <span class=\"v\">";
      append_escaped(out_, shorten(to_json(v.node.json), 120));
      out_ += "</span>";
    }
    out_ += "</li>\n";
  }

  std::vector<ArrayRecord> finish() {
    close_to(0);
    return std::move(records_);
  }
  std::size_t arrays_without_figures() const { return without_figures_; }

 private:
  /// Whether a small tree shows a container's children from the start: the top levels do; a
  /// deeper container, or a long list of strings (a model's class_source), opens on a click.
  static bool opened(const TreeVisit& v) {
    if (v.depth >= kOpenDepth) return false;
    const JsonView json = v.node.json;
    if (v.node.kind != NodeKind::list || json.size() <= kLongStringList) return true;
    for (const JsonView item : json)
      if (!item.is_string()) return true;
    return false;
  }

  /// A node past kListedChildren of its container, or below one: not written, but an array's
  /// values are still profiled for the page's other sections.
  void hidden(const TreeVisit& v) {
    if (v.node.array) array_item(v, {}, false);
  }

  void close_to(std::size_t depth) {
    while (!open_.empty() && open_.back().depth >= depth) {
      if (const std::size_t n = open_.back().not_listed)
        out_ += "<li class=\"k\">and " + std::to_string(n) + " more, not listed to keep the page small</li>\n";
      switch (open_.back().what) {
        case Open::container:
          out_ += large_ ? "</ul></li>\n" : "</ul></details></li>\n";
          break;
        case Open::list_without_rows:
          out_ += "</li>\n";
          break;
        case Open::list_rows:
          out_ += "</ul></li>\n";
          break;
      }
      open_.pop_back();
    }
  }

  void array_item(const TreeVisit& v, const std::string& name, bool listed = true) {
    const ArrayNode& a = *v.node.array;
    const ProfileOptions& options = plans_[records_.size()];
    const bool figures = options.bins > 0;
    ArrayRecord record;
    record.path = v.path();
    record.bytes = array_value_bytes(a.dtype, a.shape).value_or(0);
    record.external = a.external();
    if (a.external())
      if (const ZipEntry* entry = file_.archive().find(a.member)) record.packed = entry->compressed_size;
    std::optional<ArrayProfile> profile;
    std::string problem;
    try {
      if (a.external() && taken_) profile = taken_(a.member);
      if (!profile) profile = profile_array(file_.archive(), a, v.path(), options);
    } catch (const array::NumpyRefusalError&) {  // boundary: not this one; no array stops it (as hash, stats)
      throw;
    } catch (const Error& e) {  // boundary: one unreadable array: say so there, show the rest
      problem = e.what();
    }
    if (profile) {
      record.nan = profile->stats.nan;
      record.inf = profile->stats.pos_inf + profile->stats.neg_inf;
      record.all_zero = profile->all_zero();
    }
    record.unreadable = !profile;
    const bool flagged = !problem.empty() || record.nan || record.inf || record.all_zero;
    if (!listed) {
      records_.push_back(std::move(record));
      return;
    }
    if (flagged) record.anchor = "a" + std::to_string(records_.size());
    out_ += flagged ? "<li id=\"" + record.anchor + "\">" : "<li>";
    out_ += figures ? "<details open><summary><b>" : "<b>";  // shown whenever its container is
    append_escaped(out_, name);
    out_ += a.library() == "torch" ? "</b> <span class=\"k\">array (torch) " : "</b> <span class=\"k\">array ";
    append_escaped(out_, a.numpy_dtype() + " " + shape_text(a.shape) + " " + std::string(encoding_name(a.encoding)) +
                             " " + byte_size_text(record.bytes));
    if (a.external() && figures) append_escaped(out_, " in " + a.member);
    out_ += "</span>";
    if (!profile) {
      out_ += " <span class=\"flag\">unreadable</span>" + std::string(figures ? "</summary>" : "") +
              " <span class=\"bad\">";
      append_escaped(out_, problem);
      out_ += "</span>";
    } else if (figures) {
      out_ += array_flags(*profile) + "</summary>";
      write_array_figures(out_, v.path().empty() ? "/" : v.path(), a, *profile);
    } else {
      ++without_figures_;
      const ArrayStats& s = profile->stats;
      out_ += " <span class=\"s\">";
      if (s.min) {
        append_escaped(out_, stat_text(s.min) + " \xE2\x80\xA6 " + stat_text(s.max) + ", mean " + number_text6(s.mean) +
                                 ", std " + number_text6(s.std));
      } else {
        out_ += std::to_string(s.count) + " values";
      }
      out_ += "</span>" + array_flags(*profile);
    }
    out_ += figures ? "</details></li>\n" : "</li>\n";
    records_.push_back(std::move(record));
  }

  std::string& out_;
  const ZanjFile& file_;
  std::vector<ProfileOptions> plans_;  // per array, in walk order
  bool large_;                         // more than kLargeTree nodes
  /// An item whose end is not written yet: a container's (its children follow), or an
  /// external list's (its rows may follow).
  struct Open {
    std::size_t depth;
    enum { container, list_without_rows, list_rows } what;
    std::size_t children = 0, not_listed = 0;  // children met, and those past kListedChildren
  };
  std::optional<std::size_t> hidden_from_;  // depth of the node not listed that the walk is in
  std::vector<Open> open_;
  std::vector<ArrayRecord> records_;
  const TakenValues& taken_;
  std::size_t without_figures_ = 0;
};

}  // namespace

std::string array_flags(const ArrayProfile& profile) {
  std::string flags;
  const ArrayStats& s = profile.stats;
  if (s.nan) flags += "<span class=\"flag\" title=\"NaN values\">NaN \xC3\x97" + std::to_string(s.nan) + "</span>";
  if (s.pos_inf + s.neg_inf)
    flags += "<span class=\"flag\" title=\"infinite values\">\xC2\xB1Inf \xC3\x97" +
             std::to_string(s.pos_inf + s.neg_inf) + "</span>";
  // A note, not an alarm: freshly initialised biases and buffers are all zero by design.
  if (profile.all_zero()) flags += "<span class=\"note\" title=\"every value is 0\">all zero</span>";
  return flags;
}

void write_array_figures(std::string& out, std::string_view path, const ArrayNode& array, const ArrayProfile& profile) {
  const ArrayStats& s = profile.stats;
  const auto exact = stat_text;
  out +=
      "<div class=\"one\"><table><tr><th>count</th><th>min</th><th>max</th><th>mean</th><th>std</th><th>NaN</th>"
      "<th>Inf</th><th>zeros</th></tr><tr><td>" +
      std::to_string(s.count) + "</td><td>";
  append_escaped(out, exact(s.min));
  out += "</td><td>";
  append_escaped(out, exact(s.max));
  out += "</td><td>" + number_text6(s.mean) + "</td><td>" + number_text6(s.std) + "</td><td>" + std::to_string(s.nan) +
         "</td><td>" + std::to_string(s.pos_inf + s.neg_inf) + "</td><td>" + std::to_string(profile.zeros) +
         "</td></tr></table><div class=\"figs\">";
  const std::string label(path);
  if (const std::string svg = histogram_svg(profile.histogram, "Histogram of the finite values of " + label);
      !svg.empty()) {
    out += "<figure>" + svg + "<figcaption>values (" + std::to_string(profile.histogram.total()) +
           " finite)</figcaption></figure>";
  }
  if (const std::string svg = heatmap_svg(profile.heatmap, "Heatmap thumbnail of " + label); !svg.empty()) {
    out += "<figure>" + svg + "<figcaption>";
    append_escaped(out, heatmap_caption(profile.heatmap, array.shape.size()));
    out += "</figcaption></figure>";
  }
  out += "</div></div>";
}

std::vector<ArrayRecord> write_object_tree(std::string& out, const ZanjFile& file, const ProfileOptions& options,
                                           const TakenValues& taken, const TreeSpill& spill) {
  const bool large = node_count(file) > kLargeTree;
  TreeWriter writer(out, file, options, large, taken);
  out += large ? "<ul class=\"tree large\">\n" : "<ul class=\"tree\">\n";
  walk_rows(file, [&](const TreeVisit& v) {
    writer.visit(v);
    if (spill && out.size() >= kTreePieceBytes) spill(out);
    return true;
  });
  std::vector<ArrayRecord> records = writer.finish();
  out += "</ul>\n";
  if (const std::size_t rest = writer.arrays_without_figures())
    out += "<p class=\"k\">The " + std::to_string(kFigureArrays) + " largest arrays have their figures; the other " +
           std::to_string(rest) + " show their statistics on their line, to keep the page small.</p>\n";
  return records;
}

}  // namespace zanj::report
