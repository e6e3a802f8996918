#pragma once
// The report's pictures, as inline SVG: no script, no external reference, a <title> (the
// accessible name) on each, colours from the page's CSS where the page's dark mode must reach
// them. Labels are user data and are escaped.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/summary.hpp"

namespace zanj::report {

/// Bars of a histogram (rebinned to `bins` columns), its range written under it. Empty when
/// the histogram is.
std::string histogram_svg(const Histogram& histogram, std::string_view title, std::size_t bins = 64);

/// A heatmap thumbnail: cells coloured by value in 9 steps from the smallest to the largest,
/// cells without a finite value in a flag colour. One path per colour, runs of a row merged,
/// so even a 128 x 128 thumbnail stays a few tens of kilobytes. Drawn 128 pixels on its longer
/// side and at least 32 on its shorter (cells stretched), whatever the aspect of the array.
std::string heatmap_svg(const Heatmap& heatmap, std::string_view title);

/// The heatmap's caption: "340000 × 2 (rows × last axis); a cell row averages 2657 rows".
std::string heatmap_caption(const Heatmap& heatmap, std::size_t dimensions);

/// One row of a bar chart: `total` drawn as a light bar, `part` as a dark one over it.
struct Bar {
  std::string label;
  std::uint64_t total = 0, part = 0;
  std::string value_text;  ///< written after the bar
  bool child = false;      ///< a part of the bar above it: drawn thinner, its label indented
};
/// Horizontal bars, longest `total` full width; labels longer than fits are shortened (the
/// whole label is in the bar's tooltip).
std::string bars_svg(const std::vector<Bar>& bars, std::string_view title);

/// The first `max_chars` code points of UTF-8 text, with "…" when cut.
std::string shorten(std::string_view text, std::size_t max_chars);

}  // namespace zanj::report
