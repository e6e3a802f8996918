#include <doctest/doctest.h>

#include <limits>

#include "report/svg_figures.hpp"

using namespace zanj;
using namespace zanj::report;

TEST_SUITE("svg_figures") {
  TEST_CASE("histogram: one path of bars, range labels, escaped title") {
    Histogram h{0, 4, {1, 0, 3, 2}};
    const std::string svg = histogram_svg(h, "<b>w</b>");
    CHECK(svg.starts_with("<svg"));
    CHECK(svg.find("<title>&lt;b&gt;w&lt;/b&gt;</title>") != std::string::npos);
    CHECK(svg.find("<path class=\"bar\"") != std::string::npos);
    CHECK(histogram_svg(Histogram{}, "x").empty());
  }
  TEST_CASE("heatmap: runs merged, non-finite cells flagged") {
    Heatmap h;
    h.rows = 2;
    h.cols = 2;
    h.cells = {1, 1, 2, std::numeric_limits<double>::quiet_NaN()};
    const std::string svg = heatmap_svg(h, "t");
    CHECK(svg.find("M0 0h2v1h-2z") != std::string::npos);
    CHECK(svg.find("#e8175d") != std::string::npos);
    CHECK(heatmap_svg(Heatmap{}, "t").empty());
  }
  TEST_CASE("heatmap whose cells span more than the largest double: the lowest and highest colours") {
    // -1e308 to 1e308: the span overflows to infinity, which once made every level NaN.
    Heatmap h;
    h.rows = 1;
    h.cols = 3;
    h.cells = {-1e308, 0, 1e308};
    const std::string svg = heatmap_svg(h, "t");
    CHECK(svg.find("<path fill=\"#30123b\" d=\"M0 0h1v1h-1z\"/>") != std::string::npos);  // the lowest level
    CHECK(svg.find("<path fill=\"#1bcfd4\" d=\"M1 0h1v1h-1z\"/>") != std::string::npos);  // the middle
    CHECK(svg.find("<path fill=\"#f9ba38\" d=\"M2 0h1v1h-1z\"/>") != std::string::npos);  // the highest
    CHECK(svg.find("#e8175d") == std::string::npos);  // no cell is taken for a non-finite one
  }
  TEST_CASE("heatmap of a tall array: a readable aspect, and a caption that says what a cell holds") {
    Heatmap h;
    h.rows = 128;
    h.cols = 2;
    h.source_rows = 340000;
    h.source_cols = 2;
    h.cells.assign(256, 1.0);
    const std::string svg = heatmap_svg(h, "t");
    CHECK(svg.find("width=\"32\" height=\"128\"") != std::string::npos);
    CHECK(heatmap_caption(h, 3) == "340000 \xC3\x97 2 (rows \xC3\x97 last axis); a cell averages about 2656 rows");
    h.source_rows = 128;
    CHECK(heatmap_caption(h, 2) == "128 \xC3\x97 2");
    h.rows = 16;
    h.cols = 16;
    h.source_rows = 32;
    h.source_cols = 64;
    CHECK(heatmap_caption(h, 2) == "32 \xC3\x97 64; a cell averages 2 rows by 4 columns");
  }
  TEST_CASE("bars: a child's bar is thinner and marked as under its parent") {
    const std::string svg = bars_svg({{"p", 10, 5, "10 B"}, {"c", 4, 2, "4 B", true}}, "t");
    CHECK(svg.find("<g class=\"sub\">") != std::string::npos);
    CHECK(svg.find("height=\"9\"") != std::string::npos);
    CHECK(svg.find("\xE2\x94\x94 c") != std::string::npos);
  }
  TEST_CASE("bars: labels escaped and shortened, full label in the tooltip") {
    const std::string label = "<script>" + std::string(100, 'x');
    const std::string svg = bars_svg({{label, 10, 5, "10 B"}, {"b", 5, 0, "5 B"}}, "sizes");
    CHECK(svg.find("<script>") == std::string::npos);
    CHECK(svg.find("&lt;script&gt;" + std::string(100, 'x')) != std::string::npos);
    CHECK(shorten("abcdef", 3) == "abc\xE2\x80\xA6");
    CHECK(shorten("\xD7\xA9\xD7\x9C", 1) == "\xD7\xA9\xE2\x80\xA6");
    CHECK(shorten("ab", 3) == "ab");
  }
}
