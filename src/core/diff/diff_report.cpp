// How differences are shown: one line each, like `h5diff -v`, or one JSON object each.
#include <cmath>

#include "diff/diff_walker.hpp"
#include "zanj/diff.hpp"
#include "array/value_compare.hpp"

namespace zanj {

std::string_view diff_kind_name(DiffKind kind) {
  switch (kind) {
    case DiffKind::added:
      return "added";
    case DiffKind::removed:
      return "removed";
    case DiffKind::kind_changed:
      return "kind_changed";
    case DiffKind::value_changed:
      return "value_changed";
    case DiffKind::dtype_changed:
      return "dtype_changed";
    case DiffKind::shape_changed:
      return "shape_changed";
    case DiffKind::length_changed:
      return "length_changed";
    case DiffKind::columns_changed:
      return "columns_changed";
    case DiffKind::array_values:
      return "array_values";
    case DiffKind::list_items:
      return "list_items";
    case DiffKind::table_rows:
      return "table_rows";
    case DiffKind::storage_changed:
      return "storage_changed";
  }
  return "value_changed";
}

std::string_view diff_scope_name(DiffScope scope) {
  switch (scope) {
    case DiffScope::object:
      return "object";
    case DiffScope::meta:
      return "meta";
    case DiffScope::archive:
      return "archive";
  }
  return "object";
}

namespace {

/// Descriptions and dtypes print as they are; values, shapes and lists as JSON.
std::string side_text(const Json& side) { return side.is_string() ? side.as_string() : diff::detail::preview(side); }

std::string real_text(double value) {
  std::string out;
  write_json_double(out, value);
  return out;
}

/// " (abs diff 0.5, rel diff 0.25)" for two numbers, "" otherwise.
std::string scalar_deltas(const Json& a, const Json& b) {
  const auto x = array::json_number(a), y = array::json_number(b);
  if (!x || !y) return "";
  const array::PairResult r = array::compare_numbers(*x, *y, {}, true);
  if (!r.abs_diff) return "";
  return " (abs diff " + real_text(*r.abs_diff) + ", rel diff " + real_text(*r.rel_diff) + ")";
}

/// An exact integer difference as digits, else the double as Python prints it.
std::string max_abs_text(const ValueDifferences& v) {
  return v.max_abs_integer ? number_text(Number::from_integer(*v.max_abs_integer)) : real_text(*v.max_abs);
}

std::string values_text(const ValueDifferences& v, bool with_first) {
  std::string out = std::to_string(v.differing) + " of " + std::to_string(v.compared) + " " + v.unit + " differ";
  std::vector<std::string> details;
  // A maximum is shown only where it is a difference itself; NaN against NaN has no distance,
  // so then the first difference is shown instead.
  const bool show_abs = v.max_abs && v.max_abs_differs, show_rel = v.max_rel && v.max_rel_differs;
  if ((with_first || (!show_abs && !show_rel)) && !v.first.empty())
    details.push_back("first at " + to_json(v.first_at) + ": " + v.first);
  std::string extremes;
  if (show_abs) extremes = "max abs diff " + max_abs_text(v) + " at " + to_json(v.max_abs_at);
  if (show_rel)
    extremes +=
        (extremes.empty() ? "" : ", ") + ("max rel diff " + real_text(*v.max_rel) + " at " + to_json(v.max_rel_at));
  if (!extremes.empty()) details.push_back(extremes);
  for (std::size_t i = 0; i < details.size(); ++i) out += (i ? "; " : " (") + details[i];
  return details.empty() ? out : out + ")";
}

}  // namespace

std::string difference_text(const Difference& d) {
  std::string out = d.scope == DiffScope::object ? "" : std::string(diff_scope_name(d.scope)) + ":";
  out += d.path.empty() && d.scope != DiffScope::archive ? "/" : d.path;
  out += ": ";
  const std::string a = side_text(d.a), b = side_text(d.b);
  switch (d.kind) {
    case DiffKind::added:
      return out + "added (" + b + ")";
    case DiffKind::removed:
      return out + "removed (" + a + ")";
    case DiffKind::value_changed:
      return out + "value changed: " + diff::detail::preview(d.a) + " -> " + diff::detail::preview(d.b) +
             scalar_deltas(d.a, d.b);
    case DiffKind::array_values:
    case DiffKind::list_items:
    case DiffKind::table_rows:
      return out + (d.values ? values_text(*d.values, d.kind != DiffKind::array_values) : "values differ");
    default: {
      std::string what(diff_kind_name(d.kind));
      what.replace(what.find('_'), 1, " ");
      return out + what + ": " + a + " -> " + b;
    }
  }
}

}  // namespace zanj
