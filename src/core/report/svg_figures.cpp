#include "report/svg_figures.hpp"

#include <algorithm>
#include <cmath>

#include "report/html_text.hpp"

namespace zanj::report {
namespace {

// Sequential colours (dark blue to yellow) that read on light and dark backgrounds alike.
constexpr const char* kLevels[] = {"#30123b", "#4145ab", "#4675ed", "#39a2fc", "#1bcfd4",
                                   "#24eca6", "#61fc6c", "#a4fc3b", "#f9ba38"};
constexpr int kLevelCount = 9;

void open_svg(std::string& out, int width, int height, std::string_view title, std::string_view view_box = {},
              std::string_view attributes = {}) {
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" ";
  out += attributes;
  out += "role=\"img\" width=\"" + std::to_string(width) + "\" height=\"" + std::to_string(height) + "\" viewBox=\"";
  out += view_box.empty() ? "0 0 " + std::to_string(width) + " " + std::to_string(height) : std::string(view_box);
  out += "\"><title>";
  append_escaped(out, title);
  out += "</title>";
}

}  // namespace

std::string shorten(std::string_view text, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;
    if (chars++ == max_chars) return std::string(text.substr(0, i)) + "\xE2\x80\xA6";
  }
  return std::string(text);
}

std::string histogram_svg(const Histogram& histogram, std::string_view title, std::size_t bins) {
  const Histogram h = rebin(histogram, bins);
  if (h.counts.empty()) return "";
  constexpr int kWidth = 256, kBars = 64, kHeight = 80;
  const std::uint64_t top = *std::max_element(h.counts.begin(), h.counts.end());
  const double step = static_cast<double>(kWidth) / static_cast<double>(h.counts.size());
  std::string out;
  open_svg(out, kWidth, kHeight + 14, title);
  out += "<path class=\"bar\" d=\"";
  char buf[96];
  for (std::size_t i = 0; i < h.counts.size(); ++i) {
    if (h.counts[i] == 0) continue;
    // At least one pixel for a non-empty bin: a lone outlier must stay visible.
    const double height = std::max(1.0, static_cast<double>(h.counts[i]) * kBars / static_cast<double>(top));
    std::snprintf(buf, sizeof buf, "M%.1f %dh%.1fv%.1fh%.1fz", step * static_cast<double>(i), kHeight,
                  std::max(step, 0.6), -height, -std::max(step, 0.6));
    out += buf;
  }
  out += "\"/><text class=\"axis\" x=\"0\" y=\"" + std::to_string(kHeight + 12) + "\">";
  append_escaped(out, number_text6(h.min));
  out += "</text><text class=\"axis\" x=\"" + std::to_string(kWidth) + "\" y=\"" + std::to_string(kHeight + 12) +
         "\" text-anchor=\"end\">";
  append_escaped(out, number_text6(h.max));
  out += "</text></svg>";
  return out;
}

std::string heatmap_svg(const Heatmap& heatmap, std::string_view title) {
  if (heatmap.cells.empty()) return "";
  double lo = INFINITY, hi = -INFINITY;
  for (const double v : heatmap.cells)
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  // Level of each cell: 0..8, or kLevelCount for a cell without a finite value.
  std::vector<std::string> paths(kLevelCount + 1);
  for (std::size_t r = 0; r < heatmap.rows; ++r) {
    for (std::size_t c = 0; c < heatmap.cols;) {
      const auto level = [&](std::size_t col) {
        const double v = heatmap.cells[r * heatmap.cols + col];
        if (!std::isfinite(v)) return kLevelCount;
        if (hi <= lo) return kLevelCount / 2;
        // Cells of -1e308 and 1e308 are 2e308 apart, which overflows to infinity and made the
        // fraction NaN (and the level an index out of range). Then the halves are compared:
        // halving is exact there, and their difference cannot overflow.
        const double span = hi - lo;
        const double fraction = std::isfinite(span) ? (v - lo) / span : (v / 2 - lo / 2) / (hi / 2 - lo / 2);
        return std::min(kLevelCount - 1, static_cast<int>(fraction * kLevelCount));
      };
      const int l = level(c);
      std::size_t run = 1;
      while (c + run < heatmap.cols && level(c + run) == l) ++run;
      paths[static_cast<std::size_t>(l)] += "M" + std::to_string(c) + " " + std::to_string(r) + "h" +
                                            std::to_string(run) + "v1h-" + std::to_string(run) + "z";
      c += run;
    }
  }
  // The longer side is 128 pixels, the shorter at least a quarter of that: a tall array of two
  // columns is drawn as two wide stripes, not as a sliver one pixel wide.
  constexpr int kSide = 128, kShortestSide = kSide / 4;
  const double scale = static_cast<double>(kSide) / static_cast<double>(std::max(heatmap.rows, heatmap.cols));
  const int width = std::max(kShortestSide, static_cast<int>(std::lround(static_cast<double>(heatmap.cols) * scale)));
  const int height = std::max(kShortestSide, static_cast<int>(std::lround(static_cast<double>(heatmap.rows) * scale)));
  std::string out;
  open_svg(out, width, height, title, "0 0 " + std::to_string(heatmap.cols) + " " + std::to_string(heatmap.rows),
           "preserveAspectRatio=\"none\" shape-rendering=\"crispEdges\" ");
  for (int l = 0; l <= kLevelCount; ++l) {
    if (paths[static_cast<std::size_t>(l)].empty()) continue;
    out += "<path fill=\"";
    out += l == kLevelCount ? "#e8175d" : kLevels[l];
    out += "\" d=\"" + paths[static_cast<std::size_t>(l)] + "\"/>";
  }
  out += "</svg>";
  return out;
}

std::string heatmap_caption(const Heatmap& heatmap, std::size_t dimensions) {
  std::string text = std::to_string(heatmap.source_rows) + " \xC3\x97 " + std::to_string(heatmap.source_cols) +
                     (dimensions > 2 ? " (rows \xC3\x97 last axis)" : "");
  // How much of the array one cell stands for, when the thumbnail is smaller than the array.
  const auto per_cell = [](std::uint64_t source, std::size_t cells, const char* what) {
    if (cells == 0 || source <= cells) return std::string();
    const bool exact = source % cells == 0;
    return std::string(exact ? "" : "about ") + std::to_string((source + cells / 2) / cells) + " " + what;
  };
  const std::string rows = per_cell(heatmap.source_rows, heatmap.rows, "rows");
  const std::string cols = per_cell(heatmap.source_cols, heatmap.cols, "columns");
  if (!rows.empty() || !cols.empty())
    text += "; a cell averages " + rows + (rows.empty() || cols.empty() ? "" : " by ") + cols;
  return text;
}

std::string bars_svg(const std::vector<Bar>& bars, std::string_view title) {
  if (bars.empty()) return "";
  constexpr int kWidth = 800, kLabel = 260, kBarWidth = 340, kRow = 20;
  std::uint64_t top = 0;
  for (const Bar& b : bars) top = std::max(top, b.total);
  std::string out;
  open_svg(out, kWidth, kRow * static_cast<int>(bars.size()) + 4, title);
  char buf[128];
  int y = 2;
  for (const Bar& b : bars) {
    const auto length = [&](std::uint64_t v) {
      return top ? std::max(v ? 1.0 : 0.0, static_cast<double>(v) * kBarWidth / static_cast<double>(top)) : 0.0;
    };
    // A child's bar is thinner, its label marked as under the parent's.
    const int bar_y = b.child ? y + 4 : y, bar_height = b.child ? 9 : 16;
    out += b.child ? "<g class=\"sub\"><title>" : "<g><title>";
    append_escaped(out, b.label + ": " + b.value_text);
    out += "</title><text class=\"label\" x=\"" + std::to_string(kLabel - 6) + "\" y=\"" + std::to_string(y + 14) +
           "\" text-anchor=\"end\">";
    append_escaped(out, b.child ? "\xE2\x94\x94 " + shorten(b.label, 30) : shorten(b.label, 36));
    std::snprintf(buf, sizeof buf, "</text><rect class=\"total\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>",
                  kLabel, bar_y, length(b.total), bar_height);
    out += buf;
    std::snprintf(buf, sizeof buf, "<rect class=\"part\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\"/>", kLabel,
                  bar_y, length(b.part), bar_height);
    out += buf;
    out += "<text class=\"label\" x=\"" + std::to_string(kLabel + kBarWidth + 6) + "\" y=\"" + std::to_string(y + 14) +
           "\">";
    append_escaped(out, b.value_text);
    out += "</text></g>";
    y += kRow;
  }
  out += "</svg>";
  return out;
}

}  // namespace zanj::report
