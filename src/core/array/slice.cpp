#include "zanj/array.hpp"

#include <algorithm>
#include <charconv>
#include <limits>

#include "zanj/error.hpp"

namespace zanj {
namespace {

[[noreturn]] void bad_slice(std::string_view text, const std::string& why) {
  throw Error("bad slice '" + std::string(text) + "': " + why, Exit::usage);
}

std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::int64_t parse_integer(std::string_view part, std::string_view text) {
  std::string_view digits = part;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  std::int64_t value = 0;
  const auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc() || ptr != digits.data() + digits.size())
    bad_slice(text, "'" + std::string(part) + "' is not an integer");
  return value;
}

SliceItem parse_item(std::string_view item, std::string_view text) {
  SliceItem out;
  if (item == "...") {
    out.kind = SliceItem::Kind::ellipsis;
    return out;
  }
  if (item.find(':') == std::string_view::npos) {
    out.kind = SliceItem::Kind::index;
    out.index = parse_integer(item, text);
    return out;
  }
  std::optional<std::int64_t>* parts[] = {&out.start, &out.stop, &out.step};
  std::size_t n = 0;
  for (;;) {
    const std::size_t colon = item.find(':');
    if (n == 3) bad_slice(text, "a range has at most two ':'");
    const std::string_view part = trim_blanks(item.substr(0, colon));
    if (!part.empty()) *parts[n] = parse_integer(part, text);
    ++n;
    if (colon == std::string_view::npos) break;
    item.remove_prefix(colon + 1);
  }
  if (out.step && *out.step == 0) bad_slice(text, "the step cannot be zero");
  return out;
}

/// numpy's (Python's slice.indices) rules for one range over an axis of length n.
Segment resolve_range(const SliceItem& item, std::int64_t n) {
  const std::int64_t step = item.step.value_or(1);
  const std::int64_t lower = step > 0 ? 0 : -1;
  const std::int64_t upper = step > 0 ? n : n - 1;
  auto bound = [&](const std::optional<std::int64_t>& v, std::int64_t fallback) {
    if (!v) return fallback;
    if (*v < 0) return std::max(*v + n, lower);
    return std::min(*v, upper);
  };
  const std::int64_t start = bound(item.start, step > 0 ? lower : upper);
  const std::int64_t stop = bound(item.stop, step > 0 ? upper : lower);
  const std::int64_t span = step > 0 ? stop - start : start - stop;
  const std::int64_t stride = step > 0 ? step : -step;  // parse_slice refuses INT64_MIN
  std::uint64_t count = 0;
  if (span > 0) count = static_cast<std::uint64_t>(span / stride + (span % stride != 0));
  return Segment{count ? static_cast<std::uint64_t>(start) : 0, step, count};
}

}  // namespace

bool SliceSpec::needs_length() const {
  for (const auto& item : items) {
    if (item.kind == SliceItem::Kind::index && item.index < 0) return true;
    if (item.kind != SliceItem::Kind::range) continue;
    if ((item.start && *item.start < 0) || (item.stop && *item.stop < 0) || (item.step && *item.step < 0)) return true;
  }
  return false;
}

SliceSpec parse_slice(std::string_view text) {
  SliceSpec spec;
  spec.text = std::string(text);
  const std::string_view body = trim_blanks(text);
  if (body.size() < 2 || body.front() != '[' || body.back() != ']') bad_slice(text, "write it as [...] after the path");
  std::string_view rest = body.substr(1, body.size() - 2);
  if (trim_blanks(rest).empty()) bad_slice(text, "nothing between the brackets");
  bool ellipsis = false;
  for (;;) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = trim_blanks(rest.substr(0, comma));
    if (item.empty()) bad_slice(text, "an empty index between commas");
    SliceItem parsed = parse_item(item, text);
    if (parsed.kind == SliceItem::Kind::ellipsis) {
      if (ellipsis) bad_slice(text, "at most one '...'");
      ellipsis = true;
    }
    if (parsed.step && *parsed.step == std::numeric_limits<std::int64_t>::min())
      bad_slice(text, "the step is too large");
    spec.items.push_back(parsed);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return spec;
}

std::uint64_t AxisSelection::count() const {
  std::uint64_t n = 0;
  for (const auto& s : segments) n += s.count;
  return n;
}

std::vector<std::uint64_t> Selection::shape() const {
  std::vector<std::uint64_t> out;
  for (const auto& a : axes)
    if (a.kept) out.push_back(a.count());
  return out;
}

std::uint64_t Selection::count() const {
  std::uint64_t n = 1;
  for (const auto& a : axes) n *= a.count();  // never more than the source's element count
  return n;
}

bool Selection::ascending() const {
  for (const auto& a : axes) {
    std::optional<std::uint64_t> last;
    for (const auto& s : a.segments) {
      if (s.count == 0) continue;
      if (s.count > 1 && s.step < 0) return false;
      if (last && s.start <= *last) return false;
      last = s.at(s.count - 1);
    }
  }
  return true;
}

bool Selection::everything() const {
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const auto& a = axes[k];
    if (!a.kept || a.segments.size() != 1 || a.segments[0] != Segment{0, 1, source_shape[k]}) return false;
  }
  return true;
}

Selection select_all(const std::vector<std::uint64_t>& shape) {
  Selection s;
  s.source_shape = shape;
  for (auto d : shape) s.axes.push_back(AxisSelection{{Segment{0, 1, d}}, true});
  return s;
}

Selection select(const SliceSpec& spec, const std::vector<std::uint64_t>& shape) {
  Selection out = select_all(shape);
  if (spec.items.empty()) return out;
  std::size_t explicit_axes = 0;
  for (const auto& item : spec.items) explicit_axes += item.kind != SliceItem::Kind::ellipsis;
  if (explicit_axes > shape.size())
    throw Error("slice " + spec.text + " has " + std::to_string(explicit_axes) + " indices but the array has " +
                    std::to_string(shape.size()) + " dimension" + (shape.size() == 1 ? "" : "s") + " (shape " +
                    shape_text(shape) + ")",
                Exit::usage);
  std::size_t axis = 0;
  for (const auto& item : spec.items) {
    if (item.kind == SliceItem::Kind::ellipsis) {
      axis += shape.size() - explicit_axes;  // those axes stay whole
      continue;
    }
    if (shape[axis] > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      throw Error("axis " + std::to_string(axis) + " is too long to slice", Exit::usage);
    const auto n = static_cast<std::int64_t>(shape[axis]);
    AxisSelection& a = out.axes[axis];
    if (item.kind == SliceItem::Kind::index) {
      const std::int64_t i = item.index < 0 ? item.index + n : item.index;
      if (i < 0 || i >= n)
        throw Error("index " + std::to_string(item.index) + " is out of range for axis " + std::to_string(axis) +
                        " with size " + std::to_string(n) + " (shape " + shape_text(shape) + ")",
                    Exit::usage);
      a.segments = {Segment{static_cast<std::uint64_t>(i), 1, 1}};
      a.kept = false;
    } else {
      a.segments = {resolve_range(item, n)};
    }
    ++axis;
  }
  return out;
}

Selection summarize(const Selection& selection, std::uint64_t edge_items) {
  Selection out = selection;
  for (auto& a : out.axes) {
    if (!a.kept || a.segments.size() != 1 || a.segments[0].count <= 2 * edge_items) continue;
    const Segment s = a.segments[0];
    const Segment tail{s.at(s.count - edge_items), s.step, edge_items};
    a.segments = {Segment{s.start, s.step, edge_items}, tail};
  }
  return out;
}

namespace {
AxisSelection& first_kept_axis(Selection& s, std::string_view what) {
  for (auto& a : s.axes)
    if (a.kept) {
      if (a.segments.size() != 1) throw Error("internal: " + std::string(what) + " of a summarized selection");
      return a;
    }
  throw Error(std::string(what) + " needs at least one dimension, and the selection is a single value", Exit::usage);
}
}  // namespace

Selection take_head(const Selection& selection, std::uint64_t n) {
  Selection out = selection;
  Segment& s = first_kept_axis(out, "--head").segments[0];
  s.count = std::min(s.count, n);
  return out;
}

Selection take_tail(const Selection& selection, std::uint64_t n) {
  Selection out = selection;
  Segment& s = first_kept_axis(out, "--tail").segments[0];
  const std::uint64_t m = std::min(s.count, n);
  if (m > 0) s.start = s.at(s.count - m);
  s.count = m;
  return out;
}

}  // namespace zanj
