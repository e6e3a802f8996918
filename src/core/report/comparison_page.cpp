// comparison_page: what diff_archives finds, drawn. The differences come from the diff core;
// for each array whose values differ, both arrays are streamed once more, side by side as diff
// streams them (diff/element_pairs.hpp), into a histogram of a - b and the ten largest |a - b|
// with their positions.
#include <algorithm>
#include <cmath>
#include <map>
#include <queue>

#include "array/array_reader.hpp"
#include "array/element_numbers.hpp"
#include "diff/element_pairs.hpp"
#include "zanj/report.hpp"
#include "report/html_text.hpp"
#include "report/page_frame.hpp"
#include "report/svg_figures.hpp"
#include "summary/histogram.hpp"

namespace zanj {
namespace {

using report::append_escaped;

constexpr std::size_t kLargest = 10;

struct LargeDifference {
  double abs = 0;
  std::uint64_t index = 0;
  double a = 0, b = 0;
  bool operator>(const LargeDifference& other) const { return abs > other.abs; }
};

/// One side's values in brief, for the a and b columns of the differences table.
struct SideSummary {
  std::uint64_t finite = 0;
  double min = INFINITY, max = -INFINITY, sum = 0;
  void add(double v) {
    if (!std::isfinite(v)) return;
    ++finite;
    min = std::min(min, v);
    max = std::max(max, v);
    sum += v;
  }
};

struct ArrayDifferences {
  Histogram histogram;                   ///< of a - b over the pairs where both are finite
  std::vector<LargeDifference> largest;  ///< largest |a - b| first
  SideSummary side_a, side_b;            ///< every value of each side
  std::string dtype_a, dtype_b;          ///< as saved
  std::vector<std::uint64_t> shape;
  bool compared = false;  ///< false when the values are not both real numbers
};

// The comparison page draws this many arrays' sections (histogram and largest differences); the
// table still lists every difference with both sides' summaries.
constexpr std::size_t kArraySections = 200;

std::optional<ArrayNode> array_at(const ZanjFile& file, const std::string& path) {
  const JsonView node = follow_path(file.root(), split_path(path));
  if (!node) return std::nullopt;
  return classify(node).array;
}

ArrayDifferences array_differences(const ZanjFile& a, const ZanjFile& b, const std::string& path,
                                   const DiffOptions& options) {
  ArrayDifferences result;
  const auto node_a = array_at(a, path), node_b = array_at(b, path);
  if (!node_a || !node_b || node_a->shape != node_b->shape) return result;
  result.dtype_a = node_a->dtype;
  result.dtype_b = node_b->dtype;
  result.shape = node_a->shape;
  const ArrayValues values_a(a.archive(), *node_a, path), values_b(b.archive(), *node_b, path);
  const array::NumberDecoder decode_a = array::number_decoder(array::reader_of(values_a).dtype()),
                             decode_b = array::number_decoder(array::reader_of(values_b).dtype());
  const std::size_t size_a = values_a.item_size(), size_b = values_b.item_size();
  if (!decode_a || !decode_b || size_a == 0 || size_b == 0) return result;
  summary::HistogramAccumulator histogram;
  std::priority_queue<LargeDifference, std::vector<LargeDifference>, std::greater<>> largest;
  bool complex = false;
  diff::detail::stream_element_pairs(values_a, values_b, options.queue_bytes,
                                     [&](const char* pa, const char* pb, std::uint64_t n, std::uint64_t index) {
                                       for (std::uint64_t i = 0; i < n; ++i, pa += size_a, pb += size_b) {
                                         const Number x = decode_a(pa), y = decode_b(pb);
                                         if (x.kind == Number::Kind::complex || y.kind == Number::Kind::complex) {
                                           complex = true;  // no histogram: stop reading
                                           return false;
                                         }
                                         result.side_a.add(x.re);
                                         result.side_b.add(y.re);
                                         // Integers subtract exactly first: two int64 near 2^63 differ by small
                                         // amounts.
                                         const double d =
                                             x.kind == Number::Kind::integer && y.kind == Number::Kind::integer
                                                 ? static_cast<double>(x.integer - y.integer)
                                                 : x.re - y.re;
                                         if (!std::isfinite(d) || d == 0) continue;
                                         histogram.add(d);
                                         if (largest.size() < kLargest || std::fabs(d) > largest.top().abs) {
                                           largest.push({std::fabs(d), index + i, x.re, y.re});
                                           if (largest.size() > kLargest) largest.pop();
                                         }
                                       }
                                       return true;
                                     });
  if (complex) return result;
  result.compared = true;
  result.histogram = histogram.result();
  for (; !largest.empty(); largest.pop()) result.largest.push_back(largest.top());
  std::reverse(result.largest.begin(), result.largest.end());
  return result;
}

std::string position_text(std::uint64_t flat, const std::vector<std::uint64_t>& shape) {
  std::vector<std::uint64_t> index(shape.size());
  for (std::size_t i = shape.size(); i-- > 0;) {
    const std::uint64_t d = shape[i] ? shape[i] : 1;
    index[i] = flat % d;
    flat /= d;
  }
  std::string text = "[";
  for (std::size_t i = 0; i < index.size(); ++i) text += (i ? ", " : "") + std::to_string(index[i]);
  return text + "]";
}

std::string cell(const Json& value) {
  if (value.is_null()) return "-";
  return value.is_string() ? value.as_string() : to_json(value);
}

/// The largest absolute difference as diff --json writes it: exact for integers that fit.
std::string largest_difference_cell(const ValueDifferences& v) {
  if (const std::optional<std::uint64_t> exact = v.max_abs_exact()) return std::to_string(*exact);
  return v.max_abs ? to_json(Json(*v.max_abs)) : "-";
}

/// What one side of a difference holds, for its table cell: the scalar, dtype, shape or
/// description diff gives; for an array whose values differ, its dtype, shape and values in
/// brief; for a list or table, its first differing value.
std::string side_cell(const Difference& d, const Json& side, const ArrayDifferences* array, bool is_a) {
  if (!d.values) return cell(side);
  if (array && !array->dtype_a.empty()) {
    const SideSummary& s = is_a ? array->side_a : array->side_b;
    std::string text = (is_a ? array->dtype_a : array->dtype_b) + " " + shape_text(array->shape);
    if (s.finite)
      text += ": mean " + report::number_text6(s.sum / static_cast<double>(s.finite)) + ", " +
              report::number_text6(s.min) + " \xE2\x80\xA6 " + report::number_text6(s.max);
    else if (array->compared)
      text += ": no finite value";
    return text;
  }
  if (!side.is_null()) return cell(side);
  // diff's "first" reads "A -> B": the first differing value of each side.
  const std::size_t arrow = d.values->first.find(" -> ");
  if (arrow == std::string::npos) return "-";
  return "first differing: " + (is_a ? d.values->first.substr(0, arrow) : d.values->first.substr(arrow + 4));
}

void differences_table(std::string& out, const DiffReport& report,
                       const std::map<std::string, ArrayDifferences>& arrays) {
  out +=
      "<table><tr><th>path</th><th>kind</th><th>a</th><th>b</th><th>differing</th><th>max abs diff</th>"
      "<th>max rel diff</th></tr>\n";
  for (const Difference& d : report.differences) {
    out += "<tr><th class=\"p\">";
    report::append_escaped(out, (d.scope == DiffScope::object ? "" : std::string(diff_scope_name(d.scope)) + ":") +
                                    (d.path.empty() ? "/" : d.path));
    out += "</th><td>";
    report::append_escaped(out, diff_kind_name(d.kind));
    out += "</td><td>";
    const auto found = d.values && d.scope == DiffScope::object ? arrays.find(d.path) : arrays.end();
    const ArrayDifferences* array = found == arrays.end() ? nullptr : &found->second;
    report::append_escaped(out, report::shorten(side_cell(d, d.a, array, true), 80));
    out += "</td><td>";
    report::append_escaped(out, report::shorten(side_cell(d, d.b, array, false), 80));
    out += "</td><td>";
    if (d.values)
      report::append_escaped(out, std::to_string(d.values->differing) + " of " + std::to_string(d.values->compared) +
                                      " " + d.values->unit);
    out += "</td><td>";
    report::append_escaped(out, d.values ? largest_difference_cell(*d.values) : "-");
    out += "</td><td>";
    report::append_escaped(out, d.values && d.values->max_rel ? to_json(Json(*d.values->max_rel)) : "-");
    out += "</td></tr>\n";
  }
  out += "</table>";
}

void changed_subtrees(std::string& out, const DiffReport& report) {
  std::map<std::string, std::uint64_t> groups;
  for (std::size_t depth = 1; depth <= 3; ++depth) {
    groups.clear();
    for (const Difference& d : report.differences) {
      std::size_t end = 0;
      for (std::size_t k = 0; k < depth && end != std::string::npos; ++k) end = d.path.find('/', end ? end + 1 : 0);
      const std::string prefix = end == std::string::npos ? d.path : d.path.substr(0, end);
      ++groups[(d.scope == DiffScope::object ? "" : std::string(diff_scope_name(d.scope)) + ":") +
               (prefix.empty() ? "/" : prefix)];
    }
    if (groups.size() > 1) break;
  }
  std::vector<report::Bar> bars;
  bars.reserve(groups.size());
  for (const auto& [path, count] : groups)
    bars.push_back({path, count, count, std::to_string(count) + (count == 1 ? " difference" : " differences")});
  std::stable_sort(bars.begin(), bars.end(), [](const auto& x, const auto& y) { return x.total > y.total; });
  if (bars.size() > 25) bars.resize(25);
  out += "<figure>" + report::bars_svg(bars, "Differences by subtree") + "</figure>";
}

void array_section(std::string& out, const Difference& d, const ArrayDifferences& diffs) {
  const std::string label = d.path.empty() ? "/" : d.path;
  out += "<section><h3 class=\"p\">";
  report::append_escaped(out, label);
  out += "</h3>";
  if (!diffs.compared) {
    out += "<p>Values are not both real numbers: no histogram.</p></section>\n";
    return;
  }
  out += "<div class=\"arr\"><figure>" + report::histogram_svg(diffs.histogram, "Histogram of a - b for " + label) +
         "<figcaption>a - b where they differ (" + std::to_string(diffs.histogram.total()) +
         " finite differences)</figcaption></figure><table><caption>largest differences</caption>"
         "<tr><th>position</th><th>a</th><th>b</th><th>|a - b|</th></tr>";
  for (const LargeDifference& l : diffs.largest)
    out += "<tr><td>" + position_text(l.index, diffs.shape) + "</td><td>" + report::number_text6(l.a) + "</td><td>" +
           report::number_text6(l.b) + "</td><td>" + report::number_text6(l.abs) + "</td></tr>";
  out += "</table></div></section>\n";
}

}  // namespace

std::string comparison_page(const ZanjFile& a, const ZanjFile& b, const DiffOptions& options) {
  const DiffReport report = diff_archives(a, b, options);
  std::string out;
  const std::string title = "zanj report: " + a.name() + " vs " + b.name();
  report::open_page(out, title, title);
  out += "<main><section id=\"summary\"><h2>Summary</h2><p class=\"";
  const std::size_t n = report.differences.size();
  out += report.equal() ? "ok\">equal" : "bad\">" + std::to_string(n) + (n == 1 ? " difference" : " differences");
  out += "</p><dl><dt>a</dt><dd class=\"p\">";
  report::append_escaped(out, a.name());
  out += "</dd><dt>b</dt><dd class=\"p\">";
  report::append_escaped(out, b.name());
  out += "</dd><dt>nodes compared</dt><dd>" + std::to_string(report.nodes_compared) +
         "</dd><dt>elements compared</dt><dd>" + std::to_string(report.elements_compared) + "</dd></dl></section>\n";
  if (!report.equal()) {
    // Each array whose values differ is streamed once more, side by side: its histogram of
    // a - b and largest differences for its section (the first kArraySections of them), and
    // both sides' summaries for the table.
    std::map<std::string, ArrayDifferences> arrays;
    std::vector<const Difference*> array_diffs;
    for (const Difference& d : report.differences) {
      if (d.kind != DiffKind::array_values || d.scope != DiffScope::object) continue;
      ArrayDifferences diffs = array_differences(a, b, d.path, options);
      if (array_diffs.size() >= kArraySections) diffs.histogram = {}, diffs.largest.clear();
      arrays.emplace(d.path, std::move(diffs));
      array_diffs.push_back(&d);
    }
    out += "<section id=\"subtrees\"><h2>Changed subtrees</h2>";
    changed_subtrees(out, report);
    out += "</section>\n<section id=\"differences\"><h2>Differences</h2>";
    differences_table(out, report, arrays);
    out += "</section>\n<section id=\"arrays\"><h2>Arrays whose values differ</h2>";
    for (std::size_t i = 0; i < array_diffs.size() && i < kArraySections; ++i)
      array_section(out, *array_diffs[i], arrays.at(array_diffs[i]->path));
    if (array_diffs.empty()) out += "<p>None.</p>";
    if (array_diffs.size() > kArraySections)
      out += "<p class=\"k\">and " + std::to_string(array_diffs.size() - kArraySections) +
             " more arrays whose values differ (in the table above).</p>";
    out += "</section>\n";
  }
  out += "</main>\n";
  report::close_page(out);
  return out;
}

}  // namespace zanj
